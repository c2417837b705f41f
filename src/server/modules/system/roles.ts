/**
 * Roles and their grants (spec 002 §6–§7 Role: list, tree (tenantId, companyId), tree-by-id (roleId), myRole,
 * detail, submit, remove, grant; spec 000 §6, §7 Menus: grant-tree, role-tree-keys, grant-top-tree,
 * top-tree-keys; DESIGN §5). Roles are the generic resource `system/role` (blade_role, per tenant,
 * schemas/system/role.json: list, page, detail, submit, remove, select); this file adds the rules the schema
 * cannot state and the calls beside the generic ones:
 *
 * | endpoint                                  | answer                                                            |
 * | ----------------------------------------- | ----------------------------------------------------------------- |
 * | GET role/tree?tenantId=&companyId=        | the caller's tenant's roles as tree nodes `{id, key, value, title,|
 * |                                           | titleEn, roleAlias, parentId, children, hasChildren}`; another     |
 * |                                           | tenantId answers [] (a tenant never sees another's roles);        |
 * |                                           | companyId must be a department of the tenant (roles belong to the |
 * |                                           | tenant, not to a company, so it does not narrow the answer)       |
 * | GET role/tree-by-id?roleId=               | the tree of the tenant that role `roleId` belongs to (BladeX); 404 |
 * |                                           | unless the role is the caller's tenant's                         |
 * | GET role/myRole                           | the caller's own live roles `[{id, roleName, roleNameEn,          |
 * |                                           | roleAlias, parentId, active}]` (any signed-in user)               |
 * | POST role/grant {roleIds, menuIds,        | replaces, for every role of `roleIds`, its menu and button grants |
 * |   dataScopeIds, apiScopeIds, topMenuIds}  | (blade_role_menu), data scopes (blade_role_scope category 1), API |
 * |                                           | scopes (category 2) and top menus (blade_role_top_menu), in one   |
 * |                                           | transaction; an absent menuIds / dataScopeIds / apiScopeIds means |
 * |                                           | none (BladeX), an absent topMenuIds leaves top menus as they are  |
 * | GET menu/grant-tree                       | `{menu, dataScope, apiScope}`: the trees of the grant dialog      |
 * | GET menu/role-tree-keys?roleIds=          | `{menu, dataScope, apiScope, topMenu}`: the ids those roles hold  |
 * | GET menu/grant-top-tree                   | `{menu}`: the tenant's top menus as tree nodes                   |
 * | GET menu/top-tree-keys?topMenuIds=        | `{menu}`: the menu ids those top menus hold (topmenu/grant)       |
 *
 * Id lists are arrays of id strings or comma lists (`parseIds`). Tree nodes carry `kind` (menu, button,
 * dataScope, apiScope, topMenu); in the scope trees a scope's menu is a container whose key is
 * `menu-<id>` (and a scope without a live menu sits under `resource-<resourceCode>`), so only scope keys are
 * grantable.
 *
 * Who: granting, and the grant trees and keys, are for administrators only (403 没有权限执行此操作 for anyone
 * else, whatever their grants: a role that could grant could grant itself everything); the generic calls
 * need the `role` grants (`role`, `role_add`, `role_edit`, `role_delete`; administrators pass). A role of
 * another tenant is never visible nor grantable (404, nothing changes). Every id a grant names must exist,
 * live (menus, scopes) and in the caller's tenant (roles, top menus): otherwise 400 naming the ids, and
 * nothing is stored. The grant takes effect on the grantees' next request: `grantsChanged` (scopes.ts)
 * drops the grant caches here at once and, through `NOTIFY kc_cache 'grants'`, on every node; menu routes
 * read blade_role_menu directly.
 *
 * Rules on roles (hooks of the generic engine, in its transaction, under an advisory lock per tenant):
 * `roleAlias` unique among the live roles of the same tenant and parent (migration 0006's index
 * `blade_role_tenant_parent_alias`; 400 on roleAlias); the parent is a live role of the tenant, never the role
 * itself or one below it; a role with live sub-roles (not removed with it) or held by a live user cannot be
 * removed.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';
import { ApiError, ValidationError, ok } from '../../core/envelope.js';
import type { AuthUser, GrantCache } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { isId } from '../../../shared/contract/ids.js';
import { t, type MessageKey } from '../../../shared/i18n/messages.js';
import { grantsChanged } from './scopes.js';
import { writeAudit } from '../../resources/audit.js';

type Row = Record<string, unknown>;

export const ROLE_RESOURCE = 'system/role';

/** At most this many ids in one list parameter. */
const MAX_IDS = 5000;

