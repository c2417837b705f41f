/**
 * A user's sessions end when an administrator resets the password, disables or removes the account (issue 9,
 * DESIGN §11); the tenant's account quota and expiry (tenant/setting) hold (issue 9 'tenant … setting (account
 * quota, expiry)', 'an expired tenant cannot log in (clear message)').
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC, call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kyry: Session;
let other: Session; // administrator of 100001
const TAG = `us${Date.now().toString(36)}`;
const U = '/api/blade-user';
const TENANT = '/api/blade-system/tenant';
let seq = 0;

const phone = () => `137${String(Date.now() % 1e5).padStart(5, '0')}${String(++seq).padStart(3, '0')}`;

async function create(who: Session, deptId: string): Promise<Json> {
  const res = await call(s, who, 'POST', `${U}/submit`, { account: `${TAG}_${++seq}`, name: '小李', realName: '李小明', deptId, phone: phone() });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** A signed-in session of a new user of `who`'s tenant (and the user). */
async function userSession(who: Session, tenantId = '000000'): Promise<{ u: Json; session: Session }> {
  const u = await create(who, who.deptId);
  return { u, session: await login(s, u.account, { password: u.initialPassword, tenantId }) };
}

const refresh = (session: Session, tenantId = '000000') =>
  s.app.inject({
    method: 'POST',
    url: '/api/blade-auth/oauth/token',
    headers: { authorization: BASIC, 'tenant-id': tenantId, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: session.refresh }).toString(),
  });
const info = (session: Session) => call(s, session, 'GET', '/api/blade-user/info');

