/**
 * Menus and top menus (spec 002 §2 'top menu (with grant), menu', §3, §7; spec 000 §3.2, §7 Menus; DESIGN §5):
 * the generic resources `system/menu` (blade_menu, platform-wide: one menu tree for every tenant, written only
 * by administrators of tenant 000000) and `system/topmenu` (blade_top_menu, per tenant), with the rules and
 * calls their schemas cannot state. (The current role's `routes`, `buttons`, `top-menu`, `routes-app`,
 * `appList` and `top-parentId` are in routes.ts; the grant trees in roles.ts.)
 *
 * | endpoint                                | answer                                                              |
 * | --------------------------------------- | ------------------------------------------------------------------- |
 * | GET menu/lazy-list?parentId=&name=…     | the menus and buttons directly under `parentId` (default 0), list   |
 * |                                         | filters as `list`, sorted by sort; each record has `hasChildren`    |
 * | GET menu/lazy-menu-list?parentId=&…     | the same, menus only (category 1)                                   |
 * | GET menu/menu-list?name=…               | every menu (category 1) matching the filters, nested as a tree of   |
 * |                                         | records (`children`, `hasChildren`)                                 |
 * | GET menu/tree                           | the menus (category 1) as tree nodes `{id, key, value, title,       |
 * |                                         | titleEn, parentId, children, hasChildren}` (the parent picker)      |
 * | POST topmenu/grant {topMenuIds, menuIds}| the menus of each top menu become exactly `menuIds` (one transaction)|
 *
 * Reads need the `menu` grant (`topmenu` for top menus; administrators pass), as the generic list does.
 *
 * Rules (hooks of the generic engine, inside its transaction, under an advisory lock per table so the
 * uniqueness checks cannot race):
 * - a menu's `code` is unique among live menus (菜单编号 {code} 已存在; the grant code of spec 002 §3 —
 *   the index `blade_menu_code` of migration 0001 behind it); a top menu's code is unique in its tenant;
 * - a menu's parent is a live menu, never the menu itself or one below it; a button (category 2) has a parent;
 * - a menu or button with live children cannot be removed unless they are removed with it (请先删除下级菜单或按钮);
 * - every write of a menu changes what grant codes mean, every top-menu grant what the top bar shows:
 *   `grantsChanged` (scopes.ts) tells every node.
 * A menu added here with a path (and a resource) is an ordinary row of blade_menu: once granted to a role
 * (`role/grant`) it is in that role's `menu/routes` on its next request, with no code change.
 */
import { nestRecords } from '../../resources/tree.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';
import { ApiError, ValidationError, ok } from '../../core/envelope.js';
import type { AuthUser, GrantCache } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Resource } from '../../resources/registry.js';
import { addFilters, Conditions, quote } from '../../resources/query.js';
import { isId } from '../../../shared/contract/ids.js';
import { t, type MessageKey } from '../../../shared/i18n/messages.js';
import { grantsChanged } from './scopes.js';
import { parseIds } from './roles.js';
import { writeAudit } from '../../resources/audit.js';

type Row = Record<string, unknown>;

export const MENU_RESOURCE = 'system/menu';
export const TOP_MENU_RESOURCE = 'system/topmenu';

const fieldError = (field: string, key: MessageKey, params?: Record<string, unknown>) =>
  new ValidationError([{ field, message: t(key, 'zh', params), messageEn: t(key, 'en', params) }]);


