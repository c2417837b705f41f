/**
 * Social sign-in (issue 10; spec 000 §2.6 'by a social source', §2.7, §2.9 step 1, §7 social grant, §8 Register;
 * DESIGN §8 'Social login'): against a REAL OpenID Connect provider (the `oidc-provider` package) listening on
 * 127.0.0.1 inside this test — discovery, the authorization endpoint, its login and consent interactions, the
 * token endpoint (PKCE), signed ID tokens and userinfo are the provider's own. The test only plays the
 * browser: it follows the provider's redirects with a cookie jar and chooses which account signs in there.
 *
 * Covered: providers an administrator configures (system/oauthprovider: the secret stored encrypted and never
 * answered, bad input refused storing nothing, another tenant sees nothing, no grant → 403); binding an account
 * by the onboarding QR code; the sign-in of a bound identity; a first-time identity → the register dialog's data
 * → register-guest with the cookie of its sign-in → waiting for approval → an administrator approves it in the
 * user screen → sign-in; forged, swapped and replayed callbacks refused, storing nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { BASIC, call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let other: Session; // administrator of 100001
let idp: http.Server;
let issuer = '';
const TAG = `soc${Date.now().toString(36)}`;
const SOURCE = `oidc${Date.now().toString(36).slice(-4)}`;
const HOST = 'kc.test';
const CALLBACK = `http://${HOST}/api/blade-auth/oauth/callback/${SOURCE}`;
const CLIENT_ID = 'kechuang';
const CLIENT_SECRET = `secret-${TAG}`;
const P = '/api/blade-system/oauth-provider';
const U = '/api/blade-user';

/** The provider's accounts; `signInAs` is who the next login interaction signs in. */
const accounts = new Map<string, { name: string; preferred_username: string; email: string }>();
let signInAs = '';
let provider: Provider | undefined;

beforeAll(async () => {
  s = await testServer();
  [admin, other] = await Promise.all([login(s, 'admin'), login(s, 'admin', { tenantId: '100001' })]);
  idp = http.createServer((req, res) => {
    const op = provider;
    if (!op) return void res.writeHead(503).end();
    if (!req.url?.startsWith('/interaction/')) return void op.callback()(req, res);
    // the provider's login and consent screens, answered as a user who signs in as `signInAs` and consents
    void (async () => {
      const d = await op.interactionDetails(req, res);
      let result: Record<string, unknown>;
      if (d.prompt.name === 'login') result = { login: { accountId: signInAs } };
      else {
        const grant = d.grantId ? (await op.Grant.find(d.grantId))! : new op.Grant({ accountId: d.session!.accountId, clientId: String(d.params.client_id) });
        grant.addOIDCScope(String(d.params.scope));
        result = { consent: { grantId: await grant.save() } };
      }
      await op.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    })().catch((e: unknown) => res.writeHead(500).end(String(e)));
  });
  await new Promise<void>((r) => idp.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  provider = new Provider(issuer, {
    clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [CALLBACK], response_types: ['code'], grant_types: ['authorization_code'] }],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'k1' }] },
    features: { devInteractions: { enabled: false } },
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email'] },
    cookies: { keys: [`cookie-${TAG}`] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    findAccount: async (_ctx, id) => {
      const a = accounts.get(id);
      return a ? { accountId: id, claims: async () => ({ sub: id, ...a }) } : undefined;
    },
  });
});
afterAll(async () => {
  await s?.close();
  await new Promise((r) => (idp ? idp.close(r) : r(undefined)));
});

const q = (text: string, params: unknown[] = []) => s.kernel.database.pool.query(text, params);

