/**
 * The ban-IP list (spec 002 §2 'system ban-IP list (unseal)', §4 'System ban-IP entries can be unsealed',
 * §7 `project/systembanip` list, detail, remove, submit, unseal; spec 001 §7; issue 9 'a banned IP gets 403
 * on login'). The entries are the generic resource `project/systembanip` (schemas/project/systembanip.json,
 * tenant-scoped, audited; menu `systembanip`, administrators). This file adds what JSON cannot say.
 *
 * An entry: `ip` — one address (IPv4 or IPv6) or a network in CIDR notation (`203.0.113.0/24`), stored in its
 * canonical form; `banStatus` 1 banned / 0 unsealed (server-only: a new entry is banned, `unseal` lifts it);
 * `expireTime` — the ban ends by itself then (empty: until unsealed); `banSource` 1 by an administrator /
 * 2 automatic; `reason`; `unsealTime`.
 *
 * Rules (hooks, in the submit's transaction): the address must be a valid IP or CIDR network (400
 * IP地址格式不正确); a live, banned entry of the same address in the tenant refuses a second one (400
 * 该IP已在封禁名单中).
 *
 * `POST /api/project/systembanip/unseal?ids=1,2` (or `ids` in the body): the entries become unsealed
 * (`banStatus` 0, `unsealTime` now) in one transaction, audited (`project/systembanip:unseal`); the button
 * `systembanip_unseal` is needed (administrators pass); an id of another tenant is 404 and nothing changes.
 *
 * Which logins a ban stops: `POST /api/blade-auth/oauth/token` (every grant type, so a banned address can
 * neither log in nor refresh) and `POST /api/blade-auth/oauth/token-by-phone` from an address inside a live, banned, unexpired entry of the tenant the login
 * names, or of the platform tenant 000000 (the platform's entries ban an address for every tenant) answers
 * 403 当前IP已被禁止登录，请联系管理员 before the password is checked.
 *
 * Automatic bans (decision; the spec is silent): an address with `ban_ip_max_failures` failed logins (any
 * account, any tenant, by password or by SMS code; default 20, parameter `ban_ip_max_failures`, 0 = never)
 * within 10 minutes is banned for `ban_ip_minutes` (default 60) by an entry of the platform tenant with `banSource` 2 — slow password
 * guessing across accounts, which the per-account lock (5 failures) and the per-minute rate limit do not
 * stop. Addresses of this machine (loopback) are never banned automatically: behind a reverse proxy every
 * client has one, and a ban would lock everyone out. Counting uses `kc_login_failure` (system migration
 * 0001): one row per address with its window start and count.
 */
import net from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ValidationError, ok } from '../../core/envelope.js';
import { nextId } from '../../core/ids.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { GrantCache } from '../../core/context.js';
import { writeAudit } from '../../resources/audit.js';
import { PLATFORM_TENANT } from '../../../shared/contract/tenancy.js';
import { idList } from './users.js';

export const BAN_IP_RESOURCE = 'project/systembanip';
/** The login endpoints a ban closes (password, captcha and refresh grants; login by phone and SMS code). */
const LOGIN_PATHS: ReadonlySet<string> = new Set(['/api/blade-auth/oauth/token', '/api/blade-auth/oauth/token-by-phone']);
/** The button (seeded under the menu `systembanip`) that allows `unseal`. */
export const UNSEAL_BUTTON = 'systembanip_unseal';
/** Default failed logins of one address within the window before it is banned (parameter ban_ip_max_failures). */
export const DEFAULT_BAN_MAX_FAILURES = 20;
/** Default length of an automatic ban in minutes (parameter ban_ip_minutes). */
export const DEFAULT_BAN_MINUTES = 60;
/** The window failed logins are counted in, in minutes. */
export const BAN_WINDOW_MINUTES = 10;

const M = {
  banned: { zh: '当前IP已被禁止登录，请联系管理员', en: 'Logins from this IP address are banned: please contact the administrator' },
  badIp: { zh: 'IP地址格式不正确', en: 'The IP address is not valid' },
  duplicate: { zh: '该IP已在封禁名单中', en: 'This IP address is already banned' },
  autoReason: { zh: '{n} 分钟内登录失败 {count} 次，自动封禁', en: '{count} failed logins within {n} minutes: banned automatically' },
};

/** The address as the ban list compares it: IPv4-mapped IPv6 (`::ffff:1.2.3.4`) becomes `1.2.3.4`. */
export function normaliseIp(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return m ? m[1] : ip;
}

