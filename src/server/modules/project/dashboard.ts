/**
 * The project figures of the home page (spec 001 §7 "Dashboards, GET /system/dashborad": myProjectNumber,
 * companyProjectNumber, companyProjectMoney, expertProject; issue 12 "Dashboards"). Every figure is of the
 * caller's tenant and counts live declarations (project_baseinfo) and funds (project_money). A role that may
 * not read declarations (menu project_baseinfo) gets zeros, as the achievement dashboards do (basic/dashboard.ts),
 * so the home page never fails for lack of a grant; `expertProject` is about the caller's own reviews and needs
 * no grant.
 *
 * | GET                   | answer                                                                              |
 * | --------------------- | ----------------------------------------------------------------------------------- |
 * | myProjectNumber       | the declarations the caller registered: `{total, byStatus}` (byStatus: project_status → count) |
 * | companyProjectNumber  | the declarations of the caller's company and the companies below it: `{companyId, total, byStatus, byCompany: [{companyId, companyName, total, approved}]}` (a company's figures include its departments, not its subsidiaries) |
 * | companyProjectMoney   | the same projects' money in 万元 (10,000 CNY), two decimals: `{companyId, declared: {total, allocated, selfRaised}, approved: {…}, funds: {allocated, spent, balance}, byYear: [{year, approvedTotal, spent}]}` — declared = every declaration, approved = project_status 6 (已立项) or 8 (已结题); funds = project/money rows of approved projects (moneyType 1 拨付, 2 支出; balance = allocated − spent); byYear by the project's start year |
 * | expertProject         | the caller's expert reviews (project/expert rows whose expertId is the caller): `{total, pending, submitted, averageScore}` |
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ok } from '../../core/envelope.js';
import type { AuthUser, OrgCache } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { PROJECT } from './declaration.js';

const DASHBOARD = '/api/system/dashborad';
/** project_status of an approved project (dictionary project_status: 6 已立项, and 8 已结题 — approved and completed). */
const APPROVED = [6, 8];

type Row = Record<string, unknown>;
const money = (v: unknown) => Math.round((Number(v ?? 0) || 0) * 100) / 100;

/** True when `user` may read declarations (the dashboards answer zeros otherwise). */
async function mayRead(engine: ResourceEngine, user: AuthUser): Promise<boolean> {
  const r = engine.registry.resources.get(PROJECT);
  if (!r) return false;
  return engine.authorize(user, r, 'read').then(
    () => true,
    () => false,
  );
}

/** Counts by project_status of the declarations matching `where` (a SQL fragment over project_baseinfo p). */
async function byStatus(db: Db, tenantId: string, where: ReturnType<typeof sql>): Promise<{ total: number; byStatus: Record<string, number> }> {
  const rows = (await sql<{ s: number; n: number }>`SELECT coalesce(p.project_status, 0)::int AS s, count(*)::int AS n FROM project_baseinfo p
                 WHERE p.tenant_id = ${tenantId} AND p.is_deleted = 0 AND ${where} GROUP BY 1 ORDER BY 1`.execute(db)).rows;
  const out: Record<string, number> = {};
  for (const x of rows) out[String(x.s)] = x.n;
  return { total: rows.reduce((s, x) => s + x.n, 0), byStatus: out };
}

/** The caller's company and every department below it (subsidiaries included). */
async function companyTree(org: OrgCache, user: AuthUser): Promise<{ companyId: string | null; depts: string[] }> {
  const companyId = user.deptId ? await org.companyOf(user.tenantId, user.deptId) : null;
  return { companyId, depts: companyId ? await org.subtree(user.tenantId, companyId) : [] };
}

