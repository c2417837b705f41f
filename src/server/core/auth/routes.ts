/**
 * Login and session endpoints (spec 000 §4, §7, §8; DESIGN §6):
 *
 * - `POST /api/blade-auth/oauth/token` — grant types `password`, `captcha` (headers `Captcha-Key`,
 *   `Captcha-Code`) and `refresh_token`; parameters `username`, `password`, `tenantId`, `grant_type`,
 *   `refresh_token` from the query or the body (form or JSON); tenant from the `Tenant-Id` header or
 *   `tenantId` (default 000000); the client from `Authorization: Basic base64(clientId:clientSecret)`.
 *   Success answers the OAuth-style object (not the envelope, as the original): `access_token, refresh_token,
 *   token_type, expires_in, tenant_id, user_id, dept_id, role_id, role_name, account, user_name, nick_name,
 *   real_name, avatar`. Failures answer the envelope plus `error_description` (what the original clients read).
 *   The `social` grant (source, code, state; social-routes.ts) answers the same token answer for an identity
 *   bound to an account, after the same checks, or the third-party user info (`user_id` -1) for a new one.
 *   Wrong password → 400 用户名或密码错误; wrong/reused captcha → 400 验证码不正确; the 5th failure in a row
 *   locks the account for 30 minutes (the message says so); unknown client → 401; an unknown or disabled
 *   tenant → 400 租户不存在或已过期, an expired one (tenant/setting) → 400 租户已过期，请联系管理员, also on
 *   refresh; a banned address → 403 (modules/system/banip.ts).
 *   Every answer of this endpoint, success or failure, carries `Cache-Control: no-store` and
 *   `Pragma: no-cache` (RFC 6749 §5.1; DESIGN §11).
 *   Equal work (DESIGN §11): an unknown account is checked against a dummy argon2id hash (password.ts), so it
 *   costs what a wrong password for a known account costs.
 *   Refresh (DESIGN §11, tokens.ts): rotation; a replayed token revokes its family (refresh and access tokens)
 *   and answers 400 刷新令牌无效或已使用; a locked account answers 400 账号已锁定… and a disabled one 400
 *   账号已被禁用 without consuming the token (it works again once the account does).
 * - `GET /api/blade-auth/oauth/captcha` — `{key, image}`; under NODE_ENV=test only, header `X-Test-Captcha`.
 * - `GET /api/blade-auth/oauth/logout` — revokes the session: every refresh token of the family and every
 *   access token issued in it (the one that asks included).
 * - `GET /api/blade-auth/oauth/user-info` — the signed-in user (`GET /api/blade-user/info`, with the personal
 *   info, is src/server/modules/system/account.ts).
 * - `POST /api/blade-auth/oauth/token-by-phone` — login by phone and SMS code (phone-grant.ts).
 *
 * Both public endpoints are rate limited per IP (`LOGIN_RATE_MAX` per minute).
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Db } from '../db/index.js';
import { ApiError, ok } from '../envelope.js';
import type { TokenService } from './tokens.js';
import { checkCaptcha, createCaptcha } from './captcha.js';
import { dummyHash, verifyDummy, verifyPassword } from './password.js';
import type { ServerConfig } from '../config.js';
import { registerPhoneGrant } from './phone-grant.js';
import { registerSocialRoutes } from './social-routes.js';
import { loadOrCreateSecrets } from '../secrets.js';

export const MAX_FAILED_LOGINS = 5;
export const LOCK_MINUTES = 30;
export const DEFAULT_TENANT = '000000';

interface ClientRow {
  client_id: string;
  client_secret: string;
  authorized_grant_types: string;
  access_token_validity: number;
  refresh_token_validity: number;
}

interface UserRow {
  id: string;
  tenant_id: string;
  account: string;
  password: string;
  name: string | null;
  real_name: string | null;
  avatar: string | null;
  dept_id: string | null;
  status: number;
  fail_count: number;
  lock_minutes_left: number | null;
  /** The user's tenant is live and not expired (blade_tenant: status 1, expire_time empty or ahead). */
  tenant_live: boolean | null;
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * True when the given secret `b` matches the stored `a`: a stored `sha256:<hex>` (clients created by the
 * administration, src/server/modules/system/tenants.ts) is compared with the SHA-256 of `b`; any other stored
 * value is the secret in clear (the seeded web client). Constant time either way.
 */
