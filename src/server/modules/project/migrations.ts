/**
 * The project module's own database objects (issue 12), applied as `project/0001_status` after the core's and
 * the flow module's. The project tables themselves (project_baseinfo, project_guide, project_expert …) are
 * schema tables (table sync).
 *
 * - `project_sync_status(tenant, business_id)`: writes the declaration's state, derived from its
 *   `projectDeclaration` process (schemas/flows/project-declaration.bpmn), into project_baseinfo's
 *   `project_status` (dictionary project_status: 0 草稿 — no instance; 1 单位审核中 companyReview; 2 集团审核中
 *   groupReview; 3 专家评审中 expertReview; 4 立项审批中 finalReview; 5 退回修改 revise; 6 已立项 — completed
 *   after an `approve`; 7 未通过 — completed otherwise; 8 已结题 — approved, and its 结题报告 passed: 0002 below)
 *   and `declare_status` (1 once declared). A deleted instance counts as none.
 * - triggers on flow_instance and flow_task (rows of business_type 'project/baseinfo') call it in the same
 *   transaction as the step that changed the process, so the record's state never disagrees with the process.
 */
import { sql, type Kysely } from 'kysely';

/** project_sync_status as 0001 writes it (0002 replaces it; its down puts this back). */
const SYNC_0001 = `
CREATE OR REPLACE FUNCTION project_sync_status(p_tenant varchar, p_business bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  inst record;
  open_key varchar;
  last_outcome varchar;
  st int;
BEGIN
  IF to_regclass('project_baseinfo') IS NULL THEN RETURN; END IF;
  SELECT id, run_status INTO inst FROM flow_instance
   WHERE tenant_id = p_tenant AND business_type = 'project/baseinfo' AND business_id = p_business AND run_status <> 'deleted'
   ORDER BY start_time DESC, id DESC LIMIT 1;
  IF inst.id IS NULL THEN
    st := 0;
  ELSIF inst.run_status = 'running' THEN
    SELECT task_key INTO open_key FROM flow_task WHERE instance_id = inst.id AND end_time IS NULL AND NOT cancelled ORDER BY create_time DESC, id DESC LIMIT 1;
    st := CASE open_key WHEN 'groupReview' THEN 2 WHEN 'expertReview' THEN 3 WHEN 'finalReview' THEN 4 WHEN 'revise' THEN 5 ELSE 1 END;
  ELSE
    SELECT outcome INTO last_outcome FROM flow_task WHERE instance_id = inst.id AND end_time IS NOT NULL ORDER BY end_time DESC, id DESC LIMIT 1;
    st := CASE WHEN last_outcome = 'approve' THEN 6 ELSE 7 END;
  END IF;
  EXECUTE 'UPDATE project_baseinfo SET project_status = $1, declare_status = $2 WHERE id = $3 AND tenant_id = $4'
    USING st, CASE WHEN st > 0 THEN 1 ELSE 0 END, p_business, p_tenant;
END $$;
`;

async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
${SYNC_0001}

CREATE OR REPLACE FUNCTION project_flow_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM project_sync_status(NEW.tenant_id, NEW.business_id);
  RETURN NULL;
END $$;

CREATE TRIGGER project_flow_instance_status AFTER INSERT OR UPDATE ON flow_instance
  FOR EACH ROW WHEN (NEW.business_type = 'project/baseinfo') EXECUTE FUNCTION project_flow_trigger();
CREATE TRIGGER project_flow_task_status AFTER INSERT OR UPDATE ON flow_task
  FOR EACH ROW WHEN (NEW.business_type = 'project/baseinfo') EXECUTE FUNCTION project_flow_trigger();
`).execute(db);
}

async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`
DROP TRIGGER IF EXISTS project_flow_task_status ON flow_task;
DROP TRIGGER IF EXISTS project_flow_instance_status ON flow_instance;
DROP FUNCTION IF EXISTS project_flow_trigger();
DROP FUNCTION IF EXISTS project_sync_status(varchar, bigint);
`).execute(db);
}

/**
 * `project/0002_completed` (issue 12, acceptance): a project whose 结题报告 (project/report, report_kind 3) passed its
 * review (the projectReport process completed after an `approve`) is 8 已结题. project_sync_status gains that
 * case; triggers on the report's flow rows (flow_instance, flow_task of business_type 'project/report') re-derive
 * the state of the report's project in the same transaction; the approved projects of an existing database are
 * re-derived once.
 */
async function upCompleted(db: Kysely<any>): Promise<void> {
  await sql.raw(`
