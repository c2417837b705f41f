/**
 * The workflow module's tables (DESIGN §8 Workflow, To-dos and push), applied as `flow/0001_flow` after the
 * core's migrations (src/server/core/db/migrate.ts). Every index starts with tenant_id (DESIGN §12).
 *
 * - `flow_model`: the editable source of a process (spec 001 §7 `blade-flow/model/*`): one row per process key
 *   and owning tenant; `xml` is the BPMN 2.0 text last uploaded, `version` the last version deployed from it.
 * - `flow_definition`: one deployed version of a process (BPMN 2.0 XML, never changed once deployed). A new
 *   deployment of the same key in a tenant gets the next version; instances keep the version they started on.
 *   `tenant_ids` = the tenants that may start it (empty = the owning tenant; the platform's shipped files, tenant
 *   000000 with an empty list, serve every tenant). `config` = what the engine reads from the file besides the
 *   BPMN semantics (user tasks' assignees and candidates, bpmn.ts). `suspension_state` 1 active, 2 suspended.
 * - `flow_instance`: a running, completed or deleted (`run_status`, 0002) process instance for one business record (`business_type` = the
 *   resource name, `business_id` its key); `state` = bpmn-engine's `getState()` after the last step (recover +
 *   resume on any node), `variables` = the process variables the gateways read. At most one running instance
 *   per business record.
 * - `flow_task`: every user task the engine waited on: assignee, candidate roles (roleAlias) and departments,
 *   claim, completion, outcome and comment — the to-claim, to-do, sent and done lists are plain queries here.
 * - `flow_history`: every finished activity of an instance (start, tasks, gateways, end), for the history
 *   screen and the diagram's finished nodes.
 * - `basic_todo`: a to-do or notice for one user (`user_id`): `type` 1 has a go-now link (`path`), 2 text only;
 *   `state` 0 open, 1 done; `is_read`, `push_time` (null = not pushed yet). Its columns are those table sync
 *   derives from schemas/flow/todo.json, so the schema and this table agree.
 */
import { sql, type Kysely } from 'kysely';

