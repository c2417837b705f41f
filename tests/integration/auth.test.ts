/**
 * Login and session against the real database (issue 2 'Tests that must exist': good, wrong password, wrong
 * captcha, reused captcha, lockout, refresh and rotation, unknown client), plus logout, user info, the
 * X-Test-Captcha rule and the rate limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC, call, login, testServer, type TestServer } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await testServer();
});
afterAll(async () => {
  await s.close();
});

const token = (payload: Record<string, string>, headers: Record<string, string> = {}) =>
  s.app.inject({
    method: 'POST',
    url: '/api/blade-auth/oauth/token',
    headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(payload).toString(),
  });

async function captcha(srv: TestServer = s): Promise<{ key: string; text: string; image: string }> {
  const res = await srv.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  return { key: body.key, image: body.image, text: String(res.headers['x-test-captcha'] ?? '') };
}

describe('password grant', () => {
  it('answers the OAuth fields of the contract and a token that works', async () => {
    const res = await token({ grant_type: 'password', username: 'kyry', password: s.password, tenantId: '000000' });
    expect(res.statusCode).toBe(200);
    const b = res.json();
    for (const k of ['access_token', 'refresh_token', 'token_type', 'expires_in', 'tenant_id', 'user_id', 'dept_id', 'role_id', 'role_name', 'account', 'user_name', 'nick_name', 'real_name', 'avatar']) {
      expect(b, k).toHaveProperty(k);
    }
    expect(b.token_type).toBe('bearer');
    expect(b.tenant_id).toBe('000000');
    expect(b.account).toBe('kyry');
    expect(b.role_name).toBe('researcher');
    expect(b.expires_in).toBe(3600);
    expect(typeof b.user_id).toBe('string');
    const info = await call(s, { token: b.access_token } as any, 'GET', '/api/blade-auth/oauth/user-info');
    expect(info.status).toBe(200);
    expect(info.body.data.account).toBe('kyry');
    expect(info.body.data.realName).toBe('刘研');
    // every role is named in both languages (the shell shows the current role in the top bar)
    expect(info.body.data.roles).toEqual([{ id: b.role_id, roleName: '科研人员', roleNameEn: 'Researcher', roleAlias: 'researcher' }]);
  });

  it('takes the parameters from the query string as well, and the tenant from the Tenant-Id header', async () => {
    const qs = new URLSearchParams({ grant_type: 'password', username: 'admin', password: s.password }).toString();
    const res = await s.app.inject({ method: 'POST', url: `/api/blade-auth/oauth/token?${qs}`, headers: { authorization: BASIC, 'tenant-id': '100001' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().tenant_id).toBe('100001');
    expect(res.json().real_name).toBe('租户管理员');
  });

  it('refuses a wrong password with 400 用户名或密码错误 (and en text on request)', async () => {
    const res = await token({ grant_type: 'password', username: 'kygl', password: 'Wrong-pass-1', tenantId: '000000' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, success: false, msg: '用户名或密码错误' });
    const en = await token({ grant_type: 'password', username: 'kygl', password: 'Wrong-pass-1' }, { 'accept-language': 'en-US,en;q=0.9' });
    expect(en.json().msg).toBe('Wrong user name or password');
    // a correct login resets the failure count
    await login(s, 'kygl');
  });

  it('refuses an unknown account with the same message', async () => {
    const res = await token({ grant_type: 'password', username: 'nobody', password: s.password });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('用户名或密码错误');
  });

  it('refuses an unknown or missing client with 401', async () => {
    const bad = await s.app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      headers: { authorization: 'Basic ' + Buffer.from('saber:wrong').toString('base64') },
      payload: { grant_type: 'password', username: 'kyry', password: s.password },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().msg).toBe('客户端认证失败');
    const unknown = await s.app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      headers: { authorization: 'Basic ' + Buffer.from('nobody:x').toString('base64') },
      payload: { grant_type: 'password', username: 'kyry', password: s.password },
    });
    expect(unknown.statusCode).toBe(401);
    const none = await s.app.inject({ method: 'POST', url: '/api/blade-auth/oauth/token', payload: { grant_type: 'password', username: 'kyry', password: s.password } });
    expect(none.statusCode).toBe(401);
  });

  it('locks the account after 5 failures for 30 minutes, even for the right password', async () => {
    for (let i = 1; i <= 4; i++) {
      const r = await token({ grant_type: 'password', username: 'zj', password: `Wrong-${i}` });
      expect(r.json().msg).toBe('用户名或密码错误');
    }
    const fifth = await token({ grant_type: 'password', username: 'zj', password: 'Wrong-5' });
    expect(fifth.statusCode).toBe(400);
    expect(fifth.json().msg).toBe('登录失败次数过多，账号已锁定，请 30 分钟后再试');
    const right = await token({ grant_type: 'password', username: 'zj', password: s.password });
    expect(right.statusCode).toBe(400);
    expect(right.json().msg).toMatch(/账号已锁定，请 (29|30) 分钟后再试/);
    await s.kernel.database.pool.query(`UPDATE blade_user SET lock_until = NULL, fail_count = 0 WHERE account = 'zj'`);
    expect((await login(s, 'zj')).body.account).toBe('zj');
  });
});

describe('captcha grant', () => {
  it('serves a 5-character SVG captcha; the test server tells its text in X-Test-Captcha', async () => {
    const c = await captcha();
    expect(c.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(c.image.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(Buffer.from(c.image.split(',')[1], 'base64').toString()).toContain('<svg');
    expect(c.text).toHaveLength(5);
  });

  it('never reveals the captcha text outside NODE_ENV=test', async () => {
    const prod = await testServer({ isTest: false });
    try {
      const res = await prod.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-test-captcha']).toBeUndefined();
    } finally {
      await prod.close();
    }
  });

  it('logs in with the right captcha, case-insensitively', async () => {
    const c = await captcha();
    const res = await token({ grant_type: 'captcha', username: 'kyry', password: s.password }, { 'captcha-key': c.key, 'captcha-code': c.text.toUpperCase() === c.text ? c.text.toLowerCase() : c.text.toUpperCase() });
    expect(res.statusCode).toBe(200);
    expect(res.json().account).toBe('kyry');
  });

  it('refuses a wrong captcha with 400 验证码不正确, and that captcha is then used up', async () => {
    const c = await captcha();
    const wrong = await token({ grant_type: 'captcha', username: 'kyry', password: s.password }, { 'captcha-key': c.key, 'captcha-code': 'zzzzz' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().msg).toBe('验证码不正确');
    const retry = await token({ grant_type: 'captcha', username: 'kyry', password: s.password }, { 'captcha-key': c.key, 'captcha-code': c.text });
    expect(retry.statusCode).toBe(400);
    expect(retry.json().msg).toBe('验证码不正确');
  });

  it('refuses a reused captcha', async () => {
    const c = await captcha();
    const first = await token({ grant_type: 'captcha', username: 'kyry', password: s.password }, { 'captcha-key': c.key, 'captcha-code': c.text });
    expect(first.statusCode).toBe(200);
    const again = await token({ grant_type: 'captcha', username: 'kyry', password: s.password }, { 'captcha-key': c.key, 'captcha-code': c.text });
    expect(again.statusCode).toBe(400);
    expect(again.json().msg).toBe('验证码不正确');
  });

  it('refuses a missing captcha', async () => {
    const res = await token({ grant_type: 'captcha', username: 'kyry', password: s.password });
    expect(res.json().msg).toBe('验证码不正确');
  });
});

describe('refresh and logout', () => {
  it('rotates refresh tokens: the new pair works, the used token is refused and revokes its family', async () => {
    const first = await login(s, 'kyry');
    const r1 = await token({ grant_type: 'refresh_token', refresh_token: first.refresh, tenantId: '000000' });
    expect(r1.statusCode).toBe(200);
    const second = r1.json();
    expect(second.refresh_token).not.toBe(first.refresh);
    expect(second.account).toBe('kyry');
    const replay = await token({ grant_type: 'refresh_token', refresh_token: first.refresh, tenantId: '000000' });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().msg).toBe('刷新令牌无效或已使用');
    // the replay revoked the family: the token issued from the first one is dead too
    const afterReplay = await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token, tenantId: '000000' });
    expect(afterReplay.statusCode).toBe(400);
  });

  it('refuses a refresh token of another tenant or a made-up one', async () => {
    const a = await login(s, 'kyry');
    const other = await token({ grant_type: 'refresh_token', refresh_token: a.refresh, tenantId: '100001' });
    expect(other.statusCode).toBe(400);
    const junk = await token({ grant_type: 'refresh_token', refresh_token: 'abc', tenantId: '000000' });
    expect(junk.statusCode).toBe(400);
  });

  it('logout revokes the access token and its refresh token', async () => {
    const a = await login(s, 'kyry');
    expect((await call(s, a, 'GET', '/api/blade-user/info')).status).toBe(200);
    expect((await call(s, a, 'GET', '/api/blade-auth/oauth/logout')).status).toBe(200);
    const after = await call(s, a, 'GET', '/api/blade-user/info');
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ code: 401, success: false, msg: '请求未授权，请重新登录' });
    const refresh = await token({ grant_type: 'refresh_token', refresh_token: a.refresh, tenantId: '000000' });
    expect(refresh.statusCode).toBe(400);
  });

  it('answers 401 for a missing, forged or expired token', async () => {
    expect((await call(s, null, 'GET', '/api/blade-user/info')).status).toBe(401);
    const forged = await call(s, { token: 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyX2lkIjoiMSJ9.c2lnbmF0dXJl' } as any, 'GET', '/api/blade-user/info');
    expect(forged.status).toBe(401);
    const { token: expired } = await s.kernel.tokens.signAccess(
      { tenant_id: '000000', user_id: '1', dept_id: '', role_id: '', role_name: '', account: 'x', user_name: 'x', nick_name: 'x', real_name: 'x', client_id: 'saber' },
      -10,
    );
    expect((await call(s, { token: expired } as any, 'GET', '/api/blade-user/info')).status).toBe(401);
  });

  it('stores passwords as argon2id hashes', async () => {
    const r = await s.kernel.database.pool.query(`SELECT password FROM blade_user WHERE account = 'admin' AND tenant_id = '000000'`);
    expect(r.rows[0].password).toMatch(/^\$argon2id\$v=19\$/);
  });
});

describe('rate limit', () => {
  it('limits the token and captcha endpoints per IP', async () => {
    const limited = await testServer({ loginRateMax: 3 });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) codes.push((await limited.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' })).statusCode);
      expect(codes).toEqual([200, 200, 200, 429, 429]);
      const res = await limited.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' });
      expect(res.json()).toMatchObject({ code: 429, success: false, msg: '请求过于频繁，请稍后再试' });
    } finally {
      await limited.close();
    }
  });
});
