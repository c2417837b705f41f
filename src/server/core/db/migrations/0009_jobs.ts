/**
 * Migration 0009: the job status table (DESIGN §8 "Jobs"; issue 13). pg-boss (its own schema `pgboss`) queues
 * and runs the work; `kc_job` is what a user sees of it — one row per job, written by core/jobs.ts, read by
 * the generic job endpoints the UI polls (`/api/blade-job/job/*`), and kept across restarts.
 *
 * Columns: `id` (snowflake), `tenant_id` and `create_user` / `create_dept` (the owner: only they see the row),
 * `kind` (the queue: `excel-import`, `excel-export` …), `title` (what the user started, e.g. the template's
 * name), `status` (queued → running → done | failed), `progress` (0–100 %), `read_count` / `written_count` /
 * `failed_count` (rows read from the input, rows written, rows refused), `error` (the user-facing message of a
 * failed job), `result_file` (a file under `<DATA_DIR>/files/jobs/<id>/`, relative to that folder) with its
 * download name `result_name`, `params` and `result` (JSON the job's kind defines), `boss_id` (pg-boss's job),
 * `create_time`, `start_time`, `finish_time`, `update_time`, `is_deleted` (a job the user removed from view).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
CREATE TABLE kc_job (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  create_user bigint NOT NULL,
  create_dept bigint,
  kind varchar(64) NOT NULL,
  title varchar(200),
  status varchar(16) NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  progress smallint NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  read_count integer NOT NULL DEFAULT 0,
  written_count integer NOT NULL DEFAULT 0,
  failed_count integer NOT NULL DEFAULT 0,
  error text,
  result_file varchar(255),
  result_name varchar(255),
  params jsonb,
  result jsonb,
  boss_id varchar(64),
  create_time timestamptz NOT NULL DEFAULT now(),
  start_time timestamptz,
  finish_time timestamptz,
  update_time timestamptz NOT NULL DEFAULT now(),
  is_deleted smallint NOT NULL DEFAULT 0
);
CREATE INDEX kc_job_owner ON kc_job (tenant_id, create_user, create_time DESC) WHERE is_deleted = 0;
`).execute(db);
}