async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
CREATE TABLE flow_model (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  model_key varchar(64) NOT NULL,
  name varchar(200) NOT NULL,
  category varchar(64),
  description varchar(500),
  xml text NOT NULL,
  version int NOT NULL DEFAULT 0,
  create_user bigint,
  create_time timestamptz NOT NULL DEFAULT now(),
  update_time timestamptz NOT NULL DEFAULT now(),
  is_deleted int NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX flow_model_key_uq ON flow_model (tenant_id, model_key) WHERE is_deleted = 0;

CREATE TABLE flow_definition (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  tenant_ids text[] NOT NULL DEFAULT '{}',
  deployment_id bigint NOT NULL,
  model_id bigint,
  process_key varchar(64) NOT NULL,
  name varchar(200) NOT NULL,
  category varchar(64),
  version int NOT NULL,
  resource_name varchar(255),
  xml text NOT NULL,
  config jsonb NOT NULL,
  hash varchar(64) NOT NULL,
  source varchar(16) NOT NULL,
  suspension_state int NOT NULL DEFAULT 1,
  deploy_user bigint,
  deploy_time timestamptz NOT NULL DEFAULT now(),
  is_deleted int NOT NULL DEFAULT 0,
  UNIQUE (tenant_id, process_key, version)
);
CREATE INDEX flow_definition_dep_idx ON flow_definition (tenant_id, deployment_id);

CREATE TABLE flow_instance (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  definition_id bigint NOT NULL REFERENCES flow_definition (id),
  process_key varchar(64) NOT NULL,
  business_type varchar(200) NOT NULL,
  business_id bigint NOT NULL,
  business_name varchar(500),
  start_user bigint,
  start_user_name varchar(100),
  start_dept bigint,
  status varchar(16) NOT NULL DEFAULT 'running',
  current_nodes text[] NOT NULL DEFAULT '{}',
  variables jsonb NOT NULL DEFAULT '{}',
  state jsonb,
  delete_reason varchar(500),
  start_time timestamptz NOT NULL DEFAULT now(),
  end_time timestamptz,
  update_time timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX flow_instance_running_uq ON flow_instance (tenant_id, business_type, business_id) WHERE status = 'running';
CREATE INDEX flow_instance_business_idx ON flow_instance (tenant_id, business_type, business_id, start_time DESC);
CREATE INDEX flow_instance_def_idx ON flow_instance (tenant_id, definition_id) WHERE status = 'running';
CREATE INDEX flow_instance_start_idx ON flow_instance (tenant_id, start_user, start_time DESC);

CREATE TABLE flow_task (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  instance_id bigint NOT NULL REFERENCES flow_instance (id),
  process_key varchar(64) NOT NULL,
  business_type varchar(200) NOT NULL,
  business_id bigint NOT NULL,
  business_name varchar(500),
  task_key varchar(64) NOT NULL,
  task_name varchar(200),
  execution_id varchar(200) NOT NULL,
  assignee bigint,
  candidate_roles text[] NOT NULL DEFAULT '{}',
  candidate_depts bigint[] NOT NULL DEFAULT '{}',
  start_user bigint,
  claim_time timestamptz,
  create_time timestamptz NOT NULL DEFAULT now(),
  end_time timestamptz,
  outcome varchar(32),
  comment varchar(2000),
  operator_user bigint,
  operator_name varchar(100),
  operator_role varchar(64),
  cancelled boolean NOT NULL DEFAULT false
);
CREATE INDEX flow_task_open_idx ON flow_task (tenant_id, business_type, create_time DESC) WHERE end_time IS NULL;
CREATE INDEX flow_task_assignee_idx ON flow_task (tenant_id, assignee) WHERE end_time IS NULL;
CREATE INDEX flow_task_roles_idx ON flow_task USING gin (candidate_roles) WHERE end_time IS NULL AND assignee IS NULL;
CREATE INDEX flow_task_instance_idx ON flow_task (tenant_id, instance_id);
CREATE INDEX flow_task_done_idx ON flow_task (tenant_id, operator_user, end_time DESC) WHERE end_time IS NOT NULL;
CREATE INDEX flow_task_sent_idx ON flow_task (tenant_id, start_user, create_time DESC);

CREATE TABLE flow_history (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  instance_id bigint NOT NULL REFERENCES flow_instance (id),
  activity_id varchar(64) NOT NULL,
  activity_name varchar(200),
  activity_type varchar(64) NOT NULL,
  task_id bigint,
  assignee bigint,
  assignee_name varchar(100),
  outcome varchar(32),
  comment varchar(2000),
  start_time timestamptz NOT NULL DEFAULT now(),
  end_time timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX flow_history_instance_idx ON flow_history (tenant_id, instance_id, end_time, id);

CREATE TABLE basic_todo (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  user_id bigint NOT NULL,
  title varchar(200) NOT NULL,
  content varchar(1000),
  path varchar(255),
  type bigint NOT NULL DEFAULT 1,
  business_type varchar(200),
  business_id bigint,
  business_name varchar(500),
  task_id bigint,
  state bigint NOT NULL DEFAULT 0,
  is_read bigint NOT NULL DEFAULT 0,
  push_time timestamp with time zone,
  create_user bigint,
  create_dept bigint,
  create_time timestamp with time zone NOT NULL DEFAULT now(),
  update_user bigint,
  update_time timestamp with time zone NOT NULL DEFAULT now(),
  status integer NOT NULL DEFAULT 1,
  is_deleted integer NOT NULL DEFAULT 0
);
CREATE INDEX basic_todo_user_idx ON basic_todo (tenant_id, user_id, state, path) WHERE is_deleted = 0;
CREATE INDEX basic_todo_push_idx ON basic_todo (tenant_id, user_id, create_time DESC) WHERE is_deleted = 0 AND push_time IS NULL;
CREATE INDEX basic_todo_task_idx ON basic_todo (tenant_id, task_id) WHERE is_deleted = 0;
`).execute(db);
}

/**
 * 0002: the instance's run state is `run_status` ('running', 'completed', 'deleted'): `status` is the integer
 * system column every table a schema names carries (schemas/flow/instance.json lists flow_instance).
 */
async function up2(db: Kysely<any>): Promise<void> {
  await sql.raw(`
ALTER TABLE flow_instance RENAME COLUMN status TO run_status;
DROP INDEX IF EXISTS flow_instance_running_uq;
DROP INDEX IF EXISTS flow_instance_def_idx;
CREATE UNIQUE INDEX flow_instance_running_uq ON flow_instance (tenant_id, business_type, business_id) WHERE run_status = 'running';
CREATE INDEX flow_instance_def_idx ON flow_instance (tenant_id, definition_id) WHERE run_status = 'running';
`).execute(db);
}

/**
 * 0003: tasks whose handlers are users picked in a related resource (bpmn.ts `candidateUsersFrom`, parts.ts):
 * `candidate_source` names that resource on each user's part and on the step's placeholder, `awaiting_candidates`
 * marks the placeholder (no user picked yet: the task waits with the pickers). The index finds a business
 * record's open tasks fed by a resource when a row of that resource is written (every write asks).
 */
async function up3(db: Kysely<any>): Promise<void> {
  await sql.raw(`
ALTER TABLE flow_task ADD COLUMN IF NOT EXISTS candidate_source varchar(200);
ALTER TABLE flow_task ADD COLUMN IF NOT EXISTS awaiting_candidates boolean NOT NULL DEFAULT false;
CREATE INDEX IF NOT EXISTS flow_task_source_idx ON flow_task (tenant_id, candidate_source, business_id) WHERE end_time IS NULL AND candidate_source IS NOT NULL;
`).execute(db);
}

/** 0004: a to-do's English texts beside the zh ones (todo.ts; schemas/flow/todo.json titleEn, contentEn). */
async function up4(db: Kysely<any>): Promise<void> {
  await sql.raw(`
ALTER TABLE basic_todo ADD COLUMN IF NOT EXISTS title_en varchar(200);
ALTER TABLE basic_todo ADD COLUMN IF NOT EXISTS content_en varchar(1000);
`).execute(db);
}

export const migrations = { '0001_flow': { up }, '0002_run_status': { up: up2 }, '0003_candidate_parts': { up: up3 }, '0004_todo_en': { up: up4 } };
