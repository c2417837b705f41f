/**
 * The search module's own table (DESIGN §8 Search), applied as `search/0001_documents` after the core's. The
 * two resources es/index and es/ikdic are schema tables (table sync); this holds the segmented documents.
 *
 * `search_document`: one row per indexed record of an index definition (es_index) — `tenant_id`,
 * `index_id`, `resource` (the schema name), `record_id` (the record's key), `title` (the index's title field,
 * plain text), `seg` (the record's indexed text segmented by jieba, words separated by one space: what
 * the highlights are cut from) and `tsv` (the `tsvector('simple')` of the search-mode segmentation, weighted A–D
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
 * `search/0002_notify`: every statement that changes rows of search_document (indexing on write, the jobs, a bulk
 * load) sends `kc_cache count:search_document` — on commit, once per transaction — so each node's search result
 * cache (result-cache.ts) drops the pages it built from the old documents, whoever wrote them. A statement that
 * changed no row (removing records of a resource no index names) sends nothing: the transition table is empty.
 */
async function upNotify(db: Kysely<any>): Promise<void> {
  await sql.raw(`
CREATE FUNCTION search_document_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM changed) THEN
    PERFORM pg_notify('kc_cache', 'count:search_document');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER search_document_inserted AFTER INSERT ON search_document REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION search_document_changed();
CREATE TRIGGER search_document_updated AFTER UPDATE ON search_document REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION search_document_changed();
CREATE TRIGGER search_document_deleted AFTER DELETE ON search_document REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION search_document_changed();
`).execute(db);
}

async function downNotify(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP TRIGGER IF EXISTS search_document_inserted ON search_document; DROP TRIGGER IF EXISTS search_document_updated ON search_document;
DROP TRIGGER IF EXISTS search_document_deleted ON search_document; DROP FUNCTION IF EXISTS search_document_changed()`).execute(db);
}

/** Documents per insertion bucket (search/0003): the unit the search walks, newest first (search.ts `candidatesFrom`). */
export const BUCKET_SIZE = 10_000;

/**
 * `search/0003_buckets`: every document gets `bucket` = its place in indexing order (`search_document_seq`, taken
 * again when it is re-indexed) / BUCKET_SIZE, and the GIN index becomes `(bucket, tsv)` (btree_gin, a trusted
 * contrib extension shipped with PostgreSQL). Why: a GIN index answers only bitmap scans — every match of the
 * query is collected before the first row is read — so a query whose words are all common (in 25–99 % of the
 * documents) costs its whole posting lists even for a page of 10 (≈ 90 ms for eight such words over 10⁶
 * documents). Searched one bucket at a time, newest first, until enough candidates are found, the same query
 * costs ≈ 5 ms (bench:search corpus; issue 14 budget p95 < 50 ms). The plain `tsv @@ q` condition still uses the
 * same index (GIN indexes its columns separately), which is what a query with a rare word does.
 *
 * Existing rows get their bucket in their physical order (the volatile default rewrites the table once, in
 * order, so a bucket's rows stay together — which is what makes a bucket's scan cheap); the statement timeout
 * is lifted for this migration only (a large corpus takes minutes).
 */
async function upBuckets(db: Kysely<any>): Promise<void> {
  await sql.raw(`
SET LOCAL statement_timeout = 0;
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE SEQUENCE IF NOT EXISTS search_document_seq;
DROP INDEX IF EXISTS search_document_tsv;
ALTER TABLE search_document ADD COLUMN bucket integer NOT NULL DEFAULT (nextval('search_document_seq') / ${BUCKET_SIZE});
CREATE INDEX search_document_tsv ON search_document USING gin (bucket, tsv);
`).execute(db);
}

async function downBuckets(db: Kysely<any>): Promise<void> {
  await sql.raw(`SET LOCAL statement_timeout = 0; DROP INDEX IF EXISTS search_document_tsv; ALTER TABLE search_document DROP COLUMN IF EXISTS bucket;
DROP SEQUENCE IF EXISTS search_document_seq; CREATE INDEX search_document_tsv ON search_document USING gin (tsv);`).execute(db);
}

/**
 * `search/0004_lexicon`: the grain-storage lexicon (lexicon.ts) the documents were last segmented with — one row,
 * its words; the seed compares it with the shipped list and re-segments what changed.
 */
async function upLexicon(db: Kysely<any>): Promise<void> {
  await sql.raw(`CREATE TABLE search_lexicon (id smallint PRIMARY KEY CHECK (id = 1), words text[] NOT NULL, update_time timestamptz NOT NULL DEFAULT now())`).execute(db);
}

async function downLexicon(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP TABLE IF EXISTS search_lexicon`).execute(db);
}

export const migrations = {
  '0001_documents': { up, down },
  '0002_notify': { up: upNotify, down: downNotify },
  '0003_buckets': { up: upBuckets, down: downBuckets },
  '0004_lexicon': { up: upLexicon, down: downLexicon },
};
