/**
 * The declaration's own calls (spec 001 §7 "Projects, /project/baseinfo"; issue 12) beside the generic ones
 * (list, detail, submit, remove, select, myList, list-for-myCompany: the engine; start-process, claim-list,
 * confirm-task, complete-task, todo-list, send-list, done-list, expert-todo, expert-done: the flow module over
 * schemas/flows/project-declaration.bpmn; checkRepeat: the duplicate module, schema key `duplicateCheck`).
 * Every call is of the caller's tenant, needs the read grant of project/baseinfo (menu project_baseinfo)
 * unless said otherwise, and reads records through the engine (the caller's data scope applies):
 *
 * | call                                   | answer                                                                   |
 * | -------------------------------------- | ------------------------------------------------------------------------ |
 * | GET getSaveProcess?id                  | `{steps:[{key,title,done}], done, total, percent}` (declaration.ts)       |
 * | POST totalSave (record)                | the generic submit, answering `{record, saveProcess}`                    |
 * | POST bookTotalSave {id, …}             | the task book of an approved declaration: only TASK_BOOK_FIELDS are      |
 * |                                        | taken (the schema's rules apply), answering `{record, saveProcess}`      |
 * |                                        | (400 项目立项后方可填写任务书 before approval; declaration.ts)            |
 * | GET getTotalDetail?projectId           | `{record, saveProcess, experts, history}` (experts: project/expert rows; history: steps done, not cancelled) |
 * | GET checkInfo?id                       | `{ok, missing:[step titles]}`: what must be filled before declaring      |
 * | GET claim-list-for-sbdw                | open tasks given back to the caller (returned declarations: `revise`)    |
 * | GET claim-list-for-kygl                | unclaimed review tasks for research management of the caller's company   |
 * | GET listOfMyCompany                    | page of the projects of the caller's company (not its subsidiaries)      |
 * | GET listOfMyCompanyAllProject          | … of the caller's company and the companies below it                     |
 * | GET listOfStartMyCompany               | … of the caller's company that were declared (projectStatus > 0)         |
 * | GET myCompanyProjectNumber             | `{companyId, total, byStatus}` of the caller's company                   |
 * | GET /api/project/guide/options         | published guides `[{id, value, title}]` (any signed-in user)             |
 * | GET /api/project/guideexamine/list     | page of guides under review (status 1), for research management         |
 *
 * Lists take `current`, `size` and the list's filters and answer `{records, total, size, current, pages}`.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser, OrgCache } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Resource } from '../../resources/registry.js';
import { paging } from '../../resources/query.js';
import { isId } from '../../../shared/contract/ids.js';
import { PROJECT, SAVE_STEPS, TASK_BOOK_FIELDS, saveProcess, taskBookSave } from './declaration.js';

type Row = Record<string, unknown>;
export const BASE = '/api/project/baseinfo';

export interface RouteDeps {
  db: Db;
  engine: ResourceEngine;
  org: OrgCache;
}

/** The current version of resource `name` (404 when absent). */
export function resourceOf(engine: ResourceEngine, name: string): Resource {
  const r = engine.registry.resources.get(name);
  if (!r) throw new ApiError(404, 'notFound');
  return r;
}

/** The record `raw` of `name` as the caller may read it; 400 for a bad id, 404 when not visible. */
export async function readable(engine: ResourceEngine, user: AuthUser, name: string, raw: unknown, param = 'id'): Promise<Row> {
  if (raw === undefined || raw === null || raw === '') throw new ApiError(400, 'missingParam', { param });
  if (typeof raw !== 'string' || !isId(raw)) throw new ApiError(400, 'badParam', { param });
  const r = resourceOf(engine, name);
  await engine.authorize(user, r, 'read');
  const rec = await engine.findOne(r, user, raw);
  if (!rec) throw new ApiError(404, 'notFound');
  return rec;
}

/** The caller's company and its departments; `withChildren` adds the companies below it. */
async function companyDepts(org: OrgCache, user: AuthUser, withChildren: boolean): Promise<{ companyId: string | null; depts: string[] }> {
  const companyId = user.deptId ? await org.companyOf(user.tenantId, user.deptId) : null;
  if (!companyId) return { companyId, depts: [] };
  return { companyId, depts: withChildren ? await org.subtree(user.tenantId, companyId) : await org.companyDepts(user.tenantId, companyId) };
}

