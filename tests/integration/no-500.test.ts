/**
 * Bad input never gives a 500 (DESIGN §11: "A 500 is always our bug"): every GET and POST route of the API, as
 * the OpenAPI description lists them, is called by the administrator (who may call them all) with parameters and
 * bodies of the wrong shape — words for ids, ids beyond bigint, impossible dates and times, NUL characters,
 * numbers beyond any column, arrays and objects for scalars — under the parameter names the routes use. Each must
 * answer something other than a server error. (bad-input.test.ts checks the messages; this checks the breadth.)
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, login, testServer, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
const routes: Array<{ method: 'GET' | 'POST'; url: string }> = [];

beforeAll(async () => {
  s = await testServer();
  admin = await login(s, 'admin');
  const doc = s.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  for (const [p, methods] of Object.entries(doc.paths)) {
    // path parameters get a word; the session's own end (logout, token) would end the session under test
    const url = p.replace(/\{\w+\}/g, 'x');
    if (/logout|oauth\/token|refresh/.test(url)) continue;
    for (const m of Object.keys(methods)) if (m === 'get' || m === 'post') routes.push({ method: m.toUpperCase() as 'GET' | 'POST', url });
  }
});
afterAll(async () => {
  await s?.close();
});

/** Parameter names the routes read (ids, paging, filters, keys of the modules' own calls). */
const NAMES = ['id', 'ids', 'current', 'size', 'keyword', 'name', 'code', 'dictKey', 'parentId', 'roleId', 'roleIds', 'userId', 'deptId', 'tenantId', 'templateId', 'taskId', 'processInstanceId', 'instanceId', 'year', 'month', 'date', 'startTime', 'endTime', 'createTime_dategt', 'createTime_datelt', 'createTime_ge', 'indexName', 'resource', 'type', 'status', 'state', 'version', 'fileName', 'link', 'topMenuId', 'menuId', 'businessId', 'projectId', 'contentId', 'channelId', 'siteId', 'jobId', 'kind', 'q', 'text', 'source', 'ascs', 'descs', 'wordType', 'isEnabled'];
/** Values of the wrong shape, as URL text. */
const VALUES = ['x', '99999999999999999999', '2024-02-30', '-1', '%00', '1e400', '2024-01-01%2024:61:61'];
/** The same for JSON bodies. */
const RAW: unknown[] = ['x', '99999999999999999999', '2024-02-30', -1, '\u0000', 1e300, [], {}, '2024-01-01 24:61:61', true, 3.5, [{}]];

it('every route answers bad parameters and bodies without a server error', async () => {
  expect(routes.length, 'the OpenAPI description lists the routes').toBeGreaterThan(500);
  const faults: string[] = [];
  const probe = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const res = await call(s, admin, method, url, body, body === undefined ? {} : { 'content-type': 'application/json' });
    if (res.status >= 500) faults.push(`${method} ${url}${body === undefined ? '' : ` ${JSON.stringify(body).slice(0, 80)}`} → ${res.status}`);
  };
  const calls: Array<() => Promise<void>> = [];
  for (const r of routes) {
    const join = r.url.includes('?') ? '&' : '?';
    const body = r.method === 'POST' ? {} : undefined;
    // each value under every name at once, then each name alone with a bad date (the first bad one a route reads
    // answers, so the names one by one reach the checks behind it)
    for (const v of VALUES) calls.push(() => probe(r.method, `${r.url}${join}${NAMES.map((n) => `${n}=${v}`).join('&')}`, body));
    for (const n of NAMES) calls.push(() => probe(r.method, `${r.url}${join}${n}=${n === 'current' || n === 'size' ? '0' : '2024-02-30'}`, body));
    if (r.method === 'POST') {
      for (const v of RAW) calls.push(() => probe('POST', r.url, Object.fromEntries(NAMES.map((n) => [n, v]))));
      for (const b of ['x', 12, [], [{ id: 'x' }], 'null']) calls.push(() => probe('POST', r.url, b));
    }
  }
  // four in flight: the database's waits overlap the pipeline's work (in-process inject, one event loop)
  let next = 0;
  await Promise.all(Array.from({ length: 4 }, async () => {
    while (next < calls.length) await calls[next++]();
  }));
  expect(calls.length).toBeGreaterThan(30_000);
  expect(faults).toEqual([]);
}, 600_000);
