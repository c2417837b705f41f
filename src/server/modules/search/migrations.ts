/**
 * The search module's own table (DESIGN §8 Search), applied as `search/0001_documents` after the core's. The
 * two resources es/index and es/ikdic are schema tables (table sync); this holds the segmented documents.
 *
 * `search_document`: one row per indexed record of an index definition (es_index) — `tenant_id`,
 * `index_id`, `resource` (the schema name), `record_id` (the record's key), `title` (the index's title field,
 * plain text), `seg` (the record's indexed text segmented by jieba, words separated by one space: what
 * ts_headline highlights) and `tsv` (the `tsvector('simple')` of the search-mode segmentation, weighted A–D
 * per field as the index says). GIN on `tsv`; every query also filters on (tenant_id, index_id).
 */
import { sql, type Kysely } from 'kysely';

async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
CREATE TABLE search_document (
  tenant_id varchar(12) NOT NULL,
  index_id bigint NOT NULL,
  resource varchar(64) NOT NULL,
  record_id bigint NOT NULL,
  title text NOT NULL DEFAULT '',
  seg text NOT NULL DEFAULT '',
  tsv tsvector NOT NULL,
  update_time timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, index_id, record_id)
);
CREATE INDEX search_document_tsv ON search_document USING gin (tsv);
CREATE INDEX search_document_resource ON search_document (tenant_id, resource, record_id);
`).execute(db);
}

async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('DROP TABLE IF EXISTS search_document').execute(db);
}

/**
 * `search/0002_notify`: every statement that writes search_document (indexing on write, the jobs, a bulk load)
 * sends `kc_cache count:search_document` — on commit, once per transaction — so each node's search result cache
 * (result-cache.ts) drops the pages it built from the old documents, whoever wrote them.
 */
async function upNotify(db: Kysely<any>): Promise<void> {
  await sql.raw(`
CREATE FUNCTION search_document_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kc_cache', 'count:search_document');
  RETURN NULL;
END $$;
CREATE TRIGGER search_document_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON search_document
  FOR EACH STATEMENT EXECUTE FUNCTION search_document_changed();
`).execute(db);
}

async function downNotify(db: Kysely<any>): Promise<void> {
  await sql.raw('DROP TRIGGER IF EXISTS search_document_changed ON search_document; DROP FUNCTION IF EXISTS search_document_changed()').execute(db);
}

export const migrations = { '0001_documents': { up, down }, '0002_notify': { up: upNotify, down: downNotify } };
