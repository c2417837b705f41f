/**
 * Crawler export and management (issue 16 "Export", "Users to notify", "Groups", "clients"; spec 002 §7
 * spider/task testConnection … getExportStatus, saveMessageUser, moveGroup, dashboard; spider/exportconfig,
 * spider/taskgroup, spider/client). One crawl of the local site (tests/integration/spider-site.ts: three list
 * pages, nine rows) feeds every case. Export targets are the embedded test database only: the tenant's own
 * schema of the platform's database, and a stored connection whose URL is the test database's.
 */
import { inject } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';
import { startSite, type Site } from './spider-site.js';
import { nextId } from '../../src/server/core/ids.js';

let s: TestServer;
let site: Site;
let admin: Session;
let kygl: Session;
let other: Session;
let taskId: string;
const TAG = `sx${Date.now().toString(36)}`;
const T = '/api/spider/task';

function listConfig(extra: Json = {}): Json {
  return {
    startUrls: [`${site.base}/list?page=1`],
    linkPatterns: [],
    nextPageSelector: 'a.next',
    rules: [{ name: 'list', urlPattern: '/list\\?', rowSelector: 'li.item', fields: [
      { name: 'title', selector: 'a', process: ['trim'], required: true },
      { name: 'price', selector: '.price', process: ['number'] },
    ] }],
    maxPages: 10, maxDepth: 3, concurrency: 1,
    ...extra,
  };
}

async function newTask(name: string, cfg: Json = listConfig()): Promise<string> {
  const r = await call(s, admin, 'POST', `${T}/submit`, { name: `${TAG} ${name}` });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const c = await call(s, admin, 'POST', `${T}/saveConfigData?id=${r.body.data.id}`, cfg);
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  return r.body.data.id;
}

