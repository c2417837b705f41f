/**
 * Migration 0004: the examination of achievements (spec 001 §3 'examine, examine record', §7 '/basic examine,
 * examinerecord'; the generic workflow actions of src/server/modules/flow/actions.ts, flow `examine`).
 *
 * - `basic_examine`: one row per record under examination (business_type = the resource name, e.g.
 *   `basic/thesis`; business_id = the record's id), created by the first submission and updated by every
 *   later step: the current status (the examine_status dictionary: 0 草稿, 1 待审核, 2 审核通过, 3 已驳回, the
 *   same value as the record's own status field), who submitted it and when, the company the record belongs
 *   to (the company of its create_dept, which is what decides who may examine it and the company lists),
 *   who decided last, when, and with which opinion (cleared by a new submission). Removing the record removes
 *   its examination (logically).
 * - `basic_examine_record`: one row per step, never changed: the action (submitExamine, approve, reject,
 *   againSubmit), its label at the time, the status before and after, the opinion, who (user, name, the role
 *   they acted as, department) and when.
 *
 * Every index starts with tenant_id (DESIGN §12).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
CREATE TABLE basic_examine (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  business_type varchar(100) NOT NULL,
  business_id bigint NOT NULL,
  business_name varchar(500),
  business_user bigint,
  examine_status varchar(8) NOT NULL,
  submit_user bigint,
  submit_user_name varchar(100),
  submit_dept bigint,
  submit_time timestamptz,
  company_id bigint,
  opinion varchar(2000),
  examine_user bigint,
  examine_user_name varchar(100),
  examine_time timestamptz,
  create_user bigint,
  create_dept bigint,
  create_time timestamptz NOT NULL DEFAULT now(),
  update_user bigint,
  update_time timestamptz NOT NULL DEFAULT now(),
  status int NOT NULL DEFAULT 1,
  is_deleted int NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX basic_examine_business ON basic_examine (tenant_id, business_type, business_id) WHERE is_deleted = 0;
CREATE INDEX basic_examine_list_idx ON basic_examine (tenant_id, update_time DESC, id DESC) WHERE is_deleted = 0;
CREATE INDEX basic_examine_company_idx ON basic_examine (tenant_id, company_id, examine_status) WHERE is_deleted = 0;

CREATE TABLE basic_examine_record (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  examine_id bigint NOT NULL REFERENCES basic_examine (id),
  business_type varchar(100) NOT NULL,
  business_id bigint NOT NULL,
  action varchar(64) NOT NULL,
  action_name varchar(100),
  from_status varchar(8),
  to_status varchar(8),
  opinion varchar(2000),
  operator_user bigint,
  operator_name varchar(100),
  operator_role varchar(100),
  operator_dept bigint,
  create_time timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX basic_examine_record_business ON basic_examine_record (tenant_id, business_type, business_id, create_time, id);
CREATE INDEX basic_examine_record_examine ON basic_examine_record (tenant_id, examine_id, create_time, id);
`).execute(db);
}