export function registerProjectDashboard(app: FastifyInstance, d: { db: Db; engine: ResourceEngine; org: OrgCache }): void {
  const { db, engine, org } = d;
  const tags = ['system/dashborad'];

  app.get(`${DASHBOARD}/myProjectNumber`, { schema: { tags, summary: 'Counts of the declarations I registered, per status' } }, async (req) => {
    const user = req.user!;
    if (!(await mayRead(engine, user))) return ok({ total: 0, byStatus: {} }, undefined, req.lang);
    return ok(await byStatus(db, user.tenantId, sql`p.create_user = ${user.userId}::bigint`), undefined, req.lang);
  });

  app.get(`${DASHBOARD}/companyProjectNumber`, { schema: { tags, summary: "Counts of my company's declarations (and its subsidiaries'), per status and company" } }, async (req) => {
    const user = req.user!;
    const { companyId, depts } = await companyTree(org, user);
    if (!companyId || !(await mayRead(engine, user))) return ok({ companyId, total: 0, byStatus: {}, byCompany: [] }, undefined, req.lang);
    const all = await byStatus(db, user.tenantId, sql`p.create_dept = ANY(${depts}::bigint[])`);
    // each company of the tree with the departments that are its own (the company a department belongs to)
    const companies = (await sql<Row>`SELECT id::text AS id, dept_name AS name FROM blade_dept WHERE tenant_id = ${user.tenantId} AND is_deleted = 0
                         AND dept_category = 1 AND id = ANY(${depts}::bigint[]) ORDER BY ancestors, sort, id`.execute(db)).rows;
    const byCompany = [];
    for (const c of companies) {
      const own = await org.companyDepts(user.tenantId, String(c.id));
      const n = (await sql<{ t: number; a: number }>`SELECT count(*)::int AS t, count(*) FILTER (WHERE project_status = ANY(${APPROVED}::int[]))::int AS a FROM project_baseinfo
                   WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND create_dept = ANY(${own}::bigint[])`.execute(db)).rows[0];
      byCompany.push({ companyId: String(c.id), companyName: String(c.name), total: n.t, approved: n.a });
    }
    return ok({ companyId, ...all, byCompany }, undefined, req.lang);
  });

  app.get(`${DASHBOARD}/companyProjectMoney`, { schema: { tags, summary: "Budgets and funds of my company's projects (10,000 CNY)" } }, async (req) => {
    const user = req.user!;
    const { companyId, depts } = await companyTree(org, user);
    const zero = { total: 0, allocated: 0, selfRaised: 0 };
    if (!companyId || !(await mayRead(engine, user))) return ok({ companyId, declared: zero, approved: zero, funds: { allocated: 0, spent: 0, balance: 0 }, byYear: [] }, undefined, req.lang);
    const sums = (await sql<Row>`SELECT coalesce(sum(total_budget), 0) AS t, coalesce(sum(allocated_budget), 0) AS a, coalesce(sum(self_raised_budget), 0) AS s,
                   coalesce(sum(total_budget) FILTER (WHERE project_status = ANY(${APPROVED}::int[])), 0) AS at, coalesce(sum(allocated_budget) FILTER (WHERE project_status = ANY(${APPROVED}::int[])), 0) AS aa,
                   coalesce(sum(self_raised_budget) FILTER (WHERE project_status = ANY(${APPROVED}::int[])), 0) AS as_
                   FROM project_baseinfo WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND create_dept = ANY(${depts}::bigint[])`.execute(db)).rows[0];
    const funds = (await sql<Row>`SELECT coalesce(sum(m.amount) FILTER (WHERE m.money_type = '1'), 0) AS a, coalesce(sum(m.amount) FILTER (WHERE m.money_type = '2'), 0) AS s
                   FROM project_money m JOIN project_baseinfo p ON p.id::text = m.project_id AND p.tenant_id = m.tenant_id AND p.is_deleted = 0
                   WHERE m.tenant_id = ${user.tenantId} AND m.is_deleted = 0 AND p.project_status = ANY(${APPROVED}::int[]) AND p.create_dept = ANY(${depts}::bigint[])`.execute(db)).rows[0];
    const years = (await sql<Row>`WITH ap AS (SELECT id::text AS id, extract(year FROM start_date)::int AS y, total_budget FROM project_baseinfo
                     WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND project_status = ANY(${APPROVED}::int[]) AND create_dept = ANY(${depts}::bigint[]) AND start_date IS NOT NULL),
                   sp AS (SELECT project_id, sum(amount) AS s FROM project_money WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND money_type = '2' GROUP BY 1)
                   SELECT ap.y, coalesce(sum(ap.total_budget), 0) AS t, coalesce(sum(sp.s), 0) AS s FROM ap LEFT JOIN sp ON sp.project_id = ap.id GROUP BY 1 ORDER BY 1`.execute(db)).rows;
    return ok(
      {
        companyId,
        declared: { total: money(sums.t), allocated: money(sums.a), selfRaised: money(sums.s) },
        approved: { total: money(sums.at), allocated: money(sums.aa), selfRaised: money(sums.as_) },
        funds: { allocated: money(funds.a), spent: money(funds.s), balance: money(Number(funds.a) - Number(funds.s)) },
        byYear: years.map((y) => ({ year: Number(y.y), approvedTotal: money(y.t), spent: money(y.s) })),
      },
      undefined,
      req.lang,
    );
  });

  app.get(`${DASHBOARD}/expertProject`, { schema: { tags, summary: 'My expert reviews: pending and submitted' } }, async (req) => {
    const user = req.user!;
    const n = (await sql<Row>`SELECT count(*)::int AS t, count(*) FILTER (WHERE coalesce(review_status, 0) = 0)::int AS p, count(*) FILTER (WHERE review_status = 1)::int AS s,
                 round(avg(total_score) FILTER (WHERE review_status = 1)::numeric, 2)::float AS avg
                 FROM project_expert WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND expert_id = ${user.userId}`.execute(db)).rows[0];
    return ok({ total: n.t, pending: n.p, submitted: n.s, averageScore: n.avg ?? null }, undefined, req.lang);
  });
}
