/**
 * Crawl schedules survive restarts and run once across several nodes (issue 16 "Schedules: … schedules survive
 * restarts and run once across several nodes"; src/server/modules/spider/schedule.ts). A schedule firing every
 * minute is saved on one kernel, that kernel stops, and two fresh kernels (two nodes on the same database)
 * start: the schedule kept by pg-boss in PostgreSQL fires on them, each occurrence is one job of the queue
 * `spider-schedule` handled once (no retry) and starts one crawl, and the local site
 * (tests/integration/spider-site.ts) is fetched once per crawl.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, testServer, type Json, type Session, type TestServer } from './helpers.js';
import { startSite, type Site } from './spider-site.js';

let site: Site;
let nodes: TestServer[] = [];
const TAG = `ss${Date.now().toString(36)}`;
const T = '/api/spider/task';

beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  for (const n of nodes) await n.close().catch(() => undefined);
  await site?.close();
});

async function until<T>(what: () => Promise<T>, done: (x: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const x = await what();
    if (done(x)) return x;
    if (Date.now() > end) throw new Error(`timed out: ${JSON.stringify(x)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('spider: schedules across restarts and nodes', () => {
  it('a schedule saved before a restart fires on two fresh nodes, once per occurrence', async () => {
    const first = await testServer();
    nodes.push(first);
    let admin: Session = await login(first, 'admin');
    const task = await call(first, admin, 'POST', `${T}/submit`, { name: `${TAG} 定时` });
    expect(task.status, JSON.stringify(task.body)).toBe(200);
    const taskId = task.body.data.id as string;
    const cfg = await call(first, admin, 'POST', `${T}/saveConfigData?id=${taskId}`, {
      startUrls: [`${site.base}/detail/2`], rules: [{ name: 'detail', urlPattern: '/detail/', fields: [{ name: 'title', selector: 'h1', process: ['trim'] }] }], maxPages: 1,
    });
    expect(cfg.status, JSON.stringify(cfg.body)).toBe(200);
    const sched = await call(first, admin, 'POST', '/api/cron/schedule/submit', { spiderTaskId: taskId, cronExpression: '* * * * *' });
    expect(sched.status, JSON.stringify(sched.body)).toBe(200);
    const sid = sched.body.data.id as string;
    await first.close();
    nodes = [];
    site.hits.clear();

    // two nodes on the same database
    nodes = [await testServer(), await testServer()];
    const [a, b] = nodes;
    admin = await login(a, 'admin');
    const pool = a.kernel.database.pool;
    expect((await pool.query(`SELECT count(*)::int AS n FROM pgboss.schedule WHERE name = 'spider-schedule' AND key = $1`, [sid])).rows[0].n).toBe(1);
    const jobs = async () => (await call(b, admin, 'GET', `/api/cron/schedule/getJobsBySpriderTask?spiderTaskId=${taskId}&size=100`)).body.data as Json;
    await until(jobs, (j) => j.total >= 1, 170_000);
    // stop the schedule so no further occurrence races the counts below, and let the last crawl end
    expect((await call(a, admin, 'POST', `/api/cron/schedule/stopOrStart?id=${sid}`, { scheduleStatus: 0 })).body.data.scheduleStatus).toBe(0);
    const crawls = await until(jobs, (j) => j.records.every((r: Json) => r.status === 'done' || r.status === 'failed'), 60_000);
    expect(crawls.records.every((r: Json) => r.status === 'done')).toBe(true);
    const occurrences = (await pool.query(`SELECT to_char(created_on, 'YYYY-MM-DD HH24:MI') AS minute, state, retry_count FROM pgboss.job WHERE name = 'spider-schedule' AND data->>'scheduleId' = $1`, [sid])).rows;
    // one job per minute, none retried: no occurrence was sent or handled twice by the two nodes
    expect(occurrences.length).toBeGreaterThanOrEqual(1);
    expect(new Set(occurrences.map((o) => o.minute)).size).toBe(occurrences.length);
    expect(occurrences.every((o) => Number(o.retry_count) === 0 && o.state === 'completed')).toBe(true);
    expect(crawls.total).toBeLessThanOrEqual(occurrences.length);
    expect(site.hits.get('/detail/2')).toBe(crawls.total);
    const status = (await call(b, admin, 'GET', `${T}/getExecuteStatus?id=${taskId}`)).body.data;
    expect(status).toMatchObject({ taskStatus: 4, rowsCount: 1 });
    expect(site.foreign).toBe(0);
  }, 240_000);
});
