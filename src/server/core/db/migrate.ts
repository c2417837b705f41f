/**
 * Runs the core migrations (Kysely's Migrator, `kysely_migration` table) under a PostgreSQL advisory lock,
 * so several API nodes starting at once migrate exactly once. Migrations are listed here in order;
 * they only ever go forward.
 */
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './index.js';
import * as m0001 from './migrations/0001_core.js';
import * as m0002 from './migrations/0002_files.js';
import * as m0003 from './migrations/0003_schema_store.js';
import * as m0004 from './migrations/0004_examine.js';
import * as m0005 from './migrations/0005_role_name_en.js';
import * as m0006 from './migrations/0006_scopes.js';
import * as m0007 from './migrations/0007_users.js';
import * as m0008 from './migrations/0008_roles_menus.js';

const migrations: Record<string, Migration> = {
  '0001_core': m0001,
  '0002_files': m0002,
  '0003_schema_store': m0003,
  '0004_examine': m0004,
  '0005_role_name_en': m0005,
  '0006_scopes': m0006,
  '0007_users': m0007,
  '0008_roles_menus': m0008,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Applies pending migrations; throws with the failing migration's name and error. */
export async function migrate(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
