/**
 * The duplicate-checking module's own tables (DESIGN §8 Duplicate checking), applied as
 * `duplicate/0001_documents` after the core's. The three resources (duplicate_file, duplicate_task,
 * duplicate_algorithm) are schema tables (table sync); these hold what the engine does not describe. Every
 * index starts with tenant_id (DESIGN §12), and every query filters on it: one tenant's library is never
 * another's.
 *
 * - `duplicate_document`: one text that can be checked or checked against: an uploaded file (`source_type`
 *   'file', `source_key` the duplicate_file id), an attachment of a record (`attach`, the stored name), or the
 *   long texts of a record (`record`, `<resource>:<id>`). `content` is the normalised text (text.ts), every
 *   offset refers to it; `content_hash` (sha-256) tells a changed record text.
 * - `duplicate_fingerprint`: the winnowed k-gram hashes of a document under one scheme (`w:<k>:<window>`) with
 *   their positions in its core text; btree (tenant_id, scheme, hash) INCLUDE (document_id, pos) for the
 *   candidate lookup (an index-only scan per fingerprint of the checked text).
 * - `duplicate_band`: LSH bucket keys: MinHash bands (`m:<k>:<hashes>:<bands>`) and SimHash 16-bit blocks
 *   (`s:<k>`), same index shape.
 * - `duplicate_signature`: one row per document and scheme it is indexed under (the marker that its
 *   fingerprints exist), with the MinHash signature or the SimHash halves (empty for winnowing).
 * - `duplicate_result`: a task's answer per checked document (getResult): overall similarity and the JSON of
 *   sources and passages.
 */
import { sql, type Kysely } from 'kysely';

async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
CREATE TABLE duplicate_document (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  source_type varchar(16) NOT NULL,
  source_key varchar(300) NOT NULL,
  resource varchar(64),
  record_id bigint,
  title varchar(500) NOT NULL,
  link varchar(1000),
  folder varchar(200),
  content text NOT NULL,
  char_count int NOT NULL,
  content_hash char(64) NOT NULL,
  create_time timestamptz NOT NULL DEFAULT now(),
  is_deleted int NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX duplicate_document_source ON duplicate_document (tenant_id, source_type, source_key) WHERE is_deleted = 0;
CREATE INDEX duplicate_document_kind ON duplicate_document (tenant_id, source_type, folder) WHERE is_deleted = 0;

CREATE TABLE duplicate_fingerprint (
  tenant_id varchar(12) NOT NULL,
  scheme varchar(40) NOT NULL,
  hash int NOT NULL,
  document_id bigint NOT NULL,
  pos int NOT NULL
);
CREATE INDEX duplicate_fingerprint_hash ON duplicate_fingerprint (tenant_id, scheme, hash) INCLUDE (document_id, pos);
CREATE INDEX duplicate_fingerprint_doc ON duplicate_fingerprint (document_id);

CREATE TABLE duplicate_band (
  tenant_id varchar(12) NOT NULL,
  scheme varchar(40) NOT NULL,
  bucket int NOT NULL,
  document_id bigint NOT NULL
);
CREATE INDEX duplicate_band_bucket ON duplicate_band (tenant_id, scheme, bucket) INCLUDE (document_id);
CREATE INDEX duplicate_band_doc ON duplicate_band (document_id);

CREATE TABLE duplicate_signature (
  document_id bigint NOT NULL,
  scheme varchar(40) NOT NULL,
  tenant_id varchar(12) NOT NULL,
  sig int[] NOT NULL DEFAULT '{}',
  PRIMARY KEY (document_id, scheme)
);

CREATE TABLE duplicate_result (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  task_id bigint NOT NULL,
  document_id bigint NOT NULL,
  similarity numeric(7,2) NOT NULL,
  result jsonb NOT NULL,
  create_time timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX duplicate_result_task ON duplicate_result (tenant_id, task_id);
`).execute(db);
}

async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('DROP TABLE IF EXISTS duplicate_result, duplicate_signature, duplicate_band, duplicate_fingerprint, duplicate_document').execute(db);
}

export const migrations = { '0001_documents': { up, down } };