/** The `Set-Cookie` values of an inject answer as `name=value` pairs (cleared cookies left out). */
function cookiesOf(res: { headers: Record<string, unknown> }): Record<string, string> {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [String(raw)] : [];
  const out: Record<string, string> = {};
  for (const c of list) {
    const [pair] = String(c).split(';');
    const i = pair.indexOf('=');
    out[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return out;
}

/**
 * Plays the browser at the provider: opens `url`, follows the provider's redirects (login, consent) with a
 * cookie jar of its own, and answers the URL it is finally sent to (our callback, with code, state and iss).
 */
async function atProvider(url: string): Promise<URL> {
  const jar = new Map<string, string>();
  let next = new URL(url);
  for (let hops = 0; hops < 20; hops++) {
    if (next.origin !== issuer) return next;
    const res = await fetch(next, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      if (/expires=Thu, 01 Jan 1970/i.test(c) || i === pair.length - 1) jar.delete(pair.slice(0, i));
      else jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`the provider stopped at ${next.href}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    next = new URL(location, next);
  }
  throw new Error('too many redirects at the provider');
}

interface Attempt {
  /** The `kc_social` cookie the render step set. */
  cookie: string;
  /** Where the provider sent the browser back (code, state, iss). */
  back: URL;
}

/** Starts a login with `source` of `tenantId` and signs in at the provider as `who`. */
async function authorize(who: string, tenantId = '000000', source = SOURCE): Promise<Attempt> {
  signInAs = who;
  const res = await s.app.inject({ method: 'GET', url: `/api/blade-auth/oauth/render/${source}?tenantId=${tenantId}`, headers: { host: HOST } });
  expect(res.statusCode, res.body).toBe(302);
  const cookie = cookiesOf(res).kc_social;
  expect(cookie).toBeTruthy();
  const back = await atProvider(String(res.headers.location));
  expect(back.href.startsWith(CALLBACK), back.href).toBe(true);
  // our callback takes the browser on to the login page, which asks for the social grant
  const cb = await s.app.inject({ method: 'GET', url: back.pathname + back.search, headers: { host: HOST, cookie: `kc_social=${cookie}` } });
  expect(cb.statusCode).toBe(302);
  const to = new URL(String(cb.headers.location), `http://${HOST}`);
  expect(to.pathname).toBe('/login');
  expect(to.searchParams.get('social')).toBe(source);
  expect(to.searchParams.get('code')).toBe(back.searchParams.get('code'));
  return { cookie, back: to };
}

/** The social grant as the login page asks for it (`cookie`: the kc_social value the browser holds, or none). */
async function grant(a: { back: URL; cookie?: string }, over: Record<string, string> = {}, tenantId = '000000') {
  const p = a.back.searchParams;
  const form = { grant_type: 'social', source: p.get('social') ?? '', code: p.get('code') ?? '', state: p.get('state') ?? '', iss: p.get('iss') ?? '', ...over };
  const res = await s.app.inject({
    method: 'POST',
    url: '/api/blade-auth/oauth/token',
    headers: { host: HOST, authorization: BASIC, 'tenant-id': tenantId, 'content-type': 'application/x-www-form-urlencoded', ...(a.cookie ? { cookie: `kc_social=${a.cookie}` } : {}) },
    payload: new URLSearchParams(form).toString(),
  });
  return { status: res.statusCode, body: res.json() as Json, cookies: cookiesOf(res) };
}

function person(id: string) {
  accounts.set(id, { name: `用户${id}`, preferred_username: id, email: `${id}@example.test` });
  return id;
}

/** A researcher of tenant 000000 an administrator creates (its generated password already changed). */
let users = 0;
async function newUser(): Promise<Session> {
  users++;
  const res = await call(s, admin, 'POST', `${U}/submit`, { account: `${TAG}_u${users}`, name: '小林', realName: '林小', deptId: admin.deptId, phone: `139${String(Date.now() % 1e5).padStart(5, '0')}${String(users).padStart(3, '0')}` });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const role = (await q(`SELECT id::text AS id FROM blade_role WHERE tenant_id = '000000' AND role_alias = 'researcher' AND is_deleted = 0 ORDER BY parent_id LIMIT 1`)).rows[0].id;
  expect((await call(s, admin, 'POST', `${U}/grant?userIds=${res.body.data.id}&roleIds=${role}`)).status).toBe(200);
  await q(`UPDATE blade_user SET must_change_password = false WHERE id = $1`, [res.body.data.id]);
  return login(s, res.body.data.account, { password: res.body.data.initialPassword });
}

async function addProvider(who: Session, body: Json) {
  return call(s, who, 'POST', `${P}/submit`, body);
}

describe('providers an administrator configures (system/oauthprovider)', () => {
  it('stores the secret encrypted and never answers it; bad input stores nothing; another tenant and a user without the grant get nothing', async () => {
    const good = { source: SOURCE, name: '统一身份认证', issuer: '', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, scopes: 'openid profile email', sort: 1, enabled: true };
    const bad: Array<[Json, string]> = [
      [{ ...good, issuer: '' }, '请输入签发者地址'],
      [{ ...good, issuer: 'ftp://127.0.0.1/x' }, '签发者地址须以 http:// 或 https:// 开头'],
      [{ ...good, issuer: 'http://127.0.0.1:1', source: 'Bad Code' }, '登录源编码以小写字母开头，只能包含小写字母、数字、_ 和 -'],
      [{ ...good, issuer: 'http://127.0.0.1:1', clientId: '' }, '请输入客户端ID'],
    ];
    for (const [body, message] of bad) {
      const res = await addProvider(admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg).toBe(message);
    }
    expect(await countRows(s, 'blade_oauth_provider', 'source IN ($1, $2)', [SOURCE, 'Bad Code'])).toBe(0);

    const researcher = await login(s, 'kyry');
    expect((await addProvider(researcher, { ...good, issuer })).status).toBe(403);
    expect((await call(s, researcher, 'GET', `${P}/list`)).status).toBe(403);
    expect(await countRows(s, 'blade_oauth_provider', 'source = $1', [SOURCE])).toBe(0);

    const added = await addProvider(admin, { ...good, issuer });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const id = String(added.body.data.id);
    expect(JSON.stringify(added.body)).not.toContain(CLIENT_SECRET);
    const stored = (await q(`SELECT client_secret FROM blade_oauth_provider WHERE id = $1`, [id])).rows[0].client_secret as string;
    expect(stored).toMatch(/^enc:v1:/);
    expect(stored).not.toContain(CLIENT_SECRET);
    const list = await call(s, admin, 'GET', `${P}/list?source=${SOURCE}`);
    expect(list.body.data.records.map((r: Json) => r.id)).toContain(id);
    const detail = await call(s, admin, 'GET', `${P}/detail?id=${id}`);
    expect(detail.body.data).toMatchObject({ source: SOURCE, issuer, clientId: CLIENT_ID });
    expect(detail.body.data).not.toHaveProperty('clientSecret');
    expect(JSON.stringify([list.body, detail.body])).not.toContain(CLIENT_SECRET);

    // the source is unique in the tenant; an edit leaves the stored secret as it was
    const dup = await addProvider(admin, { ...good, issuer, name: '重复' });
    expect(dup.status).toBe(400);
    expect(dup.body.msg).toBe('登录源编码已存在');
    expect(await countRows(s, 'blade_oauth_provider', 'source = $1 AND is_deleted = 0', [SOURCE])).toBe(1);
    const edit = await addProvider(admin, { ...good, id, issuer, name: '统一身份认证平台', clientSecret: 'plain-text' });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect((await q(`SELECT client_secret, name FROM blade_oauth_provider WHERE id = $1`, [id])).rows[0]).toEqual({ client_secret: stored, name: '统一身份认证平台' });

    // the login page of the tenant offers it; another tenant sees nothing of it
    const sources = await call(s, null, 'GET', `/api/blade-auth/oauth/social-sources?tenantId=000000`);
    expect(sources.body.data).toContainEqual({ source: SOURCE, name: '统一身份认证平台' });
    const theirs = await call(s, null, 'GET', `/api/blade-auth/oauth/social-sources?tenantId=100001`);
    expect(theirs.body.data.map((x: Json) => x.source)).not.toContain(SOURCE);
    expect((await call(s, other, 'GET', `${P}/list?source=${SOURCE}`)).body.data.records).toEqual([]);
    expect((await call(s, other, 'GET', `${P}/detail?id=${id}`)).status).toBe(404);
    const render = await call(s, null, 'GET', `/api/blade-auth/oauth/render/${SOURCE}?tenantId=100001`);
    expect(render.status).toBe(400);
    expect(render.body.msg).toBe('第三方登录源不存在或未启用');
  });

  it('an issuer over plain HTTP away from loopback, or one that does not answer, is refused with its message', async () => {
    const insecure = `ins${TAG.slice(-6)}`;
    const down = `dwn${TAG.slice(-6)}`;
    for (const [source, iss] of [[insecure, 'http://idp.example.com'], [down, 'http://127.0.0.1:1']]) {
      const res = await addProvider(admin, { source, name: source, issuer: iss, clientId: 'x', enabled: true });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const a = await call(s, null, 'GET', `/api/blade-auth/oauth/render/${insecure}?tenantId=000000`);
    expect(a.status).toBe(400);
    expect(a.body.msg).toBe('签发者地址须使用 https');
    const b = await call(s, null, 'GET', `/api/blade-auth/oauth/render/${down}?tenantId=000000`, undefined, { 'accept-language': 'en' });
    expect(b.status).toBe(400);
    expect(b.body.msg).toBe('The sign-in provider cannot be reached: please try again later');
    await q(`UPDATE blade_oauth_provider SET enabled = false WHERE source = ANY($1)`, [[insecure, down]]);
  });
});

describe('signing in with the provider', () => {
  it('binds an account by the onboarding QR code, then that identity signs in to it', async () => {
    const sub = person(`${TAG}-alice`);
    const kyry = await newUser();
    const qr = await call(s, kyry, 'GET', '/api/blade-auth/oauth/bind-qrcode', undefined, { host: HOST });
    expect(qr.status, JSON.stringify(qr.body)).toBe(200);
    expect(qr.body.data.image).toMatch(/^data:image\/png;base64,/);
    const bindUrl = new URL(qr.body.data.url);
    // the phone that scanned the code
    const go = await s.app.inject({ method: 'GET', url: bindUrl.pathname + bindUrl.search, headers: { host: HOST } });
    expect(go.statusCode, go.body).toBe(302);
    signInAs = sub;
    const back = await atProvider(String(go.headers.location));
    const done = await s.app.inject({ method: 'GET', url: back.pathname + back.search, headers: { host: HOST, cookie: `kc_social=${cookiesOf(go).kc_social}` } });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('账号绑定成功,请返回电脑继续操作');
    expect((await q(`SELECT user_id::text AS u FROM blade_user_oauth WHERE tenant_id = '000000' AND source = $1 AND uuid = $2`, [SOURCE, sub])).rows[0].u).toBe(kyry.userId);
    expect((await q(`SELECT wechat_bound FROM blade_user WHERE id = $1`, [kyry.userId])).rows[0].wechat_bound).toBe(true);
    // the same identity cannot be bound to a second account
    const second = await newUser();
    const qr2 = new URL((await call(s, second, 'GET', '/api/blade-auth/oauth/bind-qrcode', undefined, { host: HOST })).body.data.url);
    const go2 = await s.app.inject({ method: 'GET', url: qr2.pathname + qr2.search, headers: { host: HOST } });
    const back2 = await atProvider(String(go2.headers.location));
    const refused = await s.app.inject({ method: 'GET', url: back2.pathname + back2.search, headers: { host: HOST, cookie: `kc_social=${cookiesOf(go2).kc_social}` } });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('该第三方账号已绑定其他账号');
    expect((await q(`SELECT wechat_bound FROM blade_user WHERE id = $1`, [second.userId])).rows[0].wechat_bound).toBe(false);
    // a stale ticket opens nothing
    const stale = await s.app.inject({ method: 'GET', url: `/api/blade-auth/oauth/bind/${SOURCE}?ticket=forged`, headers: { host: HOST } });
    expect(stale.statusCode).toBe(400);
    expect(stale.body).toContain('二维码已失效,请刷新二维码后重新扫描');

    const res = await grant(await authorize(sub));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user_id).toBe(kyry.userId);
    expect(res.body.account).toBe(kyry.body.account);
    expect(res.body.access_token).toBeTruthy();
    const me = await call(s, { ...kyry, token: res.body.access_token }, 'GET', '/api/blade-auth/oauth/user-info');
    expect(me.status).toBe(200);

    // logging off the messaging app unbinds the identity: the next sign-in with it is a first-time one
    const off = await call(s, kyry, 'GET', '/api/system/wechatEndpoint/log-off-by-userId');
    expect(off.status).toBe(200);
    expect((await q(`SELECT wechat_bound FROM blade_user WHERE id = $1`, [kyry.userId])).rows[0].wechat_bound).toBe(false);
    expect(await countRows(s, 'blade_user_oauth', 'user_id = $1', [kyry.userId])).toBe(0);
    const after = await grant(await authorize(sub));
    expect(after.status).toBe(200);
    expect(after.body.user_id).toBe('-1');
    expect(after.body).not.toHaveProperty('access_token');
  });

  it('a first-time identity gets the register dialog\'s data, registers, waits for approval in the user screen, then signs in', async () => {
    const sub = person(`${TAG}-bob`);
    const first = await grant(await authorize(sub));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ user_id: '-1', tenant_id: '000000', source: SOURCE, user_name: sub, nick_name: `用户${sub}` });
    expect(first.body).not.toHaveProperty('access_token');
    const oauthId = String(first.body.oauth_id);
    const reg = first.cookies.kc_social_reg;
    expect(reg).toBeTruthy();
    expect((await q(`SELECT user_id FROM blade_user_oauth WHERE id = $1`, [oauthId])).rows[0].user_id).toBeNull();

    const account = `${TAG}_bob`;
    const body = { tenantId: '000000', name: '鲍勃', account, password: 'abcdefg1', password2: 'abcdefg1', oauth_id: oauthId };
    // another identity's id with this cookie, or this id without it, binds nothing and stores nothing
    const wrong = await call(s, null, 'POST', `${U}/register-guest`, { ...body, oauth_id: String(BigInt(oauthId) + 1n) }, { cookie: `kc_social_reg=${reg}` });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe('第三方账号信息已失效,请重新登录');
    const bare = await call(s, null, 'POST', `${U}/register-guest`, body);
    expect(bare.body.msg).toBe('第三方账号信息已失效,请重新登录');
    expect(await countRows(s, 'blade_user', 'account = $1', [account])).toBe(0);
    // the dialog's checks come in the spec's order before anything is stored
    const mismatch = await call(s, null, 'POST', `${U}/register-guest`, { ...body, password2: 'abcdefg2' }, { cookie: `kc_social_reg=${reg}` });
    expect(mismatch.body.msg).toBe('两次密码输入不一致');
    expect(await countRows(s, 'blade_user', 'account = $1', [account])).toBe(0);

    const done = await call(s, null, 'POST', `${U}/register-guest`, body, { cookie: `kc_social_reg=${reg}` });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.msg).toBe('注册申请已提交,请耐心等待管理员通过!');
    const userId = (await q(`SELECT id::text AS id FROM blade_user WHERE account = $1 AND tenant_id = '000000'`, [account])).rows[0].id as string;
    expect((await q(`SELECT user_id::text AS u FROM blade_user_oauth WHERE id = $1`, [oauthId])).rows[0].u).toBe(userId);

    const waiting = await grant(await authorize(sub));
    expect(waiting.status).toBe(400);
    expect(waiting.body.msg).toBe('注册申请已提交,请耐心等待管理员通过!');
    expect(waiting.body).not.toHaveProperty('access_token');

    // the user screen shows the registration awaiting approval with its button
    const listed = await call(s, admin, 'GET', `${U}/list?account=${account}`);
    expect(listed.body.data.records[0]).toMatchObject({ id: userId, registerPending: true });
    expect((await call(s, other, 'POST', `${U}/approve-register?userIds=${userId}`)).status).toBe(404);
    expect((await call(s, await login(s, 'kyry'), 'POST', `${U}/approve-register?userIds=${userId}`)).status).toBe(403);
    expect((await call(s, admin, 'POST', `${U}/approve-register?userIds=${userId}`)).status).toBe(200);
    expect((await call(s, admin, 'GET', `${U}/detail?id=${userId}`)).body.data.registerPending).toBe(false);

    const signedIn = await grant(await authorize(sub));
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body).toMatchObject({ user_id: userId, account });
    expect(signedIn.body.access_token).toBeTruthy();
  });

  it('forged, swapped and replayed callbacks are refused and store nothing', async () => {
    const sub = person(`${TAG}-eve`);
    const before = await countRows(s, 'blade_user_oauth', 'tenant_id = $1', ['000000']);
    const stateInvalid = '第三方登录状态无效或已过期,请重新登录';
    const a = await authorize(sub);
    const b = await authorize(sub);
    const cases: Array<[string, Awaited<ReturnType<typeof grant>>, string]> = [
      ['no cookie', await grant({ back: a.back }), stateInvalid],
      ['a forged cookie', await grant({ back: a.back, cookie: 'eyJhbGciOiJkaXIifQ.x.y.z.w' }), stateInvalid],
      ['a forged state', await grant(a, { state: 'forged-state' }), stateInvalid],
      ['another source', await grant(a, { source: 'other' }), stateInvalid],
      ['another tenant', await grant(a, {}, '100001'), stateInvalid],
      // b's code with a's cookie and state: the code was issued for b's PKCE challenge
      ['a swapped code', await grant(a, { code: b.back.searchParams.get('code')! }), '第三方登录验证失败,请重新登录'],
    ];
    for (const [what, res, message] of cases) {
      expect(res.status, what).toBe(400);
      expect(res.body.msg, what).toBe(message);
      expect(res.body, what).not.toHaveProperty('access_token');
    }
    expect(await countRows(s, 'blade_user_oauth', 'tenant_id = $1', ['000000'])).toBe(before);

    // b once: the identity is recorded; b again (a replay of the same callback and cookie): refused
    const once = await grant(b);
    expect(once.status).toBe(200);
    expect(once.body.user_id).toBe('-1');
    expect(await countRows(s, 'blade_user_oauth', 'tenant_id = $1', ['000000'])).toBe(before + 1);
    const replay = await grant(b);
    expect(replay.status).toBe(400);
    expect(replay.body.msg).toBe('第三方登录验证失败,请重新登录');
    expect(replay.body).not.toHaveProperty('oauth_id');
    expect(await countRows(s, 'blade_user_oauth', 'tenant_id = $1', ['000000'])).toBe(before + 1);
  });
});
