/**
 * Runs the migrations (Kysely's Migrator, `kysely_migration` table) under a PostgreSQL advisory lock, so several
 * API nodes starting at once migrate exactly once. They only ever go forward.
 *
 * Two sources: the core migrations listed here (`0001_core` …: identity, files, schemas — what every module
 * builds on), and each module's own (`Module.migrations`, DESIGN §3), named `<module>/<NNNN_name>` so that a
 * module's tables travel with its folder. Names sort core first (digits before letters), then module by module.
 * Unordered migrations are allowed because modules are independent: a module's first migration added after
 * another module's later ones must still run on an existing database.
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
import * as m0009 from './migrations/0009_jobs.js';
import * as m0012 from './migrations/0012_accounts.js';
import * as m0013 from './migrations/0013_outbox_queue.js';

const migrations: Record<string, Migration> = {
  '0001_core': m0001,
  '0002_files': m0002,
  '0003_schema_store': m0003,
  '0004_examine': m0004,
  '0005_role_name_en': m0005,
  '0006_scopes': m0006,
  '0007_users': m0007,
  '0008_roles_menus': m0008,
  '0009_jobs': m0009,
  '0012_accounts': m0012,
  '0013_outbox_queue': m0013,
};

/** The migrations a module carries: `{ '0001_name': { up } }`, applied as `<module>/0001_name`. */
export type ModuleMigrations = Record<string, Migration>;

/**
 * Applies pending migrations, the core's then the given modules' (`[{ name, migrations }]`); answers the names
 * applied; throws with the failing migration's name and error.
 */
export async function migrate(db: Db, modules: readonly { name: string; migrations?: ModuleMigrations }[] = []): Promise<string[]> {
  const all: Record<string, Migration> = { ...migrations };
  for (const m of modules) {
    for (const [name, migration] of Object.entries(m.migrations ?? {})) all[`${m.name}/${name}`] = migration;
  }
  const provider: MigrationProvider = { getMigrations: async () => all };
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
