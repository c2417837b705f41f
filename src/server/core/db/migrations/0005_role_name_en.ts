/**
 * Migration 0005: `blade_role.role_name_en`, the English name of a role (DESIGN §7: every screen complete in
 * en — the shell shows the current role's name in the top bar, the role choice and the home page). Roles seeded
 * before this migration get the English names of the platform's six role aliases; other roles fall back to
 * their Chinese name until an administrator names them.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
ALTER TABLE blade_role ADD COLUMN role_name_en varchar(255);
UPDATE blade_role SET role_name_en = CASE role_alias
  WHEN 'administrator' THEN 'Administrator'
  WHEN 'kygl' THEN 'Research management'
  WHEN 'sbdw' THEN 'Declaring unit'
  WHEN 'projectManager' THEN 'Project manager'
  WHEN 'majorManager' THEN 'Expert reviewer'
  WHEN 'researcher' THEN 'Researcher'
END;
`).execute(db);
}
