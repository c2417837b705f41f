/**
 * The project reports' own lists (spec 001 §7 "Other project modules": /project/report myReport,
 * /project/reportexamine/list; issue 12) beside the generic calls of schemas/project/report.json (list, myList,
 * the workflow endpoints of its process `projectReport`, export-word from its `documents`).
 *
 * | call                                  | answer                                                                      |
 * | ------------------------------------- | --------------------------------------------------------------------------- |
 * | GET /api/project/report/myReport      | page of the reports on the caller's projects (declarations they registered) |
 * |                                       | and of the reports they wrote                                               |
 * | POST /api/project/report/examine      | `{businessId, outcome: approve / return / reject, comment}`: completes the  |
 * |                                       | report's open review step as the caller, through the report's own           |
 * |                                       | complete-task (its checks and answer); 400 请选择审核结果 for another       |
 * |                                       | outcome, 400 该报告当前没有待审核的步骤 when none is open                    |
 * | GET /api/project/reportexamine/list   | page of the reports under review that the caller's research management may  |
 * |                                       | examine: an open task of their process for role kygl whose candidate        |
 * |                                       | departments hold the caller's department or company (403 without kygl)      |
 *
 * Both need the read grant of project/report (menu project_report), read through the engine (tenant, data scope)
 * and take `current`, `size` and the list's filters, answering `{records, total, size, current, pages}` (the
 * engine's count cache is per table: reportexamine's `total` may lag a review step by its 5 s at most).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { OrgCache } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { readable, resourceOf } from './routes.js';

type Row = Record<string, unknown>;
export const REPORT = 'project/report';

export const M = {
  outcome: { zh: '请选择审核结果', en: 'Please choose the result of the review' },
  noStep: { zh: '该报告当前没有待审核的步骤', en: 'The report has no review step open' },
};
const OUTCOMES = ['approve', 'return', 'reject'];

export function registerReportLists(app: FastifyInstance, engine: ResourceEngine, org: OrgCache): void {
  const tags = [REPORT];

  app.get('/api/project/report/myReport', { schema: { tags, summary: 'Reports on the caller’s projects and the reports they wrote' } }, async (req) => {
    const user = req.user!;
    const r = resourceOf(engine, REPORT);
    await engine.authorize(user, r, 'read');
    const page = await engine.page(r, user, req.query as Row, (c) => {
      const me = c.param(user.userId);
      c.add(`(create_user = ${me}::bigint OR project_id IN (SELECT p.id::text FROM project_baseinfo p WHERE p.tenant_id = ${c.param(user.tenantId)} AND p.create_user = ${me}::bigint AND p.is_deleted = 0))`);
    });
    return ok(page, undefined, req.lang);
  });

  app.post('/api/project/report/examine', { schema: { tags, summary: 'Examines a report: completes its open review step' } }, async (req, reply) => {
    const user = req.user!;
    const b = (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {}) as Row;
    const rec = await readable(engine, user, REPORT, b.businessId, 'businessId');
    if (typeof b.outcome !== 'string' || !OUTCOMES.includes(b.outcome)) throw new ApiError(400, M.outcome, undefined, { field: 'outcome' });
    const task = (await sql<{ id: string }>`SELECT id::text AS id FROM flow_task WHERE tenant_id = ${user.tenantId} AND business_type = ${REPORT} AND business_id = ${String(rec.id)}::bigint
                                              AND end_time IS NULL AND NOT cancelled AND task_key = 'review' ORDER BY create_time DESC LIMIT 1`.execute(engine.db)).rows[0];
    if (!task) throw new ApiError(400, M.noStep);
    // the report's own complete-task, as the caller: the process decides who may (403) and what follows
    const res = await app.inject({
      method: 'POST', url: `${resourceOf(engine, REPORT).schema.api}/complete-task`,
      headers: { 'blade-auth': String(req.headers['blade-auth'] ?? ''), 'accept-language': String(req.headers['accept-language'] ?? '') },
      payload: { taskId: task.id, outcome: b.outcome, comment: typeof b.comment === 'string' ? b.comment : '' },
    });
    return reply.code(res.statusCode).type('application/json; charset=utf-8').send(res.body);
  });

  app.get('/api/project/reportexamine/list', { schema: { tags, summary: 'Reports under review the caller may examine' } }, async (req) => {
    const user = req.user!;
    const r = resourceOf(engine, REPORT);
    if (!user.isAdmin && !user.activeRoleAliases.includes('kygl')) throw new ApiError(403, 'forbidden');
    await engine.authorize(user, r, 'read');
    const company = user.deptId ? await org.companyOf(user.tenantId, user.deptId) : null;
    const depts = [user.deptId, company].filter((x): x is string => !!x);
    const page = await engine.page(r, user, req.query as Row, (c) => {
      const mine = user.isAdmin ? 'TRUE' : `t.candidate_depts && ${c.param(depts)}::bigint[]`;
      c.add(`id IN (SELECT t.business_id FROM flow_task t WHERE t.tenant_id = ${c.param(user.tenantId)} AND t.business_type = ${c.param(REPORT)}
                    AND t.end_time IS NULL AND NOT t.cancelled AND 'kygl' = ANY(t.candidate_roles) AND ${mine})`);
    });
    return ok(page, undefined, req.lang);
  });
}
