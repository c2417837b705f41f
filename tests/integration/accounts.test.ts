/**
 * Accounts (issue 10; spec 000 §2.7, §2.9–§2.11, §3.3–§3.4, §4, §5, §7, §8; DESIGN §8 'Messages out'): the
 * self-service calls (update-password, update-info, info, checkPasswordTime, checkInit, showInitPassWord), the
 * SMS codes and their limits (6 characters, 5-minute expiry, 1 per 60 s and 10 per day per phone, the 5th wrong
 * try burns a code), password reset and phone change by code, login by phone (token-by-phone), register-guest
 * and its approval, the outbox administrators read, wechat log-off. Bad input: the user's message and nothing
 * stored. Another tenant gets nothing. Each test creates its own users (demo accounts are shared).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC, call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let other: Session; // administrator of 100001
const TAG = `acc${Date.now().toString(36)}`;
const U = '/api/blade-user';
const SMS = '/api/blade-resource/sms/endpoint';
let seq = 0;

beforeAll(async () => {
  s = await testServer();
  [admin, other] = await Promise.all([login(s, 'admin'), login(s, 'admin', { tenantId: '100001' })]);
});
afterAll(async () => {
  await s?.close();
});

const q = (text: string, params: unknown[] = []) => s.kernel.database.pool.query(text, params);
const phone = () => `137${String(Date.now() % 1e5).padStart(5, '0')}${String(++seq).padStart(3, '0')}`;
const roleId = async (alias: string, tenantId = '000000') =>
  (await q(`SELECT id::text AS id FROM blade_role WHERE tenant_id = $1 AND role_alias = $2 AND is_deleted = 0 ORDER BY parent_id LIMIT 1`, [tenantId, alias])).rows[0].id as string;

interface NewUser {
  id: string;
  account: string;
  phone: string;
  password: string;
  tenantId: string;
}

/**
 * A user an administrator creates, with roles of the given aliases. `mustChange` (default false) keeps the mark
 * of the generated password (the account must change it first); otherwise it is cleared, as after a change.
 */
async function createUser(aliases: string[] = ['researcher'], who: Session = admin, mustChange = false): Promise<NewUser> {
  const tenantId = who === other ? '100001' : '000000';
  const p = phone();
  const res = await call(s, who, 'POST', `${U}/submit`, { account: `${TAG}_${++seq}`, name: '小李', realName: '李小华', deptId: who.deptId, phone: p });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const u = res.body.data;
  const roleIds = await Promise.all(aliases.map((a) => roleId(a, tenantId)));
  const g = await call(s, who, 'POST', `${U}/grant?userIds=${u.id}&roleIds=${roleIds.join(',')}`);
  expect(g.status, JSON.stringify(g.body)).toBe(200);
  if (!mustChange) await q(`UPDATE blade_user SET must_change_password = false WHERE id = $1`, [u.id]);
  return { id: u.id, account: u.account, phone: p, password: u.initialPassword, tenantId };
}

const as = (u: NewUser, password = u.password) => login(s, u.account, { tenantId: u.tenantId, password });
const hashOf = async (id: string) => (await q(`SELECT password FROM blade_user WHERE id = $1`, [id])).rows[0].password as string;
const userRow = async (id: string) => (await q(`SELECT * FROM blade_user WHERE id = $1`, [id])).rows[0];

/** The newest code the outbox holds for `p`, as an administrator of the tenant reads it. */
async function codeFor(p: string, who: Session = admin): Promise<string> {
  const res = await call(s, who, 'GET', `/api/blade-system/outbox/list?recipient=${p}&size=10`);
  expect(res.status).toBe(200);
  const m = /验证码为 (\d{6})/.exec(res.body.data.records[0]?.content ?? '');
  expect(m, 'a code in the outbox').not.toBeNull();
  return m![1];
}

const send = (body: Json, who: Session | null = null) => call(s, who, 'POST', `${SMS}/send-validate`, body);
/** Lets the 60-second wait of `p` pass (the code rows are moved back in time). */
const age = (p: string, seconds = 61) => q(`UPDATE kc_sms_code SET create_time = create_time - make_interval(secs => $2) WHERE phone = $1`, [p, seconds]);

