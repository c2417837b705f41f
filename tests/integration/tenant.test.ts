/**
 * Tenant isolation, data scope, company lists and permissions, checked on the server (DESIGN §1.3, §11):
 * a user of tenant 100001 gets nothing of tenant 000000's patents from any generic endpoint; data scopes
 * narrow lists as granted; list-for-myCompany and myList follow the organisation; missing grants are 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, validPatent, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let kygl: Session; // research management, group company, no data scope
let kyry: Session; // researcher at 华北分公司/仓储管理部, data scope: own records
let sbdw: Session; // declaring unit at 华北分公司/仓储管理部, data scope: own dept and below
let duo: Session; // researcher + project manager at 华东分公司
let other: Session; // administrator of tenant 100001
let mine: Json; // created by kyry
let fromSbdw: Json;
let fromDuo: Json;
const TAG = `TN${Date.now().toString(36)}`;

const submit = (who: Session, body: unknown, headers: Record<string, string> = {}) => call(s, who, 'POST', '/api/basic/patent/submit', body, headers);
const ids = (res: { body: Json }) => (res.body.data.records ?? res.body.data).map((r: Json) => r.id) as string[];

beforeAll(async () => {
  s = await testServer();
  [kygl, kyry, sbdw, duo] = await Promise.all(['kygl', 'kyry', 'sbdw', 'duo'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
  mine = (await submit(kyry, validPatent(`${TAG}-kyry`, kyry.deptId))).body.data;
  fromSbdw = (await submit(sbdw, validPatent(`${TAG}-sbdw`, sbdw.deptId))).body.data;
  fromDuo = (await submit(duo, validPatent(`${TAG}-duo`, duo.deptId))).body.data;
  expect(mine.id && fromSbdw.id && fromDuo.id).toBeTruthy();
});
afterAll(async () => {
  await s.close();
});

describe('tenant isolation (every generic endpoint of basic/patent)', () => {
  for (const ep of ['list', 'page', 'myList', 'list-for-myCompany']) {
    it(`${ep}: tenant 100001 sees none of tenant 000000's patents`, async () => {
      const res = await call(s, other, 'GET', `/api/basic/patent/${ep}?name=${TAG}&size=200`);
      expect(res.status).toBe(200);
      expect(res.body.data.total).toBe(0);
      expect(res.body.data.records).toEqual([]);
      // while in tenant 000000 the same query finds them
      const own = await call(s, kygl, 'GET', `/api/basic/patent/list?name=${TAG}&size=200`);
      expect(own.body.data.total).toBeGreaterThanOrEqual(3);
    });
  }

  it('select: nothing of the other tenant', async () => {
    const res = await call(s, other, 'GET', `/api/basic/patent/select?name=${TAG}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it('detail: 404 for another tenant’s id', async () => {
    const res = await call(s, other, 'GET', `/api/basic/patent/detail?id=${mine.id}`);
    expect(res.status).toBe(404);
    expect(res.body.data).toBeNull();
  });

  it('submit (update): 404 and the row is unchanged', async () => {
    const res = await submit(other, { ...validPatent('hijack', other.deptId), id: mine.id });
    expect(res.status).toBe(404);
    const row = await s.kernel.database.pool.query('SELECT name, tenant_id FROM basic_patent WHERE id = $1', [mine.id]);
    expect(row.rows[0]).toEqual({ name: mine.name, tenant_id: '000000' });
  });

  it('remove: 404 and the row is not deleted', async () => {
    const res = await call(s, other, 'POST', `/api/basic/patent/remove?ids=${mine.id}`);
    expect(res.status).toBe(404);
    expect(await countRows(s, 'basic_patent', 'id = $1 AND is_deleted = 0', [mine.id])).toBe(1);
  });

  it('a record added in tenant 100001 belongs to it and is invisible to tenant 000000', async () => {
    const res = await submit(other, validPatent(`${TAG}-t2`, other.deptId));
    expect(res.status).toBe(200);
    expect(res.body.data.tenantId).toBe('100001');
    expect((await call(s, kygl, 'GET', `/api/basic/patent/detail?id=${res.body.data.id}`)).status).toBe(404);
    expect((await call(s, kygl, 'GET', `/api/basic/patent/list?name=${TAG}-t2`)).body.data.total).toBe(0);
  });
});

describe('data scope', () => {
  it('a researcher (scope: own records) lists only their own patents', async () => {
    const res = await call(s, kyry, 'GET', `/api/basic/patent/list?name=${TAG}&size=200`);
    expect(ids(res)).toEqual([mine.id]);
  });

  it('a researcher cannot read or change another person’s patent', async () => {
    expect((await call(s, kyry, 'GET', `/api/basic/patent/detail?id=${fromSbdw.id}`)).status).toBe(404);
    expect((await submit(kyry, { id: fromSbdw.id, name: 'changed' })).status).toBe(404);
  });

  it('a declaring unit (scope: own department and below) sees its department’s patents', async () => {
    const res = await call(s, sbdw, 'GET', `/api/basic/patent/list?name=${TAG}&size=200`);
    expect(new Set(ids(res))).toEqual(new Set([mine.id, fromSbdw.id]));
  });

  it('research management (no scope) sees all of the tenant', async () => {
    const res = await call(s, kygl, 'GET', `/api/basic/patent/list?name=${TAG}&size=200`);
    expect(ids(res)).toEqual(expect.arrayContaining([mine.id, fromSbdw.id, fromDuo.id]));
  });

  it('a user with two roles works as one at a time (Role-Id header)', async () => {
    const asResearcher = duo.roleIds[0];
    const asManager = duo.roleIds[1];
    const r1 = await call(s, duo, 'GET', `/api/basic/patent/list?name=${TAG}&size=200`, undefined, { 'role-id': asResearcher });
    const r2 = await call(s, duo, 'GET', `/api/basic/patent/list?name=${TAG}&size=200`, undefined, { 'role-id': asManager });
    // one of the two roles is the researcher (own records only), the other has no scope on patents
    const sizes = [ids(r1).length, ids(r2).length].sort();
    expect(sizes[0]).toBe(1);
    expect(sizes[1]).toBeGreaterThanOrEqual(3);
    const foreign = await call(s, duo, 'GET', `/api/basic/patent/list`, undefined, { 'role-id': kygl.roleIds[0] });
    expect(foreign.status).toBe(403);
  });
});

describe('my company and mine', () => {
  it('list-for-myCompany: 华北分公司 users see 华北 records, not 华东 ones', async () => {
    const res = await call(s, kyry, 'GET', `/api/basic/patent/list-for-myCompany?name=${TAG}&size=200`);
    expect(new Set(ids(res))).toEqual(new Set([mine.id, fromSbdw.id]));
    const east = await call(s, duo, 'GET', `/api/basic/patent/list-for-myCompany?name=${TAG}&size=200`);
    expect(ids(east)).toEqual([fromDuo.id]);
  });

  it('myList: only what I created', async () => {
    expect(ids(await call(s, sbdw, 'GET', `/api/basic/patent/myList?name=${TAG}`))).toEqual([fromSbdw.id]);
    expect(ids(await call(s, kygl, 'GET', `/api/basic/patent/myList?name=${TAG}`))).toEqual([]);
  });
});

describe('permissions (menu and button grants, server-side)', () => {
  it('an expert without the patent menu gets 403 on every patent endpoint', async () => {
    const zj = await login(s, 'zj');
    for (const url of ['list', 'page', 'myList', 'list-for-myCompany', 'select', `detail?id=${mine.id}`]) {
      const res = await call(s, zj, 'GET', `/api/basic/patent/${url}`);
      expect(res.status, url).toBe(403);
      expect(res.body.msg).toBe('没有权限执行此操作');
    }
    const before = await countRows(s, 'basic_patent');
    expect((await submit(zj, validPatent(TAG, zj.deptId))).status).toBe(403);
    expect(await countRows(s, 'basic_patent')).toBe(before);
  });

  it('a declaring unit may add but not delete (no patent_delete grant)', async () => {
    const res = await call(s, sbdw, 'POST', `/api/basic/patent/remove?ids=${fromSbdw.id}`);
    expect(res.status).toBe(403);
    expect(await countRows(s, 'basic_patent', 'id = $1 AND is_deleted = 0', [fromSbdw.id])).toBe(1);
  });
});
