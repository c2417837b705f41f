/**
 * System endpoints that are not generic CRUD (spec 000 §7, 002 §7):
 *
 * - `GET /api/blade-system/menu/routes?topMenuId=&roleId=` — the menu tree (category 1) the current role may
 *   open, optionally limited to one top menu. Nodes: `id, parentId, code, name, nameEn, path, source, sort,
 *   category, isOpen, isEnabled, resource, meta: {roles, i18n, isTab, keepAlive}, children, hasChildren` — `isTab`
 *   false: the route opens no tab; `keepAlive`: its scroll position is restored (spec 000 §2.1 route meta).
 * - `GET /api/blade-system/menu/buttons` — the same tree with the granted buttons (category 2) as leaves; the
 *   client's permission map is built from the leaf codes.
 * - `GET /api/blade-system/menu/top-menu` — the tenant's top menus the current role may open: those granted to
 *   it (`blade_role_top_menu`, role/grant's topMenuIds, migration 0008) when it has any, else those holding at
 *   least one of its granted menus; roles combine by union; administrators see all of the tenant's.
 * - `GET /api/blade-system/menu/routes-app?topMenuId=&roleId=` — what an app client needs in one call: the
 *   routes tree of the current role with its granted buttons as leaves (as `buttons`, limited like `routes`).
 * - `GET /api/blade-system/menu/appList?roleId=` — the current role's granted, enabled menus that open a
 *   screen (category 1 with a path and no sub-menus), flat, in menu order: an app's grid of entries.
 * - `GET /api/blade-system/menu/top-parentId?id=` (or `?path=`) — for a menu (by id, or by its route path),
 *   `{menuId, rootId, topMenuId}`: its top-level ancestor and the first top menu of the caller's tenant that
 *   holds it (null when none does), so the shell can switch the top bar to the screen being opened.
 * - `GET /api/blade-system/dict/dictionary?code=` and `dict-biz/dictionary?code=` — the entries of a
 *   dictionary: `[{id, parentId, code, dictKey, dictValue, dictValueEn, sort, remark, isSealed}]`. A system
 *   dictionary whose top-level row has `isPublic` 1 (help_tip, websiteTip: the help centre is a public route,
 *   spec 000 §2.2) is read without signing in too; any other dictionary, and every business dictionary (a
 *   tenant's own), answers an anonymous caller 401. System dictionaries are platform rows: nothing in them is
 *   one tenant's.
 * Departments (tree, lazy-tree …) are the generic endpoints of schemas/system/dept.json (org.ts adds the rest).
 *
 * All answer in the envelope, need a signed-in user (but for public dictionaries), and read only the caller's tenant (menus are global
 * rows; grants are per role, roles are per tenant).
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import { isId } from '../../../shared/contract/ids.js';

interface MenuRow {
  id: string;
  parent_id: string;
  code: string;
  name: string;
  name_en: string | null;
  path: string | null;
  source: string | null;
  sort: number;
  category: number;
  is_open: number;
  is_enabled: boolean;
  /** route meta (spec 000 §2.1): null (a row from before the column) reads as the default */
  is_tab: boolean | null;
  keep_alive: boolean | null;
  roles: string[];
  resource: string | null;
}

type MenuNode = Record<string, unknown> & { children: MenuNode[] };

function toNode(m: MenuRow): MenuNode {
  return {
    id: m.id,
    parentId: m.parent_id,
    code: m.code,
    name: m.name,
    nameEn: m.name_en,
    path: m.path,
    source: m.source,
    sort: m.sort,
    category: m.category,
    isOpen: m.is_open,
    isEnabled: m.is_enabled,
    resource: m.resource,
    meta: { roles: m.roles, i18n: m.name_en ? { zh: m.name, en: m.name_en } : undefined, isTab: m.is_tab !== false, keepAlive: m.keep_alive === true },
    children: [],
    hasChildren: false,
  };
}

/** Builds a tree from rows, keeping the order of `rows`. */
function buildTree(rows: MenuRow[]): MenuNode[] {
  const nodes = new Map(rows.map((r) => [r.id, toNode(r)]));
  const roots: MenuNode[] = [];
  for (const r of rows) {
    const n = nodes.get(r.id)!;
    const p = nodes.get(r.parent_id);
    if (p) {
      p.children.push(n);
      p.hasChildren = true;
    } else roots.push(n);
  }
  return roots;
}