export function registerDeclarationRoutes(app: FastifyInstance, d: RouteDeps): void {
  const { db, engine, org } = d;
  const tags = [PROJECT];
  const project = async (user: AuthUser) => {
    const r = resourceOf(engine, PROJECT);
    await engine.authorize(user, r, 'read');
    return r;
  };

  app.get(`${BASE}/getSaveProcess`, { schema: { tags, summary: 'Declaration: how far the multi-step form got' } }, async (req) => {
    const rec = await readable(engine, req.user!, PROJECT, (req.query as Row).id);
    return ok(saveProcess(rec, req.lang), undefined, req.lang);
  });

  app.post(`${BASE}/totalSave`, { schema: { tags, summary: 'Declaration: saves the form, answering the save progress' } }, async (req) => {
    const saved = await engine.submit(resourceOf(engine, PROJECT), req.user!, req.body, req.lang);
    return ok({ record: saved, saveProcess: saveProcess(saved, req.lang) }, undefined, req.lang);
  });

  app.post(`${BASE}/bookTotalSave`, { schema: { tags, summary: 'Task book of an approved declaration: saves its fields, answering the save progress' } }, async (req) => {
    const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Row) : {};
    if (body.id === undefined || body.id === null || body.id === '') throw new ApiError(400, 'missingParam', { param: 'id' });
    const input: Row = { id: body.id };
    for (const f of TASK_BOOK_FIELDS) if (f in body) input[f] = body[f];
    const saved = await taskBookSave.run(true, () => engine.submit(resourceOf(engine, PROJECT), req.user!, input, req.lang));
    return ok({ record: saved, saveProcess: saveProcess(saved, req.lang) }, undefined, req.lang);
  });

  app.get(`${BASE}/checkInfo`, { schema: { tags, summary: 'Declaration: what is missing before it can be declared' } }, async (req) => {
    const rec = await readable(engine, req.user!, PROJECT, (req.query as Row).id);
    const missing = SAVE_STEPS.filter((s) => !s.done(rec)).map((s) => (req.lang === 'en' ? s.titleEn : s.title));
    return ok({ ok: missing.length === 0, missing }, undefined, req.lang);
  });

  app.get(`${BASE}/getTotalDetail`, { schema: { tags, summary: 'Declaration: record, progress, expert reviews and process history' } }, async (req) => {
    const user = req.user!;
    const rec = await readable(engine, user, PROJECT, (req.query as Row).projectId, 'projectId');
    const experts = (await sql<Row>`SELECT id::text AS id, expert_id AS "expertId", expert_name AS "expertName", review_status AS "reviewStatus", total_score AS "totalScore", comment
                                      FROM project_expert WHERE tenant_id = ${user.tenantId} AND project_id = ${String(rec.id)} AND is_deleted = 0 ORDER BY create_time`.execute(db)).rows;
    const history = (await sql<Row>`SELECT t.task_key AS "taskKey", t.task_name AS "taskName", t.operator_name AS "operatorName", t.outcome, t.comment, t.end_time AS "endTime"
                                      FROM flow_task t WHERE t.tenant_id = ${user.tenantId} AND t.business_type = ${PROJECT} AND t.business_id = ${String(rec.id)}::bigint
                                       AND t.end_time IS NOT NULL AND NOT t.cancelled ORDER BY t.end_time`.execute(db)).rows;
    return ok({ record: rec, saveProcess: saveProcess(rec, req.lang), experts, history }, undefined, req.lang);
  });

  // the work lists by role: tasks of the declaration's process, each with its record (read as the caller may)
  const taskList = async (user: AuthUser, query: Row, which: 'sbdw' | 'kygl') => {
    const r = await project(user);
    const { current, size } = paging(query);
    const company = user.deptId ? await org.companyOf(user.tenantId, user.deptId) : null;
    const depts = [user.deptId, company].filter((x): x is string => !!x);
    const base = sql`t.tenant_id = ${user.tenantId} AND t.business_type = ${PROJECT} AND t.end_time IS NULL AND NOT t.cancelled`;
    const where = which === 'sbdw'
      ? sql`${base} AND t.task_key = 'revise' AND t.assignee = ${user.userId}::bigint`
      : sql`${base} AND t.assignee IS NULL AND 'kygl' = ANY(t.candidate_roles) AND ${user.activeRoleAliases}::text[] && t.candidate_roles
              AND t.candidate_depts && ${depts}::bigint[]`;
    const rows = (await sql<Row>`SELECT t.id::text AS "taskId", t.task_key AS "taskKey", t.task_name AS "taskName", t.instance_id::text AS "processInstanceId",
                                        t.business_id::text AS "businessId", t.business_name AS "businessName", t.create_time AS "createTime"
                                   FROM flow_task t WHERE ${where} ORDER BY t.create_time DESC, t.id DESC LIMIT ${size} OFFSET ${(current - 1) * size}`.execute(db)).rows;
    const total = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM flow_task t WHERE ${where}`.execute(db)).rows[0].n;
    const ids = rows.map((x) => String(x.businessId));
    const recs = ids.length ? ((await engine.page(r, user, { size: '200' }, (c) => c.add(`id = ANY(${c.param(ids)}::bigint[])`))) as { records: Row[] }).records : [];
    const byId = new Map(recs.map((x) => [String(x.id), x]));
    return { records: rows.map((x) => ({ ...x, record: byId.get(String(x.businessId)) ?? null })), total, size, current, pages: Math.ceil(total / size) };
  };
  app.get(`${BASE}/claim-list-for-sbdw`, { schema: { tags, summary: 'Declarations returned to the caller for changes' } }, async (req) => ok(await taskList(req.user!, req.query as Row, 'sbdw'), undefined, req.lang));
  app.get(`${BASE}/claim-list-for-kygl`, { schema: { tags, summary: 'Review tasks research management of the caller’s company may claim' } }, async (req) => ok(await taskList(req.user!, req.query as Row, 'kygl'), undefined, req.lang));

  // the company's projects (not the data scope: the company's, whoever the caller is within it)
  const companyList = (withChildren: boolean, declaredOnly: boolean) => async (req: { user: AuthUser | null; query: unknown; lang: 'zh' | 'en' }) => {
    const user = req.user!;
    const r = await project(user);
    const { depts } = await companyDepts(org, user, withChildren);
    const page = await engine.page(r, user, req.query as Row, (c) => {
      c.add(`create_dept = ANY(${c.param(depts)}::bigint[])`);
      if (declaredOnly) c.add('project_status > 0');
    }, false);
    return ok(page, undefined, req.lang);
  };
  app.get(`${BASE}/listOfMyCompany`, { schema: { tags, summary: 'Projects of the caller’s company' } }, companyList(false, false));
  app.get(`${BASE}/listOfMyCompanyAllProject`, { schema: { tags, summary: 'Projects of the caller’s company and the companies below it' } }, companyList(true, false));
  app.get(`${BASE}/listOfStartMyCompany`, { schema: { tags, summary: 'Declared projects of the caller’s company' } }, companyList(false, true));

  app.get(`${BASE}/myCompanyProjectNumber`, { schema: { tags, summary: 'Projects of the caller’s company by status' } }, async (req) => {
    const user = req.user!;
    await project(user);
    const { companyId, depts } = await companyDepts(org, user, false);
    const rows = (await sql<{ s: number; n: number }>`SELECT coalesce(project_status, 0) AS s, count(*)::int AS n FROM project_baseinfo
                   WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND create_dept = ANY(${depts}::bigint[]) GROUP BY 1`.execute(db)).rows;
    const byStatus: Record<string, number> = {};
    for (const x of rows) byStatus[String(x.s)] = x.n;
    return ok({ companyId, total: rows.reduce((s, x) => s + x.n, 0), byStatus }, undefined, req.lang);
  });

  app.get('/api/project/guide/options', { schema: { tags: ['project/guide'], summary: 'Published guides as options' } }, async (req) => {
    const user = req.user!;
    if (!user) throw new ApiError(401, 'unauthorized');
    const rows = (await sql<{ id: string; name: string; y: number | null }>`SELECT id::text AS id, name, guide_year AS y FROM project_guide
                   WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND guide_status = '2' ORDER BY guide_year DESC NULLS LAST, id DESC LIMIT 500`.execute(db)).rows;
    return ok(rows.map((g) => ({ id: g.id, key: g.id, value: g.id, title: g.y ? `${g.y} ${g.name}` : g.name })), undefined, req.lang);
  });

  app.get('/api/project/guideexamine/list', { schema: { tags: ['project/guide'], summary: 'Guides under review' } }, async (req) => {
    const user = req.user!;
    const r = resourceOf(engine, 'project/guide');
    if (!user.isAdmin && !user.activeRoleAliases.includes('kygl')) throw new ApiError(403, 'forbidden');
    await engine.authorize(user, r, 'read');
    return ok(await engine.page(r, user, req.query as Row, (c) => c.add(`guide_status = '1'`)), undefined, req.lang);
  });
}