async function until<T>(what: () => Promise<T>, done: (x: T) => boolean, ms = 25_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const x = await what();
    if (done(x)) return x;
    if (Date.now() > end) throw new Error(`timed out: ${JSON.stringify(x)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const status = async (id: string) => (await call(s, admin, 'GET', `${T}/getExecuteStatus?id=${id}`)).body.data as Json;
const exportStatus = async (id: string, who = admin) => (await call(s, who, 'GET', `${T}/getExportStatus?id=${id}`)).body.data as Json | null;

beforeAll(async () => {
  site = await startSite();
  s = await testServer();
  [admin, kygl, other] = await Promise.all([login(s, 'admin'), login(s, 'kygl'), login(s, 'admin', { tenantId: '100001' })]);
  taskId = await newTask('export');
  const users = await call(s, admin, 'POST', `${T}/saveMessageUser?id=${taskId}`, { userIds: [kygl.userId] });
  expect(users.status, JSON.stringify(users.body)).toBe(200);
  expect((await call(s, admin, 'GET', `${T}/start?id=${taskId}`)).status).toBe(200);
  await until(() => status(taskId), (x) => x.taskStatus !== 1);
}, 60_000);
afterAll(async () => {
  await s?.kernel.database.pool.query(`DROP TABLE IF EXISTS public.${TAG}_target`).catch(() => undefined);
  await s?.close();
  await site?.close();
});

describe('spider: notify and dashboard', () => {
  it('gives the message users a to-do when the crawl finishes, and refuses unknown users', async () => {
    expect(await status(taskId)).toMatchObject({ taskStatus: 4, rowsCount: 9, pagesCount: 3 });
    const todos = await until(async () => (await s.kernel.database.pool.query(`SELECT user_id::text AS u, title, path FROM basic_todo WHERE business_id = $1 AND is_deleted = 0`, [taskId])).rows, (r) => r.length > 0);
    expect(todos).toEqual([{ u: kygl.userId, title: `采集任务「${TAG} export」：采集完成，共 9 条数据，0 个错误`, path: '/spider/task' }]);
    const push = await call(s, kygl, 'GET', '/api/blade-basic/todo/myTodo?size=50');
    if (push.status === 200) expect(JSON.stringify(push.body.data)).toContain(`${TAG} export`);
    const bad = await call(s, admin, 'POST', `${T}/saveMessageUser?id=${taskId}`, { userIds: [other.userId] });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('通知用户不存在或超过 50 个');
    expect(await countRows(s, 'spider_task', `id = $1 AND message_user = $2::jsonb`, [taskId, JSON.stringify([kygl.userId])])).toBe(1);
    expect((await call(s, other, 'POST', `${T}/saveMessageUser?id=${taskId}`, { userIds: [] })).status).toBe(404);
    expect((await call(s, kygl, 'POST', `${T}/saveMessageUser?id=${taskId}`, { userIds: [] })).status).toBe(403);
  });

  it('gives the message users a to-do when the crawl fails', async () => {
    const id = await newTask('fails');
    expect((await call(s, admin, 'POST', `${T}/saveMessageUser?id=${id}`, { userIds: [kygl.userId] })).status).toBe(200);
    // a configuration the crawl cannot run (stored past the checks, as an older release might have left it)
    await s.kernel.database.pool.query(`UPDATE spider_task SET config_data = '{"startUrls": []}'::jsonb WHERE id = $1`, [id]);
    expect((await call(s, admin, 'GET', `${T}/start?id=${id}`)).status).toBe(200);
    expect(await until(() => status(id), (x) => x.taskStatus !== 1)).toMatchObject({ taskStatus: 5 });
    const todos = await until(async () => (await s.kernel.database.pool.query(`SELECT user_id::text AS u, title FROM basic_todo WHERE business_id = $1 AND is_deleted = 0`, [id])).rows, (r) => r.length > 0);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await s.kernel.database.pool.query(`SELECT user_id::text AS u, title FROM basic_todo WHERE business_id = $1 AND is_deleted = 0`, [id])).rows).toEqual(todos);
    expect(todos).toEqual([{ u: kygl.userId, title: `采集任务「${TAG} fails」：采集失败` }]);
  });

  it('answers pages, rows and errors per minute that add up to the counters', async () => {
    const d = await call(s, admin, 'GET', `${T}/dashboard?id=${taskId}`);
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    const sum = (k: string) => d.body.data.perMinute.reduce((a: number, x: Json) => a + x[k], 0);
    expect([sum('pages'), sum('rows'), sum('errors')]).toEqual([3, 9, 0]);
    expect(d.body.data).toMatchObject({ pagesCount: 3, rowsCount: 9, errorCount: 0 });
    expect(d.body.data.perMinute[0].time).toMatch(/^\d\d:\d\d$/);
    expect((await call(s, other, 'GET', `${T}/dashboard?id=${taskId}`)).status).toBe(404);
    expect((await call(s, kygl, 'GET', `${T}/dashboard?id=${taskId}`)).status).toBe(403);
    expect((await call(s, admin, 'GET', `${T}/dashboard?id=${taskId}&jobId=x`)).status).toBe(400);
  });
});

describe('spider: export', () => {
  it('stores a connection with its password write-only, and refuses a bad URL', async () => {
    const u = new URL(inject('db').url);
    const secret = decodeURIComponent(u.password);
    expect(secret.length).toBeGreaterThan(0);
    const r = await call(s, admin, 'POST', '/api/spider/exportconfig/submit', { name: `${TAG} test db`, url: u.href });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const det = await call(s, admin, 'GET', `/api/spider/exportconfig/detail?id=${r.body.data.id}`);
    expect(det.body.data.password).toBeUndefined();
    expect(det.body.data.url).not.toContain(secret);
    expect(JSON.stringify((await call(s, admin, 'GET', '/api/spider/exportconfig/list?size=100')).body)).not.toContain(secret);
    expect(await countRows(s, 'spider_exportconfig', 'id = $1 AND password = $2', [r.body.data.id, secret])).toBe(1);
    const bad = await call(s, admin, 'POST', '/api/spider/exportconfig/submit', { name: `${TAG} bad`, url: 'mysql://x@127.0.0.1/db' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('连接地址须为 postgresql://用户@主机:端口/数据库');
    expect(await countRows(s, 'spider_exportconfig', 'name = $1', [`${TAG} bad`])).toBe(0);
    expect((await call(s, kygl, 'GET', '/api/spider/exportconfig/list')).status).toBe(403);
    expect((await call(s, other, 'GET', `/api/spider/exportconfig/detail?id=${r.body.data.id}`)).status).toBe(404);
  });

  it('tests connections: the own database, a stored one, a closed port', async () => {
    const own = await call(s, admin, 'POST', `${T}/testConnection`, {});
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.data.ok).toBe(true);
    const id = (await s.kernel.database.pool.query(`SELECT id::text AS id FROM spider_exportconfig WHERE name = $1`, [`${TAG} test db`])).rows[0].id;
    const stored = await call(s, admin, 'POST', `${T}/testConnection`, { exportConfigId: id });
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    expect(stored.body.data.database).toBe(new URL(inject('db').url).pathname.slice(1));
    const closed = await call(s, admin, 'POST', '/api/spider/exportconfig/submit', { name: `${TAG} closed`, url: 'postgresql://nobody@127.0.0.1:1/none' });
    const fail = await call(s, admin, 'POST', `${T}/testConnection`, { exportConfigId: closed.body.data.id });
    expect(fail.status).toBe(400);
    expect(fail.body.msg).toMatch(/^数据库连接失败：/);
    expect((await call(s, other, 'POST', `${T}/testConnection`, { exportConfigId: id })).status).toBe(404);
    expect((await call(s, kygl, 'POST', `${T}/testConnection`, {})).status).toBe(403);
    expect((await call(s, admin, 'POST', `${T}/testConnection`, { exportConfigId: 'x' })).status).toBe(400);
  });

  it('exports into a new table of the tenant’s own schema, which another tenant never sees', async () => {
    const bad = await call(s, admin, 'POST', `${T}/exportData?id=${taskId}`, { tableName: `${TAG}_rows`, createTable: true, columns: [{ field: 'nope', column: 'title' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('请设置 1 至 200 个字段映射，目标字段须存在且不重复');
    expect(await exportStatus(taskId)).toBeNull();
    const r = await call(s, admin, 'POST', `${T}/exportData?id=${taskId}`, {
      tableName: `${TAG}_rows`, createTable: true, columns: [{ field: 'title', column: 'title' }, { field: 'price', column: 'price' }, { field: 'url', column: 'page' }],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const done = await until(() => exportStatus(taskId), (x) => !!x && (x.status === 'done' || x.status === 'failed'));
    expect(done).toMatchObject({ status: 'done', writtenCount: 9, progress: 100 });
    const rows = (await s.kernel.database.pool.query(`SELECT title, price, page FROM spider_export_000000.${TAG}_rows ORDER BY title`)).rows;
    expect(rows.map((x) => `${x.title}|${x.price}`)).toEqual(Array.from({ length: 9 }, (_, i) => `通知 ${i + 1}|120${i + 1}.5`));
    expect(rows.every((x) => x.page.startsWith(`${site.base}/list?page=`))).toBe(true);
    const names = await call(s, admin, 'POST', `${T}/getTableNames`, {});
    expect(names.body.data.map((x: Json) => x.value)).toContain(`spider_export_000000.${TAG}_rows`);
    expect(names.body.data.every((x: Json) => x.value.startsWith('spider_export_000000.'))).toBe(true);
    const cols = await call(s, admin, 'POST', `${T}/getTableColumns`, { tableName: `spider_export_000000.${TAG}_rows` });
    expect(cols.body.data.map((c: Json) => c.name)).toEqual(['id', 'title', 'price', 'page']);
    const theirs = await call(s, other, 'POST', `${T}/getTableNames`, {});
    expect(theirs.status).toBe(200);
    expect(JSON.stringify(theirs.body.data)).not.toContain(TAG);
    const peek = await call(s, other, 'POST', `${T}/getTableColumns`, { tableName: `spider_export_000000.${TAG}_rows` });
    expect(peek.status).toBe(400);
    expect(peek.body.msg).toBe('所选数据表不存在');
    const platform = await call(s, admin, 'POST', `${T}/exportData?id=${taskId}`, { tableName: 'public.blade_user', columns: [{ field: 'title', column: 'account' }] });
    expect(platform.status).toBe(400);
    expect(platform.body.msg).toBe('所选数据表不存在');
    expect((await call(s, other, 'POST', `${T}/exportData?id=${taskId}`, { tableName: `${TAG}_x`, createTable: true, columns: [{ field: 'title', column: 'title' }] })).status).toBe(404);
    expect(await exportStatus(taskId, other)).toBeNull();
  });

  it('exports into a chosen table of a stored connection, and polls its status', async () => {
    await s.kernel.database.pool.query(`CREATE TABLE public.${TAG}_target (id serial PRIMARY KEY, headline text NOT NULL, amount numeric, fetched timestamptz)`);
    const id = (await s.kernel.database.pool.query(`SELECT id::text AS id FROM spider_exportconfig WHERE name = $1`, [`${TAG} test db`])).rows[0].id;
    const names = await call(s, admin, 'POST', `${T}/getTableNames`, { exportConfigId: id });
    expect(names.body.data.map((x: Json) => x.value)).toContain(`public.${TAG}_target`);
    const cols = await call(s, admin, 'POST', `${T}/getTableColumns`, { exportConfigId: id, tableName: `public.${TAG}_target` });
    expect(cols.body.data).toEqual([
      { name: 'id', type: 'integer', nullable: false }, { name: 'headline', type: 'text', nullable: false },
      { name: 'amount', type: 'numeric', nullable: true }, { name: 'fetched', type: 'timestamp with time zone', nullable: true },
    ]);
    const r = await call(s, admin, 'POST', `${T}/exportData?id=${taskId}`, {
      exportConfigId: id, tableName: `public.${TAG}_target`, columns: [{ field: 'title', column: 'headline' }, { field: 'price', column: 'amount' }, { field: 'createTime', column: 'fetched' }],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const done = await until(() => exportStatus(taskId), (x) => !!x && x.jobId === r.body.data.jobId && (x.status === 'done' || x.status === 'failed'));
    expect(done).toMatchObject({ status: 'done', writtenCount: 9 });
    const rows = (await s.kernel.database.pool.query(`SELECT headline, amount::text AS amount, fetched FROM public.${TAG}_target ORDER BY headline`)).rows;
    expect(rows.map((x) => `${x.headline}|${x.amount}`)).toEqual(Array.from({ length: 9 }, (_, i) => `通知 ${i + 1}|120${i + 1}.5`));
    expect(rows.every((x) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(x.fetched))).toBe(true); // the pool's timestamptz text (core/db)
    const task = (await call(s, admin, 'GET', `${T}/detail?id=${taskId}`)).body.data;
    expect(task).toMatchObject({ exportConfigId: id, exportTable: `public.${TAG}_target` });
    const missing = await call(s, admin, 'POST', `${T}/exportData?id=${taskId}`, { exportConfigId: id, tableName: `public.${TAG}_target`, columns: [{ field: 'title', column: 'nope' }] });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('请设置 1 至 200 个字段映射，目标字段须存在且不重复');
    expect((await call(s, kygl, 'POST', `${T}/exportData?id=${taskId}`, {})).status).toBe(403);
    expect((await call(s, admin, 'POST', `${T}/exportData?id=${taskId}`, 'x', { 'content-type': 'application/json' })).status).toBe(400);
  });
});

describe('spider: export into the portal’s journal records', () => {
  const J = '/api/portal/kcportaljournal';
  it('offers the records resources, maps rows onto journal fields through the engine, and skips what is there', async () => {
    const names = await call(s, admin, 'POST', `${T}/getTableNames`, { targetType: 'records' });
    expect(names.status).toBe(200);
    expect(names.body.data).toContainEqual({ value: 'portal/journal', label: '期刊数据' });
    expect(names.body.data.every((x: Json) => !String(x.value).includes('.'))).toBe(true);
    const cols = await call(s, admin, 'POST', `${T}/getTableColumns`, { targetType: 'records', tableName: 'portal/journal' });
    expect(cols.status).toBe(200);
    expect(cols.body.data).toContainEqual({ name: 'journalName', type: 'string', nullable: false, title: '刊名' });
    const notRecords = await call(s, admin, 'POST', `${T}/getTableColumns`, { targetType: 'records', tableName: 'system/user' });
    expect(notRecords.status).toBe(400);
    expect(notRecords.body.msg).toBe('所选数据表不存在');
    const before = await countRows(s, 'portal_journal');
    const bad = await call(s, admin, 'POST', `${T}/exportData?id=${taskId}`, { targetType: 'records', tableName: 'portal/journal', columns: [{ field: 'title', column: 'createUser' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('请设置 1 至 200 个字段映射，目标字段须存在且不重复');
    expect(await countRows(s, 'portal_journal')).toBe(before);
    const go = () => call(s, admin, 'POST', `${T}/exportData?id=${taskId}`, {
      targetType: 'records', tableName: 'portal/journal', columns: [{ field: 'title', column: 'journalName' }, { field: 'price', column: 'issn' }, { field: 'url', column: 'organizer' }],
    });
    const r = await go();
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const done = await until(() => exportStatus(taskId), (x) => !!x && x.jobId === r.body.data.jobId && (x.status === 'done' || x.status === 'failed'));
    expect(done).toMatchObject({ status: 'done', writtenCount: 9, result: { written: 9, skipped: 0, failed: 0, records: 'portal/journal' } });
    const list = await call(s, admin, 'GET', `${J}/list?journalName=${encodeURIComponent('通知')}&size=100`);
    expect(list.status).toBe(200);
    const mine = list.body.data.records.filter((x: Json) => String(x.organizer ?? '').startsWith(site.base));
    expect(mine.map((x: Json) => `${x.journalName}|${x.issn}`).sort()).toEqual(Array.from({ length: 9 }, (_, i) => `通知 ${i + 1}|120${i + 1}.5`));
    expect(await countRows(s, 'portal_journal')).toBe(before + 9);
    // exporting again: every row is already a record (journalName + ISSN)
    const again = await go();
    const second = await until(() => exportStatus(taskId), (x) => !!x && x.jobId === again.body.data.jobId && (x.status === 'done' || x.status === 'failed'));
    expect(second?.result).toMatchObject({ written: 0, skipped: 9 });
    expect(await countRows(s, 'portal_journal')).toBe(before + 9);
    // another tenant's journal list never holds them
    const theirs = await call(s, other, 'GET', `${J}/list?journalName=${encodeURIComponent('通知')}&size=100`);
    expect(JSON.stringify(theirs.body.data?.records ?? [])).not.toContain(site.base);
  });
});

describe('spider: records export needs the records’ grant', () => {
  it('a user who may run crawl exports but not add journal records is offered none and gets 403', async () => {
    const pool = s.kernel.database.pool;
    const role = await call(s, admin, 'POST', '/api/blade-system/role/submit', { roleName: `${TAG} 采集员`, roleAlias: `${TAG}r`, sort: 9 });
    expect(role.status, role.body.msg).toBe(200);
    const menus = (await pool.query(`SELECT id::text AS id FROM blade_menu WHERE code IN ('spider', 'spider_task', 'spider_task_edit') AND is_deleted = 0`)).rows.map((r) => r.id);
    expect(menus).toHaveLength(3);
    expect((await call(s, admin, 'POST', '/api/blade-system/role/grant', { roleIds: [role.body.data.id], menuIds: menus })).status).toBe(200);
    const account = `${TAG}u`;
    const userId = nextId();
    await pool.query(`INSERT INTO blade_user (id, tenant_id, account, password, name, real_name, dept_id)
        SELECT $1::bigint, '000000', $2::varchar, password, $2::varchar, $2::varchar, dept_id FROM blade_user WHERE tenant_id = '000000' AND account = 'kyry'`, [userId, account]);
    await pool.query(`INSERT INTO blade_user_role (id, user_id, role_id) VALUES ($1, $2, $3)`, [nextId(), userId, role.body.data.id]);
    try {
      const crawler = await login(s, account);
      const names = await call(s, crawler, 'POST', `${T}/getTableNames`, { targetType: 'records' });
      expect(names.status, names.body.msg).toBe(200);
      expect(names.body.data).toEqual([]);
      expect((await call(s, crawler, 'POST', `${T}/getTableColumns`, { targetType: 'records', tableName: 'portal/journal' })).status).toBe(403);
      const before = await countRows(s, 'portal_journal');
      const ex = await call(s, crawler, 'POST', `${T}/exportData?id=${taskId}`, { targetType: 'records', tableName: 'portal/journal', columns: [{ field: 'title', column: 'journalName' }] });
      expect(ex.status).toBe(403);
      expect(await countRows(s, 'portal_journal')).toBe(before);
    } finally {
      await pool.query(`DELETE FROM blade_user_role WHERE user_id = $1`, [userId]);
      await pool.query(`UPDATE blade_user SET is_deleted = 1 WHERE id = $1`, [userId]);
      await pool.query(`DELETE FROM blade_role_menu WHERE role_id = $1`, [role.body.data.id]);
      await pool.query(`UPDATE blade_role SET is_deleted = 1 WHERE id = $1`, [role.body.data.id]);
    }
  });
});

describe('spider: groups and nodes', () => {
  it('keeps groups per tenant, moves tasks into them and refuses removing a group in use', async () => {
    const g = await call(s, admin, 'POST', '/api/spider/taskgroup/submit', { name: `${TAG} 政策` });
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    const gid = g.body.data.id;
    expect((await call(s, admin, 'GET', '/api/spider/taskgroup/myList?size=100')).body.data.records.map((x: Json) => x.id)).toContain(gid);
    expect((await call(s, other, 'GET', '/api/spider/taskgroup/list?size=100')).body.data.records.map((x: Json) => x.id)).not.toContain(gid);
    const second = await newTask('second');
    const m = await call(s, admin, 'POST', `${T}/moveGroup?ids=${taskId},${second}&groupId=${gid}`);
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect(m.body.data.moved).toBe(2);
    const listed = await call(s, admin, 'GET', `${T}/list?groupId=${gid}&size=100`);
    expect(listed.body.data.records.map((x: Json) => x.id).sort()).toEqual([taskId, second].sort());
    const rm = await call(s, admin, 'POST', `/api/spider/taskgroup/remove?ids=${gid}`);
    expect(rm.status).toBe(400);
    expect(rm.body.msg).toBe('该分组下还有采集任务，不能删除');
    const theirGroup = await call(s, other, 'POST', '/api/spider/taskgroup/submit', { name: `${TAG} 他们的` });
    const cross = await call(s, admin, 'POST', `${T}/moveGroup?ids=${second}&groupId=${theirGroup.body.data.id}`);
    expect(cross.status).toBe(400);
    expect(cross.body.msg).toBe('所选任务分组不存在');
    expect((await call(s, other, 'POST', `${T}/moveGroup?ids=${second}`)).status).toBe(404);
    expect((await call(s, kygl, 'POST', `${T}/moveGroup?ids=${second}`)).status).toBe(403);
    expect((await call(s, kygl, 'GET', '/api/spider/taskgroup/list')).status).toBe(403);
    expect((await call(s, admin, 'POST', `${T}/moveGroup?ids=${second}`)).body.data.moved).toBe(1);
    expect(await countRows(s, 'spider_task', 'id = $1 AND group_id IS NULL', [second])).toBe(1);
  });

  it('lists this node with its load and the tenant’s running crawls only', async () => {
    const slow = await newTask('slow', listConfig({ delayMs: 1500 }));
    expect((await call(s, admin, 'GET', `${T}/start?id=${slow}`)).status).toBe(200);
    const mine = await until(async () => (await call(s, admin, 'GET', '/api/spider/client/list?size=100')).body.data.records as Json[], (r) => r.some((x) => x.runningCrawls > 0));
    const node = mine.find((x) => x.runningCrawls > 0)!;
    expect(node.runningTasks).toContain(`${TAG} slow`);
    expect(node.cpus).toBeGreaterThan(0);
    expect(node.memoryMb).toBeGreaterThan(0);
    const theirs = await call(s, other, 'GET', '/api/spider/client/list?size=100');
    expect(theirs.status).toBe(200);
    expect(JSON.stringify(theirs.body.data)).not.toContain(TAG);
    expect((await call(s, kygl, 'GET', '/api/spider/client/list')).status).toBe(403);
    expect((await call(s, admin, 'GET', `${T}/stop?id=${slow}`)).status).toBe(200);
    await until(() => status(slow), (x) => x.taskStatus === 3);
    await until(async () => (await call(s, admin, 'GET', `/api/spider/client/detail?id=${node.id}`)).body.data as Json, (x) => x.runningCrawls === 0);
  });
});
