/**
 * The menu panel (spec 002 §7 'Menu panel: GET system/menupanel/getMyPanel, getDefaultPanel; POST saveMyPanel,
 * configurationDefaultPanel'; issue 18 'the user's shortcut panel on the home page, with an administrator's
 * default'). The panel is the resource `system/menupanel` (schemas/system/menupanel.json, table
 * blade_menu_panel): one row per user (`userId`) and one per tenant with `userId` 0, the tenant's default. The
 * spec names the calls only; their shapes are written down here.
 *
 * A panel is an ordered list of menu ids (at most 20). Only screens count: enabled menus with a path and no
 * sub-menus that the caller's active roles may open (routes.ts `openableScreens`, what appList answers, with
 * the menus' role restrictions). What a panel shows is always narrowed to what the caller may open now — after
 * a change of role or of grants a shortcut to a screen no longer granted disappears instead of leading to 403.
 *
 * Calls (envelope; tenant of the caller only; `Panel` = `{menuIds: string[], menus: AppListNode[], isDefault,
 * choices: AppListNode[]}`, `menus` being the openable ones of `menuIds` in their order, each as appList's flat
 * node — id, name, nameEn, path, source, isOpen, isEnabled, resource, meta — and `choices` every screen the
 * caller may put on a panel, the picker's options):
 * - `GET /api/system/menupanel/getMyPanel` (any signed-in user) → the caller's saved panel, else the tenant's
 *   default (`isDefault` true), else an empty one;
 * - `GET /api/system/menupanel/getDefaultPanel` (any signed-in user) → the tenant's default (`isDefault` true);
 * - `POST /api/system/menupanel/saveMyPanel` body `{menuIds}` (any signed-in user) → the saved panel; the
 *   caller's own row only (a `userId` in the body is ignored); ids repeated are kept once, in first-seen order;
 * - `POST /api/system/menupanel/configurationDefaultPanel` body `{menuIds}` → the tenant's default, for whoever
 *   may edit the tenant's top menus (the grant `topmenu_edit`, administrators pass): the tenant's navigation is
 *   theirs to shape; anyone else 403.
 * Refusals (400, nothing stored): body not an object; `menuIds` not a list of ids (参数 menuIds 的值无效); a menu
 * the caller may not open, or that is not a screen (所选菜单「…」不可用或您无权打开); more than 20 (快捷菜单最多 20 个).
 */
import type { FastifyInstance } from 'fastify';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { isId } from '../../../shared/contract/ids.js';
import type { Lang } from '../../../shared/contract/lang.js';
import { openableScreens } from './routes.js';
import { TOP_MENU_RESOURCE } from './menus.js';

export const MENU_PANEL_RESOURCE = 'system/menupanel';
/** The `userId` of a tenant's default panel. */
export const DEFAULT_PANEL_USER = '0';

type Row = Record<string, unknown>;

/** The answer of the panel calls (see the module comment). */
export interface Panel {
  menuIds: string[];
  menus: Row[];
  isDefault: boolean;
  /** Every screen the caller may put on a panel (the picker's options), in menu-tree order. */
  choices: Row[];
}

