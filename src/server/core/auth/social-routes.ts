/**
 * Social sign-in and account binding endpoints (spec 000 §2.6, §2.7, §2.9 step 1, §4, §7 social grant, §8
 * Register; DESIGN §8 'Social login'; the OpenID Connect side is social.ts).
 *
 * | call                                                  | who        | what                                       |
 * | ----------------------------------------------------- | ---------- | ------------------------------------------ |
 * | GET  /api/blade-auth/oauth/social-sources?tenantId=   | anyone     | the tenant's enabled providers `[{source, name}]` |
 * | GET  /api/blade-auth/oauth/render/{source}?tenantId=  | anyone     | 302 to the provider (sets `kc_social`)     |
 * | GET  /api/blade-auth/oauth/callback/{source}          | provider   | login: 302 to /login?social=…&code&state&iss; bind: binds, answers a page |
 * | POST /api/blade-auth/oauth/token grant_type=social    | anyone     | source, code, state (iss): the token answer |
 * | GET  /api/blade-auth/oauth/bind-qrcode                | signed in  | `{source, name, url, image, expiresIn}`: the QR code of onboarding step 1 |
 * | GET  /api/blade-auth/oauth/bind/{source}?ticket=      | anyone     | what the QR code opens: 302 to the provider (purpose bind) |
 *
 * The callback URL to register at the provider is `<origin>/api/blade-auth/oauth/callback/<source>` (origin: the
 * address the browser used). The social grant (routes.ts passes it here) reads and clears the `kc_social`
 * cookie; a missing, expired or mismatched state answers 400 第三方登录状态无效或已过期,请重新登录 and stores
 * nothing. Then, by the verified identity (`blade_user_oauth`: tenant, source, sub):
 * - bound to an account: the account signs in exactly as with a password (`admit`: tenant live, enabled, not
 *   locked; a banned address was refused before, banip.ts) — unless its registration still waits for an
 *   administrator: 400 注册申请已提交,请耐心等待管理员通过!;
 * - unknown (or not yet bound): the identity is stored unbound and the answer is the third-party user info of
 *   spec 000 §3.4 — `user_id` '-1', `oauth_id`, `tenant_id`, `user_name`, `nick_name`, `source`, no token — so
 *   the client opens the register dialog (§2.7). The cookie `kc_social_reg` (encrypted, 30 minutes, path
 *   /api/blade-user/register-guest) proves to register-guest that this browser holds that identity
 *   (`registerTicketValid`): an `oauth_id` alone cannot bind someone else's identity.
 * Identities are per tenant: another tenant's provider or identity gives nothing.
 *
 * Binding (onboarding step 1, the messaging app of the spec is the configured provider): bind-qrcode answers a
 * QR code (qrcode, data URI) of a bind URL holding a ticket (encrypted: tenant, user, 5 minutes). Opening it
 * (on a phone) runs an authorization with purpose `bind`; the callback binds the identity to the account
 * (`blade_user_oauth.user_id`) and sets `blade_user.wechat_bound`, so checkInit's step 1 is done (the onboarding
 * dialog polls it). An identity bound to another account is refused (该第三方账号已绑定其他账号).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EncryptJWT, jwtDecrypt } from 'jose';
import { loadQRCode } from '../lazy-libs.js';
import { sql, type Db } from '../db/index.js';
import { ApiError, ok } from '../envelope.js';
import { nextId } from '../ids.js';
import { cookieHeader, readCookie, SocialLogin, SOCIAL_COOKIE, SOCIAL_COOKIE_PATH, PENDING_COOKIE_SECONDS, SOCIAL_MESSAGES, deriveKey, type SocialIdentity } from './social.js';

type Row = Record<string, unknown>;

export const SOCIAL_ROUTE_MESSAGES = {
  registerPending: { zh: '注册申请已提交,请耐心等待管理员通过!', en: 'Your registration was submitted: please wait for an administrator to approve it!' },
  boundElsewhere: { zh: '该第三方账号已绑定其他账号', en: 'This identity is already bound to another account' },
  bound: { zh: '账号绑定成功,请返回电脑继续操作', en: 'The account is bound: please go back to your computer' },
  bindFailed: { zh: '账号绑定失败', en: 'Binding failed' },
  ticketInvalid: { zh: '二维码已失效,请刷新二维码后重新扫描', en: 'The QR code has expired: refresh it and scan again' },
  noProvider: { zh: '未配置第三方登录源,请联系管理员', en: 'No sign-in provider is configured: please contact an administrator' },
} as const;

const REG_COOKIE = 'kc_social_reg';
const REG_COOKIE_PATH = '/api/blade-user/register-guest';
const REG_SECONDS = 1800;
const TICKET_SECONDS = 300;
const SOURCE_RE = /^[a-z][a-z0-9_-]{0,49}$/;

/** What the token endpoint lends the social grant (closures of registerAuthRoutes). */
export interface SocialGrantDeps<U, C> {
  db: Db;
  /** The server's generated secret (base64) the cookie and secret keys derive from. */
  baseSecret: string;
  rateLimit: { max: number; timeWindow: string };
  defaultTenant: string;
  loadUser(where: { tenantId: string; id: string }): Promise<U | null>;
  admit(user: U): void;
  issue(user: U, client: C): Promise<Record<string, unknown>>;
}

