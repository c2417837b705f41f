/**
 * The crawler module's own tables (DESIGN §8 "Crawler"; issue 16), applied as `spider/0001_spider` after the
 * core's migrations. The task and log tables come from their schemas (schemas/spider/*.json, table sync);
 * these two are the crawl's working state, written only by the crawl job (crawl.ts). Every index starts with
 * tenant_id (DESIGN §12).
 *
 * - `spider_request`: a task's frontier — every URL the crawl has seen once (`unique_key` = the normalised
 *   URL, unique per task), its `depth` (start URLs 0), `state` 0 pending, 1 done, 2 failed, 3 forbidden by
 *   robots.txt. A paused crawl resumes from the pending rows on any node, and a URL is never queued twice.
 * - `spider_data`: the rows a task extracted (`data` = field → value), one per (task, `row_key`) — the page URL
 *   plus the row's index on a list page — so a page fetched again after a pause stores nothing twice.
 */
import { sql, type Kysely } from 'kysely';

async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
CREATE TABLE spider_request (
  tenant_id varchar(12) NOT NULL,
  task_id bigint NOT NULL,
  unique_key text NOT NULL,
  url text NOT NULL,
  depth int NOT NULL DEFAULT 0,
  state smallint NOT NULL DEFAULT 0,
  create_time timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, task_id, unique_key)
);
CREATE INDEX spider_request_pending_idx ON spider_request (tenant_id, task_id, state);

CREATE TABLE spider_data (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  task_id bigint NOT NULL,
  row_key text NOT NULL,
  url text NOT NULL,
  data jsonb NOT NULL,
  create_time timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX spider_data_key_uq ON spider_data (tenant_id, task_id, row_key);
CREATE INDEX spider_data_list_idx ON spider_data (tenant_id, task_id, create_time DESC, id DESC);
`).execute(db);
}

export const migrations = { '0001_spider': { up } };