/** Registers the four menu-panel calls (see the module comment). */
export function registerMenuPanelModule(app: FastifyInstance, engine: ResourceEngine): void {
  const resource = () => engine.current(engine.registry.get(MENU_PANEL_RESOURCE));

  /** The stored row of `userId` in the caller's tenant: its id and menu ids, or null. */
  const stored = async (user: AuthUser, userId: string): Promise<{ id: string; menuIds: string[] } | null> => {
    const r = resource();
    const col = r.byField.get('menuIds')!.column;
    const owner = r.byField.get('userId')!.column;
    const rows = await engine.query(
      `SELECT id::text AS id, "${col}" AS menu_ids FROM "${r.schema.table}" WHERE tenant_id = $1 AND "${owner}" = $2::bigint AND is_deleted = 0 ORDER BY id LIMIT 1`,
      [user.tenantId, userId],
    );
    if (!rows[0]) return null;
    const ids = rows[0].menu_ids;
    return { id: String(rows[0].id), menuIds: Array.isArray(ids) ? ids.map(String) : [] };
  };

  /** The panel of `menuIds` as the caller sees it: the menus they may open, in the saved order. */
  const panelOf = async (user: AuthUser, menuIds: string[], isDefault: boolean): Promise<Panel> => {
    const choices = await openableScreens(engine.db, user);
    const open = new Map(choices.map((m) => [String(m.id), m]));
    return { menuIds, menus: menuIds.flatMap((id) => (open.has(id) ? [open.get(id)!] : [])), isDefault, choices };
  };

  /** The body's menu ids, checked (see the module comment); refused with a 400 before anything is written. */
  const checkedIds = async (user: AuthUser, body: unknown, lang: Lang): Promise<string[]> => {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'bodyNotObject');
    const raw = (body as Row).menuIds;
    if (!Array.isArray(raw) || raw.some((x) => typeof x !== 'string' || !isId(x))) throw new ApiError(400, 'badParam', { param: 'menuIds' });
    const ids = [...new Set(raw as string[])];
    const open = new Set((await openableScreens(engine.db, user)).map((m) => String(m.id)));
    const refused = ids.find((id) => !open.has(id));
    if (refused) {
      const named = await engine.query(`SELECT name, name_en FROM blade_menu WHERE id = $1::bigint AND is_deleted = 0`, [refused]);
      const name = named[0] ? String((lang === 'en' ? named[0].name_en : null) ?? named[0].name) : refused;
      throw new ApiError(400, 'menuPanelNotOpenable', { name });
    }
    return ids;
  };

  /** Saves `menuIds` as the panel of `userId` (insert or update through the engine: its checks, its unique key). */
  const save = async (user: AuthUser, userId: string, menuIds: string[], lang: Lang): Promise<void> => {
    const prev = await stored(user, userId);
    await engine.submit(resource(), user, prev ? { id: prev.id, userId, menuIds } : { userId, menuIds }, lang);
  };

  app.get('/api/system/menupanel/getMyPanel', { schema: { tags: [MENU_PANEL_RESOURCE], summary: 'The caller’s shortcut panel (else the tenant default)' } }, async (req) => {
    const user = await engine.authorize(req.user, resource(), 'read');
    const mine = await stored(user, user.userId);
    if (mine) return ok(await panelOf(user, mine.menuIds, false), undefined, req.lang);
    const def = await stored(user, DEFAULT_PANEL_USER);
    return ok(await panelOf(user, def?.menuIds ?? [], true), undefined, req.lang);
  });

  app.get('/api/system/menupanel/getDefaultPanel', { schema: { tags: [MENU_PANEL_RESOURCE], summary: 'The tenant’s default shortcut panel' } }, async (req) => {
    const user = await engine.authorize(req.user, resource(), 'read');
    const def = await stored(user, DEFAULT_PANEL_USER);
    return ok(await panelOf(user, def?.menuIds ?? [], true), undefined, req.lang);
  });

  app.post('/api/system/menupanel/saveMyPanel', { schema: { tags: [MENU_PANEL_RESOURCE], summary: 'Save the caller’s shortcut panel', body: { type: 'object' } } }, async (req) => {
    const user = await engine.authorize(req.user, resource(), 'edit');
    const ids = await checkedIds(user, req.body, req.lang);
    await save(user, user.userId, ids, req.lang);
    return ok(await panelOf(user, ids, false), undefined, req.lang);
  });

  app.post('/api/system/menupanel/configurationDefaultPanel', { schema: { tags: [MENU_PANEL_RESOURCE], summary: 'Configure the tenant’s default shortcut panel', body: { type: 'object' } } }, async (req) => {
    const user = await engine.authorize(req.user, engine.registry.get(TOP_MENU_RESOURCE), 'edit');
    await engine.authorize(user, resource(), 'edit');
    const ids = await checkedIds(user, req.body, req.lang);
    await save(user, DEFAULT_PANEL_USER, ids, req.lang);
    return ok(await panelOf(user, ids, true), undefined, req.lang);
  });
}