/** The active roles of a request, narrowed by a `roleId` parameter that must be one of the user's roles. */
function rolesFor(user: AuthUser, roleId: unknown): string[] {
  if (typeof roleId === 'string' && roleId !== '') {
    const wanted = roleId.split(',');
    if (wanted.some((r) => !user.roleIds.includes(r))) throw new ApiError(403, 'forbidden');
    return wanted;
  }
  return user.activeRoleIds;
}

/** Keeps the rows inside the subtrees of top menu `topMenuId`'s menus (all rows when none is given). */
async function limitToTop(db: Db, rows: MenuRow[], topMenuId?: string): Promise<MenuRow[]> {
  if (!topMenuId) return rows;
  const top = await sql<{ menu_id: string }>`SELECT menu_id FROM blade_top_menu_setting WHERE top_menu_id = ${topMenuId}::bigint`.execute(db);
  const keep = new Set<string>(top.rows.map((t) => t.menu_id));
  let grew = true;
  while (grew) {
    grew = false;
    for (const m of rows) {
      if (!keep.has(m.id) && keep.has(m.parent_id)) {
        keep.add(m.id);
        grew = true;
      }
    }
  }
  return rows.filter((m) => keep.has(m.id));
}

/** Granted menus (and buttons when `withButtons`) of `roleIds`, with every ancestor of a granted item. */
async function grantedMenus(db: Db, roleIds: string[], withButtons: boolean, topMenuId?: string): Promise<MenuRow[]> {
  const r = await sql<MenuRow>`
    WITH RECURSIVE up AS (
      SELECT m.id, m.parent_id FROM blade_menu m JOIN blade_role_menu rm ON rm.menu_id = m.id
       WHERE rm.role_id = ANY(${roleIds}::bigint[]) AND m.is_deleted = 0 AND (${withButtons} OR m.category = 1)
      UNION
      SELECT m.id, m.parent_id FROM blade_menu m JOIN up ON m.id = up.parent_id WHERE m.is_deleted = 0
    )
    SELECT m.id, m.parent_id, m.code, m.name, m.name_en, m.path, m.source, m.sort, m.category, m.is_open, m.is_enabled, m.is_tab, m.keep_alive, m.roles, m.resource
      FROM blade_menu m WHERE m.id IN (SELECT id FROM up) ORDER BY m.category, m.sort, m.id`.execute(db);
  return limitToTop(db, r.rows, topMenuId);
}

async function allMenus(db: Db, withButtons: boolean, topMenuId?: string): Promise<MenuRow[]> {
  const rows = await sql<MenuRow>`
    SELECT id, parent_id, code, name, name_en, path, source, sort, category, is_open, is_enabled, is_tab, keep_alive, roles, resource
      FROM blade_menu WHERE is_deleted = 0 AND (${withButtons} OR category = 1) ORDER BY category, sort, id`.execute(db);
  return limitToTop(db, rows.rows, topMenuId);
}

/** The menus `roleIds` of `user` are granted (an administrator without grants: all of them). */
async function menusOfRoles(db: Db, user: AuthUser, roles: string[], withButtons: boolean, top?: string): Promise<MenuRow[]> {
  const rows = await grantedMenus(db, roles, withButtons, top);
  return rows.length || !user.isAdmin ? rows : allMenus(db, withButtons, top);
}