/**
 * An id list parameter: absent, null or '' → []; a comma list or an array of ids (strings, or numbers that
 * are safe integers) → the distinct ids in order. Anything else → 400 参数 {param} 应为 id 列表.
 */
export function parseIds(value: unknown, param: string): string[] {
  if (value === undefined || value === null || value === '') return [];
  let list: unknown[];
  if (typeof value === 'string') list = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  else if (Array.isArray(value)) list = value.map((v) => (typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v));
  else throw new ApiError(400, 'grantIdsInvalid', { param });
  if (list.length > MAX_IDS || !list.every(isId)) throw new ApiError(400, 'grantIdsInvalid', { param });
  return [...new Set(list as string[])];
}

const fieldError = (field: string, key: MessageKey, params?: Record<string, unknown>) =>
  new ValidationError([{ field, message: t(key, 'zh', params), messageEn: t(key, 'en', params) }]);

/** The caller, when an administrator; 401 without a user, 403 otherwise. */
function adminOnly(user: AuthUser | null): AuthUser {
  if (!user) throw new ApiError(401, 'unauthorized');
  if (!user.isAdmin) throw new ApiError(403, 'forbidden');
  return user;
}

/** 404 unless every id of `roleIds` is a live role of `tenantId` (read through `db`; locked with `forUpdate`). */
async function assertRoles(db: Db, tenantId: string, roleIds: string[], forUpdate = false): Promise<void> {
  const found = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM (SELECT id FROM blade_role WHERE id = ANY(${roleIds}::bigint[]) AND tenant_id = ${tenantId} AND is_deleted = 0
     ${forUpdate ? sql`FOR UPDATE` : sql``}) r`.execute(db);
  if (found.rows[0].n !== roleIds.length) throw new ApiError(404, 'notFound');
}

type Node = Row & { children: Node[]; hasChildren: boolean };

/** Nests nodes by `parentId`, keeping their order. */
function nest(nodes: Row[]): Node[] {
  const byId = new Map<string, Node>(nodes.map((n) => [String(n.id), { ...n, children: [], hasChildren: false }]));
  const roots: Node[] = [];
  for (const n of byId.values()) {
    const p = byId.get(String(n.parentId));
    if (p) {
      p.children.push(n);
      p.hasChildren = true;
    } else roots.push(n);
  }
  return roots;
}

/** The role tree of `tenantId`. */
async function roleTree(db: Db, tenantId: string): Promise<Node[]> {
  const rows = await sql<{ id: string; parent_id: string; role_name: string; role_name_en: string | null; role_alias: string }>`
    SELECT id::text AS id, parent_id::text AS parent_id, role_name, role_name_en, role_alias FROM blade_role
     WHERE tenant_id = ${tenantId} AND is_deleted = 0 ORDER BY sort, id`.execute(db);
  return nest(rows.rows.map((r) => ({ id: r.id, key: r.id, value: r.id, title: r.role_name, titleEn: r.role_name_en, roleAlias: r.role_alias, parentId: r.parent_id })));
}

function registerRoleHooks(engine: ResourceEngine): void {
  engine.hooks(ROLE_RESOURCE, {
    async beforeSubmit({ user, trx, record, existing, isNew }) {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`blade_role:${user.tenantId}`}))`.execute(trx);
      const parentId = record.parentId === undefined || record.parentId === null || record.parentId === '' ? '0' : String(record.parentId);
      record.parentId = parentId;
      if (parentId !== '0') {
        const parent = await sql`SELECT 1 FROM blade_role WHERE id = ${parentId}::bigint AND tenant_id = ${user.tenantId} AND is_deleted = 0`.execute(trx);
        if (!parent.rows.length) throw fieldError('parentId', 'roleParentMissing');
        if (!isNew) {
          const cycle = await sql`
            WITH RECURSIVE up AS (
              SELECT id, parent_id FROM blade_role WHERE id = ${parentId}::bigint AND tenant_id = ${user.tenantId}
              UNION
              SELECT r.id, r.parent_id FROM blade_role r JOIN up ON r.id = up.parent_id WHERE up.parent_id <> 0 AND r.tenant_id = ${user.tenantId}
            ) SELECT 1 FROM up WHERE id = ${String(existing!.id)}::bigint`.execute(trx);
          if (cycle.rows.length) throw fieldError('parentId', 'roleParentCycle');
        }
      }
      const self = isNew ? sql`` : sql`AND id <> ${String(existing!.id)}::bigint`;
      const dup = await sql`SELECT 1 FROM blade_role WHERE tenant_id = ${user.tenantId} AND parent_id = ${parentId}::bigint AND role_alias = ${record.roleAlias}
                              AND is_deleted = 0 ${self} LIMIT 1`.execute(trx);
      if (dup.rows.length) throw fieldError('roleAlias', 'roleAliasExists', { alias: record.roleAlias });
    },
    async beforeRemove({ user, trx, ids }) {
      const kids = await sql`SELECT 1 FROM blade_role WHERE tenant_id = ${user.tenantId} AND parent_id = ANY(${ids}::bigint[]) AND NOT (id = ANY(${ids}::bigint[]))
                               AND is_deleted = 0 LIMIT 1`.execute(trx);
      if (kids.rows.length) throw new ApiError(400, 'roleHasChildren');
      const held = await sql<{ role_name: string }>`
        SELECT r.role_name FROM blade_user_role ur JOIN blade_user u ON u.id = ur.user_id AND u.is_deleted = 0 JOIN blade_role r ON r.id = ur.role_id
         WHERE ur.role_id = ANY(${ids}::bigint[]) AND r.tenant_id = ${user.tenantId} LIMIT 1`.execute(trx);
      if (held.rows.length) throw new ApiError(400, 'roleInUse', { name: held.rows[0].role_name });
    },
  });
}

