/**
 * Reports due by the report rules (issue 12: "report rules say which report is due when; overdue reports appear
 * in to-dos"; schemas/project/reportrule.json).
 *
 * An enabled rule `{reportKind, basis: start | end, offsetMonths, remindDays}` makes a report of that kind due
 * for every approved project (project_status 6) of its tenant on the project's start (or end) date plus
 * `offsetMonths` months. From `remindDays` days before that date, as long as the project has no report of that
 * kind, its registrant has a to-do (basic_todo, linked to the reports' menu /project/report, so the menu's
 * badge counts it): title `待提交<kind>：<project>`, content `应于 yyyy-MM-dd 前提交（<rule>）`, or
 * `已逾期：应于 yyyy-MM-dd 前提交（<rule>）` once the date has passed (the to-do's content is updated then); the
 * English beside them (`<kind in English> due: <project>`, `[Overdue: ]due by yyyy-MM-dd (<rule>)`, flow/todo.ts).
 * One to-do per project, kind and registrant; once a report of the kind exists it is marked done.
 *
 * `remindDueReports(db, now)` does one pass over every tenant (one transaction, skipped when another node holds
 * the pass's advisory lock); `registerReportReminders` runs it once the app is ready and then every hour.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';

/** How often the pass runs, milliseconds. */
export const REMIND_EVERY_MS = 3_600_000;

interface Due {
  tenant: string;
  project: string;
  name: string;
  user: string;
  dept: string | null;
  kind: string;
  kindLabel: string;
  kindLabelEn: string;
  rule: string;
  due: string;
  remindFrom: string;
  hasReport: boolean;
}

/** One pass (module comment); answers how many to-dos were created, updated and closed. */
export async function remindDueReports(db: Db, now: Date = new Date()): Promise<{ created: number; updated: number; closed: number }> {
  const today = now.toISOString().slice(0, 10);
  return db.transaction().execute(async (trx) => {
    const got = (await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(hashtext('project-report-due')) AS ok`.execute(trx)).rows[0].ok;
    if (!got) return { created: 0, updated: 0, closed: 0 };
    const rows = (await sql<Due>`
      SELECT p.tenant_id AS tenant, p.id::text AS project, p.name, p.create_user::text AS "user", p.create_dept::text AS dept,
             r.report_kind AS kind, coalesce(d.dict_value, r.report_kind) AS "kindLabel",
             coalesce(nullif(d.dict_value_en, ''), d.dict_value, r.report_kind) AS "kindLabelEn", r.name AS rule,
             to_char(x.due, 'YYYY-MM-DD') AS due, to_char(x.due - make_interval(days => coalesce(r.remind_days, 0)::int), 'YYYY-MM-DD') AS "remindFrom",
             EXISTS (SELECT 1 FROM project_report pr WHERE pr.tenant_id = p.tenant_id AND pr.project_id = p.id::text AND pr.report_kind = r.report_kind AND pr.is_deleted = 0) AS "hasReport"
        FROM project_reportrule r
        JOIN project_baseinfo p ON p.tenant_id = r.tenant_id AND p.project_status = 6 AND p.is_deleted = 0 AND p.create_user IS NOT NULL
        CROSS JOIN LATERAL (SELECT (CASE WHEN r.basis = 'end' THEN p.end_date ELSE p.start_date END)::date + make_interval(months => coalesce(r.offset_months, 0)::int) AS due) x
        LEFT JOIN blade_dict_biz d ON d.tenant_id = r.tenant_id AND d.code = 'project_report_kind' AND d.dict_key = r.report_kind AND d.parent_id <> 0 AND d.is_deleted = 0
       WHERE r.is_deleted = 0 AND coalesce(r.enabled, true) AND x.due IS NOT NULL`.execute(trx)).rows;
    let created = 0;
    let updated = 0;
    let closed = 0;
    for (const d of rows) {
      const title = `待提交${d.kindLabel}：${d.name}`.slice(0, 200);
      const open = (await sql<{ id: string; content: string | null }>`SELECT id::text AS id, content FROM basic_todo
                     WHERE tenant_id = ${d.tenant} AND user_id = ${d.user}::bigint AND business_type = 'project/baseinfo' AND business_id = ${d.project}::bigint
                       AND path = '/project/report' AND title = ${title} AND state = 0 AND is_deleted = 0 LIMIT 1`.execute(trx)).rows[0];
      if (d.hasReport) {
        if (open) {
          await sql`UPDATE basic_todo SET state = 1, update_time = now() WHERE id = ${open.id}::bigint`.execute(trx);
          closed += 1;
        }
        continue;
      }
      if (today < d.remindFrom) continue;
      const content = `${today > d.due ? '已逾期：' : ''}应于 ${d.due} 前提交（${d.rule}）`.slice(0, 1000);
      const contentEn = `${today > d.due ? 'Overdue: ' : ''}due by ${d.due} (${d.rule})`.slice(0, 1000);
      if (open) {
        if (open.content !== content) {
          await sql`UPDATE basic_todo SET content = ${content}, content_en = ${contentEn}, is_read = 0, push_time = NULL, update_time = now() WHERE id = ${open.id}::bigint`.execute(trx);
          updated += 1;
        }
        continue;
      }
      const done = await sql`SELECT 1 FROM basic_todo WHERE tenant_id = ${d.tenant} AND user_id = ${d.user}::bigint AND business_type = 'project/baseinfo'
                               AND business_id = ${d.project}::bigint AND path = '/project/report' AND title = ${title} AND is_deleted = 0 LIMIT 1`.execute(trx);
      if (done.rows.length) continue; // done before (a report came and went): not again
      const titleEn = `${d.kindLabelEn} due: ${d.name}`.slice(0, 200);
      await sql`INSERT INTO basic_todo (id, tenant_id, user_id, title, content, title_en, content_en, path, type, business_type, business_id, business_name, create_dept)
                VALUES (${nextId()}::bigint, ${d.tenant}, ${d.user}::bigint, ${title}, ${content}, ${titleEn}, ${contentEn}, '/project/report', 1, 'project/baseinfo', ${d.project}::bigint, ${d.name}, ${d.dept}::bigint)`.execute(trx);
      created += 1;
    }
    return { created, updated, closed };
  });
}

/** Runs the pass once `app` is ready, then every REMIND_EVERY_MS (failures are logged, the server goes on). */
export function registerReportReminders(app: FastifyInstance, db: Db): void {
  const run = () => void remindDueReports(db).catch((e: unknown) => app.log.warn(`report reminders: ${e instanceof Error ? e.message : String(e)}`));
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    setImmediate(run);
    timer = setInterval(run, REMIND_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
