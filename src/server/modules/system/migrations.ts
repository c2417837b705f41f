/**
 * The system module's own tables (Module.migrations, applied as `system/<name>` after the core's; DESIGN §3).
 *
 * - `0001_seeded_menus`: `kc_seeded_menu (code, menu_id, seeded_at)` — every menu code the seed's menu tree
 *   (seed/index.ts MENUS) put into this database, by the first-start seed or by the add-only sync at a later
 *   start (seed/menu-sync.ts). A code listed here is never added again, whatever an administrator did to the
 *   menu since (renamed, moved, changed its code, removed).
 * - `0002_login_failures`: `kc_login_failure (ip, window_start, fail_count)` — failed logins per client
 *   address in the current 10-minute window, for the automatic ban-IP entries (banip.ts).
 */
import { sql, type Kysely } from 'kysely';
import type { ModuleMigrations } from '../../core/db/migrate.js';

export const migrations: ModuleMigrations = {
  '0001_seeded_menus': {
    async up(db: Kysely<any>) {
      await sql.raw(`
CREATE TABLE kc_seeded_menu (
  code varchar(255) PRIMARY KEY,
  menu_id bigint,
  seeded_at timestamptz NOT NULL DEFAULT now()
);`).execute(db);
    },
  },
  '0002_login_failures': {
    async up(db: Kysely<any>) {
      await sql.raw(`
CREATE TABLE kc_login_failure (
  ip varchar(64) PRIMARY KEY,
  window_start timestamptz NOT NULL,
  fail_count int NOT NULL
);`).execute(db);
    },
  },
};