/** The menu tree of the grant dialog (menus and buttons). */
async function menuGrantTree(db: Db): Promise<Node[]> {
  const rows = await sql<{ id: string; parent_id: string; name: string; name_en: string | null; code: string; category: number }>`
    SELECT id::text AS id, parent_id::text AS parent_id, name, name_en, code, category FROM blade_menu
     WHERE is_deleted = 0 ORDER BY category, sort, id`.execute(db);
  return nest(
    rows.rows.map((m) => ({ id: m.id, key: m.id, value: m.id, title: m.name, titleEn: m.name_en, code: m.code, parentId: m.parent_id, kind: m.category === 2 ? 'button' : 'menu' })),
  );
}

/**
 * A scope tree of the grant dialog: the scopes of `table` as leaves under their menu (`menu-<id>` nodes, with
 * the menu's ancestors), or under `resource-<resourceCode>` when they have no live menu.
 */
async function scopeGrantTree(db: Db, table: 'blade_scope_data' | 'blade_scope_api', kind: 'dataScope' | 'apiScope'): Promise<Node[]> {
  const scopes = await sql<{ id: string; menu_id: string | null; resource_code: string; scope_name: string }>`
    SELECT s.id::text AS id, m.id::text AS menu_id, s.resource_code, s.scope_name
      FROM ${sql.table(table)} s LEFT JOIN blade_menu m ON m.id = s.menu_id AND m.is_deleted = 0
     WHERE s.is_deleted = 0 ORDER BY s.resource_code, s.id`.execute(db);
  const menuIds = [...new Set(scopes.rows.map((s) => s.menu_id).filter((id): id is string => id !== null))];
  const menus = await sql<{ id: string; parent_id: string; name: string; name_en: string | null }>`
    WITH RECURSIVE up AS (
      SELECT id, parent_id FROM blade_menu WHERE id = ANY(${menuIds}::bigint[]) AND is_deleted = 0
      UNION
      SELECT m.id, m.parent_id FROM blade_menu m JOIN up ON m.id = up.parent_id WHERE m.is_deleted = 0
    ) SELECT m.id::text AS id, m.parent_id::text AS parent_id, m.name, m.name_en FROM blade_menu m WHERE m.id IN (SELECT id FROM up) ORDER BY m.sort, m.id`.execute(db);
  const nodes: Row[] = menus.rows.map((m) => ({ id: `menu-${m.id}`, key: `menu-${m.id}`, value: `menu-${m.id}`, title: m.name, titleEn: m.name_en, parentId: `menu-${m.parent_id}`, kind: 'menu' }));
  const resources = new Set<string>();
  for (const s of scopes.rows) {
    let parentId = `menu-${s.menu_id}`;
    if (s.menu_id === null) {
      parentId = `resource-${s.resource_code}`;
      if (!resources.has(s.resource_code)) {
        resources.add(s.resource_code);
        nodes.push({ id: parentId, key: parentId, value: parentId, title: s.resource_code, titleEn: s.resource_code, parentId: '0', kind: 'resource' });
      }
    }
    nodes.push({ id: s.id, key: s.id, value: s.id, title: s.scope_name, titleEn: s.scope_name, resourceCode: s.resource_code, parentId, kind });
  }
  return nest(nodes);
}

