/**
 * Tenants, clients and parameters (spec 002 §2, §7 Tenant / client; DESIGN §5; issue 9): what their schemas
 * (schemas/system/tenant.json, client.json, param.json — all `platform` and `platformAdminOnly`: only
 * administrators of tenant 000000 reach them, 403 平台数据只能由平台管理员维护 otherwise) cannot say.
 *
 * Tenant (hooks on `system/tenant`, in the submit's transaction):
 * - a new tenant gets a generated 6-digit `tenantId` (unique; the body cannot choose it), and in the same
 *   transaction its root department (a company named after the tenant), the default roles (administrator,
 *   research management, declaring unit, project manager, expert reviewer, researcher — each with the menu
 *   grants its alias holds in tenant 000000), the top menus of tenant 000000 and an administrator `admin`
 *   with a generated password (argon2id), answered once in the submit's answer as `adminAccount` and
 *   `adminPassword` and stored nowhere in clear;
 * - the platform tenant 000000 cannot be removed (400 平台租户不能删除).
 * An expired tenant (expire_time in the past) cannot log in nor refresh: the token endpoint answers 400
 * 租户已过期，请联系管理员 (src/server/core/auth/routes.ts; an unknown or disabled tenant 租户不存在或已过期). The
 * account quota (`accountNumber`, -1 = unlimited) bounds the tenant's live users: a new user beyond it is
 * refused with 400 账号额度已满，最多 {n} 个账号 (user-state.ts).
 *
 * Endpoints (envelope answers, platform administrators only unless said):
 * - `POST /api/blade-system/tenant/setting` body or query `{ids, accountNumber, expireTime}`: sets the
 *   account quota (-1 unlimited) and the expiry (`yyyy-MM-dd HH:mm:ss`, empty = never) of the tenants `ids`
 *   (comma list), each through the generic submit (validated, audited); 404 when one is not found.
 * - `GET /api/blade-system/tenant/datasource?tenantId=`: where the tenant's data lives, read only and without
 *   secrets: `{tenantId, kind: 'embedded' | 'external', host, port, database, schema, shared: true}` (every
 *   tenant shares the platform's database, rows told apart by tenant_id — DESIGN §12).
 * - `GET /api/blade-system/tenant/info?domain=` (public, the login page): `{tenantId, tenantName, domain}` of
 *   the live tenant serving that domain, or null.
 *
 * Client (hooks on `system/client`): a new client gets a generated secret (32 random bytes, base64url),
 * answered once as `clientSecret` in the submit's answer; only `sha256:<hex>` of it is stored (a random
 * 256-bit secret needs no slow hash; the token endpoint compares hashes). `clientId` is unique (400
 * 应用ID已存在). `POST /api/blade-system/client/secret?id=` replaces a client's secret with a new one, answered
 * once as `{id, clientId, clientSecret}` (a lost secret cannot be shown again: only its hash is kept); audited
 * (`system/client:secret`, without the secret). The token endpoint caches a client for 30 s, so the old secret
 * may work for up to 30 s more. Parameter (`system/param`): `paramKey` is unique (400 参数键名已存在).
 *
 * Audit: the tenant, client and parameter schemas say `audit`, so every submit and remove — tenant/setting's
 * included (one `system/tenant:edit` row per tenant with the quota and expiry changed) — leaves a usual-log row.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok, ValidationError } from '../../core/envelope.js';
import { nextId } from '../../core/ids.js';
import { generatePassword, hashPassword } from '../../core/auth/password.js';
import type { Database } from '../../core/db/index.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { isId } from '../../../shared/contract/ids.js';
import { ADMIN_ALIAS, PLATFORM_TENANT } from '../../../shared/contract/tenancy.js';
import { t } from '../../../shared/i18n/messages.js';
import { writeAudit } from '../../resources/audit.js';

/** The roles every new tenant starts with: alias, zh and en names (aliases as in seed/index.ts ROLE). */
export const DEFAULT_TENANT_ROLES = [
  { alias: ADMIN_ALIAS, name: '管理员', nameEn: 'Administrator' },
  { alias: 'kygl', name: '科研管理人员', nameEn: 'Research management' },
  { alias: 'sbdw', name: '申报单位', nameEn: 'Declaring unit' },
  { alias: 'projectManager', name: '项目负责人', nameEn: 'Project manager' },
  { alias: 'majorManager', name: '评审专家', nameEn: 'Expert reviewer' },
  { alias: 'researcher', name: '科研人员', nameEn: 'Researcher' },
] as const;