/**
 * The canonical form of an entry's address — `a.b.c.d`, a compressed lower-case IPv6 address, or
 * `address/prefix` for a network (host bits kept as given) — or null when it is neither.
 */
export function canonicalBan(raw: string): string | null {
  const text = raw.trim();
  const [addr, prefix, extra] = text.split('/');
  if (extra !== undefined) return null;
  const ip = normaliseIp(addr);
  const family = net.isIP(ip);
  if (!family) return null;
  const canon = family === 6 ? new net.SocketAddress({ address: ip, family: 'ipv6' }).address : ip;
  if (prefix === undefined) return canon;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128)) return null;
  return `${canon}/${Number(prefix)}`;
}

/** True when `ip` lies inside one of the entries `bans` (canonical forms). */
export function isBanned(ip: string, bans: string[]): boolean {
  const addr = normaliseIp(ip);
  const family = net.isIP(addr);
  if (!family || bans.length === 0) return false;
  const list = new net.BlockList();
  for (const b of bans) {
    const [a, p] = b.split('/');
    const f = net.isIP(a) === 6 ? 'ipv6' : 'ipv4';
    if (p === undefined) list.addAddress(a, f);
    else list.addSubnet(a, Number(p), f);
  }
  return list.check(addr, family === 6 ? 'ipv6' : 'ipv4');
}

/** True for an address of this machine (never banned automatically). */
export function isLoopback(ip: string): boolean {
  const a = normaliseIp(ip);
  return a === '::1' || a.startsWith('127.');
}

/** A whole-number parameter of blade_param, or `fallback` when it is missing or not a whole number ≥ 0. */
async function intParam(db: Db, key: string, fallback: number): Promise<number> {
  const r = await sql<{ v: string }>`SELECT param_value AS v FROM blade_param WHERE param_key = ${key} AND is_deleted = 0 LIMIT 1`.execute(db);
  const n = Number(r.rows[0]?.v);
  return r.rows[0] && Number.isInteger(n) && n >= 0 ? n : fallback;
}

/** The tenant a token request names (header Tenant-Id, else tenantId of the query or body, else 000000). */
function tenantOf(req: FastifyRequest): string {
  const h = req.headers['tenant-id'];
  const header = Array.isArray(h) ? h[0] : h;
  const q = (req.query ?? {}) as Record<string, unknown>;
  const b = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
  const v = header || (typeof b.tenantId === 'string' && b.tenantId) || (typeof q.tenantId === 'string' && q.tenantId) || PLATFORM_TENANT;
  return String(v).slice(0, 12);
}