/** The screens among `rows`: enabled menus (category 1) with a path and no sub-menus, in menu-tree order. */
function screensOf(rows: MenuRow[]): MenuRow[] {
  const parents = new Set(rows.filter((m) => m.category === 1).map((m) => m.parent_id));
  const screens = rows.filter((m) => m.category === 1 && m.is_enabled && m.path && !parents.has(m.id));
  const order = new Map<string, number>();
  const walk = (nodes: MenuNode[]) => nodes.forEach((n) => (order.set(String(n.id), order.size), walk(n.children)));
  walk(buildTree(rows));
  return screens.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

/** A menu row as the flat answer of appList (no children). */
function flatNode(m: MenuRow): Record<string, unknown> {
  const { children, hasChildren, ...rest } = toNode(m);
  void children;
  void hasChildren;
  return rest;
}

/**
 * The screens the active roles of `user` may open (what appList answers, and what the menu panel accepts —
 * menupanel.ts): granted, enabled menus with a path and no sub-menus, whose `roles` restriction (if any)
 * names one of the active roles' aliases (spec 000 §2.5 'an item is shown only if it has no role restriction
 * or the current role is in its roles list'), in menu-tree order; each as appList's flat node.
 */
export async function openableScreens(db: Db, user: AuthUser): Promise<Array<Record<string, unknown>>> {
  const rows = await menusOfRoles(db, user, user.activeRoleIds, false);
  return screensOf(rows)
    .filter((m) => !m.roles?.length || m.roles.some((r) => user.activeRoleAliases.includes(r)))
    .map(flatNode);
}

export function registerSystemRoutes(app: FastifyInstance, db: Db): void {
  async function menusFor(user: AuthUser, roleId: unknown, withButtons: boolean, topMenuId: unknown): Promise<MenuRow[]> {
    const roles = rolesFor(user, roleId);
    const top = isId(topMenuId) ? topMenuId : undefined;
    if (typeof topMenuId === 'string' && topMenuId !== '' && !top) throw new ApiError(400, 'badParam', { param: 'topMenuId' });
    if (top) {
      const owns = await sql`SELECT 1 FROM blade_top_menu WHERE id = ${top}::bigint AND tenant_id = ${user.tenantId} AND is_deleted = 0`.execute(db);
      if (owns.rows.length === 0) throw new ApiError(404, 'notFound');
    }
    return menusOfRoles(db, user, roles, withButtons, top);
  }

  app.get('/api/blade-system/menu/routes', { schema: { tags: ['menu'], summary: 'Menu routes of the current role' } }, async (req) => {
    const q = req.query as Record<string, unknown>;
    const rows = await menusFor(req.user!, q.roleId, false, q.topMenuId);
    return ok(buildTree(rows), undefined, req.lang);
  });

  app.get('/api/blade-system/menu/buttons', { schema: { tags: ['menu'], summary: 'Granted buttons (the permission map source)' } }, async (req) => {
    const q = req.query as Record<string, unknown>;
    const rows = await menusFor(req.user!, q.roleId, true, undefined);
    return ok(buildTree(rows), undefined, req.lang);
  });

  app.get('/api/blade-system/menu/top-menu', { schema: { tags: ['menu'], summary: 'Top menus of the current role' } }, async (req) => {
    const user = req.user!;
    const roles = rolesFor(user, (req.query as Record<string, unknown>).roleId);
    const r = await sql<Record<string, unknown>>`
      SELECT t.id::text AS id, t.code, t.name, t.name_en AS "nameEn", t.source, t.path, t.sort
        FROM blade_top_menu t
       WHERE t.tenant_id = ${user.tenantId} AND t.is_deleted = 0
         AND (${user.isAdmin} OR EXISTS (
           SELECT 1 FROM unnest(${roles}::bigint[]) AS r(id)
            WHERE CASE WHEN EXISTS (SELECT 1 FROM blade_role_top_menu g JOIN blade_top_menu x ON x.id = g.top_menu_id AND x.is_deleted = 0
                                     WHERE g.role_id = r.id)
                       THEN EXISTS (SELECT 1 FROM blade_role_top_menu g WHERE g.role_id = r.id AND g.top_menu_id = t.id)
                       ELSE EXISTS (SELECT 1 FROM blade_top_menu_setting s JOIN blade_role_menu rm ON rm.menu_id = s.menu_id
                                     WHERE s.top_menu_id = t.id AND rm.role_id = r.id) END))
       ORDER BY t.sort, t.id`.execute(db);
    return ok(r.rows, undefined, req.lang);
  });

  app.get('/api/blade-system/menu/routes-app', { schema: { tags: ['menu'], summary: 'Menu routes with their buttons (app client)' } }, async (req) => {
    const q = req.query as Record<string, unknown>;
    const rows = await menusFor(req.user!, q.roleId, true, q.topMenuId);
    return ok(buildTree(rows), undefined, req.lang);
  });

  app.get('/api/blade-system/menu/appList', { schema: { tags: ['menu'], summary: 'Granted screens of the current role, flat' } }, async (req) => {
    const q = req.query as Record<string, unknown>;
    const rows = await menusFor(req.user!, q.roleId, false, undefined);
    return ok(screensOf(rows).map(flatNode), undefined, req.lang);
  });

  app.get('/api/blade-system/menu/top-parentId', { schema: { tags: ['menu'], summary: 'Top-level ancestor and top menu of a menu' } }, async (req) => {
    const user = req.user!;
    const q = req.query as Record<string, unknown>;
    let menuId: string | undefined;
    if (q.id !== undefined && q.id !== '') {
      if (!isId(q.id)) throw new ApiError(400, 'badParam', { param: 'id' });
      menuId = q.id;
    } else if (typeof q.path === 'string' && q.path !== '' && q.path.length <= 255) {
      const byPath = await sql<{ id: string }>`SELECT id::text AS id FROM blade_menu WHERE path = ${q.path} AND is_deleted = 0 ORDER BY category, id LIMIT 1`.execute(db);
      menuId = byPath.rows[0]?.id;
      if (!menuId) throw new ApiError(404, 'notFound');
    } else if (q.path !== undefined && q.path !== '') throw new ApiError(400, 'badParam', { param: 'path' });
    else throw new ApiError(400, 'missingParam', { param: 'id' });
    const up = await sql<{ id: string; parent_id: string }>`
      WITH RECURSIVE up AS (
        SELECT id, parent_id, 0 AS depth FROM blade_menu WHERE id = ${menuId}::bigint AND is_deleted = 0
        UNION
        SELECT m.id, m.parent_id, up.depth + 1 FROM blade_menu m JOIN up ON m.id = up.parent_id WHERE m.is_deleted = 0 AND up.depth < 100
      ) SELECT id::text AS id, parent_id::text AS parent_id FROM up ORDER BY depth`.execute(db);
    if (!up.rows.length) throw new ApiError(404, 'notFound');
    const chain = up.rows.map((r) => r.id);
    const rootId = up.rows[up.rows.length - 1].id;
    const top = await sql<{ id: string }>`
      SELECT t.id::text AS id FROM blade_top_menu t JOIN blade_top_menu_setting s ON s.top_menu_id = t.id
       WHERE t.tenant_id = ${user.tenantId} AND t.is_deleted = 0 AND s.menu_id = ANY(${chain}::bigint[])
       ORDER BY t.sort, t.id LIMIT 1`.execute(db);
    return ok({ menuId, rootId, topMenuId: top.rows[0]?.id ?? null }, undefined, req.lang);
  });

  const dictionary = (table: 'blade_dict' | 'blade_dict_biz') => async (req: any) => {
    const code = (req.query as Record<string, unknown>).code;
    if (code === undefined || code === '') throw new ApiError(400, 'missingParam', { param: 'code' });
    if (typeof code !== 'string' || code.length > 255) throw new ApiError(400, 'badParam', { param: 'code' });
    // anonymous: only a public system dictionary (business dictionaries are a tenant's own)
    if (!req.user && table === 'blade_dict_biz') throw new ApiError(401, 'unauthorized');
    const anonymous = req.user ? sql`` : sql`AND p.is_public = 1`;
    const tenant = table === 'blade_dict_biz' ? sql`AND c.tenant_id = ${req.user!.tenantId} AND p.tenant_id = ${req.user!.tenantId}` : sql``;
    const r = await sql<Record<string, unknown>>`
      SELECT c.id::text AS id, c.parent_id::text AS "parentId", c.code, c.dict_key AS "dictKey", c.dict_value AS "dictValue",
             c.dict_value_en AS "dictValueEn", c.sort, c.remark, c.is_sealed AS "isSealed"
        FROM ${sql.table(table)} c JOIN ${sql.table(table)} p ON p.id = c.parent_id
       WHERE p.code = ${code} AND p.parent_id = 0 AND p.is_deleted = 0 AND c.is_deleted = 0 ${tenant} ${anonymous}
       ORDER BY c.sort, c.id`.execute(db);
    if (!req.user && !r.rows.length) throw new ApiError(401, 'unauthorized'); // not public (or unknown): sign in
    return ok(r.rows, undefined, req.lang);
  };
  app.get('/api/blade-system/dict/dictionary', { config: { public: true }, schema: { tags: ['dict'], summary: 'Entries of a system dictionary (public dictionaries without login)' } }, dictionary('blade_dict'));
  app.get('/api/blade-system/dict-biz/dictionary', { schema: { tags: ['dict'], summary: 'Entries of a business dictionary' } }, dictionary('blade_dict_biz'));
}