/** The account of a new tenant's administrator. */
export const TENANT_ADMIN_ACCOUNT = 'admin';

/** `sha256:<hex>` of a client secret: what blade_client.client_secret stores for clients created here. */
export function hashClientSecret(secret: string): string {
  return 'sha256:' + crypto.createHash('sha256').update(secret).digest('hex');
}

/** A 6-digit tenant id no tenant (live or removed) has. */
async function newTenantId(trx: Db): Promise<string> {
  for (;;) {
    const id = String(crypto.randomInt(100000, 1000000));
    const r = await sql`SELECT 1 FROM blade_tenant WHERE tenant_id = ${id}`.execute(trx);
    if (r.rows.length === 0) return id;
  }
}

/** Inserts link rows (`id`, `ownerColumn` = `owner`, `column` = each of `values`) in one statement. */
async function insertLinks(trx: Db, table: 'blade_role_menu' | 'blade_top_menu_setting', ownerColumn: 'role_id' | 'top_menu_id', owner: string, column: 'menu_id', values: string[]): Promise<void> {
  if (values.length === 0) return;
  const ids = values.map(() => nextId());
  await sql`INSERT INTO ${sql.table(table)} (id, ${sql.ref(ownerColumn)}, ${sql.ref(column)})
            SELECT unnest(${ids}::bigint[]), ${owner}::bigint, unnest(${values}::bigint[])`.execute(trx);
}

/**
 * Creates what a new tenant `tenantId` starts with (see the module comment); answers the administrator's
 * generated password. Runs in the caller's transaction `trx`.
 */
export async function provisionTenant(trx: Db, tenantId: string, tenantName: string, by: { userId: string }): Promise<string> {
  const deptId = nextId();
  const name = tenantName.slice(0, 45);
  await sql`INSERT INTO blade_dept (id, tenant_id, parent_id, ancestors, dept_category, dept_name, full_name, sort, create_user, update_user)
            VALUES (${deptId}::bigint, ${tenantId}, 0, '0', 1, ${name}, ${name}, 1, ${by.userId}::bigint, ${by.userId}::bigint)`.execute(trx);
  let adminRole = '';
  for (const [i, role] of DEFAULT_TENANT_ROLES.entries()) {
    const id = nextId();
    if (role.alias === ADMIN_ALIAS) adminRole = id;
    await sql`INSERT INTO blade_role (id, tenant_id, parent_id, role_name, role_name_en, role_alias, sort, create_user, update_user)
              VALUES (${id}::bigint, ${tenantId}, 0, ${role.name}, ${role.nameEn}, ${role.alias}, ${i + 1}, ${by.userId}::bigint, ${by.userId}::bigint)`.execute(trx);
    // the menus the same (top-level) role holds in the platform tenant
    const menus = await sql<{ menu_id: string }>`
      SELECT DISTINCT rm.menu_id::text AS menu_id FROM blade_role_menu rm JOIN blade_role r ON r.id = rm.role_id
       WHERE r.tenant_id = ${PLATFORM_TENANT} AND r.role_alias = ${role.alias} AND r.parent_id = 0 AND r.is_deleted = 0`.execute(trx);
    await insertLinks(trx, 'blade_role_menu', 'role_id', id, 'menu_id', menus.rows.map((m) => m.menu_id));
  }
  const tops = await sql<{ id: string; code: string; name: string; name_en: string | null; source: string | null; path: string | null; sort: number }>`
    SELECT id::text AS id, code, name, name_en, source, path, sort FROM blade_top_menu WHERE tenant_id = ${PLATFORM_TENANT} AND is_deleted = 0 ORDER BY sort, id`.execute(trx);
  for (const tm of tops.rows) {
    const id = nextId();
    await sql`INSERT INTO blade_top_menu (id, tenant_id, code, name, name_en, source, path, sort) VALUES (${id}::bigint, ${tenantId}, ${tm.code}, ${tm.name}, ${tm.name_en}, ${tm.source}, ${tm.path}, ${tm.sort})`.execute(trx);
    const menus = await sql<{ menu_id: string }>`SELECT menu_id::text AS menu_id FROM blade_top_menu_setting WHERE top_menu_id = ${tm.id}::bigint`.execute(trx);
    await insertLinks(trx, 'blade_top_menu_setting', 'top_menu_id', id, 'menu_id', menus.rows.map((m) => m.menu_id));
  }
  const password = generatePassword();
  const userId = nextId();
  await sql`INSERT INTO blade_user (id, tenant_id, account, password, name, real_name, dept_id, create_user, update_user)
            VALUES (${userId}::bigint, ${tenantId}, ${TENANT_ADMIN_ACCOUNT}, ${await hashPassword(password)}, '管理员', '管理员', ${deptId}::bigint, ${by.userId}::bigint, ${by.userId}::bigint)`.execute(trx);
  await sql`INSERT INTO blade_user_role (id, user_id, role_id) VALUES (${nextId()}::bigint, ${userId}::bigint, ${adminRole}::bigint)`.execute(trx);
  return password;
}

