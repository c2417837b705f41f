/**
 * Everything an administrator does is audited (issue 9 Standards; DESIGN §11): the test walks the
 * administration calls — generic submits and removes of the system schemas and the calls that are not generic
 * (user grant, reset-password, setExpert, unlock, update-platform, disable; role grant; top-menu grant; tenant
 * setting; client secret; ban-IP unseal; version start) — and finds, for each, a row of the usual log
 * (blade_log_usual) saying who (user, account, tenant, IP), when, which records and what changed, written by
 * the one audit function (src/server/resources/audit.ts). No row ever holds a password or a secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let started: string;
const TAG = `au${Date.now().toString(36)}`;
let seq = 0;
const phone = () => `136${String(Date.now() % 1e5).padStart(5, '0')}${String(++seq).padStart(3, '0')}`;

/** POST as the administrator; the call must succeed. */
async function post(url: string, body?: unknown): Promise<Json> {
  const res = await call(s, admin, 'POST', url, body);
  expect(res.status, `${url} ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.data;
}

/** The audit rows `logId` written by the administrator since the test started. */
async function rows(logId: string): Promise<Json[]> {
  const r = await s.kernel.database.pool.query(
    `SELECT log_level, log_id, log_data, method, request_uri, remote_ip, user_id::text AS user_id, create_by, tenant_id, create_time
       FROM blade_log_usual WHERE log_id = $1 AND user_id = $2::bigint AND create_time >= $3::timestamptz ORDER BY create_time`,
    [logId, admin.userId, started],
  );
  return r.rows.map((x) => ({ ...x, data: JSON.parse(x.log_data) }));
}

/** Asserts one audit row `logId` naming `id` (and, when given, with `detail` in its data); answers its data. */
async function audited(logId: string, id: string, detail: Json = {}): Promise<Json> {
  const found = (await rows(logId)).filter((r) => (r.data.ids as string[]).includes(id));
  expect(found.length, `${logId} for ${id}`).toBeGreaterThanOrEqual(1);
  const row = found.at(-1)!;
  expect(row).toMatchObject({ log_level: 'audit', user_id: admin.userId, create_by: 'admin', tenant_id: '000000', method: 'POST' });
  expect(row.request_uri).toMatch(/^\/api\//);
  expect(row.data).toMatchObject({ resource: logId.split(':')[0], action: logId.split(':')[1], ...detail });
  return row.data;
}

beforeAll(async () => {
  s = await testServer();
  admin = await login(s, 'admin');
  started = (await s.kernel.database.pool.query(`SELECT now()::text AS t`)).rows[0].t;
});
afterAll(async () => {
  await s?.close();
});

describe('audit of the administration calls', () => {
  it('users: add, edit, disable, grant, reset-password (no password in the row), setExpert, unlock, update-platform, remove', async () => {
    const u = await post('/api/blade-user/submit', { account: `${TAG}_u`, name: '审计', realName: '审计用户', deptId: admin.deptId, phone: phone() });
    const role = (await s.kernel.database.pool.query(`SELECT id::text AS id FROM blade_role WHERE tenant_id = '000000' AND role_alias = 'researcher'`)).rows[0].id;
    await post(`/api/blade-user/grant?userIds=${u.id}&roleIds=${role}`);
    await audited('system/user:grant', u.id, { roleIds: [role] });
    const reset = await post(`/api/blade-user/reset-password?userIds=${u.id}`);
    const resetRow = await audited('system/user:reset-password', u.id);
    expect(JSON.stringify(resetRow)).not.toContain(reset[0].password);
    await post(`/api/blade-user/setExpert?userIds=${u.id}&isExpert=1`);
    await audited('system/user:setExpert', u.id, { isExpert: true });
    await post(`/api/blade-user/unlock?userIds=${u.id}`);
    await audited('system/user:unlock', u.id);
    await post('/api/blade-user/update-platform', { id: u.id, userType: 2 });
    await audited('system/user:update-platform', u.id, { userType: 2 });
    const detail = (await call(s, admin, 'GET', `/api/blade-user/detail?id=${u.id}`)).body.data;
    await post('/api/blade-user/update', { ...detail, status: 0 });
    await audited('system/user:disable', u.id, { changes: { status: { from: 1, to: 0 } } });
    const rows = await s.kernel.database.pool.query(`SELECT log_data FROM blade_log_usual WHERE create_time >= $1::timestamptz`, [started]);
    expect(rows.rows.map((r) => r.log_data).join('\n')).not.toContain(u.initialPassword);
  });

  it('roles and top menus: grant, top-menu grant, top-menu add', async () => {
    const role = (await s.kernel.database.pool.query(`SELECT id::text AS id FROM blade_role WHERE tenant_id = '000000' AND role_alias = 'sbdw'`)).rows[0].id;
    const keys = (await call(s, admin, 'GET', `/api/blade-system/menu/role-tree-keys?roleIds=${role}`)).body.data;
    expect(keys.menu.length).toBeGreaterThan(0);
    await post('/api/blade-system/role/grant', { roleIds: [role], menuIds: keys.menu, dataScopeIds: keys.dataScope, apiScopeIds: keys.apiScope });
    await audited('system/role:grant', role, { menuIds: keys.menu });
    const top = await post('/api/blade-system/topmenu/submit', { name: `${TAG} 顶部`, nameEn: `${TAG} top`, code: `${TAG}top`, sort: 9 });
    await audited('system/topmenu:add', top.id);
    const menus = (await s.kernel.database.pool.query(`SELECT id::text AS id FROM blade_menu WHERE code = 'achievement'`)).rows.map((r) => r.id);
    await post('/api/blade-system/topmenu/grant', { topMenuIds: [top.id], menuIds: menus });
    await audited('system/topmenu:grant', top.id, { menuIds: menus });
    await post(`/api/blade-system/topmenu/remove?ids=${top.id}`);
    await audited('system/topmenu:remove', top.id);
  });

  it('roles, menus and users through the generic endpoints: add, edit, remove', async () => {
    const role = await post('/api/blade-system/role/submit', { roleName: `${TAG} 角色`, roleAlias: `${TAG}r`, sort: 9 });
    await audited('system/role:add', role.id);
    await post('/api/blade-system/role/submit', { ...role, roleName: `${TAG} 角色二` });
    await audited('system/role:edit', role.id);
    await post(`/api/blade-system/role/remove?ids=${role.id}`);
    await audited('system/role:remove', role.id);
    const menu = await post('/api/blade-system/menu/submit', { name: `${TAG} 菜单`, code: `${TAG}m`, path: `/${TAG}`, category: 1, sort: 99, parentId: '0' });
    await audited('system/menu:add', menu.id);
    await post(`/api/blade-system/menu/remove?ids=${menu.id}`);
    await audited('system/menu:remove', menu.id);
    const u = await post('/api/blade-user/submit', { account: `${TAG}_g`, name: '审计', realName: '审计二', deptId: admin.deptId, phone: phone() });
    await post(`/api/blade-user/remove?ids=${u.id}`);
    await audited('system/user:remove', u.id);
  });

  it('tenants and clients: add, setting (quota and expiry changed), client add and a new secret (never in the row)', async () => {
    const tenant = await post('/api/blade-system/tenant/submit', { tenantName: `${TAG}租户`, contactPerson: '审计' });
    await audited('system/tenant:add', tenant.id);
    expect(JSON.stringify(await rows('system/tenant:add'))).not.toContain(tenant.adminPassword);
    await post('/api/blade-system/tenant/setting', { ids: tenant.id, accountNumber: 7, expireTime: '2099-01-01 00:00:00' });
    await audited('system/tenant:edit', tenant.id, { changes: { accountNumber: { from: -1, to: 7 } } });
    const client = await post('/api/blade-system/client/submit', { clientId: `${TAG}c`, authorizedGrantTypes: 'password,refresh_token', accessTokenValidity: 600, refreshTokenValidity: 3600 });
    await audited('system/client:add', client.id);
    const fresh = await post(`/api/blade-system/client/secret?id=${client.id}`);
    expect(fresh).toMatchObject({ id: client.id, clientId: `${TAG}c` });
    await audited('system/client:secret', client.id, { clientId: `${TAG}c` });
    const all = JSON.stringify(await s.kernel.database.pool.query(`SELECT log_data FROM blade_log_usual WHERE create_time >= $1::timestamptz`, [started]).then((r) => r.rows));
    expect(all).not.toContain(fresh.clientSecret);
    expect(all).not.toContain(client.clientSecret);
  });

  it('organisation, dictionaries, scopes, parameters and the new screens: add, edit, remove, unseal, start', async () => {
    const dept = await post('/api/blade-system/dept/submit', { deptName: `${TAG}部`, fullName: `${TAG}部`, deptCategory: 2, parentId: admin.deptId, sort: 1 });
    await audited('system/dept:add', dept.id);
    const post2 = await post('/api/blade-system/post/submit', { category: 1, postCode: `${TAG}p`, postName: '审计岗', sort: 1 });
    await post('/api/blade-system/post/submit', { ...post2, postName: '审计岗2' });
    await audited('system/post:edit', post2.id, { changes: { postName: { from: '审计岗', to: '审计岗2' } } });
    const dict = await post('/api/blade-system/dict/submit', { code: `${TAG}d`, dictKey: '-1', dictValue: '审计字典', sort: 1 });
    await audited('system/dict:add', dict.id);
    const scope = await post('/api/blade-system/data-scope/submit', { scopeName: `${TAG}范围`, resourceCode: 'basic/patent', scopeType: 'all', scopeColumn: 'create_dept' });
    await audited('system/datascope:add', scope.id);
    await post(`/api/blade-system/data-scope/remove?ids=${scope.id}`); // the shared database keeps no stray scope
    await audited('system/datascope:remove', scope.id);
    const param = await post('/api/blade-system/param/submit', { paramName: '审计', paramKey: `${TAG}k`, paramValue: '1' });
    await post(`/api/blade-system/param/remove?ids=${param.id}`);
    await audited('system/param:remove', param.id);
    const ban = await post('/api/project/systembanip/submit', { ip: '203.0.113.201' });
    await audited('project/systembanip:add', ban.id);
    await post(`/api/project/systembanip/unseal?ids=${ban.id}`);
    await audited('project/systembanip:unseal', ban.id);
    const version = await post('/api/basic/version/submit', { product: `${TAG}`, mainVersion: 1, sonVersion: 0, stageVersion: 0, time: '2025-01-01', description: '审计' });
    await post(`/api/basic/version/startVersion?id=${version.id}`);
    await audited('basic/version:start', version.id, { product: TAG });
  });

  it('a call refused leaves no audit row', async () => {
    const before = (await rows('system/user:grant')).length;
    const res = await call(s, admin, 'POST', '/api/blade-user/grant?userIds=1&roleIds=1');
    expect(res.status).not.toBe(200);
    expect((await rows('system/user:grant')).length).toBe(before);
  });
});
