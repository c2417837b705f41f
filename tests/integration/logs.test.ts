/**
 * Logs (spec 000 §7, 002 §2, §7; issue 9): the usual log holds the audit rows of administrators' changes
 * (who, when, what changed), the API and error logs are listed and searched by time range, user, path and
 * status, each tenant sees its own rows and the platform administrator all of them, non-administrators get
 * 403, the shell's client errors land in the error log (bad uploads refused, nothing stored), and rows past
 * the retention are pruned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';
import { DEFAULT_LOG_RETENTION_DAYS, pruneLogs } from '../../src/server/modules/system/logs.js';

let s: TestServer;
let admin: Session;
let kyry: Session;
let other: Session; // administrator of tenant 100001
const TAG = `lg${Date.now().toString(36)}`;

beforeAll(async () => {
  s = await testServer();
  [admin, kyry, other] = await Promise.all([login(s, 'admin'), login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' })]);
});
afterAll(async () => {
  await s?.close();
});

describe('usual log: the audit of administrators’ changes', () => {
  let post: Json;
  it('an administrator’s add, edit and remove appear with who, when and what changed', async () => {
    post = (await call(s, admin, 'POST', '/api/blade-system/post/submit', { category: 1, postCode: `${TAG}`.slice(0, 12), postName: `${TAG}甲`, sort: 1 })).body.data;
    await call(s, admin, 'POST', '/api/blade-system/post/submit', { ...post, postName: `${TAG}乙` });
    await call(s, admin, 'POST', `/api/blade-system/post/remove?ids=${post.id}`);
    const res = await call(s, admin, 'GET', `/api/blade-log/usual/list?logData=${post.id}&descs=create_time`);
    expect(res.status).toBe(200);
    const rows = res.body.data.records as Json[];
    expect(rows.map((r) => r.logId)).toEqual(['system/post:remove', 'system/post:edit', 'system/post:add']);
    expect(rows.every((r) => r.createBy === 'admin' && r.userId === admin.userId && r.createTime)).toBe(true);
    const edit = JSON.parse(rows[1].logData);
    expect(edit).toMatchObject({ resource: 'system/post', action: 'edit', ids: [post.id], changes: { postName: { from: `${TAG}甲`, to: `${TAG}乙` } } });
    expect(Object.keys(edit.changes)).toEqual(['postName']);
    const detail = await call(s, admin, 'GET', `/api/blade-log/usual/detail?id=${rows[0].id}`);
    expect(detail.body.data.logId).toBe('system/post:remove');
  });

  it('a failed change leaves no audit row', async () => {
    const before = await countRows(s, 'blade_log_usual');
    expect((await call(s, admin, 'POST', '/api/blade-system/post/submit', { category: 1, postCode: '', postName: 'x', sort: 1 })).status).toBe(400);
    expect(await countRows(s, 'blade_log_usual')).toBe(before);
  });

  it('another tenant sees none of it; the platform administrator sees the other tenant’s rows', async () => {
    expect((await call(s, other, 'GET', `/api/blade-log/usual/list?logData=${post.id}`)).body.data.records).toEqual([]);
    const theirs = (await call(s, other, 'POST', '/api/blade-system/post/submit', { category: 1, postCode: `${TAG}o`.slice(0, 12), postName: `${TAG}丙`, sort: 1 })).body.data;
    const seen = await call(s, admin, 'GET', `/api/blade-log/usual/list?logData=${theirs.id}`);
    expect(seen.body.data.records.map((r: Json) => r.tenantId)).toEqual(['100001']);
    expect((await call(s, other, 'GET', `/api/blade-log/usual/list?logData=${theirs.id}`)).body.data.records).toHaveLength(1);
  });

  it('a non-administrator gets 403 on every log', async () => {
    for (const log of ['usual', 'api', 'error']) {
      expect((await call(s, kyry, 'GET', `/api/blade-log/${log}/list`)).status).toBe(403);
      expect((await call(s, kyry, 'GET', `/api/blade-log/${log}/detail?id=1`)).status).toBe(403);
    }
  });
});

describe('API log', () => {
  it('searchable by path, status, user and time range', async () => {
    await call(s, admin, 'POST', `/api/blade-system/post/remove?ids=1${Date.now() % 1000}`); // 404
    await s.kernel.apiLog.flush(); // the API log writer may buffer (core/pipeline.ts)
    const res = await call(s, admin, 'GET', '/api/blade-log/api/list?requestUri=/api/blade-system/post/remove&statusCode=404&createBy=admin');
    expect(res.status).toBe(200);
    expect(res.body.data.records.length).toBeGreaterThan(0);
    expect(res.body.data.records.every((r: Json) => r.statusCode === 404 && r.method === 'POST')).toBe(true);
    const future = await call(s, admin, 'GET', '/api/blade-log/api/list?createTime_dategt=2999-01-01 00:00:00');
    expect(future.body.data.records).toEqual([]);
    const detail = await call(s, admin, 'GET', `/api/blade-log/api/detail?id=${res.body.data.records[0].id}`);
    expect(detail.body.data.requestUri).toBe('/api/blade-system/post/remove');
    expect((await call(s, other, 'GET', `/api/blade-log/api/detail?id=${res.body.data.records[0].id}`)).status).toBe(404);
    expect((await call(s, admin, 'GET', '/api/blade-log/api/list?statusCode=abc')).status).toBe(400);
  });
});

describe('error log: client errors uploaded by the shell', () => {
  const entry = (n: number) => ({ type: 'error', url: `/system/${TAG}/${n}`, message: `${TAG} boom ${n}`, stack: 'Error: boom\n  at x (a.js:1:1)', info: 'render', time: '2025-01-01 10:00:00' });

  it('a list of entries lands in the error log of the tenant', async () => {
    const res = await call(s, other, 'POST', '/api/blade-log/error/submit', [entry(1), entry(2)]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ count: 2 });
    const list = await call(s, other, 'GET', `/api/blade-log/error/list?message=${TAG}&ascs=message`);
    expect(list.body.data.records.map((r: Json) => [r.exceptionName, r.requestUri, r.message, r.createBy])).toEqual([
      ['client:error', `/system/${TAG}/1`, `${TAG} boom 1`, 'admin'],
      ['client:error', `/system/${TAG}/2`, `${TAG} boom 2`, 'admin'],
    ]);
    expect(JSON.parse(list.body.data.records[0].params)).toEqual({ info: 'render', time: '2025-01-01 10:00:00' });
    expect((await call(s, admin, 'GET', `/api/blade-log/error/list?message=${TAG}`)).body.data.total).toBe(2); // platform sees all
    const mine = await call(s, kyry, 'POST', '/api/blade-log/error/submit', { list: [entry(3)] }); // any signed-in user may upload
    expect(mine.status).toBe(200);
    expect((await call(s, other, 'GET', `/api/blade-log/error/list?message=${TAG}`)).body.data.total).toBe(2); // not tenant 000000's
  });

  it('bad uploads are refused and nothing is stored', async () => {
    const before = await countRows(s, 'blade_log_error');
    expect((await call(s, null, 'POST', '/api/blade-log/error/submit', [entry(9)])).status).toBe(401);
    const nul = await call(s, admin, 'POST', '/api/blade-log/error/submit', [entry(4), { ...entry(5), message: 'a\u0000b' }]);
    expect(nul.status).toBe(400);
    expect(nul.body.msg).toBe('字段 1.message 不能包含空字符（\\u0000）'); // the input guard's (core/input-guard.ts)
    const many = await call(s, admin, 'POST', '/api/blade-log/error/submit', Array.from({ length: 101 }, (_, i) => entry(i)));
    expect(many.status).toBe(400);
    expect(many.body.msg).toBe('一次最多上传 100 条日志');
    const noMsg = await call(s, admin, 'POST', '/api/blade-log/error/submit', [{ type: 'error' }], { 'accept-language': 'en' });
    expect(noMsg.body.msg).toBe('A log entry has no message');
    expect((await call(s, admin, 'POST', '/api/blade-log/error/submit', [])).status).toBe(400);
    expect((await call(s, admin, 'POST', '/api/blade-log/error/submit', ['x'])).status).toBe(400);
    expect(await countRows(s, 'blade_log_error')).toBe(before);
  });
});

describe('retention', () => {
  it(`rows older than ${DEFAULT_LOG_RETENTION_DAYS} days are pruned, newer ones kept`, async () => {
    const pool = s.kernel.database.pool;
    await pool.query(`INSERT INTO blade_log_usual (id, tenant_id, log_level, log_id, create_time) VALUES (1${Date.now() % 100000}01, '000000', 'info', $1, now() - interval '181 days'), (1${Date.now() % 100000}02, '000000', 'info', $1, now() - interval '179 days')`, [`${TAG}-old`]);
    const pruned = await pruneLogs(s.kernel.database.db);
    expect(pruned.blade_log_usual).toBeGreaterThanOrEqual(1);
    expect(await countRows(s, 'blade_log_usual', 'log_id = $1', [`${TAG}-old`])).toBe(1);
    expect(await countRows(s, 'blade_log_usual', `log_id = $1 AND create_time < now() - interval '180 days'`, [`${TAG}-old`])).toBe(0);
  });
});
