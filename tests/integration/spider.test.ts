/**
 * The crawler (issue 16; DESIGN §8 "Crawler"; spec 002 §7 spider/task): tasks configured through
 * saveConfigData (a bad configuration refused with its message, nothing stored), crawled by the
 * `spider-crawl` job against a local site on 127.0.0.1 (tests/integration/spider-site.ts): list rows and detail
 * rows extracted exactly, the robots.txt-forbidden path never fetched, the 500 page logged as an error, no
 * request to another host; pause and resume continue without fetching a page twice or storing a row twice;
 * stop stops; copy; viewData / viewLogData paged; another tenant sees nothing; a user without the menu gets
 * 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';
import { startSite, type Site } from './spider-site.js';

let s: TestServer;
let site: Site;
let admin: Session;
let kygl: Session;
let other: Session;
const TAG = `sp${Date.now().toString(36)}`;
const T = '/api/spider/task';

function config(extra: Json = {}): Json {
  const b = site.base.replace(/\./g, '\\.');
  return {
    startUrls: [`${site.base}/list?page=1`],
    linkPatterns: [`^${b}/detail/\\d+$`, `^${b}/(private/|error500|slow)`],
    nextPageSelector: 'a.next',
    rules: [
      { name: 'list', urlPattern: '/list\\?', rowSelector: 'li.item', fields: [
        { name: 'title', selector: 'a', process: ['trim'], required: true },
        { name: 'price', selector: '.price', process: ['number'] },
        { name: 'link', selector: 'a', attr: 'href', process: ['absoluteUrl'] },
      ] },
      { name: 'detail', urlPattern: '/(detail/\\d+|slow)$', fields: [
        { name: 'title', selector: 'h1', process: ['trim'] },
        { name: 'body', selector: '.body', process: ['collapse'] },
      ] },
    ],
    maxPages: 100,
    maxDepth: 3,
    concurrency: 2,
    ...extra,
  };
}

async function newTask(name: string, cfg: Json | null = config()): Promise<string> {
  const r = await call(s, admin, 'POST', `${T}/submit`, { name: `${TAG} ${name}` });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const id = r.body.data.id as string;
  if (cfg) {
    const c = await call(s, admin, 'POST', `${T}/saveConfigData?id=${id}`, cfg);
    expect(c.status, JSON.stringify(c.body)).toBe(200);
  }
  return id;
}

async function waitFor(id: string, done: (st: Json) => boolean, ms = 25_000): Promise<Json> {
  const until = Date.now() + ms;
  for (;;) {
    const r = await call(s, admin, 'GET', `${T}/getExecuteStatus?id=${id}`);
    expect(r.status).toBe(200);
    if (done(r.body.data)) return r.body.data;
    if (Date.now() > until) {
      const job = r.body.data.jobId ? (await call(s, admin, 'GET', `/api/blade-job/job/detail?id=${r.body.data.jobId}`)).body.data : null;
      throw new Error(`task ${id}: ${JSON.stringify(r.body.data)} job ${JSON.stringify(job)}`);
    }
    await new Promise((res) => setTimeout(res, 150));
  }
}

async function allData(id: string): Promise<Json[]> {
  const out: Json[] = [];
  for (let current = 1; ; current++) {
    const r = await call(s, admin, 'GET', `${T}/viewData?id=${id}&current=${current}&size=7`);
    expect(r.status).toBe(200);
    out.push(...r.body.data.records);
    if (current >= r.body.data.pages) return out;
  }
}

const EXPECTED_LIST = Array.from({ length: 9 }, (_, i) => i + 1).map((k) => ({ title: `通知 ${k}`, price: Number(`120${k}.5`) }));

beforeAll(async () => {
  site = await startSite();
  s = await testServer();
  [admin, kygl, other] = await Promise.all([login(s, 'admin'), login(s, 'kygl'), login(s, 'admin', { tenantId: '100001' })]);
});
afterAll(async () => {
  await s?.close();
  await site?.close();
});

describe('spider: configuration', () => {
  it('refuses a bad configuration with its message and stores nothing', async () => {
    const id = await newTask('bad', null);
    const cases: Array<[Json, string]> = [
      [{ ...config(), startUrls: ['ftp://127.0.0.1/x'] }, '请填写 1 至 50 个以 http:// 或 https:// 开头的起始地址'],
      [{ ...config(), rules: [] }, '请至少配置一条页面规则，每条规则须有名称、地址匹配和字段'],
      [{ ...config(), linkPatterns: ['(unclosed'] }, '正则表达式不正确：(unclosed'],
      [{ ...config(), nextPageSelector: 'a[[' }, 'CSS 选择器不正确：a[['],
      [{ ...config(), maxPages: 0 }, '采集限制超出范围（最大页数 1–100000，深度 0–20，并发 1–20，间隔 0–60000 毫秒，超时 1–300 秒）'],
      [{ ...config(), rules: [{ name: 'x', urlPattern: '.', fields: [{ name: '1bad' }] }] }, '字段须有名称（字母、数字、下划线，不超过 64 个字符）'],
      [{ ...config(), rules: [{ name: 'x', urlPattern: '.', fields: [{ name: 't', xpath: '//a[' }] }] }, 'XPath 表达式不正确：//a['],
      [{ ...config(), rules: [{ name: 'x', urlPattern: '.', fields: [{ name: 't', selector: 'a', xpath: '//a' }] }] }, 'CSS 选择器与 XPath 只能填写其中一个：t'],
      [{ ...config(), rules: [{ name: 'r', urlPattern: '.', rowSelector: 'li', rowXPath: '//li', fields: [{ name: 't' }] }] }, 'CSS 选择器与 XPath 只能填写其中一个：r'],
    ];
    for (const [cfg, msg] of cases) {
      const r = await call(s, admin, 'POST', `${T}/saveConfigData?id=${id}`, cfg);
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe(msg);
    }
    const text = await call(s, admin, 'POST', `${T}/saveConfigData?id=${id}`, { configJson: '{not json' });
    expect(text.status).toBe(400);
    expect(text.body.msg).toBe('采集配置格式不正确');
    expect(await countRows(s, 'spider_task', 'id = $1 AND config_data IS NULL', [id])).toBe(1);
    const start = await call(s, admin, 'GET', `${T}/start?id=${id}`);
    expect(start.status).toBe(400);
    expect(start.body.msg).toBe('请先配置采集规则');
    expect((await call(s, admin, 'GET', `${T}/getConfigData?id=${id}`)).body.data).toEqual({ config: null, configJson: '' });
  });

  it('stores a good configuration with its defaults and answers it as text too', async () => {
    const id = await newTask('good', null);
    const r = await call(s, admin, 'POST', `${T}/saveConfigData?id=${id}`, { configJson: JSON.stringify(config()) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const g = (await call(s, admin, 'GET', `${T}/getConfigData?id=${id}`)).body.data;
    expect(g.config).toMatchObject({ maxPages: 100, respectRobotsTxt: true, delayMs: 0, linkSelector: 'a[href]', useBrowser: false });
    expect(JSON.parse(g.configJson)).toEqual(g.config);
    // the form's values: cleared texts ('') and untouched choices (null) mean "not given"
    const form = { ...config(), nextPageSelector: '', browserId: null, userAgent: '', linkPatterns: [''],
      rules: [{ name: 'list', urlPattern: '/list\\?', rowSelector: 'li.item', rowXPath: '', fields: [{ name: 'title', selector: 'a', xpath: '', attr: '', pattern: '', process: ['trim'], required: null }] }] };
    const f = await call(s, admin, 'POST', `${T}/saveConfigData?id=${id}`, form);
    expect(f.status, JSON.stringify(f.body)).toBe(200);
    const stored = (await call(s, admin, 'GET', `${T}/getConfigData?id=${id}`)).body.data.config;
    expect(stored).not.toHaveProperty('nextPageSelector');
    expect(stored).not.toHaveProperty('browserId');
    expect(stored.linkPatterns).toEqual([]);
    expect(stored.rules).toEqual([{ name: 'list', urlPattern: '/list\\?', rowSelector: 'li.item', fields: [{ name: 'title', selector: 'a', process: ['trim'] }] }]);
  });
});

describe('spider: crawling the local site', () => {
  it('extracts the rows exactly, respects robots.txt, logs the 500 page and never leaves 127.0.0.1', async () => {
    site.hits.clear();
    const id = await newTask('full');
    const st = await call(s, admin, 'GET', `${T}/start?id=${id}`);
    expect(st.status, JSON.stringify(st.body)).toBe(200);
    const end = await waitFor(id, (x) => x.taskStatus !== 1);
    expect(end).toMatchObject({ taskStatus: 4, progress: 100, rowsCount: 19, errorCount: 1, pending: 0 });
    const rows = await allData(id);
    expect(rows).toHaveLength(19);
    const listRows = rows.filter((r) => r.price !== undefined).map((r) => ({ title: r.title, price: r.price })).sort((a, b) => a.title.localeCompare(b.title));
    expect(listRows).toEqual(EXPECTED_LIST);
    expect(rows.filter((r) => r.price !== undefined).map((r) => r.link).sort()).toEqual(Array.from({ length: 9 }, (_, i) => `${site.base}/detail/${i + 1}`).sort());
    const details = rows.filter((r) => r.body !== undefined).map((r) => `${r.title}|${r.body}`).sort();
    expect(details).toEqual([...Array.from({ length: 9 }, (_, i) => `通知 ${i + 1}|第 ${i + 1} 号 通知的 正文`), '慢页|来得 很慢'].sort());
    expect(site.hits.get('/private/secret')).toBeUndefined();
    expect(site.foreign).toBe(0);
    for (let k = 1; k <= 9; k++) expect(site.hits.get(`/detail/${k}`)).toBe(1);
    const logs = await call(s, admin, 'GET', `${T}/viewLogData?id=${id}&current=1&size=100`);
    expect(logs.status).toBe(200);
    const byLevel = (l: string) => logs.body.data.records.filter((x: Json) => x.level === l).map((x: Json) => x.url);
    expect(byLevel('warn')).toEqual([`${site.base}/private/secret`]);
    expect(byLevel('error')).toEqual([`${site.base}/error500`]);
    expect(logs.body.data.records.find((x: Json) => x.level === 'error').statusCode).toBe(500);
    expect(byLevel('info')).toHaveLength(13);
    expect(logs.body.data.records.every((x: Json) => x.url.startsWith(site.base))).toBe(true);
    // the generic tasklog list filters by task
    const tl = await call(s, admin, 'GET', `/api/spider/tasklog/list?taskId=${id}&size=100`);
    expect(tl.status, JSON.stringify(tl.body)).toBe(200);
    expect(tl.body.data.total).toBe(15);
    // run again: nothing stored twice
    expect((await call(s, admin, 'GET', `${T}/start?id=${id}`)).status).toBe(200);
    expect(await waitFor(id, (x) => x.taskStatus !== 1)).toMatchObject({ taskStatus: 4, rowsCount: 19 });
  });

  it('extracts fields by XPath (rows, attributes, functions) with post-processing', async () => {
    const b = site.base.replace(/\./g, '\\.');
    const id = await newTask('xpath', {
      startUrls: [`${site.base}/list?page=1`],
      linkPatterns: [`^${b}/detail/\\d+$`],
      maxDepth: 1,
      rules: [
        { name: 'list', urlPattern: '/list\\?', rowXPath: '//li[@class="item"]', fields: [
          { name: 'title', xpath: 'normalize-space(a)', required: true },
          { name: 'price', xpath: './span[@class="price"]', process: ['number'] },
          { name: 'link', xpath: 'a/@href', process: ['absoluteUrl'] },
          { name: 'no', selector: 'a', process: ['regex'], pattern: '通知 (\\d+)' },
        ] },
        { name: 'detail', urlPattern: '/detail/\\d+$', fields: [
          { name: 'title', xpath: '//h1', process: ['trim'] },
          { name: 'body', xpath: 'string(//div[@class="body"])', process: ['collapse'] },
          { name: 'items', xpath: 'count(//li)' },
        ] },
      ],
    });
    expect((await call(s, admin, 'GET', `${T}/start?id=${id}`)).status).toBe(200);
    expect(await waitFor(id, (x) => x.taskStatus !== 1)).toMatchObject({ taskStatus: 4, rowsCount: 6, errorCount: 0 });
    const rows = (await allData(id)).map(({ id: _i, url: _u, createTime: _c, ...r }) => r);
    const list = rows.filter((r) => r.price !== undefined).sort((x, y) => x.title.localeCompare(y.title));
    expect(list).toEqual([1, 2, 3].map((k) => ({ title: `通知 ${k}`, price: Number(`120${k}.5`), link: `${site.base}/detail/${k}`, no: String(k) })));
    const details = rows.filter((r) => r.body !== undefined).sort((x, y) => x.title.localeCompare(y.title));
    expect(details).toEqual([1, 2, 3].map((k) => ({ title: `通知 ${k}`, body: `第 ${k} 号 通知的 正文`, items: 0 })));
  });

  it('pauses and resumes without fetching a page twice or storing a row twice', async () => {
    site.hits.clear();
    const id = await newTask('pause', config({ concurrency: 1, delayMs: 250 }));
    expect((await call(s, admin, 'GET', `${T}/start?id=${id}`)).status).toBe(200);
    await waitFor(id, (x) => x.pagesCount >= 2);
    const p = await call(s, admin, 'GET', `${T}/pasue?id=${id}`);
    expect(p.status).toBe(200);
    const paused = await waitFor(id, (x) => x.taskStatus === 2);
    const job = await waitFor(id, () => true);
    expect(job.pending).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 1500));
    const mid = await waitFor(id, () => true);
    expect(mid.pagesCount).toBe(paused.pagesCount > mid.pagesCount ? paused.pagesCount : mid.pagesCount);
    expect(mid.pagesCount).toBeLessThan(14);
    expect((await call(s, admin, 'GET', `${T}/start?id=${id}`)).status).toBe(200);
    const end = await waitFor(id, (x) => x.taskStatus !== 1);
    expect(end).toMatchObject({ taskStatus: 4, rowsCount: 19 });
    for (let k = 1; k <= 9; k++) expect(site.hits.get(`/detail/${k}`)).toBe(1);
    for (let n = 1; n <= 3; n++) expect(site.hits.get(`/list?page=${n}`)).toBe(1);
    expect(await countRows(s, 'spider_data', 'task_id = $1', [id])).toBe(19);
  });

  it('stops: pending pages are dropped and nothing more is fetched', async () => {
    site.hits.clear();
    const id = await newTask('stop', config({ concurrency: 1, delayMs: 300 }));
    expect((await call(s, admin, 'GET', `${T}/start?id=${id}`)).status).toBe(200);
    await waitFor(id, (x) => x.pagesCount >= 1);
    expect((await call(s, admin, 'GET', `${T}/stop?id=${id}`)).status).toBe(200);
    const st = await waitFor(id, (x) => x.taskStatus === 3 && x.pending === 0);
    const fetched = [...site.hits.values()].reduce((a, b) => a + b, 0);
    await new Promise((r) => setTimeout(r, 1500));
    expect([...site.hits.values()].reduce((a, b) => a + b, 0)).toBe(fetched);
    expect(st.pagesCount).toBeLessThan(14);
    const running = await call(s, admin, 'GET', `${T}/pasue?id=${id}`);
    expect(running.body.data.taskStatus).toBe(3);
  });

  it('renders a page that needs JavaScript with PlaywrightCrawler on chromium', async () => {
    site.hits.clear();
    const id = await newTask('browser', {
      startUrls: [`${site.base}/js`],
      rules: [{ name: 'js', urlPattern: '/js$', fields: [{ name: 'title', selector: 'h1', process: ['trim'] }, { name: 'body', selector: '.body' }] }],
      useBrowser: true,
    });
    expect((await call(s, admin, 'GET', `${T}/start?id=${id}`)).status).toBe(200);
    expect(await waitFor(id, (x) => x.taskStatus !== 1, 60_000)).toMatchObject({ taskStatus: 4, rowsCount: 1, errorCount: 0 });
    const rows = await allData(id);
    expect(rows.map((r) => ({ title: r.title, body: r.body }))).toEqual([{ title: '脚本写的标题', body: '脚本写的正文' }]);
    expect(site.hits.get('/js.js')).toBe(1);
    expect(site.foreign).toBe(0);
  }, 90_000);

  it('sends the browser profile\'s User-Agent; an unknown profile is refused', async () => {
    const b = await call(s, admin, 'POST', '/api/spider/browser/submit', { name: `${TAG} 浏览器`, userAgent: 'KechuangBot/1.0 (+test)' });
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    const id = await newTask('ua', null);
    const bad = await call(s, admin, 'POST', `${T}/saveConfigData?id=${id}`, config({ browserId: '42' }));
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('所选浏览器配置不存在');
    expect(await countRows(s, 'spider_task', 'id = $1 AND config_data IS NULL', [id])).toBe(1);
    const good = await call(s, admin, 'POST', `${T}/saveConfigData?id=${id}`, config({ browserId: b.body.data.id, startUrls: [`${site.base}/detail/2`], maxPages: 1 }));
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect((await call(s, admin, 'GET', `${T}/start?id=${id}`)).status).toBe(200);
    await waitFor(id, (x) => x.taskStatus === 4);
    expect(site.agents.get('/detail/2')).toBe('KechuangBot/1.0 (+test)');
    expect((await call(s, other, 'GET', `/api/spider/browser/detail?id=${b.body.data.id}`)).status).toBe(404);
    expect((await call(s, kygl, 'GET', '/api/spider/browser/list')).status).toBe(403);
  });

  it('copies a task with its configuration; deleteAll removes the collected rows', async () => {
    const id = await newTask('copy');
    const c = await call(s, admin, 'GET', `${T}/copy?id=${id}`);
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(c.body.data).toMatchObject({ name: `${TAG} copy（副本）`, taskStatus: 0 });
    const g = await call(s, admin, 'GET', `${T}/getConfigData?id=${c.body.data.id}`);
    expect(g.body.data.config.startUrls).toEqual([`${site.base}/list?page=1`]);
    const full = (await call(s, admin, 'GET', `${T}/list?name=${encodeURIComponent(`${TAG} full`)}`)).body.data.records[0].id;
    const del = await call(s, admin, 'POST', `${T}/deleteAll?ids=${full}`);
    expect(del.status).toBe(200);
    expect(await countRows(s, 'spider_data', 'task_id = $1', [full])).toBe(0);
  });
});

describe('spider: schedules (cron/schedule on pg-boss)', () => {
  const C = '/api/cron/schedule';
  it('refuses a bad cron expression or an unknown task with the message and stores nothing', async () => {
    const id = await newTask('sched-bad');
    const before = await countRows(s, 'cron_schedule');
    const bad = await call(s, admin, 'POST', `${C}/submit`, { spiderTaskId: id, cronExpression: '61 * * * *' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('Cron 表达式不正确（分 时 日 月 周）');
    const unknown = await call(s, admin, 'POST', `${C}/submit`, { spiderTaskId: '123', cronExpression: '* * * * *' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toBe('所选采集任务不存在');
    const batch = await call(s, admin, 'POST', `${C}/batchSave`, [{ spiderTaskId: id, cronExpression: '0 2 * * *' }, { spiderTaskId: id, cronExpression: 'nope' }]);
    expect(batch.status).toBe(400);
    expect(batch.body.msg).toBe('Cron 表达式不正确（分 时 日 月 周）');
    expect(await countRows(s, 'cron_schedule')).toBe(before);
  });

  it('fires once a minute through pg-boss, lists the jobs it ran, and stops', async () => {
    site.hits.clear();
    const id = await newTask('sched', config({ maxPages: 1, startUrls: [`${site.base}/detail/1`] }));
    const r = await call(s, admin, 'POST', `${C}/submit`, { spiderTaskId: id, cronExpression: '* * * * *' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const sid = r.body.data.id as string;
    expect(r.body.data.scheduleStatus).toBe(1);
    expect(await countRows(s, 'pgboss.schedule', `name = 'spider-schedule' AND key = $1`, [sid])).toBe(1);
    const one = await call(s, admin, 'GET', `${C}/getOneBySpiderTask?spiderTaskId=${id}`);
    expect(one.body.data.id).toBe(sid);
    await waitFor(id, (x) => x.taskStatus === 4 && x.rowsCount === 1, 150_000);
    expect(site.hits.get('/detail/1')).toBe(1);
    // the job row is marked done just after the crawl stored its rows: poll it (bounded) rather than race it
    let jobs = await call(s, admin, 'GET', `${C}/getJobsBySpriderTask?spiderTaskId=${id}`);
    for (let i = 0; i < 60 && jobs.body.data?.records?.[0]?.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 250));
      jobs = await call(s, admin, 'GET', `${C}/getJobsBySpriderTask?spiderTaskId=${id}`);
    }
    expect(jobs.status).toBe(200);
    expect(jobs.body.data.total).toBeGreaterThanOrEqual(1);
    expect(jobs.body.data.records[0]).toMatchObject({ status: 'done', writtenCount: 1 });
    expect((await call(s, admin, 'GET', `${C}/detail?id=${sid}`)).body.data.lastFireTime).toBeTruthy();
    const off = await call(s, admin, 'POST', `${C}/stopOrStart?id=${sid}`);
    expect(off.body.data.scheduleStatus).toBe(0);
    expect(await countRows(s, 'pgboss.schedule', `name = 'spider-schedule' AND key = $1`, [sid])).toBe(0);
    // another tenant and a user without the menu
    expect((await call(s, other, 'GET', `${C}/getJobsBySpriderTask?spiderTaskId=${id}`)).body.data.total).toBe(0);
    expect((await call(s, other, 'POST', `${C}/stopOrStart?id=${sid}`)).status).toBe(404);
    expect((await call(s, kygl, 'GET', `${C}/getOneBySpiderTask?spiderTaskId=${id}`)).status).toBe(403);
    const rm = await call(s, admin, 'POST', `${C}/remove?ids=${sid}`);
    expect(rm.status).toBe(200);
  }, 200_000);
});

describe('spider: access', () => {
  it('another tenant sees nothing, a user without the menu gets 403', async () => {
    const id = await newTask('private');
    for (const url of [`${T}/getExecuteStatus?id=${id}`, `${T}/getConfigData?id=${id}`, `${T}/viewData?id=${id}`, `${T}/viewLogData?id=${id}`, `${T}/start?id=${id}`, `${T}/copy?id=${id}`, `${T}/detail?id=${id}`]) {
      expect((await call(s, other, 'GET', url)).status, url).toBe(404);
      expect((await call(s, kygl, 'GET', url)).status, url).toBe(403);
    }
    expect((await call(s, other, 'POST', `${T}/saveConfigData?id=${id}`, config())).status).toBe(404);
    const list = await call(s, other, 'GET', `${T}/list?size=100`);
    expect(list.body.data.records.map((r: Json) => r.id)).not.toContain(id);
    expect((await call(s, kygl, 'GET', `/api/spider/tasklog/list`)).status).toBe(403);
    const del = await call(s, other, 'POST', `${T}/deleteAll?ids=${id}`);
    expect(del.body.data.removed).toBe(0);
  });
});