function sameSecret(a: string, b: string): boolean {
  const hashed = /^sha256:([0-9a-f]{64})$/.exec(a);
  const ha = hashed ? Buffer.from(hashed[1], 'hex') : crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb);
}

/** The headers of every token answer (RFC 6749 §5.1: tokens must not be cached; DESIGN §11). */
export const TOKEN_NO_CACHE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

/** Client lookup with a 30 s cache (the token endpoint is rate limited, but a client row rarely changes). */
class ClientCache {
  private cache = new Map<string, { at: number; row: ClientRow | null }>();
  constructor(private readonly db: Db) {}
  async get(clientId: string): Promise<ClientRow | null> {
    const hit = this.cache.get(clientId);
    if (hit && Date.now() - hit.at < 30_000) return hit.row;
    const r = await sql<ClientRow>`SELECT client_id, client_secret, authorized_grant_types, access_token_validity, refresh_token_validity
                                     FROM blade_client WHERE client_id = ${clientId} AND is_deleted = 0 AND status = 1`.execute(this.db);
    const row = r.rows[0] ?? null;
    this.cache.set(clientId, { at: Date.now(), row });
    return row;
  }
}

/**
 * Mounts the login and session endpoints of the module header on `app`. `deps.tokens` issues and revokes
 * tokens; `deps.config` gives the login rate limit and whether this is a test server. Starts computing the
 * dummy password hash at once (equal work for unknown accounts, DESIGN §11).
 */
