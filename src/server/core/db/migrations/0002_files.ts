/**
 * Migration 0002: `blade_attach`, one row per uploaded file (spec 000 §7 Files, 002 §7 Attachment; DESIGN §8
 * Files, §11). The row ties the stored object (`name`, the path `upload/{yyyyMMdd}/{uuid}.{ext}` under the
 * files folder) to its tenant, so a download checks the tenant before it reads the disk, and keeps what the
 * user called the file (`original_name`) for the download's file name. Column names follow BladeX's
 * blade_attach so that the attachment admin screen (blade-resource/attach, a later generic resource) reads it.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
CREATE TABLE blade_attach (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  link varchar(1000) NOT NULL,
  domain varchar(500) NOT NULL,
  name varchar(500) NOT NULL,
  original_name varchar(500) NOT NULL,
  extension varchar(12) NOT NULL,
  attach_size bigint NOT NULL,
  create_user bigint,
  create_dept bigint,
  create_time timestamptz NOT NULL DEFAULT now(),
  update_user bigint,
  update_time timestamptz NOT NULL DEFAULT now(),
  status int NOT NULL DEFAULT 1,
  is_deleted int NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX blade_attach_name ON blade_attach (tenant_id, name);
CREATE INDEX blade_attach_list_idx ON blade_attach (tenant_id, create_time DESC, id DESC) WHERE is_deleted = 0;
`).execute(db);
}