function registerMenuHooks(engine: ResourceEngine, grants: GrantCache): void {
  engine.hooks(MENU_RESOURCE, {
    async beforeSubmit({ trx, record, existing, isNew }) {
      await sql`SELECT pg_advisory_xact_lock(hashtext('blade_menu'))`.execute(trx);
      const parentId = record.parentId === undefined || record.parentId === null || record.parentId === '' ? '0' : String(record.parentId);
      record.parentId = parentId;
      if (parentId === '0') {
        if (record.category === 2) throw fieldError('parentId', 'menuButtonNeedsParent');
      } else {
        const parent = await sql`SELECT 1 FROM blade_menu WHERE id = ${parentId}::bigint AND is_deleted = 0`.execute(trx);
        if (!parent.rows.length) throw fieldError('parentId', 'menuParentMissing');
        if (!isNew) {
          const cycle = await sql`
            WITH RECURSIVE up AS (
              SELECT id, parent_id FROM blade_menu WHERE id = ${parentId}::bigint
              UNION
              SELECT m.id, m.parent_id FROM blade_menu m JOIN up ON m.id = up.parent_id WHERE up.parent_id <> 0
            ) SELECT 1 FROM up WHERE id = ${String(existing!.id)}::bigint`.execute(trx);
          if (cycle.rows.length) throw fieldError('parentId', 'menuParentCycle');
        }
      }
      const self = isNew ? sql`` : sql`AND id <> ${String(existing!.id)}::bigint`;
      const dup = await sql`SELECT 1 FROM blade_menu WHERE code = ${record.code} AND is_deleted = 0 ${self} LIMIT 1`.execute(trx);
      if (dup.rows.length) throw fieldError('code', 'menuCodeExists', { code: record.code });
    },
    async afterSubmit({ trx }) {
      await grantsChanged(trx, grants);
    },
    async beforeRemove({ trx, ids }) {
      const kids = await sql`SELECT 1 FROM blade_menu WHERE parent_id = ANY(${ids}::bigint[]) AND NOT (id = ANY(${ids}::bigint[])) AND is_deleted = 0 LIMIT 1`.execute(trx);
      if (kids.rows.length) throw new ApiError(400, 'menuHasChildren');
    },
    async afterRemove({ trx }) {
      await grantsChanged(trx, grants);
    },
  });

  engine.hooks(TOP_MENU_RESOURCE, {
    async beforeSubmit({ user, trx, record, existing, isNew }) {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`blade_top_menu:${user.tenantId}`}))`.execute(trx);
      const self = isNew ? sql`` : sql`AND id <> ${String(existing!.id)}::bigint`;
      const dup = await sql`SELECT 1 FROM blade_top_menu WHERE tenant_id = ${user.tenantId} AND code = ${record.code} AND is_deleted = 0 ${self} LIMIT 1`.execute(trx);
      if (dup.rows.length) throw fieldError('code', 'topMenuCodeExists', { code: record.code });
    },
    async afterRemove({ trx }) {
      await grantsChanged(trx, grants);
    },
  });
}

/** The query of a request, copied (handlers delete what they consume). */
const queryOf = (req: FastifyRequest): Row => ({ ...((req.query ?? {}) as Row) });

/** The live menus of `r` matching `extra` and the list filters of `q`, sorted, with `hasChildren`. */
async function menuRecords(engine: ResourceEngine, r: Resource, user: AuthUser, q: Row, extra: (c: Conditions) => void): Promise<Row[]> {
  const cond = new Conditions();
  await engine.scope(r, user, cond);
  extra(cond);
  addFilters(r, q, cond);
  const rows = await engine.query(
    `SELECT ${engine.selectList(r)}, EXISTS (SELECT 1 FROM blade_menu c WHERE c.parent_id = t.id AND c.is_deleted = 0) AS has_children
       FROM ${quote(r.schema.table)} t WHERE ${cond.sql()} ORDER BY sort, id LIMIT 5000`,
    cond.params,
  );
  return rows.map((row) => ({ ...engine.toRecord(r, row), hasChildren: row.has_children === true }));
}

/** The `parentId` parameter: an id, 0 when absent or empty; 400 otherwise. */
function parentParam(q: Row): string {
  const raw = q.parentId;
  delete q.parentId;
  if (raw === undefined || raw === '') return '0';
  if (!isId(raw)) throw new ApiError(400, 'badParam', { param: 'parentId' });
  return raw;
}

function registerMenuRoutes(app: FastifyInstance, engine: ResourceEngine, grants: GrantCache): void {
  const menu = () => engine.registry.get(MENU_RESOURCE);
  const tags = ['menu'];

  const lazy = (menusOnly: boolean) => async (req: FastifyRequest) => {
    const r = engine.current(menu());
    const user = await engine.authorize(req.user, r, 'read');
    const q = queryOf(req);
    const parentId = parentParam(q);
    const records = await menuRecords(engine, r, user, q, (c) => {
      c.add(`parent_id = ${c.param(parentId)}::bigint`);
      if (menusOnly) c.add('category = 1');
    });
    return ok(records, undefined, req.lang);
  };
  app.get('/api/blade-system/menu/lazy-list', { schema: { tags, summary: 'Menus and buttons under parentId' } }, lazy(false));
  app.get('/api/blade-system/menu/lazy-menu-list', { schema: { tags, summary: 'Menus (no buttons) under parentId' } }, lazy(true));

  app.get('/api/blade-system/menu/menu-list', { schema: { tags, summary: 'Every menu (no buttons) as a tree of records' } }, async (req) => {
    const r = engine.current(menu());
    const user = await engine.authorize(req.user, r, 'read');
    const records = await menuRecords(engine, r, user, queryOf(req), (c) => c.add('category = 1'));
    return ok(nestRecords(records), undefined, req.lang);
  });

  app.get('/api/blade-system/menu/tree', { schema: { tags, summary: 'Menus (no buttons) as tree nodes' } }, async (req) => {
    const r = engine.current(menu());
    await engine.authorize(req.user, r, 'read');
    const rows = await sql<{ id: string; parent_id: string; name: string; name_en: string | null; code: string }>`
      SELECT id::text AS id, parent_id::text AS parent_id, name, name_en, code FROM blade_menu
       WHERE is_deleted = 0 AND category = 1 ORDER BY sort, id`.execute(engine.db);
    const nodes = rows.rows.map((m) => ({ id: m.id, key: m.id, value: m.id, title: m.name, titleEn: m.name_en, code: m.code, parentId: m.parent_id }));
    return ok(nestRecords(nodes), undefined, req.lang);
  });

  app.post('/api/blade-system/topmenu/grant', { schema: { tags: ['topmenu'], summary: 'Set the menus of top menus', body: { type: 'object' } } }, async (req) => {
    const top = engine.current(engine.registry.get(TOP_MENU_RESOURCE));
    const user = await engine.authorize(req.user, top, 'edit');
    const body = (req.body ?? {}) as Row;
    const topMenuIds = parseIds(body.topMenuIds, 'topMenuIds');
    const menuIds = parseIds(body.menuIds, 'menuIds');
    if (topMenuIds.length === 0) throw new ApiError(400, 'topMenusRequired');
    await engine.db.transaction().execute(async (trx) => {
      const found = await sql<{ id: string }>`
        SELECT id::text AS id FROM blade_top_menu WHERE id = ANY(${topMenuIds}::bigint[]) AND tenant_id = ${user.tenantId} AND is_deleted = 0 FOR UPDATE`.execute(trx);
      if (found.rows.length !== topMenuIds.length) throw new ApiError(404, 'notFound');
      const menus = await sql<{ id: string }>`SELECT id::text AS id FROM blade_menu WHERE id = ANY(${menuIds}::bigint[]) AND is_deleted = 0`.execute(trx);
      const missing = menuIds.filter((id) => !menus.rows.some((m) => m.id === id));
      if (missing.length) throw new ApiError(400, 'grantUnknown', { what: '菜单', whatEn: 'Menus', ids: missing.join(',') });
      await sql`DELETE FROM blade_top_menu_setting WHERE top_menu_id = ANY(${topMenuIds}::bigint[])`.execute(trx);
      for (const topId of topMenuIds) {
        for (const menuId of menuIds) {
          await sql`INSERT INTO blade_top_menu_setting (id, top_menu_id, menu_id) VALUES (${nextId()}::bigint, ${topId}::bigint, ${menuId}::bigint)`.execute(trx);
        }
      }
      await writeAudit(trx, user, { resource: TOP_MENU_RESOURCE, title: top.schema.title, titleEn: top.schema.titleEn, action: 'grant', ids: topMenuIds, detail: { menuIds }, requestUri: '/api/blade-system/topmenu/grant' }, req);
      await grantsChanged(trx, grants);
    });
    engine.changed('blade_top_menu_setting');
    return ok(null, undefined, req.lang);
  });
}

/** Hooks and endpoints of menus and top menus. */
export function registerMenuModule(app: FastifyInstance, engine: ResourceEngine, grants: GrantCache): void {
  registerMenuHooks(engine, grants);
  registerMenuRoutes(app, engine, grants);
}