/** Registers the ban-IP hooks, `unseal`, the login check and the automatic bans of the module comment. */
export function registerBanIpModule(app: FastifyInstance, engine: ResourceEngine, grants: GrantCache): void {
  const db = engine.db;
  const resource = () => engine.registry.get(BAN_IP_RESOURCE);

  engine.hooks(BAN_IP_RESOURCE, {
    async beforeSubmit({ record, existing, user, trx }) {
      const canon = canonicalBan(String(record.ip ?? ''));
      if (!canon) throw new ValidationError([{ field: 'ip', message: M.badIp.zh, messageEn: M.badIp.en }]);
      record.ip = canon;
      const dup = await sql`SELECT 1 FROM project_systembanip WHERE tenant_id = ${user.tenantId} AND ip = ${canon} AND ban_status = 1 AND is_deleted = 0
                              AND (expire_time IS NULL OR expire_time > now()) AND id <> ${existing ? String(existing.id) : '0'}::bigint LIMIT 1`.execute(trx);
      if (dup.rows.length) throw new ValidationError([{ field: 'ip', message: M.duplicate.zh, messageEn: M.duplicate.en }]);
    },
  });

  app.post('/api/project/systembanip/unseal', { schema: { tags: [BAN_IP_RESOURCE], summary: 'Unseal banned IP entries (ids)' } }, async (req) => {
    const user = await engine.authorize(req.user, resource(), 'read');
    if (!user.isAdmin && !(await grants.hasCode(user.activeRoleIds, UNSEAL_BUTTON))) throw new ApiError(403, 'forbidden');
    const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
    const ids = idList({ ...body, ...((req.query ?? {}) as Record<string, unknown>) }, 'ids');
    await db.transaction().execute(async (trx) => {
      const done = await sql<{ id: string }>`
        UPDATE project_systembanip SET ban_status = 0, unseal_time = now(), update_user = ${user.userId}::bigint, update_time = now()
         WHERE id = ANY(${ids}::bigint[]) AND tenant_id = ${user.tenantId} AND is_deleted = 0 RETURNING id::text AS id`.execute(trx);
      if (done.rows.length !== ids.length) throw new ApiError(404, 'notFound'); // rolls back: all or nothing
      const r = resource();
      await writeAudit(trx, user, { resource: BAN_IP_RESOURCE, title: r.schema.title, titleEn: r.schema.titleEn, action: 'unseal', ids, requestUri: req.url.split('?')[0] }, req);
    });
    engine.changed('project_systembanip');
    return ok(null, undefined, req.lang);
  });

  /** The live bans of `tenantId` and of the platform (canonical addresses). */
  const activeBans = async (tenantId: string): Promise<string[]> => {
    const r = await sql<{ ip: string }>`
      SELECT ip FROM project_systembanip
       WHERE tenant_id IN (${tenantId}, ${PLATFORM_TENANT}) AND ban_status = 1 AND is_deleted = 0 AND (expire_time IS NULL OR expire_time > now())`.execute(db);
    return r.rows.map((x) => x.ip);
  };

  app.addHook('preHandler', async (req) => {
    if (req.method !== 'POST' || !LOGIN_PATHS.has(req.routeOptions.url ?? '')) return;
    if (isBanned(req.ip, await activeBans(tenantOf(req)))) throw new ApiError(403, M.banned);
  });

  // before the answer goes out (onSend), so the next attempt already sees the count
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.method !== 'POST' || reply.statusCode !== 400 || !LOGIN_PATHS.has(req.routeOptions.url ?? '')) return payload;
    const params = { ...((req.query ?? {}) as Record<string, unknown>), ...((req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>) };
    if (params.grant_type === 'refresh_token' || isLoopback(req.ip)) return payload;
    await countFailure(normaliseIp(req.ip)).catch((e: unknown) => req.log.error(e));
    return payload;
  });

  /** Counts a failed login from `ip`; bans it automatically at the threshold (see the module comment). */
  async function countFailure(ip: string): Promise<void> {
    const max = await intParam(db, 'ban_ip_max_failures', DEFAULT_BAN_MAX_FAILURES);
    if (max === 0 || !canonicalBan(ip)) return;
    const r = await sql<{ fail_count: number }>`
      INSERT INTO kc_login_failure (ip, window_start, fail_count) VALUES (${ip}, now(), 1)
      ON CONFLICT (ip) DO UPDATE SET
        fail_count = CASE WHEN kc_login_failure.window_start > now() - make_interval(mins => ${BAN_WINDOW_MINUTES}) THEN kc_login_failure.fail_count + 1 ELSE 1 END,
        window_start = CASE WHEN kc_login_failure.window_start > now() - make_interval(mins => ${BAN_WINDOW_MINUTES}) THEN kc_login_failure.window_start ELSE now() END
      RETURNING fail_count`.execute(db);
    const count = r.rows[0]?.fail_count ?? 0;
    if (count < max) return;
    const minutes = (await intParam(db, 'ban_ip_minutes', DEFAULT_BAN_MINUTES)) || DEFAULT_BAN_MINUTES;
    const canon = canonicalBan(ip)!;
    const reason = `${M.autoReason.zh.replace('{n}', String(BAN_WINDOW_MINUTES)).replace('{count}', String(count))}`;
    await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`ban:${canon}`}))`.execute(trx);
      const live = await sql`SELECT 1 FROM project_systembanip WHERE tenant_id = ${PLATFORM_TENANT} AND ip = ${canon} AND ban_status = 1 AND is_deleted = 0
                               AND (expire_time IS NULL OR expire_time > now()) LIMIT 1`.execute(trx);
      if (live.rows.length) return;
      await sql`INSERT INTO project_systembanip (id, tenant_id, ip, reason, ban_status, ban_source, expire_time)
                VALUES (${nextId()}::bigint, ${PLATFORM_TENANT}, ${canon}, ${reason}, 1, 2, now() + make_interval(mins => ${minutes}))`.execute(trx);
      await sql`DELETE FROM kc_login_failure WHERE ip = ${ip}`.execute(trx);
    });
    engine.changed('project_systembanip');
  }
}
