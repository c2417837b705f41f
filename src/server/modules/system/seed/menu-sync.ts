/**
 * Menus for existing databases (issue 9): the first-start seed (index.ts) runs only on an empty database, so a
 * data folder created before a menu joined the seed's tree (`MENUS`) would never get it. `syncSeedMenus` runs
 * at every start (the system module's `seed`, after migrations, table sync and the first-start seed) and adds
 * what is missing — add-only, never touching what an administrator changed or removed.
 *
 * The rule: a menu code of `MENUS` is *known* to a database when `kc_seeded_menu` lists it (the seed or this
 * sync put it there once), or when `blade_menu` has a row with that code, live or removed (logically
 * deleted); a known code is recorded in `kc_seeded_menu` and never added again. So:
 * - a menu an administrator renamed, moved, disabled, regranted or re-coded stays as they left it (a re-coded
 *   menu's old code is in `kc_seeded_menu`, so it is not added a second time);
 * - a menu an administrator removed stays removed (its row is logically deleted, and its code is recorded);
 * - a code never seen before is added: the menu (or button) under its parent — found by the parent's code
 *   among the live menus; when the parent is gone (removed by an administrator) the subtree is not added —
 *   with the seed's name, path, icon, sort, category and resource, and granted
 *   - for a top-level menu: to every live role, in every tenant, whose alias is among the seed's grants of the
 *     node (administrators always), and to the top menus of every tenant whose seeded top menu lists it;
 *   - below the top: to those of these roles that hold the parent menu (a role an administrator took the
 *     parent from does not get the child back through it).
 * Only a physical DELETE of a menu row made before `kc_seeded_menu` existed (system migration 0001) cannot be
 * told from a code never seen: such a menu comes back once.
 *
 * One transaction under an advisory lock (nodes starting together add a menu once); the role grant caches of
 * every node are dropped afterwards (NOTIFY kc_cache 'grants') when something was added. Answers the codes
 * added.
 */
import { sql, type Db } from '../../../core/db/index.js';
import { nextId } from '../../../core/ids.js';
import { CHANNEL, notify } from '../../../core/channels.js';
import { MENUS, ROLE, TOP_MENUS, type MenuSeed } from './index.js';

/** The advisory lock of the menu sync (the first-start seed holds 7172002). */
const MENU_SYNC_LOCK = 7172003;

interface MenuRow {
  id: string;
  code: string;
  is_deleted: number;
}

/** Links menu `menuId` to each of `owners` (roles or top menus) in `table`, one statement, fresh ids. */
async function links(trx: Db, table: 'blade_role_menu' | 'blade_top_menu_setting', ownerColumn: 'role_id' | 'top_menu_id', owners: string[], menuId: string): Promise<void> {
  if (owners.length === 0) return;
  const ids = owners.map(() => nextId());
  await sql`INSERT INTO ${sql.table(table)} (id, ${sql.ref(ownerColumn)}, menu_id)
            SELECT unnest(${ids}::bigint[]), unnest(${owners}::bigint[]), ${menuId}::bigint ON CONFLICT DO NOTHING`.execute(trx);
}

/** Adds the menus of `menus` this database never knew (see the module comment); answers their codes. */
export async function syncSeedMenus(db: Db, menus: readonly MenuSeed[] = MENUS, tops: ReadonlyArray<{ code: string; menus: readonly string[] }> = TOP_MENUS): Promise<string[]> {
  const added = await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${MENU_SYNC_LOCK})`.execute(trx);
    const rows = await sql<MenuRow>`SELECT id::text AS id, code, is_deleted FROM blade_menu ORDER BY is_deleted, id`.execute(trx);
    const live = new Map<string, string>(); // code → id of the live row
    const seen = new Set<string>();
    for (const r of rows.rows) {
      seen.add(r.code);
      if (r.is_deleted === 0 && !live.has(r.code)) live.set(r.code, r.id);
    }
    const marked = new Set((await sql<{ code: string }>`SELECT code FROM kc_seeded_menu`.execute(trx)).rows.map((r) => r.code));
    const out: string[] = [];

    const mark = async (code: string, id: string | null) => {
      await sql`INSERT INTO kc_seeded_menu (code, menu_id) VALUES (${code}, ${id}::bigint) ON CONFLICT (code) DO NOTHING`.execute(trx);
      marked.add(code);
    };

    const grant = async (m: MenuSeed, id: string, parentId: string | null) => {
      const aliases = [...new Set([...m.grant, ROLE.admin])];
      const holdsParent = parentId ? sql`AND EXISTS (SELECT 1 FROM blade_role_menu p WHERE p.role_id = r.id AND p.menu_id = ${parentId}::bigint)` : sql``;
      const roles = await sql<{ id: string }>`SELECT r.id::text AS id FROM blade_role r
                 WHERE r.is_deleted = 0 AND r.role_alias = ANY(${aliases}::text[]) ${holdsParent}`.execute(trx);
      await links(trx, 'blade_role_menu', 'role_id', roles.rows.map((r) => r.id), id);
    };

    const walk = async (nodes: readonly MenuSeed[], parentId: string | null) => {
      for (const [i, m] of nodes.entries()) {
        let id: string | null;
        if (marked.has(m.code) || seen.has(m.code)) {
          id = live.get(m.code) ?? null;
          if (!marked.has(m.code)) await mark(m.code, id ?? rows.rows.find((r) => r.code === m.code)?.id ?? null);
        } else if (parentId === null && nodes !== menus) {
          continue; // the parent is gone: the subtree is not added
        } else {
          id = nextId();
          await sql`INSERT INTO blade_menu (id, parent_id, code, name, name_en, alias, path, source, sort, category, is_open, is_enabled, roles, resource)
                    VALUES (${id}::bigint, ${parentId ?? '0'}::bigint, ${m.code}, ${m.name}, ${m.nameEn}, ${m.code}, ${m.path ?? null}, ${m.source ?? null},
                            ${i + 1}, ${m.category ?? 1}, ${m.isOpen ?? 1}, ${m.isEnabled ?? true}, ${JSON.stringify(m.roles ?? [])}::jsonb, ${m.resource ?? null})`.execute(trx);
          await grant(m, id, parentId);
          if (parentId === null) {
            const holders = tops.filter((t) => t.menus.includes(m.code)).map((t) => t.code);
            if (holders.length) {
              const topIds = await sql<{ id: string }>`SELECT id::text AS id FROM blade_top_menu WHERE is_deleted = 0 AND code = ANY(${holders}::text[])`.execute(trx);
              await links(trx, 'blade_top_menu_setting', 'top_menu_id', topIds.rows.map((t) => t.id), id);
            }
          }
          await mark(m.code, id);
          live.set(m.code, id);
          out.push(m.code);
        }
        if (m.children?.length) await walk(m.children, id);
      }
    };
    await walk(menus, null);
    if (out.length) await notify(trx, CHANNEL.cache, 'grants'); // delivered on commit: every node drops its grant cache
    return out;
  });
  return added;
}