const one = (v: unknown): string | undefined => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined);
const origin = (req: FastifyRequest) => `${req.protocol}://${req.host}`;
const secure = (req: FastifyRequest) => req.protocol === 'https';
const callbackUri = (req: FastifyRequest, source: string) => `${origin(req)}/api/blade-auth/oauth/callback/${source}`;

function sourceParam(req: FastifyRequest): string {
  const s = one((req.params as Row | undefined)?.source) ?? '';
  if (!SOURCE_RE.test(s)) throw new ApiError(400, SOCIAL_MESSAGES.sourceUnknown);
  return s;
}

function tenantParam(req: FastifyRequest, fallback: string): string {
  const t = one(req.headers['tenant-id']) || one((req.query as Row | undefined)?.tenantId) || fallback;
  return t.slice(0, 12);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A small result page for the phone that scanned the QR code (no script: the CSP stays as it is). */
function page(reply: FastifyReply, status: number, text: string, lang: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(`<!doctype html><html lang="${lang === 'en' ? 'en' : 'zh-CN'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(text)}</title></head><body><p role="status">${escapeHtml(text)}</p></body></html>`);
}

/**
 * Mounts the endpoints of the module comment (except the grant itself) and answers the social grant's
 * handler for the token endpoint: `(req, reply, client, tenantId)` → the token answer, or the third-party user
 * info of an unknown identity.
 */
export function registerSocialRoutes<U, C>(app: FastifyInstance, deps: SocialGrantDeps<U, C>) {
  const { db } = deps;
  const social = new SocialLogin(db, deps.baseSecret);
  const regKey = deriveKey(deps.baseSecret, 'oauth-register');
  const ticketKey = deriveKey(deps.baseSecret, 'oauth-bind-ticket');
  const publicRoute = { config: { public: true, rateLimit: deps.rateLimit } };
  const tags = ['auth'];

  app.get('/api/blade-auth/oauth/social-sources', { ...publicRoute, schema: { tags, summary: 'The sign-in providers of a tenant' } }, async (req) => {
    return ok(await social.sources(tenantParam(req, deps.defaultTenant)), undefined, req.lang);
  });

  app.get('/api/blade-auth/oauth/render/:source', { ...publicRoute, schema: { tags, summary: 'Go to a sign-in provider' } }, async (req, reply) => {
    const source = sourceParam(req);
    const p = await social.provider(tenantParam(req, deps.defaultTenant), source);
    const { url, cookie } = await social.start(p, { purpose: 'login', redirectUri: callbackUri(req, source) });
    reply.header('set-cookie', cookieHeader(SOCIAL_COOKIE, cookie, { path: SOCIAL_COOKIE_PATH, maxAge: PENDING_COOKIE_SECONDS, secure: secure(req) }));
    return reply.header('cache-control', 'no-store').redirect(url, 302);
  });

  app.get('/api/blade-auth/oauth/callback/:source', { ...publicRoute, schema: { tags, summary: 'The provider’s answer' } }, async (req, reply) => {
    const source = sourceParam(req);
    const q = (req.query ?? {}) as Row;
    const pending = await social.pending(readCookie(req.headers.cookie, SOCIAL_COOKIE));
    if (pending?.purpose === 'bind') {
      reply.header('set-cookie', cookieHeader(SOCIAL_COOKIE, null, { path: SOCIAL_COOKIE_PATH, maxAge: 0, secure: secure(req) }));
      try {
        if (pending.source !== source || !pending.userId) throw new ApiError(400, SOCIAL_MESSAGES.stateInvalid);
        const identity = await social.finish(pending, { code: one(q.code), state: one(q.state), iss: one(q.iss) });
        await bind(pending.tenantId, source, pending.userId, identity);
        return page(reply, 200, SOCIAL_ROUTE_MESSAGES.bound[req.lang], req.lang);
      } catch (e) {
        const text = e instanceof ApiError && e.text ? e.text[req.lang] : SOCIAL_ROUTE_MESSAGES.bindFailed[req.lang];
        return page(reply, 400, text, req.lang);
      }
    }
    // login: the browser takes the answer to the login page, which asks for the social grant
    const back = new URLSearchParams({ social: source });
    for (const k of ['code', 'state', 'iss', 'error', 'error_description']) {
      const v = one(q[k]);
      if (v) back.set(k, v.slice(0, 2000));
    }
    return reply.header('cache-control', 'no-store').redirect(`/login?${back.toString()}`, 302);
  });

  /** Binds `identity` of `source` to user `userId` of `tenantId` and marks the account bound (one transaction). */
  async function bind(tenantId: string, source: string, userId: string, identity: SocialIdentity): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const user = await sql`SELECT 1 FROM blade_user WHERE id = ${userId}::bigint AND tenant_id = ${tenantId} AND is_deleted = 0`.execute(trx);
      if (!user.rows.length) throw new ApiError(400, SOCIAL_MESSAGES.stateInvalid);
      const r = await sql<{ user_id: string | null }>`
        INSERT INTO blade_user_oauth (id, tenant_id, user_id, source, uuid, username, nickname, email, avatar)
        VALUES (${nextId()}, ${tenantId}, ${userId}::bigint, ${source}, ${identity.sub}, ${identity.username ?? null}, ${identity.nickname ?? null}, ${identity.email ?? null}, ${identity.avatar ?? null})
        ON CONFLICT (tenant_id, source, uuid) DO UPDATE SET user_id = coalesce(blade_user_oauth.user_id, excluded.user_id),
               username = excluded.username, nickname = excluded.nickname, email = excluded.email, avatar = excluded.avatar
        RETURNING user_id::text AS user_id`.execute(trx);
      if (r.rows[0]?.user_id !== userId) throw new ApiError(400, SOCIAL_ROUTE_MESSAGES.boundElsewhere);
      await sql`UPDATE blade_user SET wechat_bound = true, update_time = now() WHERE id = ${userId}::bigint AND tenant_id = ${tenantId}`.execute(trx);
    });
  }

  app.get('/api/blade-auth/oauth/bind-qrcode', { schema: { tags, summary: 'The QR code that binds my account (onboarding step 1)' } }, async (req) => {
    const u = req.user!;
    const sources = await social.sources(u.tenantId);
    if (!sources.length) throw new ApiError(400, SOCIAL_ROUTE_MESSAGES.noProvider);
    const ticket = await new EncryptJWT({ t: u.tenantId, u: u.userId })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setIssuedAt()
      .setExpirationTime(`${TICKET_SECONDS}s`)
      .encrypt(ticketKey);
    const url = `${origin(req)}/api/blade-auth/oauth/bind/${sources[0].source}?ticket=${encodeURIComponent(ticket)}`;
    const image = await (await loadQRCode()).toDataURL(url, { margin: 1, width: 220, errorCorrectionLevel: 'M' });
    return ok({ source: sources[0].source, name: sources[0].name, url, image, expiresIn: TICKET_SECONDS }, undefined, req.lang);
  });

  app.get('/api/blade-auth/oauth/bind/:source', { ...publicRoute, schema: { tags, summary: 'What the binding QR code opens' } }, async (req, reply) => {
    let who: { t: string; u: string };
    try {
      const source = sourceParam(req);
      const { payload } = await jwtDecrypt(one((req.query as Row).ticket) ?? '', ticketKey);
      who = { t: String(payload.t), u: String(payload.u) };
      const p = await social.provider(who.t, source);
      const { url, cookie } = await social.start(p, { purpose: 'bind', redirectUri: callbackUri(req, source), userId: who.u });
      reply.header('set-cookie', cookieHeader(SOCIAL_COOKIE, cookie, { path: SOCIAL_COOKIE_PATH, maxAge: PENDING_COOKIE_SECONDS, secure: secure(req) }));
      return reply.header('cache-control', 'no-store').redirect(url, 302);
    } catch (e) {
      const text = e instanceof ApiError && e.text ? e.text[req.lang] : SOCIAL_ROUTE_MESSAGES.ticketInvalid[req.lang];
      return page(reply, 400, text, req.lang);
    }
  });

  /** The social grant (routes.ts): see the module comment. */
  return async function socialGrant(req: FastifyRequest, reply: FastifyReply, client: C, params: Row, requestTenant: string | undefined): Promise<Record<string, unknown>> {
    const pending = await social.pending(readCookie(req.headers.cookie, SOCIAL_COOKIE));
    // single use: whatever happens next, this authorization is over
    reply.header('set-cookie', cookieHeader(SOCIAL_COOKIE, null, { path: SOCIAL_COOKIE_PATH, maxAge: 0, secure: secure(req) }));
    const source = one(params.source) ?? '';
    if (!pending || pending.purpose !== 'login' || pending.source !== source || (requestTenant && requestTenant !== pending.tenantId)) {
      throw new ApiError(400, SOCIAL_MESSAGES.stateInvalid);
    }
    const identity = await social.finish(pending, { code: one(params.code), state: one(params.state), iss: one(params.iss) });
    const r = await sql<{ id: string; user_id: string | null }>`
      INSERT INTO blade_user_oauth (id, tenant_id, source, uuid, username, nickname, email, avatar)
      VALUES (${nextId()}, ${pending.tenantId}, ${source}, ${identity.sub}, ${identity.username ?? null}, ${identity.nickname ?? null}, ${identity.email ?? null}, ${identity.avatar ?? null})
      ON CONFLICT (tenant_id, source, uuid) DO UPDATE SET username = excluded.username, nickname = excluded.nickname, email = excluded.email, avatar = excluded.avatar
      RETURNING id::text AS id, user_id::text AS user_id`.execute(db);
    const row = r.rows[0];
    if (row.user_id) {
      const pendingReg = await sql`SELECT 1 FROM blade_user WHERE id = ${row.user_id}::bigint AND register_status = 1 AND is_deleted = 0`.execute(db);
      if (pendingReg.rows.length) throw new ApiError(400, SOCIAL_ROUTE_MESSAGES.registerPending);
      const user = await deps.loadUser({ tenantId: pending.tenantId, id: row.user_id });
      if (user) {
        deps.admit(user);
        return deps.issue(user, client);
      }
    }
    // a first-time identity: the register dialog (spec 000 §2.7), proven by kc_social_reg
    const reg = await new EncryptJWT({ o: row.id, t: pending.tenantId }).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).setIssuedAt().setExpirationTime(`${REG_SECONDS}s`).encrypt(regKey);
    reply.header('set-cookie', [
      cookieHeader(SOCIAL_COOKIE, null, { path: SOCIAL_COOKIE_PATH, maxAge: 0, secure: secure(req) }),
      cookieHeader(REG_COOKIE, reg, { path: REG_COOKIE_PATH, maxAge: REG_SECONDS, secure: secure(req) }),
    ]);
    return {
      user_id: '-1',
      oauth_id: row.id,
      tenant_id: pending.tenantId,
      source,
      account: identity.username ?? '',
      user_name: identity.username ?? identity.nickname ?? '',
      nick_name: identity.nickname ?? identity.username ?? '',
    };
  };
}

/**
 * True when the request to register-guest carries the `kc_social_reg` cookie of a social grant for identity
 * `oauthId` of `tenantId` (see the module comment). `baseSecret`: the server's generated secret (base64).
 */
export async function registerTicketValid(req: FastifyRequest, baseSecret: string, oauthId: string, tenantId: string): Promise<boolean> {
  const v = readCookie(req.headers.cookie, REG_COOKIE);
  if (!v) return false;
  try {
    const { payload } = await jwtDecrypt(v, deriveKey(baseSecret, 'oauth-register'));
    return payload.o === oauthId && payload.t === tenantId;
  } catch {
    return false;
  }
}