CREATE OR REPLACE FUNCTION project_final_report_passed(p_tenant varchar, p_business bigint) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF to_regclass('project_report') IS NULL THEN RETURN false; END IF;
  RETURN EXISTS (
    SELECT 1 FROM project_report r
      JOIN flow_instance fi ON fi.tenant_id = r.tenant_id AND fi.business_type = 'project/report' AND fi.business_id = r.id AND fi.run_status = 'completed'
     WHERE r.tenant_id = p_tenant AND r.project_id = p_business::text AND r.report_kind = '3' AND r.is_deleted = 0
       AND (SELECT t.outcome FROM flow_task t WHERE t.instance_id = fi.id AND t.end_time IS NOT NULL ORDER BY t.end_time DESC, t.id DESC LIMIT 1) = 'approve');
END $$;

CREATE OR REPLACE FUNCTION project_sync_status(p_tenant varchar, p_business bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  inst record;
  open_key varchar;
  last_outcome varchar;
  st int;
BEGIN
  IF to_regclass('project_baseinfo') IS NULL THEN RETURN; END IF;
  SELECT id, run_status INTO inst FROM flow_instance
   WHERE tenant_id = p_tenant AND business_type = 'project/baseinfo' AND business_id = p_business AND run_status <> 'deleted'
   ORDER BY start_time DESC, id DESC LIMIT 1;
  IF inst.id IS NULL THEN
    st := 0;
  ELSIF inst.run_status = 'running' THEN
    SELECT task_key INTO open_key FROM flow_task WHERE instance_id = inst.id AND end_time IS NULL AND NOT cancelled ORDER BY create_time DESC, id DESC LIMIT 1;
    st := CASE open_key WHEN 'groupReview' THEN 2 WHEN 'expertReview' THEN 3 WHEN 'finalReview' THEN 4 WHEN 'revise' THEN 5 ELSE 1 END;
  ELSE
    SELECT outcome INTO last_outcome FROM flow_task WHERE instance_id = inst.id AND end_time IS NOT NULL ORDER BY end_time DESC, id DESC LIMIT 1;
    st := CASE WHEN last_outcome <> 'approve' OR last_outcome IS NULL THEN 7 WHEN project_final_report_passed(p_tenant, p_business) THEN 8 ELSE 6 END;
  END IF;
  EXECUTE 'UPDATE project_baseinfo SET project_status = $1, declare_status = $2 WHERE id = $3 AND tenant_id = $4'
    USING st, CASE WHEN st > 0 THEN 1 ELSE 0 END, p_business, p_tenant;
END $$;

CREATE OR REPLACE FUNCTION project_report_flow_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pid varchar;
BEGIN
  IF to_regclass('project_report') IS NULL THEN RETURN NULL; END IF;
  EXECUTE 'SELECT project_id FROM project_report WHERE id = $1 AND tenant_id = $2' INTO pid USING NEW.business_id, NEW.tenant_id;
  IF pid ~ '^[0-9]{1,18}$' THEN PERFORM project_sync_status(NEW.tenant_id, pid::bigint); END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER project_report_instance_status AFTER INSERT OR UPDATE ON flow_instance
  FOR EACH ROW WHEN (NEW.business_type = 'project/report') EXECUTE FUNCTION project_report_flow_trigger();
CREATE TRIGGER project_report_task_status AFTER INSERT OR UPDATE ON flow_task
  FOR EACH ROW WHEN (NEW.business_type = 'project/report') EXECUTE FUNCTION project_report_flow_trigger();

-- a database whose projects passed their 结题报告 before this migration: their state now
DO $$ BEGIN
  IF to_regclass('project_baseinfo') IS NOT NULL THEN
    PERFORM project_sync_status(tenant_id, id) FROM project_baseinfo WHERE project_status = 6 AND is_deleted = 0;
  END IF;
END $$;
`).execute(db);
}

async function downCompleted(db: Kysely<any>): Promise<void> {
  await sql.raw(`
DROP TRIGGER IF EXISTS project_report_task_status ON flow_task;
DROP TRIGGER IF EXISTS project_report_instance_status ON flow_instance;
DROP FUNCTION IF EXISTS project_report_flow_trigger();
DROP FUNCTION IF EXISTS project_final_report_passed(varchar, bigint);
`).execute(db);
  await sql.raw(SYNC_0001).execute(db);
}

export const migrations = { '0001_status': { up, down }, '0002_completed': { up: upCompleted, down: downCompleted } };