/** Inserts `(id, a, b)` rows for every pair of `as` × `bs` into `table (id, colA, colB)` in one statement. */
async function insertPairs(trx: Db, table: string, colA: string, colB: string, as: string[], bs: string[], extra?: { column: string; value: number }): Promise<void> {
  if (!as.length || !bs.length) return;
  const ids: string[] = [];
  const aCol: string[] = [];
  const bCol: string[] = [];
  for (const a of as) {
    for (const b of bs) {
      ids.push(nextId());
      aCol.push(a);
      bCol.push(b);
    }
  }
  const cols = extra ? sql`(id, ${sql.ref(colA)}, ${sql.ref(colB)}, ${sql.ref(extra.column)})` : sql`(id, ${sql.ref(colA)}, ${sql.ref(colB)})`;
  const extraVal = extra ? sql`, ${extra.value}::int` : sql``;
  await sql`INSERT INTO ${sql.table(table)} ${cols}
            SELECT i, a, b ${extraVal} FROM unnest(${ids}::bigint[], ${aCol}::bigint[], ${bCol}::bigint[]) AS x(i, a, b)`.execute(trx);
}

/** The ids of `wanted` missing from the live rows of `table` (with `tenantId`, when given). */
async function missingIds(trx: Db, table: string, wanted: string[], tenantId?: string): Promise<string[]> {
  if (!wanted.length) return [];
  const tenant = tenantId === undefined ? sql`` : sql`AND tenant_id = ${tenantId}`;
  const found = await sql<{ id: string }>`SELECT id::text AS id FROM ${sql.table(table)} WHERE id = ANY(${wanted}::bigint[]) AND is_deleted = 0 ${tenant}`.execute(trx);
  const have = new Set(found.rows.map((r) => r.id));
  return wanted.filter((id) => !have.has(id));
}

