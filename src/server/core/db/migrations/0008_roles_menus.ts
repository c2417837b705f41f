/**
 * Migration 0008: top menus granted to roles (issue 9 'grant (roleIds, menuIds, dataScopeIds, apiScopeIds,
 * topMenuIds)'; spec 002 §7 role grant, spec 000 §6 'the top menu and sub-menus are loaded by role').
 *
 * `blade_role_top_menu (role_id, top_menu_id)`: the top menus a role is granted through `role/grant`
 * (`topMenuIds`). The rule `menu/top-menu` applies (src/server/modules/system/routes.ts): a role granted at
 * least one live top menu sees exactly those; a role granted none sees, as before this migration, the top
 * menus that hold one of its granted menus; roles combine by union; administrators see all of their tenant's.
 * Nothing existing changes: no role has such a grant yet, so every role keeps the top menus it had.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
CREATE TABLE blade_role_top_menu (
  id bigint PRIMARY KEY,
  role_id bigint NOT NULL REFERENCES blade_role(id),
  top_menu_id bigint NOT NULL REFERENCES blade_top_menu(id),
  UNIQUE (role_id, top_menu_id)
);
CREATE INDEX blade_role_top_menu_top ON blade_role_top_menu (top_menu_id);
`).execute(db);
}
