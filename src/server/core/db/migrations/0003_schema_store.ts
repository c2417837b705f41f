/**
 * Migration 0003: the schema store (DESIGN §4 'schemas live in the folder and in the database: what the
 * designer publishes, with history'; src/server/resources/store.ts).
 *
 * - `kc_schema_version`: every saved version of a resource schema, numbered per name from 1 (version 0 is
 *   the folder's, never stored). `state`: `draft` (saved, not published), `published` (the version served
 *   now — at most one per name, the partial unique index below), `archived` (published once, superseded).
 *   No published row for a name = the folder's version is served. Who and when: `create_*` for the save,
 *   `publish_*` for the last time the version was made current. `base_hash` is the hash of the folder's
 *   version when the draft was saved, so a start can tell that the folder changed under a published version.
 * - `kc_schema_log`: one row per publish or rollback (which version, which was current before, who, when),
 *   the audit trail DESIGN §11 asks for; a version's publish_* only keeps the latest.
 *
 * `schema` is `json`, not `jsonb`: jsonb reorders object keys, and the order of a form's properties is the
 * order of its fields on screen.
 *
 * Schemas are platform metadata, the same for every tenant (no tenant_id): the designer changes the screens
 * of the platform.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
CREATE TABLE kc_schema_version (
  id bigint PRIMARY KEY,
  name varchar(200) NOT NULL,
  version int NOT NULL CHECK (version > 0),
  schema json NOT NULL,
  state varchar(16) NOT NULL DEFAULT 'draft' CHECK (state IN ('draft', 'published', 'archived')),
  remark varchar(500),
  base_hash varchar(64),
  create_user bigint,
  create_user_name varchar(100),
  create_time timestamptz NOT NULL DEFAULT now(),
  update_time timestamptz NOT NULL DEFAULT now(),
  publish_user bigint,
  publish_user_name varchar(100),
  publish_time timestamptz,
  UNIQUE (name, version)
);
CREATE UNIQUE INDEX kc_schema_version_current ON kc_schema_version (name) WHERE state = 'published';

CREATE TABLE kc_schema_log (
  id bigint PRIMARY KEY,
  name varchar(200) NOT NULL,
  action varchar(16) NOT NULL CHECK (action IN ('publish', 'rollback')),
  version int NOT NULL,
  from_version int NOT NULL,
  user_id bigint,
  user_name varchar(100),
  tenant_id varchar(12),
  create_time timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX kc_schema_log_name ON kc_schema_log (name, create_time DESC);
`).execute(db);
}
