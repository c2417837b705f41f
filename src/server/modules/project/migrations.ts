/**
 * The project module's own database objects (issue 12), applied as `project/0001_status` after the core's and
 * the flow module's. The project tables themselves (project_baseinfo, project_guide, project_expert …) are
 * schema tables (table sync).
 *
 * - `project_sync_status(tenant, business_id)`: writes the declaration's state, derived from its
 *   `projectDeclaration` process (schemas/flows/project-declaration.bpmn), into project_baseinfo's
 *   `project_status` (dictionary project_status: 0 草稿 — no instance; 1 单位审核中 companyReview; 2 集团审核中
 *   groupReview; 3 专家评审中 expertReview; 4 立项审批中 finalReview; 5 退回修改 revise; 6 已立项 — completed
 *   after an `approve`; 7 未通过 — completed otherwise) and `declare_status` (1 once declared). A deleted
 *   instance counts as none.
 * - triggers on flow_instance and flow_task (rows of business_type 'project/baseinfo') call it in the same
 *   transaction as the step that changed the process, so the record's state never disagrees with the process.
 */
import { sql, type Kysely } from 'kysely';

async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
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

export const migrations = { '0001_status': { up, down } };
