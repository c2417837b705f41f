/**
 * User administration (issue 9; spec 002 §6–§7 User, spec 000 §5 phone and ID card rules): every
 * /api/blade-user call of the Users bullet, tenant isolation (another tenant's administrator gets nothing and
 * changes nothing), 403 for a non-administrator, bad input answered with the user's message and nothing
 * stored, passwords generated and shown once (the old one stops working, the new one logs in), and unlocking
 * an account locked by 5 failed logins. Tests create their own users (the demo accounts are shared with
 * other test files).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { BASIC, call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session; // administrator of 000000
let kyry: Session; // a researcher of 000000
let other: Session; // administrator of 100001
const TAG = `u${Date.now().toString(36)}`;
const U = '/api/blade-user';
let deptId: string; // 集团科技信息部 (admin's department)
let companyId: string; // its company, 粮储集团有限公司
let otherDept: string; // a department of 100001
let seq = 0;

beforeAll(async () => {
  s = await testServer();
  [admin, kyry, other] = await Promise.all([login(s, 'admin'), login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' })]);
  deptId = admin.deptId;
  const q = await s.kernel.database.pool.query(`SELECT parent_id::text AS p FROM blade_dept WHERE id = $1`, [deptId]);
  companyId = q.rows[0].p;
  otherDept = other.deptId;
});
afterAll(async () => {
  await s?.close();
});

/** A unique, valid mobile number. */
const phone = () => `139${String(Date.now() % 1e5).padStart(5, '0')}${String(++seq).padStart(3, '0')}`;

const newUser = (extra: Json = {}) => ({ account: `${TAG}_${++seq}`, name: '小王', realName: '王小明', deptId, phone: phone(), ...extra });

