/**
 * Migration 0006: named data scopes, API scopes by method, and research management of a subsidiary
 * (DESIGN §5 'data scopes … and API scopes granted to roles', §11; spec 002 §1 数据权限 / 接口权限).
 *
 * 1. `blade_scope_data.scope_type` becomes `varchar(32)` holding a `DataScopeType` name
 *    (src/server/core/context.ts): 1 → 'all', 2 → 'own', 3 → 'ownDept', 4 → 'ownDeptAndChildren',
 *    5 → 'custom'; 'ownCompanyAndChildren' is new. A CHECK constraint (`blade_scope_data_scope_type_check`)
 *    admits only the names. A number outside 1–5 (never written by this platform) stops the migration with
 *    the offending ids rather than guess what it meant.
 * 2. `blade_scope_api.scope_method varchar(64) NOT NULL DEFAULT '*'`: '*' (any method) or a comma list of
 *    HTTP methods, checked by `blade_scope_api_scope_method_check`. Existing API scopes admit any method.
 * 3. Role aliases are unique per tenant AND parent role (index `blade_role_tenant_parent_alias`, replacing
 *    `blade_role_tenant_alias`): a child role may carry its parent's alias, so the research management of a
 *    subsidiary is a role of its own (own grants, own data scopes) that still counts as `kygl` for the
 *    workflow actions of schemas/basic/*.json (`roles: ["kygl"]`) and for menus' `meta.roles`.
 * 4. An existing database seeded before this migration (seed/index.ts) gets that subsidiary role, but only
 *    when it is still exactly as seeded — tenant 000000 has one live top-level role `kygl` (the group's), no
 *    child role `kygl` below it yet, and the demo account `kygl_hb` holds that role and no other. Then, in
 *    this migration's transaction:
 *    - a role 科研管理人员（下属单位）/ Research management (subsidiary), alias `kygl`, parent = the group's role;
 *    - the group role's menu and button grants (`blade_role_menu`) copied to it;
 *    - for each achievement type (basic/patent, thesis, softwarecopyright, book, award, standard) a data
 *      scope 本单位及下属单位数据 (`create_dept`, 'ownCompanyAndChildren', bound to the type's menu when there
 *      is one) granted to it;
 *    - `kygl_hb` moved from the group's role to it (its current access token keeps the old role until it
 *      expires or is refreshed: a refresh reads the roles again).
 *    Anything else (no demo data, or an administrator changed those roles) is left alone: an administrator
 *    grants such a role by hand. A fresh database is seeded with the role directly (the seed runs after).
 */
import { sql, type Kysely } from 'kysely';
import { nextId } from '../../ids.js';

const ACHIEVEMENT_TYPES = ['patent', 'thesis', 'softwarecopyright', 'book', 'award', 'standard'];
const METHOD = '(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)';

/** Applies the migration (steps 1–4 of the module comment); throws on a scope_type outside 1–5. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
DO $$
DECLARE bad text;
BEGIN
  SELECT string_agg(id::text || '=' || scope_type::text, ', ') INTO bad FROM blade_scope_data WHERE scope_type NOT BETWEEN 1 AND 5;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'blade_scope_data has scope_type values outside 1-5 (id=type: %); set them to 1-5 first', bad;
  END IF;
END $$;

ALTER TABLE blade_scope_data ALTER COLUMN scope_type TYPE varchar(32) USING CASE scope_type
  WHEN 1 THEN 'all' WHEN 2 THEN 'own' WHEN 3 THEN 'ownDept' WHEN 4 THEN 'ownDeptAndChildren' WHEN 5 THEN 'custom' END;
ALTER TABLE blade_scope_data ADD CONSTRAINT blade_scope_data_scope_type_check
  CHECK (scope_type IN ('all', 'own', 'ownDept', 'ownDeptAndChildren', 'ownCompanyAndChildren', 'custom'));

ALTER TABLE blade_scope_api ADD COLUMN scope_method varchar(64) NOT NULL DEFAULT '*';
ALTER TABLE blade_scope_api ADD CONSTRAINT blade_scope_api_scope_method_check
  CHECK (scope_method ~ '^(\\*|${METHOD}(,${METHOD})*)$');

DROP INDEX IF EXISTS blade_role_tenant_alias;
CREATE UNIQUE INDEX blade_role_tenant_parent_alias ON blade_role (tenant_id, parent_id, role_alias) WHERE is_deleted = 0;
`).execute(db);

  await addSubsidiaryResearchManagement(db);
}

/**
 * Step 4 of the module comment: the subsidiary research-management role for a database seeded before 0006.
 * Idempotent: answers the new role's id, or null when it did nothing (not the seeded demo state, or done
 * already). Exported for the integration test (tests/integration/scopes.test.ts), which runs it in a
 * transaction it rolls back.
 */