export function registerAuthRoutes(app: FastifyInstance, deps: { db: Db; tokens: TokenService; config: ServerConfig }): void {
  const { db, tokens, config } = deps;
  const clients = new ClientCache(db);
  dummyHash().catch((e: unknown) => app.log.error({ err: e }, 'could not compute the dummy password hash'));
  const rateLimit = { max: config.loginRateMax, timeWindow: '1 minute' };
  // social sign-in and binding (social-routes.ts); the grant itself is dispatched below
  const socialGrant = registerSocialRoutes<UserRow, ClientRow>(app, {
    db, baseSecret: loadOrCreateSecrets(config.dataDir).jwtKey, rateLimit, defaultTenant: DEFAULT_TENANT, loadUser, admit, issue: (u, c) => issue(u, c),
  });

  async function authenticateClient(req: FastifyRequest): Promise<ClientRow> {
    const auth = header(req, 'authorization') ?? '';
    const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(auth.trim());
    if (!m) throw new ApiError(401, 'unknownClient');
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i <= 0) throw new ApiError(401, 'unknownClient');
    const client = await clients.get(decoded.slice(0, i));
    if (!client || !sameSecret(client.client_secret, decoded.slice(i + 1))) throw new ApiError(401, 'unknownClient');
    return client;
  }

  async function loadUser(where: { tenantId: string; account?: string; id?: string }): Promise<UserRow | null> {
    const r = await sql<UserRow>`
      SELECT id, tenant_id, account, password, name, real_name, avatar, dept_id, status, fail_count,
             CASE WHEN lock_until > now() THEN ceil(extract(epoch FROM lock_until - now()) / 60)::int END AS lock_minutes_left,
             (SELECT t.status = 1 AND (t.expire_time IS NULL OR t.expire_time > now()) FROM blade_tenant t
               WHERE t.tenant_id = blade_user.tenant_id AND t.is_deleted = 0) AS tenant_live
        FROM blade_user
       WHERE tenant_id = ${where.tenantId} AND is_deleted = 0
         AND ${where.id ? sql`id = ${where.id}::bigint` : sql`account = ${where.account ?? ''}`}`.execute(db);
    return r.rows[0] ?? null;
  }

  async function issue(user: UserRow, client: ClientRow, family?: string) {
    const roles = await sql<{ id: string; role_alias: string; role_name: string }>`
      SELECT r.id, r.role_alias, r.role_name FROM blade_user_role ur JOIN blade_role r ON r.id = ur.role_id
       WHERE ur.user_id = ${user.id} AND r.is_deleted = 0 ORDER BY r.sort, r.id`.execute(db);
    const claims = {
      tenant_id: user.tenant_id,
      user_id: user.id,
      dept_id: user.dept_id ?? '',
      role_id: roles.rows.map((r) => r.id).join(','),
      role_name: roles.rows.map((r) => r.role_alias).join(','),
      account: user.account,
      user_name: user.account,
      nick_name: user.name ?? user.account,
      real_name: user.real_name ?? user.account,
      client_id: client.client_id,
    };
    const { token, jti } = await tokens.signAccess(claims, client.access_token_validity);
    const refresh = await tokens.issueRefresh({ tenantId: user.tenant_id, userId: user.id, clientId: client.client_id, accessJti: jti, family }, client.refresh_token_validity);
    // the family was revoked (a replay) while this refresh ran: the new pair is never handed out
    if (!refresh) throw new ApiError(400, 'refreshInvalid');
    return {
      access_token: token,
      refresh_token: refresh,
      token_type: 'bearer',
      expires_in: client.access_token_validity,
      ...claims,
      avatar: user.avatar ?? '',
      license: 'kechuang',
    };
  }

  /**
   * Counts a failed login of user `id` and answers whether the account is now locked (the 5th failure in a
   * row locks it for 30 minutes, DESIGN §5). `null` (an unknown account) runs the same statement on no row:
   * equal work, DESIGN §11. One statement, committed without waiting for the WAL flush (`set_config(..., true)`
   * lasts for this statement's transaction): an fsync costs tens of ms on a slow disk and would tell a known
   * account from an unknown one. The count is visible at once; only a crash of PostgreSQL within a fraction
   * of a second could lose it.
   */
  async function countFailure(id: string | null): Promise<boolean> {
    const r = await sql<{ fail_count: number; locked: boolean }>`
      UPDATE blade_user SET
        fail_count = CASE WHEN fail_count + 1 >= ${MAX_FAILED_LOGINS} THEN 0 ELSE fail_count + 1 END,
        lock_until = CASE WHEN fail_count + 1 >= ${MAX_FAILED_LOGINS} THEN now() + make_interval(mins => ${LOCK_MINUTES}) ELSE lock_until END
        FROM (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit
      WHERE id = ${id ?? '-1'}::bigint
      RETURNING fail_count, (lock_until > now()) AS locked`.execute(db);
    return r.rows[0]?.locked === true;
  }

  /** Refuses a locked or disabled account, or one of an expired tenant (DESIGN §11: they cannot log in, nor refresh). */
  function admit(user: UserRow): void {
    if (user.tenant_live !== true) throw new ApiError(400, 'tenantExpired');
    if (user.status !== 1) throw new ApiError(400, 'accountDisabled');
    if (user.lock_minutes_left) throw new ApiError(400, 'accountLocked', { minutes: user.lock_minutes_left });
  }

  app.post('/api/blade-auth/oauth/token', {
    config: { public: true, rateLimit },
    schema: { tags: ['auth'], summary: 'Log in or refresh the token' },
    // on every answer of this route, errors (the error handler's) and rate-limit refusals included
    onSend: async (_req, reply, payload) => {
      reply.headers(TOKEN_NO_CACHE);
      return payload;
    },
  }, async (req, reply) => {
    const client = await authenticateClient(req);
    const params: Record<string, unknown> = { ...((req.query as object) ?? {}), ...((req.body && typeof req.body === 'object' ? req.body : {}) as object) };
    const str = (k: string) => (typeof params[k] === 'string' ? (params[k] as string) : undefined);
    const grant = str('grant_type') ?? 'password';
    const tenantId = header(req, 'tenant-id') || str('tenantId') || DEFAULT_TENANT;
    const grants = client.authorized_grant_types.split(',').map((s) => s.trim());
    // the social grant's proof is the provider's verified answer; the client still authenticates (as token-by-phone)
    if (grant === 'social') return reply.send(await socialGrant(req, reply, client, params, header(req, 'tenant-id') || str('tenantId')));
    if (!grants.includes(grant) || !['password', 'captcha', 'refresh_token'].includes(grant)) throw new ApiError(400, 'unsupportedGrant', { grant });

    if (grant === 'refresh_token') {
      const rt = str('refresh_token');
      const who: { user?: UserRow } = {}; // the account admit() loaded
      const used = rt
        ? await tokens.consumeRefresh(rt, {
            clientId: client.client_id,
            tenantId,
            accessSeconds: client.access_token_validity,
            admit: async (userId) => {
              const user = await loadUser({ tenantId, id: userId });
              if (!user) throw new ApiError(400, 'refreshInvalid');
              admit(user);
              who.user = user;
            },
          })
        : null;
      if (!used || !who.user) throw new ApiError(400, 'refreshInvalid');
      return reply.send(await issue(who.user, client, used.family));
    }

    if (grant === 'captcha' && !(await checkCaptcha(db, header(req, 'captcha-key'), header(req, 'captcha-code')))) {
      throw new ApiError(400, 'badCaptcha');
    }
    const tenant = await sql<{ ok: boolean }>`SELECT (expire_time IS NULL OR expire_time > now()) AS ok FROM blade_tenant
                                                WHERE tenant_id = ${tenantId} AND is_deleted = 0 AND status = 1`.execute(db);
    if (!tenant.rows[0]) throw new ApiError(400, 'tenantMissing');
    if (!tenant.rows[0].ok) throw new ApiError(400, 'tenantExpired'); // tenant/setting's expiry (modules/system/tenants.ts)
    const username = str('username') ?? '';
    const password = str('password') ?? '';
    const user = username && password ? await loadUser({ tenantId, account: username }) : null;
    if (!user) {
      // equal work (DESIGN §11): one argon2id verify and one failure count, as a wrong password costs
      if (username && password) {
        await verifyDummy(password);
        await countFailure(null);
      }
      throw new ApiError(400, 'badCredentials');
    }
    if (user.lock_minutes_left) throw new ApiError(400, 'accountLocked', { minutes: user.lock_minutes_left });
    if (!(await verifyPassword(user.password, password))) {
      if (await countFailure(user.id)) throw new ApiError(400, 'accountLocked', { minutes: LOCK_MINUTES });
      throw new ApiError(400, 'badCredentials');
    }
    admit(user);
    if (user.fail_count > 0) await sql`UPDATE blade_user SET fail_count = 0, lock_until = NULL WHERE id = ${user.id}::bigint`.execute(db);
    return reply.send(await issue(user, client));
  });

  // login by phone and SMS code (issue 10; phone-grant.ts)
  registerPhoneGrant(app, { db, rateLimit, noCache: TOKEN_NO_CACHE, defaultTenant: DEFAULT_TENANT, authenticateClient, loadUser, admit, issue: (u, c) => issue(u, c) });

  app.get('/api/blade-auth/oauth/captcha', { config: { public: true, rateLimit }, schema: { tags: ['auth'], summary: 'A captcha image' } }, async (_req, reply) => {
    const c = await createCaptcha(db);
    // only a test server ever reveals the text (browser tests log in as a person does)
    if (config.isTest) reply.header('X-Test-Captcha', c.text);
    reply.header('Cache-Control', 'no-store');
    return { key: c.key, image: c.image };
  });

  app.get('/api/blade-auth/oauth/logout', { schema: { tags: ['auth'], summary: 'Log out' } }, async (req) => {
    const user = req.user!;
    // the client's access lifetime bounds how long the family's other access tokens must stay refused
    const client = await clients.get(user.clientId);
    await tokens.revokeSession(user.jti, user.exp, client?.access_token_validity ?? 0);
    return ok(null, undefined, req.lang);
  });

  const userInfo = async (req: FastifyRequest) => {
    const u = req.user!;
    const r = await sql<Record<string, unknown>>`
      SELECT u.id::text AS "userId", u.tenant_id AS "tenantId", u.account, u.name AS "nickName", u.real_name AS "realName",
             u.avatar, u.email, u.phone, u.sex, u.dept_id::text AS "deptId", d.dept_name AS "deptName", u.is_perfect AS "isPerfect",
             u.is_expert AS "isExpert", to_char(u.password_time, 'YYYY-MM-DD HH24:MI:SS') AS "passwordTime"
        FROM blade_user u LEFT JOIN blade_dept d ON d.id = u.dept_id
       WHERE u.id = ${u.userId}::bigint AND u.tenant_id = ${u.tenantId} AND u.is_deleted = 0`.execute(db);
    if (!r.rows[0]) throw new ApiError(401, 'unauthorized');
    const roles = await sql<{ id: string; roleName: string; roleNameEn: string | null; roleAlias: string }>`
      SELECT r.id::text AS id, r.role_name AS "roleName", r.role_name_en AS "roleNameEn", r.role_alias AS "roleAlias" FROM blade_user_role ur
        JOIN blade_role r ON r.id = ur.role_id WHERE ur.user_id = ${u.userId}::bigint AND r.is_deleted = 0 ORDER BY r.sort, r.id`.execute(db);
    return ok({ ...r.rows[0], roles: roles.rows }, undefined, req.lang);
  };
  app.get('/api/blade-auth/oauth/user-info', { schema: { tags: ['auth'], summary: 'The signed-in user' } }, userInfo);
}