async function setParam(key: string, value: string | null): Promise<void> {
  await q(`DELETE FROM blade_param WHERE param_key = $1`, [key]);
  if (value !== null) await q(`INSERT INTO blade_param (id, param_name, param_key, param_value) VALUES ((random() * 1e15)::bigint, $1, $1, $2)`, [key, value]);
}

describe('update-password (spec 000 §2.11, §5)', () => {
  it('bad input gives the spec\'s message and changes nothing; a good change works and clears must_change_password', async () => {
    const u = await createUser(['researcher'], admin, true);
    const me = await as(u);
    const before = await hashOf(u.id);
    const cases: Array<[Json, string, string]> = [
      [{ newPassword: 'Abcdef12', newPassword1: 'Abcdef12' }, 'oldPassword', '请输入原密码'],
      [{ oldPassword: u.password, newPassword1: 'x' }, 'newPassword', '请输入新密码'],
      [{ oldPassword: u.password, newPassword: 'abcdefgh', newPassword1: 'abcdefgh' }, 'newPassword', '密码长度为8-16位,且至少包含数字、小写字母、大写字母、特殊符号中的两种'],
      [{ oldPassword: u.password, newPassword: 'abc12', newPassword1: 'abc12' }, 'newPassword', '密码长度为8-16位,且至少包含数字、小写字母、大写字母、特殊符号中的两种'],
      [{ oldPassword: u.password, newPassword: 'abcdefgh12345678X', newPassword1: 'abcdefgh12345678X' }, 'newPassword', '密码长度为8-16位,且至少包含数字、小写字母、大写字母、特殊符号中的两种'],
      [{ oldPassword: u.password, newPassword: 'abcdefg1' }, 'newPassword1', '请输入确认密码'],
      [{ oldPassword: u.password, newPassword: 'abcdefg1', newPassword1: 'abcdefg2' }, 'newPassword1', '两次输入密码不一致'],
      [{ oldPassword: 'Wrong#123', newPassword: 'abcdefg1', newPassword1: 'abcdefg1' }, 'oldPassword', '原密码不正确'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await call(s, me, 'POST', `${U}/update-password`, payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.msg).toBe(message);
      expect(res.body.data).toEqual([{ field, message }]);
    }
    const en = await call(s, me, 'POST', `${U}/update-password`, { oldPassword: u.password, newPassword: 'abcdefg1', newPassword1: 'abcdefg2' }, { 'accept-language': 'en' });
    expect(en.body.msg).toBe('the two passwords do not match');
    expect(await hashOf(u.id)).toBe(before);
    expect((await userRow(u.id)).must_change_password).toBe(true);

    const okRes = await call(s, me, 'POST', `${U}/update-password`, { oldPassword: u.password, newPassword: 'abcdefg1', newPassword1: 'abcdefg1' });
    expect(okRes.status).toBe(200);
    expect(okRes.body.msg).toBe('修改密码成功');
    expect((await userRow(u.id)).must_change_password).toBe(false);
    await expect(as(u)).rejects.toThrow(/用户名或密码错误/);
    await as(u, 'abcdefg1');
  });
});

describe('onboarding status (spec 000 §3.4, §4)', () => {
  it('checkInit: a created account has step 0 pending; who sees which step depends on the role alias', async () => {
    const researcher = await as(await createUser(['researcher'], admin, true));
    const pm = await as(await createUser(['projectManager'], admin, true));
    const expert = await as(await createUser(['majorManager'], admin, true));
    const r = await call(s, researcher, 'GET', `${U}/checkInit`);
    expect(r.body.data).toEqual({ step: 0, hasStep: [0], desc: '请修改初始密码' });
    const p = await call(s, pm, 'GET', `${U}/checkInit`);
    expect(p.body.data).toMatchObject({ step: 0, hasStep: [0, 3] });
    const e = await call(s, expert, 'GET', `${U}/checkInit`, undefined, { 'accept-language': 'en' });
    expect(e.body.data).toEqual({ step: 0, hasStep: [0], desc: 'Please change the initial password' });
    expect((await call(s, researcher, 'GET', `${U}/showInitPassWord`)).body.data).toBe(true);
  });

  it('a password an administrator resets puts step 0 pending again, whatever was done before', async () => {
    const u = await createUser(['projectManager']);
    const me = await as(u);
    expect((await call(s, me, 'GET', `${U}/checkInit`)).body.data).toMatchObject({ hasStep: [3] });
    const reset = await call(s, admin, 'POST', `${U}/reset-password?userIds=${u.id}`);
    expect(reset.status).toBe(200);
    const again = await as(u, reset.body.data[0].password);
    expect((await call(s, again, 'GET', `${U}/checkInit`)).body.data).toMatchObject({ step: 0, hasStep: [0, 3] });
    expect((await call(s, again, 'GET', `${U}/showInitPassWord`)).body.data).toBe(true);
  });

  it('binding and signature are pending only when the parameters ask for them; majorMan never sees them', async () => {
    const u = await createUser(['researcher']);
    const x = await createUser(['majorManager']);
    const me = await as(u);
    expect((await call(s, me, 'GET', `${U}/checkInit`)).body.data).toMatchObject({ step: 4, hasStep: [], desc: '已完成' });
    try {
      await setParam('onboarding_bind', '1');
      await setParam('onboarding_sign', '1');
      expect((await call(s, me, 'GET', `${U}/checkInit`)).body.data).toMatchObject({ step: 1, hasStep: [1, 2] });
      expect((await call(s, await as(x), 'GET', `${U}/checkInit`)).body.data).toMatchObject({ step: 4, hasStep: [] });
      const signed = await call(s, me, 'POST', `${U}/update-info`, { signTemplate: '/upload/20250101/sign.png' });
      expect(signed.status).toBe(200);
      expect((await call(s, me, 'GET', `${U}/checkInit`)).body.data).toMatchObject({ step: 1, hasStep: [1] });
      const bad = await call(s, me, 'POST', `${U}/update-info`, { signTemplate: 'javascript:alert(1)' });
      expect(bad.status).toBe(400);
      expect(bad.body.msg).toBe('签名图片地址无效');
      expect((await userRow(u.id)).sign_template).toBe('/upload/20250101/sign.png');
    } finally {
      await setParam('onboarding_bind', null);
      await setParam('onboarding_sign', null);
    }
  });

  it('checkPasswordTime reminds after password_update_time months', async () => {
    const u = await createUser();
    const me = await as(u);
    const fresh = await call(s, me, 'GET', `${U}/checkPasswordTime`);
    expect(fresh.body.data).toMatchObject({ remind: false, months: 3 });
    await q(`UPDATE blade_user SET password_time = now() - interval '4 months' WHERE id = $1`, [u.id]);
    expect((await call(s, me, 'GET', `${U}/checkPasswordTime`)).body.data).toMatchObject({ remind: true, months: 3 });
  });
});

describe('personal info (spec 000 §2.11, §3.3, §5)', () => {
  const valid = { realName: '李小华', sex: 3, email: 'li@example.com', idcard: '11010519491231002X', zcLevel: '4', zc: '工程师', zw: '科员', education: '4', job: '粮食储藏', school: '河南工业大学', graduationDate: '2010-07-01' };

  it('saves the form, derives sex and birthday from the ID number and ignores read-only fields', async () => {
    const u = await createUser();
    const me = await as(u);
    const res = await call(s, me, 'POST', `${U}/update-info`, { ...valid, account: 'hacked', phone: '13900000000', id: admin.userId, isPerfect: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.msg).toBe('修改信息成功');
    expect(res.body.data).toMatchObject({ id: u.id, account: u.account, phone: u.phone, sex: 2, birthday: '1949-12-31', idcard: '11010519491231002X', isPerfect: true, zc: '工程师' });
    const info = await call(s, me, 'GET', `${U}/info`);
    expect(info.body.data).toMatchObject({ account: u.account, companyName: expect.any(String), deptName: expect.any(String), realName: '李小华' });
    expect((await userRow(admin.userId)).zc).not.toBe('工程师');
  });

  it('bad input: the field\'s message, nothing stored', async () => {
    const u = await createUser();
    const me = await as(u);
    const before = await userRow(u.id);
    const cases: Array<[Json, string, string]> = [
      [{ ...valid, realName: '' }, 'realName', '请输入用户姓名'],
      [{ ...valid, idcard: '11010519491231002' }, 'idcard', '证件号码长度不为18位'],
      [{ ...valid, idcard: '110105194912310021' }, 'idcard', '证件号码校验位错误'],
      [{ ...valid, idcard: '99010519491231002X' }, 'idcard', '地址编码错误'],
      [{ ...valid, zcLevel: '' }, 'zcLevel', '请选择职称级别'],
      [{ ...valid, job: 'x'.repeat(31) }, 'job', expect.stringContaining('30') as unknown as string],
      [{ ...valid, email: 'not-mail' }, 'email', '请输入正确的电子邮箱'],
      [{ ...valid, graduationDate: '2010-02-30' }, 'graduationDate', expect.any(String) as unknown as string],
    ];
    for (const [payload, field, message] of cases) {
      const res = await call(s, me, 'POST', `${U}/update-info`, payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.data[0]).toEqual({ field, message });
    }
    // required fields cannot be left empty: the stored record (empty) plus one field is not a valid form
    const partial = await call(s, me, 'POST', `${U}/update-info`, { email: 'a@b.cn' });
    expect(partial.status).toBe(400);
    expect(await userRow(u.id)).toEqual(before);
    // 'complete later' sends only id and isPerfect
    const skip = await call(s, me, 'POST', `${U}/update-info`, { id: u.id, isPerfect: true });
    expect(skip.status).toBe(200);
    expect((await userRow(u.id)).is_perfect).toBe(true);
  });

  it('another tenant gets nothing: its users read and change only themselves', async () => {
    const mine = await createUser();
    const theirs = await as(await createUser(['researcher'], other));
    const res = await call(s, theirs, 'POST', `${U}/update-info`, { ...valid, id: mine.id });
    expect(res.status).toBe(200);
    expect(res.body.data.tenantId).toBe('100001');
    expect((await userRow(mine.id)).zc).toBeNull();
    const off = await call(s, theirs, 'GET', `/api/system/wechatEndpoint/log-off-by-userId?userId=${mine.id}`);
    expect(off.status).toBe(403);
    const otherAdmin = await call(s, other, 'GET', `/api/system/wechatEndpoint/log-off-by-userId?userId=${mine.id}`);
    expect(otherAdmin.status).toBe(404);
  });
});

describe('SMS codes (spec 000 §4, §5, §9; DESIGN §8)', () => {
  it('send-validate checks the phone, the account and the tenant first; nothing is sent or stored', async () => {
    const u = await createUser();
    const codes = () => countRows(s, 'kc_sms_code', 'tenant_id = $1 AND phone = $2', ['000000', u.phone]);
    const cases: Array<[Json, string]> = [
      [{ tenantId: '000000', account: u.account }, '手机号码不能为空'],
      [{ phone: '1380013800', tenantId: '000000', account: u.account }, '手机号码长度不为11位'],
      [{ phone: '12000138000', tenantId: '000000', account: u.account }, '手机号码格式不正确'],
      [{ phone: u.phone, tenantId: '999999', account: u.account }, '租户不存在或已过期'],
      [{ phone: '13912345678', tenantId: '000000', account: u.account }, '手机号与账号不匹配'],
      [{ phone: u.phone, tenantId: '100001', account: u.account }, '账号不存在'],
      [{ phone: u.phone, tenantId: '000000', account: u.account, purpose: 'spam' }, '参数 purpose 只能是 password、login 或 phone'],
    ];
    for (const [payload, message] of cases) {
      const res = await send(payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.msg).toBe(message);
    }
    expect(await codes()).toBe(0);
    expect(await countRows(s, 'kc_outbox', 'recipient = $1', [u.phone])).toBe(0);
  });

  it('one code per 60 seconds and 10 a day per phone; the outbox stores each message for the tenant\'s administrators only', async () => {
    const u = await createUser();
    const first = await send({ phone: u.phone, tenantId: '000000', account: u.account });
    expect(first.status).toBe(200);
    expect(first.body.msg).toBe('验证码已发送至您的手机');
    expect(first.body.data.id).toMatch(/^\d+$/);
    const again = await send({ phone: u.phone, tenantId: '000000', account: u.account });
    expect(again.status).toBe(400);
    expect(again.body.msg).toMatch(/^验证码发送过于频繁,请 \d+ 秒后再试$/);
    for (let i = 0; i < 9; i++) {
      await age(u.phone);
      expect((await send({ phone: u.phone, tenantId: '000000', account: u.account })).status).toBe(200);
    }
    await age(u.phone);
    const eleventh = await send({ phone: u.phone, tenantId: '000000', account: u.account });
    expect(eleventh.body.msg).toBe('该手机号今日获取验证码次数已达上限');
    expect(await countRows(s, 'kc_sms_code', 'phone = $1', [u.phone])).toBe(10);
    expect(await codeFor(u.phone)).toMatch(/^\d{6}$/);
    const foreign = await call(s, other, 'GET', `/api/blade-system/outbox/list?recipient=${u.phone}`);
    expect(foreign.body.data).toMatchObject({ records: [], total: 0 });
    const notAdmin = await call(s, await as(u), 'GET', '/api/blade-system/outbox/list');
    expect(notAdmin.status).toBe(403);
  });

  it('a forgotten password: validate-message trades the code for a one-time code; the 5th wrong try burns it; expired codes fail', async () => {
    const u = await createUser();
    const id = (await send({ phone: u.phone, tenantId: '000000', account: u.account })).body.data.id;
    const code = await codeFor(u.phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const validate = (value: string) => call(s, null, 'POST', `${SMS}/validate-message`, { id, phone: u.phone, tenantId: '000000', account: u.account, value });
    expect((await validate('')).body.msg).toBe('请输入验证码');
    expect((await validate('12345')).body.msg).toBe('验证码长度为6位');
    for (let i = 1; i <= 4; i++) expect((await validate(wrong)).body.msg).toBe('验证码错误');
    expect((await validate(wrong)).body.msg).toBe('验证码错误次数过多,请重新获取');
    expect((await validate(code)).body.msg).toBe('验证码已失效,请重新获取');

    await age(u.phone);
    const id2 = (await send({ phone: u.phone, tenantId: '000000', account: u.account })).body.data.id;
    await q(`UPDATE kc_sms_code SET expires_at = now() - interval '1 second' WHERE id = $1`, [id2]);
    const expired = await call(s, null, 'POST', `${SMS}/validate-message`, { id: id2, phone: u.phone, tenantId: '000000', account: u.account, value: await codeFor(u.phone) });
    expect(expired.body.msg).toBe('验证码已失效,请重新获取');

    await age(u.phone);
    const id3 = (await send({ phone: u.phone, tenantId: '000000', account: u.account })).body.data.id;
    const good = await call(s, null, 'POST', `${SMS}/validate-message`, { id: id3, phone: u.phone, tenantId: '000000', account: u.account, value: await codeFor(u.phone) });
    expect(good.status).toBe(200);
    const ticket = good.body.data.code as string;
    const before = await hashOf(u.id);
    const by = (payload: Json) => call(s, null, 'POST', `${U}/update-password-by-smscode`, { account: u.account, tenantId: '000000', code: ticket, ...payload });
    const weak = await by({ newPassword: 'abcdefg1', newPassword1: 'abcdefg1' });
    expect(weak.body.msg).toBe('密码长度为8-16位,且必须包含大小写字母、数字和特殊符号');
    expect((await by({ newPassword: 'Abcdef#1', newPassword1: 'Abcdef#2' })).body.msg).toBe('两次输入密码不一致');
    expect(await hashOf(u.id)).toBe(before);
    const changed = await by({ newPassword: 'Abcdef#1', newPassword1: 'Abcdef#1' });
    expect(changed.status).toBe(200);
    expect((await userRow(u.id)).must_change_password).toBe(false);
    await as(u, 'Abcdef#1');
    expect((await by({ newPassword: 'Abcdef#9', newPassword1: 'Abcdef#9' })).body.msg).toBe('验证码已失效,请重新获取');
  });

  it('an account with a generated password can do nothing else until it changes it (with a code: onboarding step 0)', async () => {
    const u = await createUser(['researcher'], admin, true);
    const me = await as(u);
    const blocked = await call(s, me, 'GET', '/api/basic/patent/list');
    expect(blocked.status).toBe(403);
    expect(blocked.body.msg).toBe('请先修改初始密码');
    expect((await call(s, me, 'POST', `${U}/update-info`, { id: u.id, isPerfect: true })).status).toBe(403);
    expect((await userRow(u.id)).is_perfect).toBe(false);
    for (const url of [`${U}/info`, `${U}/checkInit`, '/api/blade-system/menu/routes']) expect((await call(s, me, 'GET', url)).status, url).toBe(200);
    const id = (await send({ phone: u.phone, tenantId: '000000', account: u.account }, me)).body.data.id;
    const ticket = (await call(s, me, 'POST', `${SMS}/validate-message`, { id, phone: u.phone, tenantId: '000000', account: u.account, value: await codeFor(u.phone) })).body.data.code;
    const changed = await call(s, me, 'POST', `${U}/update-password-by-smscode`, { account: u.account, tenantId: '000000', code: ticket, newPassword: 'Abcdef#1', newPassword1: 'Abcdef#1' });
    expect(changed.status).toBe(200);
    expect((await call(s, me, 'GET', '/api/basic/patent/list')).status).toBe(200);
    expect((await call(s, me, 'GET', `${U}/checkInit`)).body.data).toMatchObject({ step: 4, hasStep: [] });
  });

  it('token-by-phone logs in with a login code; a wrong code or an unknown phone does not', async () => {
    const u = await createUser();
    const tokenByPhone = (p: string, key: string, code: string) =>
      s.app.inject({ method: 'POST', url: '/api/blade-auth/oauth/token-by-phone', headers: { authorization: BASIC, 'tenant-id': '000000', 'sms-key': key, 'sms-code': code }, payload: { phone: p } });
    const unknown = await send({ phone: '13700000001', tenantId: '000000', purpose: 'login' });
    expect(unknown.body.msg).toBe('该手机号未绑定账号');
    const key = (await send({ phone: u.phone, tenantId: '000000', purpose: 'login' })).body.data.id;
    const code = await codeFor(u.phone);
    const bad = await tokenByPhone(u.phone, key, code === '000000' ? '111111' : '000000');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe('验证码错误');
    const res = await tokenByPhone(u.phone, key, code);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({ account: u.account, user_id: u.id, token_type: 'bearer' });
    expect((await tokenByPhone(u.phone, key, code)).json().msg).toBe('验证码已失效,请重新获取');
    // a code for a password reset is not a login code
    await age(u.phone);
    const pw = (await send({ phone: u.phone, tenantId: '000000', account: u.account })).body.data.id;
    expect((await tokenByPhone(u.phone, pw, await codeFor(u.phone))).json().msg).toBe('验证码已失效,请重新获取');
  });

  it('update-phone-by-smscode changes my number with a code sent to the new one; a number in use is refused', async () => {
    const u = await createUser();
    const taken = await createUser();
    const me = await as(u);
    const inUse = await send({ phone: taken.phone, tenantId: '000000', purpose: 'phone' }, me);
    expect(inUse.body.msg).toBe('该手机号已被其他账号使用');
    expect((await send({ phone: phone(), tenantId: '000000', purpose: 'phone' })).status).toBe(401);
    const fresh = phone();
    const id = (await send({ phone: fresh, tenantId: '000000', purpose: 'phone' }, me)).body.data.id;
    const code = await codeFor(fresh);
    expect((await call(s, me, 'POST', `${U}/update-phone-by-smscode`, { phone: fresh, id, value: '12' })).body.msg).toBe('验证码长度为6位');
    expect((await userRow(u.id)).phone).toBe(u.phone);
    const res = await call(s, me, 'POST', `${U}/update-phone-by-smscode`, { phone: fresh, id, value: code });
    expect(res.status).toBe(200);
    expect((await userRow(u.id)).phone).toBe(fresh);
  });
});

describe('the login page (spec 000 §2.6, §7 tenant info by domain)', () => {
  it('tenant/info answers the live tenant serving a domain, and nothing for an unknown or expired one', async () => {
    const domain = `${TAG}.kc.test`;
    const before = (await q(`SELECT domain, expire_time FROM blade_tenant WHERE tenant_id = '100001'`)).rows[0];
    try {
      await q(`UPDATE blade_tenant SET domain = $1 WHERE tenant_id = '100001'`, [domain]);
      const hit = await call(s, null, 'GET', `/api/blade-system/tenant/info?domain=${domain.toUpperCase()}`);
      expect(hit.status).toBe(200);
      expect(hit.body.data).toMatchObject({ tenantId: '100001', domain });
      expect((await call(s, null, 'GET', `/api/blade-system/tenant/info?domain=nobody.${domain}`)).body.data).toBeNull();
      const missing = await call(s, null, 'GET', '/api/blade-system/tenant/info');
      expect(missing.status).toBe(400);
      await q(`UPDATE blade_tenant SET expire_time = now() - interval '1 day' WHERE tenant_id = '100001'`);
      expect((await call(s, null, 'GET', `/api/blade-system/tenant/info?domain=${domain}`)).body.data).toBeNull();
    } finally {
      await q(`UPDATE blade_tenant SET domain = $1, expire_time = $2 WHERE tenant_id = '100001'`, [before.domain, before.expire_time]);
    }
  });
});

describe('register-guest (spec 000 §2.7, §5, §8)', () => {
  const reg = (body: Json) => call(s, null, 'POST', `${U}/register-guest`, body);

  it('checks in the spec\'s order and stores nothing on bad input', async () => {
    const account = `${TAG}_reg${++seq}`;
    const cases: Array<[Json, string]> = [
      [{ account, password: 'abcdefg1', password2: 'abcdefg1' }, '请先输入租户编号'],
      [{ tenantId: '000000', password: '', password2: '' }, '请先输入账号名称'],
      [{ tenantId: '000000', account, password: 'abcdefg1' }, '请先输入密码'],
      [{ tenantId: '000000', account, password: 'abcdefg1', password2: 'abcdefg2' }, '两次密码输入不一致'],
      [{ tenantId: '000000', account, password: 'abcdefgh', password2: 'abcdefgh' }, '密码长度为8-16位,且至少包含数字、小写字母、大写字母、特殊符号中的两种'],
      [{ tenantId: '000000', account: 'a b', password: 'abcdefg1', password2: 'abcdefg1' }, '账号只能包含字母、数字和 _ . @ -,最多45个字符'],
      [{ tenantId: '999999', account, password: 'abcdefg1', password2: 'abcdefg1' }, '租户不存在或已过期'],
      [{ tenantId: '000000', account: 'admin', password: 'abcdefg1', password2: 'abcdefg1' }, '账号已存在'],
      [{ tenantId: '000000', account, password: 'abcdefg1', password2: 'abcdefg1', oauth_id: '123' }, '第三方账号信息已失效,请重新登录'],
    ];
    for (const [payload, message] of cases) {
      const res = await reg(payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.msg).toBe(message);
    }
    expect(await countRows(s, 'blade_user', 'account = $1', [account])).toBe(0);
  });

  it('a registration waits for an administrator of its tenant, then signs in; a third-party identity is bound only with its social sign-in\'s cookie', async () => {
    const account = `${TAG}_reg${++seq}`;
    const oauth = await q(`INSERT INTO blade_user_oauth (id, tenant_id, source, uuid, username) VALUES ((random() * 1e15)::bigint, '000000', 'oidc', $1, $1) RETURNING id::text AS id`, [account]);
    // an identity id alone (without the kc_social_reg cookie of its social grant, social.test.ts) binds nothing
    const stolen = await reg({ tenantId: '000000', name: '新用户', account, password: 'abcdefg1', password2: 'abcdefg1', oauth_id: oauth.rows[0].id });
    expect(stolen.status).toBe(400);
    expect(stolen.body.msg).toBe('第三方账号信息已失效,请重新登录');
    expect(await countRows(s, 'blade_user', 'account = $1', [account])).toBe(0);
    const res = await reg({ tenantId: '000000', name: '新用户', account, password: 'abcdefg1', password2: 'abcdefg1' });
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe('注册申请已提交,请耐心等待管理员通过!');
    const row = (await q(`SELECT id::text AS id, status, register_status FROM blade_user WHERE account = $1`, [account])).rows[0];
    expect(row).toMatchObject({ status: 0, register_status: 1 });
    expect((await q(`SELECT user_id::text AS u FROM blade_user_oauth WHERE id = $1`, [oauth.rows[0].id])).rows[0].u).toBeNull();
    await expect(login(s, account, { password: 'abcdefg1' })).rejects.toThrow(/账号已被禁用/);
    expect((await call(s, other, 'POST', `${U}/approve-register?userIds=${row.id}`)).status).toBe(404);
    const u = await createUser();
    expect((await call(s, await as(u), 'POST', `${U}/approve-register?userIds=${row.id}`)).status).toBe(403);
    expect((await call(s, admin, 'POST', `${U}/approve-register?userIds=${row.id}`)).status).toBe(200);
    await login(s, account, { password: 'abcdefg1' });
  });
});
