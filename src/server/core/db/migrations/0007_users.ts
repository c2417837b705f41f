/**
 * Migration 0007: what the user administration needs of `blade_user` (issue 9, spec 002 §7 User; module
 * src/server/modules/system/users.ts).
 *
 * - `must_change_password boolean NOT NULL DEFAULT false`: true after an administrator created the account or
 *   reset its password (the generated password was shown to the administrator once), so the next login must
 *   change it (spec 000 §3 onboarding, step 0 'password'). The password-change calls clear it. `password_time`
 *   (NOT NULL, when the password was last set) keeps its meaning for the periodic reminder
 *   (`password_update_time`, checkPasswordTime).
 * - `password` becomes nullable: a user is created through the generic resource engine, which knows only the
 *   form's fields (the hash is never one of them, so no generic endpoint can read or write it); the module sets
 *   the hash of a generated password in the same transaction. A row without a hash matches no password.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
ALTER TABLE blade_user ADD COLUMN must_change_password boolean NOT NULL DEFAULT false;
ALTER TABLE blade_user ALTER COLUMN password DROP NOT NULL;
`).execute(db);
}