beforeAll(async () => {
  s = await testServer();
  [admin, kyry, other] = await Promise.all([login(s, 'admin'), login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' })]);
});
afterAll(async () => {
  await s?.close();
});

describe('sessions end', () => {
  it('reset-password: the user’s access and refresh tokens stop working at once', async () => {
    const { u, session } = await userSession(admin);
    const second = await login(s, u.account, { password: u.initialPassword });
    expect((await info(session)).status).toBe(200);
    expect((await call(s, admin, 'POST', `${U}/reset-password?userIds=${u.id}`)).status).toBe(200);
    for (const x of [session, second]) {
      expect((await info(x)).status).toBe(401);
      const r = await refresh(x);
      expect(r.statusCode).toBe(400);
      expect(r.json().msg).toBe('刷新令牌无效或已使用');
    }
    // other users keep theirs
    expect((await info(kyry)).status).toBe(200);
  });

  it('disabling (status 0 through submit) ends the sessions and refuses the login; enabling lets the user in again', async () => {
    const { u, session } = await userSession(admin);
    const detail = (await call(s, admin, 'GET', `${U}/detail?id=${u.id}`)).body.data;
    expect(detail.status).toBe(1);
    const off = await call(s, admin, 'POST', `${U}/update`, { ...detail, status: 0 });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.data.status).toBe(0);
    expect((await info(session)).status).toBe(401);
    await expect(login(s, u.account, { password: u.initialPassword })).rejects.toThrow('账号已被禁用');
    const on = await call(s, admin, 'POST', `${U}/submit`, { ...detail, status: '1' });
    expect(on.body.data.status).toBe(1);
    expect((await login(s, u.account, { password: u.initialPassword })).userId).toBe(u.id);
    // an edit that leaves the state as it is ends nothing
    const again = await login(s, u.account, { password: u.initialPassword });
    expect((await call(s, admin, 'POST', `${U}/submit`, { ...detail, realName: '李大明', status: 1 })).status).toBe(200);
    expect((await info(again)).status).toBe(200);
  });

  it('bad state, disabling oneself, another tenant, a non-administrator: refused and nothing changes', async () => {
    const { u, session } = await userSession(admin);
    const detail = (await call(s, admin, 'GET', `${U}/detail?id=${u.id}`)).body.data;
    const bad = await call(s, admin, 'POST', `${U}/submit`, { ...detail, realName: '改名', status: 2 });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('请选择账号状态');
    const self = (await call(s, admin, 'GET', `${U}/detail?id=${admin.userId}`)).body.data;
    const selfOff = await call(s, admin, 'POST', `${U}/submit`, { ...self, phone: self.phone || phone(), realName: '改名', status: 0 });
    expect(selfOff.status).toBe(400);
    expect(selfOff.body.msg).toBe('不能禁用当前登录用户');
    expect(await countRows(s, 'blade_user', `id = $1 AND status = 1 AND real_name <> '改名'`, [admin.userId])).toBe(1);
    expect((await call(s, other, 'POST', `${U}/submit`, { ...detail, status: 0 })).status).toBe(404);
    expect((await call(s, kyry, 'POST', `${U}/submit`, { ...detail, status: 0 })).status).toBe(403);
    expect(await countRows(s, 'blade_user', `id = $1 AND status = 1 AND real_name = '李小明'`, [u.id])).toBe(1);
    expect((await info(session)).status).toBe(200);
  });

  it('removing a user ends the sessions; a refused removal ends nothing', async () => {
    const { u, session } = await userSession(admin);
    expect((await call(s, other, 'POST', `${U}/remove?ids=${u.id}`)).status).toBe(404);
    expect((await call(s, admin, 'POST', `${U}/remove?ids=${u.id},1`)).status).toBe(404);
    expect((await info(session)).status).toBe(200);
    expect((await call(s, admin, 'POST', `${U}/remove?ids=${u.id}`)).status).toBe(200);
    expect((await info(session)).status).toBe(401);
    expect((await refresh(session)).statusCode).toBe(400);
  });
});

describe('tenant setting: account quota and expiry', () => {
  let tenant: Json;
  let tAdmin: Session;

  beforeAll(async () => {
    const res = await call(s, admin, 'POST', `${TENANT}/submit`, { tenantName: `${TAG}租户`, contactPerson: '赵六' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    tenant = res.body.data;
    tAdmin = await login(s, 'admin', { tenantId: tenant.tenantId, password: tenant.adminPassword });
  });

  it('a user beyond the quota is refused with a clear message and nothing is stored; a removal frees a place', async () => {
    // the tenant has its administrator: a quota of 2 leaves one place
    const set = await call(s, admin, 'POST', `${TENANT}/setting`, { ids: tenant.id, accountNumber: 2 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const first = await create(tAdmin, tAdmin.deptId);
    const before = await countRows(s, 'blade_user', 'tenant_id = $1', [tenant.tenantId]);
    const res = await call(s, tAdmin, 'POST', `${U}/submit`, { account: `${TAG}_over`, name: 'x', realName: '超额', deptId: tAdmin.deptId, phone: phone() });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('账号额度已满，最多 2 个账号');
    const en = await call(s, tAdmin, 'POST', `${U}/submit`, { account: `${TAG}_over`, name: 'x', realName: '超额', deptId: tAdmin.deptId, phone: phone() }, { 'accept-language': 'en' });
    expect(en.body.msg).toBe('The account quota is used up: at most 2 accounts');
    expect(await countRows(s, 'blade_user', 'tenant_id = $1', [tenant.tenantId])).toBe(before);
    // editing an existing user is not a new account
    expect((await call(s, tAdmin, 'POST', `${U}/submit`, { ...first, realName: '改名' })).status).toBe(200);
    expect((await call(s, tAdmin, 'POST', `${U}/remove?ids=${first.id}`)).status).toBe(200);
    await create(tAdmin, tAdmin.deptId);
    // unlimited again
    await call(s, admin, 'POST', `${TENANT}/setting`, { ids: tenant.id, accountNumber: -1 });
    await create(tAdmin, tAdmin.deptId);
    // another tenant's quota is its own
    expect((await call(s, admin, 'POST', `${U}/submit`, { account: `${TAG}_main`, name: 'x', realName: '主租户', deptId: admin.deptId, phone: phone() })).status).toBe(200);
  });

  it('an expired tenant cannot log in nor refresh (a clear message in zh and en); a later expiry lets it in', async () => {
    const session = await login(s, 'admin', { tenantId: tenant.tenantId, password: tenant.adminPassword });
    expect((await call(s, admin, 'POST', `${TENANT}/setting`, { ids: tenant.id, expireTime: '2020-01-01 00:00:00' })).status).toBe(200);
    await expect(login(s, 'admin', { tenantId: tenant.tenantId, password: tenant.adminPassword })).rejects.toThrow('租户已过期，请联系管理员');
    const r = await refresh(session, tenant.tenantId);
    expect(r.statusCode).toBe(400);
    expect(r.json().msg).toBe('租户已过期，请联系管理员');
    const en = await s.app.inject({
      method: 'POST', url: '/api/blade-auth/oauth/token',
      headers: { authorization: BASIC, 'tenant-id': tenant.tenantId, 'accept-language': 'en' },
      payload: { grant_type: 'password', username: 'admin', password: tenant.adminPassword },
    });
    expect(en.json().msg).toBe('The tenant has expired: please contact the administrator');
    // an unknown tenant keeps its own message
    await expect(login(s, 'admin', { tenantId: '999998', password: 'x' })).rejects.toThrow('租户不存在或已过期');
    // the refresh token was not used up: it works once the tenant is live again
    expect((await call(s, admin, 'POST', `${TENANT}/setting`, { ids: tenant.id, expireTime: '' })).status).toBe(200);
    expect((await refresh(session, tenant.tenantId)).statusCode).toBe(200);
    expect((await login(s, 'admin', { tenantId: tenant.tenantId, password: tenant.adminPassword })).body.tenant_id).toBe(tenant.tenantId);
  });

  it('setting is for platform administrators: a tenant administrator gets 403 and nothing changes', async () => {
    expect((await call(s, tAdmin, 'POST', `${TENANT}/setting`, { ids: tenant.id, accountNumber: 1 })).status).toBe(403);
    expect((await call(s, other, 'POST', `${TENANT}/setting`, { ids: tenant.id, accountNumber: 1 })).status).toBe(403);
    const bad = await call(s, admin, 'POST', `${TENANT}/setting`, { ids: tenant.id, accountNumber: -5 });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('账号额度不能小于 -1');
    expect(await countRows(s, 'blade_tenant', 'id = $1 AND account_number = -1', [tenant.id])).toBe(1);
  });
});
