/**
 * Task lists of the project processes that the generic flow binding (src/server/modules/flow/binding.ts: one
 * list per caller — claim, to-do, sent, done) does not give (spec 001 §4, §7; issue 12):
 *
 * | call                                        | answer                                                                 |
 * | ------------------------------------------- | ---------------------------------------------------------------------- |
 * | GET /api/project/intent/done-list-of-jituan | the review steps research management has completed on the intents of   |
 * |                                             | the caller's company and the companies below it (the group's view, 集团) |
 * | GET /api/project/intent/done-list-of-yuan   | … on the intents of the caller's own company only (a subsidiary's or    |
 * |                                             | institute's view, 院)                                                    |
 * | GET /api/project/baseinfo/todoBfList        | every open declaration step the caller may act on: held by them, or for |
 * |                                             | their roles and department and still unclaimed (todo-list ∪ claim-list) |
 *
 * The done lists are for research management (role kygl; 403 otherwise); all need the read grant of the
 * resource, are of the caller's tenant, take `current` and `size`, and answer `{records, total, size, current,
 * pages}` of tasks (`taskId`, `taskKey`, `taskName`, `processInstanceId`, `businessId`, `businessName`,
 * `outcome`, `comment`, `operatorName`, `createTime`, `endTime`) each with its record under `record` (read
 * through the engine: the caller's data scope applies, null when not visible).
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser, OrgCache } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { paging } from '../../resources/query.js';
import { PROJECT } from './declaration.js';
import { resourceOf } from './routes.js';

type Row = Record<string, unknown>;
type Where = ReturnType<typeof sql>;

const INTENT = 'project/intent';

/** A page of the tasks matching `where`, each with its record of `name` as `user` may read it. */
async function taskPage(db: Db, engine: ResourceEngine, user: AuthUser, name: string, query: Row, where: Where, order: Where): Promise<Row> {
  const r = resourceOf(engine, name);
  await engine.authorize(user, r, 'read');
  const { current, size } = paging(query);
  const rows = (await sql<Row>`SELECT t.id::text AS "taskId", t.task_key AS "taskKey", t.task_name AS "taskName", t.instance_id::text AS "processInstanceId",
                                      t.business_id::text AS "businessId", t.business_name AS "businessName", t.outcome, t.comment, t.operator_name AS "operatorName",
                                      t.create_time AS "createTime", t.end_time AS "endTime"
                                 FROM flow_task t WHERE ${where} ORDER BY ${order} LIMIT ${size} OFFSET ${(current - 1) * size}`.execute(db)).rows;
  const total = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM flow_task t WHERE ${where}`.execute(db)).rows[0].n;
  const ids = [...new Set(rows.map((x) => String(x.businessId)))];
  const recs = ids.length ? ((await engine.page(r, user, { size: '200' }, (c) => c.add(`id = ANY(${c.param(ids)}::bigint[])`))) as { records: Row[] }).records : [];
  const byId = new Map(recs.map((x) => [String(x.id), x]));
  return { records: rows.map((x) => ({ ...x, record: byId.get(String(x.businessId)) ?? null })), total, size, current, pages: Math.ceil(total / size) };
}

export function registerTaskLists(app: FastifyInstance, db: Db, engine: ResourceEngine, org: OrgCache): void {
  const doneOf = (withChildren: boolean) => async (req: { user: AuthUser | null; query: unknown; lang: 'zh' | 'en' }) => {
    const user = req.user!;
    if (!user.isAdmin && !user.activeRoleAliases.includes('kygl')) throw new ApiError(403, 'forbidden');
    const company = user.deptId ? await org.companyOf(user.tenantId, user.deptId) : null;
    const depts = company ? (withChildren ? await org.subtree(user.tenantId, company) : await org.companyDepts(user.tenantId, company)) : [];
    const table = sql.table(resourceOf(engine, INTENT).schema.table);
    const where = sql`t.tenant_id = ${user.tenantId} AND t.business_type = ${INTENT} AND t.end_time IS NOT NULL AND NOT t.cancelled AND t.operator_role = 'kygl'
                      AND t.business_id IN (SELECT i.id FROM ${table} i WHERE i.tenant_id = ${user.tenantId} AND i.create_dept = ANY(${depts}::bigint[]))`;
    return ok(await taskPage(db, engine, user, INTENT, req.query as Row, where, sql`t.end_time DESC, t.id DESC`), undefined, req.lang);
  };
  app.get('/api/project/intent/done-list-of-jituan', { schema: { tags: [INTENT], summary: 'Intent reviews done by research management of the group (the caller’s company and below)' } }, doneOf(true));
  app.get('/api/project/intent/done-list-of-yuan', { schema: { tags: [INTENT], summary: 'Intent reviews done by research management of the caller’s company' } }, doneOf(false));

  app.get('/api/project/baseinfo/todoBfList', { schema: { tags: [PROJECT], summary: 'Every open declaration step the caller may act on (held or claimable)' } }, async (req) => {
    const user = req.user!;
    const company = user.deptId ? await org.companyOf(user.tenantId, user.deptId) : null;
    const depts = [user.deptId, company].filter((x): x is string => !!x);
    const where = sql`t.tenant_id = ${user.tenantId} AND t.business_type = ${PROJECT} AND t.end_time IS NULL AND NOT t.cancelled
                      AND (t.assignee = ${user.userId}::bigint
                           OR (t.assignee IS NULL AND ${user.activeRoleAliases}::text[] && t.candidate_roles
                               AND (cardinality(t.candidate_depts) = 0 OR t.candidate_depts && ${depts}::bigint[])))`;
    return ok(await taskPage(db, engine, user, PROJECT, req.query as Row, where, sql`t.create_time DESC, t.id DESC`), undefined, req.lang);
  });
}