function registerRoleRoutes(app: FastifyInstance, engine: ResourceEngine, grants: GrantCache): void {
  const role = () => engine.current(engine.registry.get(ROLE_RESOURCE));
  const query = (req: FastifyRequest) => (req.query ?? {}) as Row;
  const tags = ['system/role'];

  app.get('/api/blade-system/role/tree', { schema: { tags, summary: 'Roles of the tenant as a tree' } }, async (req) => {
    const user = await engine.authorize(req.user, role(), 'read');
    const { tenantId, companyId } = query(req);
    if (tenantId !== undefined && typeof tenantId !== 'string') throw new ApiError(400, 'badParam', { param: 'tenantId' });
    if (companyId !== undefined && companyId !== '') {
      if (!isId(companyId)) throw new ApiError(400, 'badParam', { param: 'companyId' });
      const dept = await sql`SELECT 1 FROM blade_dept WHERE id = ${companyId}::bigint AND tenant_id = ${user.tenantId} AND is_deleted = 0`.execute(engine.db);
      if (!dept.rows.length) throw new ApiError(404, 'notFound');
    }
    if (tenantId && tenantId !== user.tenantId) return ok([], undefined, req.lang);
    return ok(await roleTree(engine.db, user.tenantId), undefined, req.lang);
  });

  app.get('/api/blade-system/role/tree-by-id', { schema: { tags, summary: "The role tree of a role's tenant" } }, async (req) => {
    const user = await engine.authorize(req.user, role(), 'read');
    const { roleId } = query(req);
    if (roleId === undefined || roleId === '') throw new ApiError(400, 'missingParam', { param: 'roleId' });
    if (!isId(roleId)) throw new ApiError(400, 'badParam', { param: 'roleId' });
    await assertRoles(engine.db, user.tenantId, [roleId]);
    return ok(await roleTree(engine.db, user.tenantId), undefined, req.lang);
  });

  app.get('/api/blade-system/role/myRole', { schema: { tags, summary: "The caller's roles" } }, async (req) => {
    const user = req.user;
    if (!user) throw new ApiError(401, 'unauthorized');
    const ids = user.roleIds.filter(isId);
    const rows = await sql<Row>`
      SELECT id::text AS id, role_name AS "roleName", role_name_en AS "roleNameEn", role_alias AS "roleAlias", parent_id::text AS "parentId"
        FROM blade_role WHERE id = ANY(${ids}::bigint[]) AND tenant_id = ${user.tenantId} AND is_deleted = 0 ORDER BY sort, id`.execute(engine.db);
    return ok(rows.rows.map((r) => ({ ...r, active: user.activeRoleIds.includes(String(r.id)) })), undefined, req.lang);
  });

  app.post('/api/blade-system/role/grant', { schema: { tags, summary: 'Replace the grants of roles', body: { type: 'object' } } }, async (req) => {
    const user = adminOnly(req.user);
    const body = (req.body ?? {}) as Row;
    const roleIds = parseIds(body.roleIds, 'roleIds');
    if (!roleIds.length) throw new ApiError(400, 'grantRolesRequired');
    const menuIds = parseIds(body.menuIds, 'menuIds');
    const dataScopeIds = parseIds(body.dataScopeIds, 'dataScopeIds');
    const apiScopeIds = parseIds(body.apiScopeIds, 'apiScopeIds');
    const topMenuIds = body.topMenuIds === undefined ? undefined : parseIds(body.topMenuIds, 'topMenuIds');
    await engine.db.transaction().execute(async (trx) => {
      await assertRoles(trx, user.tenantId, roleIds, true);
      const checks: Array<[string[], string, string, string | undefined]> = [
        [menuIds, 'blade_menu', '菜单', undefined],
        [dataScopeIds, 'blade_scope_data', '数据权限', undefined],
        [apiScopeIds, 'blade_scope_api', '接口权限', undefined],
        [topMenuIds ?? [], 'blade_top_menu', '顶部菜单', user.tenantId],
      ];
      const en: Record<string, string> = { 菜单: 'Menus', 数据权限: 'Data scopes', 接口权限: 'API scopes', 顶部菜单: 'Top menus' };
      for (const [ids, table, what, tenant] of checks) {
        const missing = await missingIds(trx, table, ids, tenant);
        if (missing.length) throw new ApiError(400, 'grantUnknown', { what, whatEn: en[what], ids: missing.join(',') });
      }
      await sql`DELETE FROM blade_role_menu WHERE role_id = ANY(${roleIds}::bigint[])`.execute(trx);
      await insertPairs(trx, 'blade_role_menu', 'role_id', 'menu_id', roleIds, menuIds);
      await sql`DELETE FROM blade_role_scope WHERE role_id = ANY(${roleIds}::bigint[]) AND scope_category IN (1, 2)`.execute(trx);
      await insertPairs(trx, 'blade_role_scope', 'role_id', 'scope_id', roleIds, dataScopeIds, { column: 'scope_category', value: 1 });
      await insertPairs(trx, 'blade_role_scope', 'role_id', 'scope_id', roleIds, apiScopeIds, { column: 'scope_category', value: 2 });
      if (topMenuIds !== undefined) {
        await sql`DELETE FROM blade_role_top_menu WHERE role_id = ANY(${roleIds}::bigint[])`.execute(trx);
        await insertPairs(trx, 'blade_role_top_menu', 'role_id', 'top_menu_id', roleIds, topMenuIds);
      }
      const r = engine.registry.get(ROLE_RESOURCE).schema;
      await writeAudit(trx, user, { resource: ROLE_RESOURCE, title: r.title, titleEn: r.titleEn, action: 'grant', ids: roleIds, detail: { menuIds, dataScopeIds, apiScopeIds, topMenuIds }, requestUri: '/api/blade-system/role/grant' }, req);
      await grantsChanged(trx, grants);
    });
    // drop again after the commit: a request that reloaded a role's grants during the transaction cached the old ones
    grants.invalidate();
    return ok(null, undefined, req.lang);
  });

  const mtags = ['menu'];
  app.get('/api/blade-system/menu/grant-tree', { schema: { tags: mtags, summary: 'Trees of the role grant dialog' } }, async (req) => {
    adminOnly(req.user);
    const [menu, dataScope, apiScope] = await Promise.all([
      menuGrantTree(engine.db),
      scopeGrantTree(engine.db, 'blade_scope_data', 'dataScope'),
      scopeGrantTree(engine.db, 'blade_scope_api', 'apiScope'),
    ]);
    return ok({ menu, dataScope, apiScope }, undefined, req.lang);
  });

  app.get('/api/blade-system/menu/role-tree-keys', { schema: { tags: mtags, summary: 'What roles are granted' } }, async (req) => {
    const user = adminOnly(req.user);
    const roleIds = parseIds(query(req).roleIds, 'roleIds');
    if (!roleIds.length) throw new ApiError(400, 'missingParam', { param: 'roleIds' });
    await assertRoles(engine.db, user.tenantId, roleIds);
    const ids = async (text: ReturnType<typeof sql<{ id: string }>>) => (await text.execute(engine.db)).rows.map((r) => r.id);
    const [menu, dataScope, apiScope, topMenu] = await Promise.all([
      ids(sql<{ id: string }>`SELECT DISTINCT m.id::text AS id FROM blade_role_menu rm JOIN blade_menu m ON m.id = rm.menu_id AND m.is_deleted = 0
                               WHERE rm.role_id = ANY(${roleIds}::bigint[]) ORDER BY 1`),
      ids(sql<{ id: string }>`SELECT DISTINCT s.id::text AS id FROM blade_role_scope rs JOIN blade_scope_data s ON s.id = rs.scope_id AND s.is_deleted = 0
                               WHERE rs.role_id = ANY(${roleIds}::bigint[]) AND rs.scope_category = 1 ORDER BY 1`),
      ids(sql<{ id: string }>`SELECT DISTINCT s.id::text AS id FROM blade_role_scope rs JOIN blade_scope_api s ON s.id = rs.scope_id AND s.is_deleted = 0
                               WHERE rs.role_id = ANY(${roleIds}::bigint[]) AND rs.scope_category = 2 ORDER BY 1`),
      ids(sql<{ id: string }>`SELECT DISTINCT t.id::text AS id FROM blade_role_top_menu g JOIN blade_top_menu t ON t.id = g.top_menu_id AND t.is_deleted = 0
                               WHERE g.role_id = ANY(${roleIds}::bigint[]) AND t.tenant_id = ${user.tenantId} ORDER BY 1`),
    ]);
    return ok({ menu, dataScope, apiScope, topMenu }, undefined, req.lang);
  });

  app.get('/api/blade-system/menu/grant-top-tree', { schema: { tags: mtags, summary: 'Top menus of the tenant as tree nodes' } }, async (req) => {
    const user = adminOnly(req.user);
    const rows = await sql<{ id: string; name: string; name_en: string | null; code: string }>`
      SELECT id::text AS id, name, name_en, code FROM blade_top_menu WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 ORDER BY sort, id`.execute(engine.db);
    const menu = rows.rows.map((m) => ({ id: m.id, key: m.id, value: m.id, title: m.name, titleEn: m.name_en, code: m.code, parentId: '0', kind: 'topMenu', children: [], hasChildren: false }));
    return ok({ menu }, undefined, req.lang);
  });

  app.get('/api/blade-system/menu/top-tree-keys', { schema: { tags: mtags, summary: 'Menus of top menus' } }, async (req) => {
    const user = adminOnly(req.user);
    const topMenuIds = parseIds(query(req).topMenuIds, 'topMenuIds');
    if (!topMenuIds.length) throw new ApiError(400, 'missingParam', { param: 'topMenuIds' });
    if ((await missingIds(engine.db, 'blade_top_menu', topMenuIds, user.tenantId)).length) throw new ApiError(404, 'notFound');
    const rows = await sql<{ id: string }>`
      SELECT DISTINCT m.id::text AS id FROM blade_top_menu_setting s JOIN blade_menu m ON m.id = s.menu_id AND m.is_deleted = 0
       WHERE s.top_menu_id = ANY(${topMenuIds}::bigint[]) ORDER BY 1`.execute(engine.db);
    return ok({ menu: rows.rows.map((r) => r.id) }, undefined, req.lang);
  });
}

/** Hooks and endpoints of roles and their grants. */
export function registerRoleModule(app: FastifyInstance, engine: ResourceEngine, grants: GrantCache): void {
  registerRoleHooks(engine);
  registerRoleRoutes(app, engine, grants);
}