async function create(who: Session, extra: Json = {}): Promise<Json> {
  const res = await call(s, who, 'POST', `${U}/submit`, newUser(who === other ? { deptId: otherDept, ...extra } : extra));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function tokenAttempt(account: string, password: string, tenantId = '000000') {
  return s.app.inject({
    method: 'POST',
    url: '/api/blade-auth/oauth/token',
    headers: { authorization: BASIC, 'tenant-id': tenantId, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', username: account, password }).toString(),
  });
}

const roleId = async (tenantId: string, alias: string) =>
  (await s.kernel.database.pool.query(`SELECT id::text AS id FROM blade_role WHERE tenant_id = $1 AND role_alias = $2 AND is_deleted = 0 ORDER BY parent_id LIMIT 1`, [tenantId, alias])).rows[0].id as string;

const rolesOf = async (userId: string) =>
  (await s.kernel.database.pool.query(`SELECT role_id::text AS id FROM blade_user_role WHERE user_id = $1 ORDER BY role_id`, [userId])).rows.map((r) => r.id as string).sort();

describe('menu (seed)', () => {
  it('用户管理 sits under 系统管理 for the administrator, naming the resource', async () => {
    const { body } = await call(s, admin, 'GET', '/api/blade-system/menu/routes');
    const system = body.data.find((m: Json) => m.code === 'system');
    const users = system.children.find((m: Json) => m.code === 'user');
    expect(users).toMatchObject({ name: '用户管理', nameEn: 'Users', path: '/system/user', resource: 'system/user' });
  });
});

describe('submit, detail, lists', () => {
  it('creates a user, shows a generated password once, and the user logs in with it and must change it', async () => {
    const u = await create(admin);
    expect(u.initialPassword).toMatch(/^.{16}$/);
    expect(u).not.toHaveProperty('password');
    expect(u.mustChangePassword).toBe(true);
    const session = await login(s, u.account, { password: u.initialPassword });
    expect(session.userId).toBe(u.id);
    const { body } = await call(s, admin, 'GET', `${U}/detail?id=${u.id}`);
    expect(body.data).toMatchObject({ id: u.id, account: u.account, realName: '王小明', deptId, locked: false, mustChangePassword: true });
    expect(body.data).not.toHaveProperty('password');
    expect(body.data).not.toHaveProperty('initialPassword');
    const hash = await s.kernel.database.pool.query(`SELECT password FROM blade_user WHERE id = $1`, [u.id]);
    expect(hash.rows[0].password).toMatch(/^\$argon2id\$/);
  });

  it('updates through submit and update (the account stays unique), never answering the hash', async () => {
    const u = await create(admin);
    const a = await call(s, admin, 'POST', `${U}/submit`, { ...u, realName: '王大明' });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.data.realName).toBe('王大明');
    expect(a.body.data).not.toHaveProperty('initialPassword');
    const b = await call(s, admin, 'POST', `${U}/update`, { id: u.id, account: u.account, name: '大王', realName: '王大明', deptId, phone: u.phone, email: 'w@example.com' });
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(b.body.data).toMatchObject({ name: '大王', email: 'w@example.com' });
    const noId = await call(s, admin, 'POST', `${U}/update`, { account: 'x' });
    expect(noId.status).toBe(400);
  });

  it('derives sex and birthday from a valid ID number (GB 11643-1999 example)', async () => {
    const u = await create(admin, { idcard: '11010519491231002x', sex: 1 });
    expect(u).toMatchObject({ idcard: '11010519491231002X', sex: 2, birthday: '1949-12-31' });
  });

  it('list, page, user-list and select answer the tenant\'s users, with roles, department and lock state', async () => {
    const u = await create(admin);
    for (const ep of ['list', 'page']) {
      const { status, body } = await call(s, admin, 'GET', `${U}/${ep}?account=${u.account}`);
      expect(status).toBe(200);
      expect(body.data.total).toBe(1);
      expect(body.data.records[0]).toMatchObject({ id: u.id, deptName: '集团科技信息部', locked: false, lockUntil: null, roleId: '' });
      expect(body.data.records[0]).not.toHaveProperty('password');
    }
    const all = await call(s, admin, 'GET', `${U}/list?size=200`);
    for (const r of all.body.data.records) expect(r).not.toHaveProperty('password');
    const byCompany = await call(s, admin, 'GET', `${U}/list?deptId=${companyId}&account=${u.account}`);
    expect(byCompany.body.data.total).toBe(1); // the department tree: a company includes its departments
    const ul = await call(s, admin, 'GET', `${U}/user-list?account=${TAG}`);
    expect(ul.status).toBe(200);
    expect(ul.body.data.map((r: Json) => r.id)).toContain(u.id);
    const sel = await call(s, admin, 'GET', `${U}/select?account=${u.account}`);
    expect(sel.status).toBe(200);
    expect(sel.body.data.map((r: Json) => r.id)).toEqual([u.id]);
    expect(sel.body.data[0]).not.toHaveProperty('password');
  });

  it('removes a user (not oneself)', async () => {
    const u = await create(admin);
    const self = await call(s, admin, 'POST', `${U}/remove?ids=${admin.userId}`);
    expect(self.status).toBe(400);
    expect(self.body.msg).toBe('不能删除当前登录用户');
    const ok = await call(s, admin, 'POST', `${U}/remove?ids=${u.id}`);
    expect(ok.status).toBe(200);
    expect((await call(s, admin, 'GET', `${U}/detail?id=${u.id}`)).status).toBe(404);
  });
});

describe('bad input: the message the user sees, nothing stored', () => {
  const count = () => countRows(s, 'blade_user', `account LIKE $1`, [`${TAG}%`]);

  it('a duplicate account in the tenant: 账号已存在 (another tenant may use it)', async () => {
    const u = await create(admin);
    const before = await count();
    const dup = await call(s, admin, 'POST', `${U}/submit`, newUser({ account: u.account }));
    expect(dup.status).toBe(400);
    expect(dup.body.msg).toBe('账号已存在');
    expect(dup.body.data).toEqual([{ field: 'account', message: '账号已存在' }]);
    expect(await count()).toBe(before);
    const en = await call(s, admin, 'POST', `${U}/submit`, newUser({ account: u.account }), { 'accept-language': 'en' });
    expect(en.body.msg).toBe('This account already exists');
    const elsewhere = await call(s, other, 'POST', `${U}/submit`, newUser({ account: u.account, deptId: otherDept }));
    expect(elsewhere.status, JSON.stringify(elsewhere.body)).toBe(200);
  });

  it('phone numbers (spec 000 §5): empty, length, format', async () => {
    const before = await count();
    const cases: Array<[unknown, string]> = [
      ['', '手机号码不能为空'],
      ['1380013800', '手机号码长度不为11位'],
      ['12012345678', '手机号码格式不正确'],
      ['2380013800a', '手机号码格式不正确'],
    ];
    for (const [p, msg] of cases) {
      const res = await call(s, admin, 'POST', `${U}/submit`, newUser({ phone: p }));
      expect(res.status, String(p)).toBe(400);
      expect(res.body.data).toEqual([{ field: 'phone', message: msg }]);
    }
    const en = await call(s, admin, 'POST', `${U}/submit`, newUser({ phone: '1380013800' }), { 'accept-language': 'en' });
    expect(en.body.msg).toBe('The phone number is not 11 digits long');
    expect(await count()).toBe(before);
  });

  it('ID numbers (GB 11643-1999): check digit, length, format, address code, birth date', async () => {
    const before = await count();
    const cases: Array<[string, string]> = [
      ['110105194912310021', '证件号码校验位错误'],
      ['1101051949123100', '证件号码长度不为18位'],
      ['11010519491231002Y', '证件号码格式错误'],
      ['99010519491231002X', '地址编码错误'],
      ['110105194902300026', '证件号码出生日期错误'],
    ];
    for (const [id, msg] of cases) {
      const res = await call(s, admin, 'POST', `${U}/submit`, newUser({ idcard: id }));
      expect(res.status, id).toBe(400);
      expect(res.body.data).toEqual([{ field: 'idcard', message: msg }]);
    }
    expect(await count()).toBe(before);
  });

  it('required fields and a department of another tenant', async () => {
    const before = await count();
    const empty = await call(s, admin, 'POST', `${U}/submit`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.data.map((f: Json) => f.message)).toEqual(['请输入登录账号', '请输入用户昵称', '请输入用户姓名', '请选择所属部门', '手机号码不能为空']);
    const dept = await call(s, admin, 'POST', `${U}/submit`, newUser({ deptId: otherDept }));
    expect(dept.status).toBe(400);
    expect(dept.body.data).toEqual([{ field: 'deptId', message: '所属部门不存在' }]);
    expect(await count()).toBe(before);
  });

  it('the password hash, the lock and the expert flag cannot be written through submit', async () => {
    const u = await create(admin);
    const hashOf = async () => (await s.kernel.database.pool.query(`SELECT password, lock_until FROM blade_user WHERE id = $1`, [u.id])).rows[0];
    const before = await hashOf();
    const res = await call(s, admin, 'POST', `${U}/submit`, { ...u, password: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([{ field: 'password', message: '未知字段: password' }]);
    // what a list or detail answered besides the form (roles, lock state …) is read-only: sent back, it is ignored
    const res2 = await call(s, admin, 'POST', `${U}/submit`, { ...u, isExpert: true, locked: true, lockUntil: '2099-01-01 00:00:00', mustChangePassword: false });
    expect(res2.status, JSON.stringify(res2.body)).toBe(200);
    expect(res2.body.data).toMatchObject({ isExpert: false, locked: false, lockUntil: null, mustChangePassword: true });
    expect(await hashOf()).toEqual(before);
  });
});

describe('grant (userIds, roleIds)', () => {
  it('replaces the users\' roles with roleIds', async () => {
    const [a, b] = [await create(admin), await create(admin)];
    const researcher = await roleId('000000', 'researcher');
    const manager = await roleId('000000', 'projectManager');
    const res = await call(s, admin, 'POST', `${U}/grant?userIds=${a.id},${b.id}&roleIds=${researcher},${manager}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await rolesOf(a.id)).toEqual([researcher, manager].sort());
    const again = await call(s, admin, 'POST', `${U}/grant`, { userIds: a.id, roleIds: researcher });
    expect(again.status).toBe(200);
    expect(await rolesOf(a.id)).toEqual([researcher]);
    expect(await rolesOf(b.id)).toEqual([researcher, manager].sort());
    const { body } = await call(s, admin, 'GET', `${U}/detail?id=${a.id}`);
    expect(body.data).toMatchObject({ roleId: researcher, roleName: '科研人员' });
    const session = await login(s, a.account, { password: a.initialPassword });
    expect(session.roleIds).toEqual([researcher]);
  });

  it('refuses an unknown role or a role of another tenant, changing nothing', async () => {
    const a = await create(admin);
    const researcher = await roleId('000000', 'researcher');
    await call(s, admin, 'POST', `${U}/grant?userIds=${a.id}&roleIds=${researcher}`);
    const unknown = await call(s, admin, 'POST', `${U}/grant?userIds=${a.id}&roleIds=${researcher},123456789`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toBe('所选角色不存在');
    const foreign = await call(s, admin, 'POST', `${U}/grant?userIds=${a.id}&roleIds=${await roleId('100001', 'researcher')}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.msg).toBe('所选角色不存在');
    const none = await call(s, admin, 'POST', `${U}/grant?userIds=${a.id}&roleIds=`);
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('请选择至少一个角色');
    const bad = await call(s, admin, 'POST', `${U}/grant?userIds=abc&roleIds=${researcher}`);
    expect(bad.status).toBe(400);
    expect(await rolesOf(a.id)).toEqual([researcher]);
  });
});

describe('reset-password, unlock, setExpert', () => {
  it('reset-password: a new random password answered once; the old one fails, the new one logs in and must be changed', async () => {
    const u = await create(admin);
    const res = await call(s, admin, 'POST', `${U}/reset-password?userIds=${u.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [row] = res.body.data;
    expect(row).toMatchObject({ id: u.id, account: u.account });
    expect(row.password).toMatch(/^.{16}$/);
    expect(row.password).not.toBe(u.initialPassword);
    const old = await tokenAttempt(u.account, u.initialPassword);
    expect(old.statusCode).toBe(400);
    expect(old.json().msg).toBe('用户名或密码错误');
    const fresh = await login(s, u.account, { password: row.password });
    expect(fresh.userId).toBe(u.id);
    const flag = await s.kernel.database.pool.query(`SELECT must_change_password FROM blade_user WHERE id = $1`, [u.id]);
    expect(flag.rows[0].must_change_password).toBe(true);
    const two = await call(s, admin, 'POST', `${U}/reset-password`, { userIds: [u.id, (await create(admin)).id] });
    expect(two.status).toBe(200);
    expect(new Set(two.body.data.map((r: Json) => r.password)).size).toBe(2);
  });

  it('unlock: a user locked by 5 failed logins is shown locked and can log in once unlocked', async () => {
    const u = await create(admin);
    for (let i = 0; i < 5; i++) await tokenAttempt(u.account, 'wrong-password-1A!');
    const locked = await tokenAttempt(u.account, u.initialPassword);
    expect(locked.statusCode).toBe(400);
    expect(locked.json().msg).toMatch(/账号已锁定/);
    const { body } = await call(s, admin, 'GET', `${U}/list?account=${u.account}`);
    expect(body.data.records[0].locked).toBe(true);
    expect(body.data.records[0].lockUntil).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const res = await call(s, admin, 'POST', `${U}/unlock?userIds=${u.id}`);
    expect(res.status).toBe(200);
    expect((await call(s, admin, 'GET', `${U}/detail?id=${u.id}`)).body.data).toMatchObject({ locked: false, lockUntil: null });
    const session = await login(s, u.account, { password: u.initialPassword });
    expect(session.userId).toBe(u.id);
  });

  it('setExpert: the flag and the expert role (parameter expert_role), and back', async () => {
    const u = await create(admin);
    const expert = await roleId('000000', 'majorManager');
    const res = await call(s, admin, 'POST', `${U}/setExpert?userIds=${u.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ isExpert: true, roleId: expert });
    expect((await call(s, admin, 'GET', `${U}/detail?id=${u.id}`)).body.data).toMatchObject({ isExpert: true, roleId: expert });
    const off = await call(s, admin, 'POST', `${U}/setExpert?userIds=${u.id}&isExpert=0`);
    expect(off.status).toBe(200);
    expect(await rolesOf(u.id)).toEqual([]);
    const bad = await call(s, admin, 'POST', `${U}/setExpert?userIds=${u.id}&isExpert=maybe`);
    expect(bad.status).toBe(400);
  });

  it('setExpert in another tenant uses that tenant\'s role of the same alias, or only the flag', async () => {
    const u = await create(other);
    const res = await call(s, other, 'POST', `${U}/setExpert?userIds=${u.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ isExpert: true, roleId: null }); // tenant 100001 has no expert role
  });
});

describe('export-user, check-user-by-phone', () => {
  it('export-user streams an xlsx of the filtered users', async () => {
    const u = await create(admin, { realName: '导出测试' });
    const res = await call(s, admin, 'GET', `${U}/export-user?account=${u.account}`);
    expect(res.status).toBe(200);
    expect(res.res.headers['content-type']).toMatch(/spreadsheetml/);
    expect(res.res.headers['content-disposition']).toMatch(/attachment; filename="users\d{14}\.xlsx"/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).getCell(1).value).toBe('登录账号');
    expect(ws.rowCount).toBe(2);
    expect(ws.getRow(2).getCell(1).value).toBe(u.account);
    expect(ws.getRow(2).getCell(2).value).toBe('导出测试');
    const bad = await call(s, admin, 'GET', `${U}/export-user?nosuchfield=1`);
    expect(bad.status).toBe(400);
  });

  it('check-user-by-phone: true for a user of the tenant, false otherwise; a bad number is a 400', async () => {
    const u = await create(admin);
    expect((await call(s, admin, 'GET', `${U}/check-user-by-phone?phone=${u.phone}`)).body.data).toBe(true);
    expect((await call(s, other, 'GET', `${U}/check-user-by-phone?phone=${u.phone}`)).body.data).toBe(false);
    const bad = await call(s, admin, 'GET', `${U}/check-user-by-phone?phone=123`);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('手机号码长度不为11位');
  });
});

describe('platform-detail, update-platform (administrators of 000000)', () => {
  it('reads and changes a user of any tenant; a tenant administrator gets 403', async () => {
    const u = await create(other);
    const d = await call(s, admin, 'GET', `${U}/platform-detail?id=${u.id}`);
    expect(d.status).toBe(200);
    expect(d.body.data).toMatchObject({ id: u.id, tenantId: '100001', userType: 1 });
    expect(d.body.data).not.toHaveProperty('password');
    const up = await call(s, admin, 'POST', `${U}/update-platform`, { id: u.id, userType: 2 });
    expect(up.status).toBe(200);
    expect((await call(s, other, 'GET', `${U}/detail?id=${u.id}`)).body.data.userType).toBe(2);
    const badType = await call(s, admin, 'POST', `${U}/update-platform`, { id: u.id, userType: 9 });
    expect(badType.status).toBe(400);
    expect(badType.body.msg).toBe('请选择用户平台');
    expect((await call(s, other, 'GET', `${U}/platform-detail?id=${u.id}`)).status).toBe(403);
    expect((await call(s, other, 'POST', `${U}/update-platform`, { id: u.id, userType: 3 })).status).toBe(403);
  });
});

describe('isolation and permissions', () => {
  it('another tenant gets nothing: empty list, 404 detail, refused submit, grant, reset, unlock, setExpert, remove', async () => {
    const u = await create(admin);
    const list = await call(s, other, 'GET', `${U}/list?account=${u.account}`);
    expect(list.body.data).toMatchObject({ total: 0, records: [] });
    expect((await call(s, other, 'GET', `${U}/user-list?account=${u.account}`)).body.data).toEqual([]);
    expect((await call(s, other, 'GET', `${U}/detail?id=${u.id}`)).status).toBe(404);
    expect((await call(s, other, 'POST', `${U}/submit`, { ...u, deptId: otherDept, realName: '篡改' })).status).toBe(404);
    const role = await roleId('100001', 'researcher');
    for (const url of [`grant?userIds=${u.id}&roleIds=${role}`, `reset-password?userIds=${u.id}`, `unlock?userIds=${u.id}`, `setExpert?userIds=${u.id}`, `remove?ids=${u.id}`]) {
      const res = await call(s, other, 'POST', `${U}/${url}`);
      expect(res.status, url).toBe(404);
    }
    const after = await call(s, admin, 'GET', `${U}/detail?id=${u.id}`);
    expect(after.body.data).toMatchObject({ realName: '王小明', isExpert: false, roleId: '' });
    await login(s, u.account, { password: u.initialPassword }); // the password was not reset
  });

  it('a non-administrator gets 403 on every call', async () => {
    const u = await create(admin);
    const gets = ['list', 'page', 'user-list', 'select', `detail?id=${u.id}`, `platform-detail?id=${u.id}`, 'export-user', `check-user-by-phone?phone=${u.phone}`];
    for (const g of gets) expect((await call(s, kyry, 'GET', `${U}/${g}`)).status, g).toBe(403);
    const posts: Array<[string, unknown]> = [
      ['submit', newUser()],
      ['update', { ...u, realName: 'x' }],
      ['update-platform', { id: u.id, userType: 2 }],
      [`grant?userIds=${u.id}&roleIds=${await roleId('000000', 'researcher')}`, undefined],
      [`reset-password?userIds=${u.id}`, undefined],
      [`setExpert?userIds=${u.id}`, undefined],
      [`unlock?userIds=${u.id}`, undefined],
      [`remove?ids=${u.id}`, undefined],
    ];
    for (const [p, body] of posts) expect((await call(s, kyry, 'POST', `${U}/${p}`, body)).status, p).toBe(403);
    expect((await call(s, null, 'GET', `${U}/list`)).status).toBe(401);
  });

  it('/api/blade-user/info still answers the signed-in user', async () => {
    const { status, body } = await call(s, kyry, 'GET', `${U}/info`);
    expect(status).toBe(200);
    expect(body.data.account).toBe('kyry');
  });
});