export async function addSubsidiaryResearchManagement(db: Kysely<any>): Promise<string | null> {
  const group = await sql<{ id: string; sort: number }>`
    SELECT id::text AS id, sort FROM blade_role
     WHERE tenant_id = '000000' AND role_alias = 'kygl' AND parent_id = 0 AND is_deleted = 0`.execute(db);
  if (group.rows.length !== 1) return null;
  const groupRole = group.rows[0];
  const child = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM blade_role
     WHERE tenant_id = '000000' AND role_alias = 'kygl' AND parent_id = ${groupRole.id}::bigint AND is_deleted = 0`.execute(db);
  if (child.rows[0].n > 0) return null;
  const user = await sql<{ id: string; roles: string[] }>`
    SELECT u.id::text AS id, array_agg(ur.role_id::text) AS roles
      FROM blade_user u JOIN blade_user_role ur ON ur.user_id = u.id
     WHERE u.tenant_id = '000000' AND u.account = 'kygl_hb' AND u.is_deleted = 0
     GROUP BY u.id`.execute(db);
  if (user.rows.length !== 1) return null;
  const hb = user.rows[0];
  if (hb.roles.length !== 1 || hb.roles[0] !== groupRole.id) return null;

  const roleId = nextId();
  await sql`
    INSERT INTO blade_role (id, tenant_id, parent_id, role_name, role_name_en, role_alias, sort)
    VALUES (${roleId}::bigint, '000000', ${groupRole.id}::bigint, '科研管理人员（下属单位）', 'Research management (subsidiary)', 'kygl', ${groupRole.sort})`.execute(db);
  const menus = await sql<{ menu_id: string }>`
    SELECT DISTINCT menu_id::text AS menu_id FROM blade_role_menu WHERE role_id = ${groupRole.id}::bigint`.execute(db);
  for (const m of menus.rows) {
    await sql`INSERT INTO blade_role_menu (id, menu_id, role_id) VALUES (${nextId()}::bigint, ${m.menu_id}::bigint, ${roleId}::bigint)`.execute(db);
  }
  for (const type of ACHIEVEMENT_TYPES) {
    const scopeId = nextId();
    await sql`
      INSERT INTO blade_scope_data (id, menu_id, resource_code, scope_name, scope_column, scope_type)
      VALUES (${scopeId}::bigint,
              (SELECT id FROM blade_menu WHERE code = ${type} AND resource = ${`basic/${type}`} AND is_deleted = 0 ORDER BY id LIMIT 1),
              ${`basic/${type}`}, '本单位及下属单位数据', 'create_dept', 'ownCompanyAndChildren')`.execute(db);
    await sql`INSERT INTO blade_role_scope (id, scope_category, scope_id, role_id) VALUES (${nextId()}::bigint, 1, ${scopeId}::bigint, ${roleId}::bigint)`.execute(db);
  }
  await sql`UPDATE blade_user_role SET role_id = ${roleId}::bigint WHERE user_id = ${hb.id}::bigint AND role_id = ${groupRole.id}::bigint`.execute(db);
  return roleId;
}