/** A 400 on `field` with the message `key` (both languages). */
const fieldFault = (field: string, key: 'clientIdTaken' | 'paramKeyTaken') => new ValidationError([{ field, message: t(key, 'zh'), messageEn: t(key, 'en') }]);

/** Registers the tenant, client and parameter hooks and the tenant endpoints of the module comment. */
export function registerTenantModule(app: FastifyInstance, engine: ResourceEngine, database: Database, embedded: boolean, reseed?: () => Promise<void>): void {
  engine.hooks('system/tenant', {
    async beforeSubmit({ isNew, record, trx }) {
      if (isNew) record.tenantId = await newTenantId(trx);
    },
    async afterSubmit({ isNew, saved, trx, user }) {
      if (!isNew) return;
      const password = await provisionTenant(trx, String(saved.tenantId), String(saved.tenantName), user);
      saved.adminAccount = TENANT_ADMIN_ACCOUNT;
      saved.adminPassword = password;
    },
    // once the new tenant is committed, the modules seed it (business dictionaries, algorithms, search indexes …)
    async afterCommit({ action }) {
      if (action === 'add' && reseed) await reseed().catch((e: unknown) => app.log.error({ err: e }, 'seeding the new tenant failed'));
    },
    async beforeRemove({ ids, trx }) {
      const r = await sql`SELECT 1 FROM blade_tenant WHERE id = ANY(${ids}::bigint[]) AND tenant_id = ${PLATFORM_TENANT}`.execute(trx);
      if (r.rows.length) throw new ApiError(400, 'platformTenantRemove');
    },
  });

  const secrets = new WeakMap<object, string>(); // the record being inserted → its secret in clear, until answered
  engine.hooks('system/client', {
    async beforeSubmit({ isNew, record, existing, trx }) {
      const taken = await sql`SELECT 1 FROM blade_client WHERE client_id = ${String(record.clientId)} AND is_deleted = 0 AND id <> ${existing ? String(existing.id) : '0'}::bigint`.execute(trx);
      if (taken.rows.length) throw fieldFault('clientId', 'clientIdTaken');
      if (!isNew) return;
      const secret = crypto.randomBytes(32).toString('base64url');
      record.clientSecret = hashClientSecret(secret);
      secrets.set(record, secret);
    },
    afterSubmit({ record, saved }) {
      const secret = secrets.get(record);
      if (secret) saved.clientSecret = secret; // answered once; only the hash is stored
    },
  });

  engine.hooks('system/param', {
    async beforeSubmit({ record, existing, trx }) {
      const taken = await sql`SELECT 1 FROM blade_param WHERE param_key = ${String(record.paramKey)} AND is_deleted = 0 AND id <> ${existing ? String(existing.id) : '0'}::bigint`.execute(trx);
      if (taken.rows.length) throw fieldFault('paramKey', 'paramKeyTaken');
    },
  });

  const tenantResource = () => engine.registry.resources.get('system/tenant')!;

  app.post('/api/blade-system/client/secret', { schema: { tags: ['system/client'], summary: 'A new secret for a client, answered once' } }, async (req) => {
    const r = engine.registry.get('system/client');
    const user = await engine.authorize(req.user, r, 'edit');
    const p = { ...(req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {}), ...((req.query ?? {}) as Record<string, unknown>) };
    if (p.id === undefined || p.id === '') throw new ApiError(400, 'missingParam', { param: 'id' });
    if ((typeof p.id !== 'string' && typeof p.id !== 'number') || !isId(String(p.id))) throw new ApiError(400, 'badParam', { param: 'id' });
    const id = String(p.id);
    const secret = crypto.randomBytes(32).toString('base64url');
    const clientId = await engine.db.transaction().execute(async (trx) => {
      const done = await sql<{ client_id: string }>`UPDATE blade_client SET client_secret = ${hashClientSecret(secret)}, update_user = ${user.userId}::bigint, update_time = now()
                                                     WHERE id = ${id}::bigint AND is_deleted = 0 RETURNING client_id`.execute(trx);
      if (!done.rows[0]) throw new ApiError(404, 'notFound');
      await writeAudit(trx, user, { resource: 'system/client', title: r.schema.title, titleEn: r.schema.titleEn, action: 'secret', ids: [id], detail: { clientId: done.rows[0].client_id }, requestUri: '/api/blade-system/client/secret' }, req);
      return done.rows[0].client_id;
    });
    engine.changed('blade_client');
    return ok({ id, clientId, clientSecret: secret }, undefined, req.lang);
  });

  app.post('/api/blade-system/tenant/setting', { schema: { tags: ['system/tenant'], summary: 'Account quota and expiry of tenants' } }, async (req) => {
    const r = tenantResource();
    const user = await engine.authorize(req.user, r, 'edit');
    const body = { ...((req.query ?? {}) as Record<string, unknown>), ...(req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {}) };
    if (typeof body.ids !== 'string' || body.ids.trim() === '') throw new ApiError(400, 'idsRequired');
    const ids = [...new Set(body.ids.split(',').map((s) => s.trim()).filter(Boolean))];
    if (ids.length > 1000 || !ids.every(isId)) throw new ApiError(400, 'badParam', { param: 'ids' });
    const values: Record<string, unknown> = {};
    if (body.accountNumber !== undefined) values.accountNumber = body.accountNumber === '' || body.accountNumber === null ? -1 : body.accountNumber;
    if (body.expireTime !== undefined) values.expireTime = body.expireTime === '' ? null : body.expireTime;
    const found = await engine.query<{ n: number }>(`SELECT count(*)::int AS n FROM blade_tenant WHERE id = ANY($1::bigint[]) AND is_deleted = 0`, [ids]);
    if (found[0].n !== ids.length) throw new ApiError(404, 'notFound');
    const saved = [];
    for (const id of ids) saved.push(await engine.submit(r, user, { ...values, id }, req.lang));
    return ok(saved, undefined, req.lang);
  });

  app.get('/api/blade-system/tenant/datasource', { schema: { tags: ['system/tenant'], summary: 'Where a tenant’s data lives (read only, no secrets)' } }, async (req) => {
    const user = await engine.authorize(req.user, tenantResource(), 'read');
    const tenantId = (req.query as Record<string, unknown>).tenantId ?? user.tenantId;
    if (typeof tenantId !== 'string' || !/^[A-Za-z0-9]{1,12}$/.test(tenantId)) throw new ApiError(400, 'badParam', { param: 'tenantId' });
    const exists = await sql`SELECT 1 FROM blade_tenant WHERE tenant_id = ${tenantId} AND is_deleted = 0`.execute(engine.db);
    if (exists.rows.length === 0) throw new ApiError(404, 'notFound');
    const url = new URL(database.url);
    return ok(
      {
        tenantId,
        kind: embedded ? 'embedded' : 'external',
        host: url.hostname,
        port: Number(url.port || 5432),
        database: decodeURIComponent(url.pathname.replace(/^\//, '')),
        schema: 'public',
        shared: true,
      },
      undefined,
      req.lang,
    );
  });

  app.get('/api/blade-system/tenant/info', { config: { public: true }, schema: { tags: ['system/tenant'], summary: 'Public: the tenant serving a domain' } }, async (req) => {
    const domain = (req.query as Record<string, unknown>).domain;
    if (domain === undefined || domain === '') throw new ApiError(400, 'missingParam', { param: 'domain' });
    if (typeof domain !== 'string' || domain.length > 255) throw new ApiError(400, 'badParam', { param: 'domain' });
    const r = await sql<{ tenantId: string; tenantName: string; domain: string }>`
      SELECT tenant_id AS "tenantId", tenant_name AS "tenantName", domain FROM blade_tenant
       WHERE lower(domain) = lower(${domain}) AND is_deleted = 0 AND status = 1 AND (expire_time IS NULL OR expire_time > now())
       ORDER BY id LIMIT 1`.execute(engine.db);
    return ok(r.rows[0] ?? null, undefined, req.lang);
  });
}
