/**
 * Dashboards (spec 001 §7 'Dashboards, GET /system/dashborad' — the spec's spelling of the path is kept): the
 * achievement figures of the home page. Every figure is of the caller's tenant and counts live records of
 * every examination status with a `byStatus` breakdown (examine_status: 0 草稿, 1 待审核, 2 审核通过,
 * 3 已驳回); `examineStatus=2` counts approved records only, `type` and `year`/`yearBy` filter as the
 * achievement statistics do (resources/stats.ts, group `achievement`). A type the caller's role may not list is left out
 * (zero everywhere for a role without achievements), so the home page never fails for lack of a grant.
 *
 * | GET                          | answer                                                                      |
 * | ---------------------------- | --------------------------------------------------------------------------- |
 * | myBasicAchievements          | the records the caller registered (as myList): `{total, byStatus, byType}`  |
 * | companyBasicAchievements     | the records of the caller's company (as list-for-myCompany: create_dept in  |
 * |                              | the company, not its subsidiaries): `{companyId, companyName, total,        |
 * |                              | byStatus, byType, byYear}`                                                  |
 * | index                        | the home page's summary: `achievements` (what the caller's lists show: data |
 * |                              | scope applied) `{total, byStatus, byType}`, `mine` and `company` totals      |
 * |                              | `{total, byStatus}`, and `examine`: `pending` (examinations waiting for the |
 * |                              | caller's decision; null when the caller decides none) and `submitted` (the  |
 * |                              | caller's own records under examination, by status)                          |
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../core/envelope.js';
import type { AuthUser, OrgCache } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { Conditions } from '../../resources/query.js';
import { byYear, countGroup, deptNames, parseFilters, statusKeys, summarize, type StatFilters } from '../../resources/stats.js';
import { ACHIEVEMENT_GROUP } from './statistics.js';
import { addExaminerCondition, examinedResources } from './examine.js';

export const DASHBOARD = '/api/system/dashborad';

/** The caller's company and its departments (none without a company). */
async function myCompany(org: OrgCache, user: AuthUser): Promise<{ companyId: string | null; depts: string[] }> {
  const companyId = user.deptId ? await org.companyOf(user.tenantId, user.deptId) : null;
  return { companyId, depts: companyId ? await org.companyDepts(user.tenantId, companyId) : [] };
}

async function mine(engine: ResourceEngine, user: AuthUser, f: StatFilters) {
  const { types, rows } = await countGroup(engine, user, { op: 'myList', withDataScope: false, extra: (c) => c.add(`create_user = ${c.param(user.userId)}::bigint`) }, f);
  return summarize(types, rows);
}

async function company(engine: ResourceEngine, org: OrgCache, user: AuthUser, f: StatFilters) {
  const { companyId, depts } = await myCompany(org, user);
  const { types, rows } = await countGroup(
    engine,
    user,
    { op: 'list-for-myCompany', withDataScope: false, extra: (c) => c.add(`create_dept = ANY(${c.param(depts)}::bigint[])`) },
    f,
  );
  const names = await deptNames(engine, user.tenantId, companyId ? [companyId] : []);
  return { companyId, companyName: companyId ? (names.get(companyId) ?? null) : null, ...summarize(types, rows), byYear: byYear(types, rows) };
}

export function registerDashboardRoutes(app: FastifyInstance, engine: ResourceEngine, org: OrgCache): void {
  const tags = ['system/dashborad'];

  app.get(`${DASHBOARD}/myBasicAchievements`, { schema: { tags, summary: 'Counts of the achievements I registered, per type' } }, async (req) => {
    const f = parseFilters(engine, ACHIEVEMENT_GROUP, req.query as Record<string, unknown>);
    return ok(await mine(engine, req.user!, f), undefined, req.lang);
  });

  app.get(`${DASHBOARD}/companyBasicAchievements`, { schema: { tags, summary: "Counts of my company's achievements, per type and year" } }, async (req) => {
    const f = parseFilters(engine, ACHIEVEMENT_GROUP, req.query as Record<string, unknown>);
    return ok(await company(engine, org, req.user!, f), undefined, req.lang);
  });

  app.get(`${DASHBOARD}/index`, { schema: { tags, summary: 'The home page summary' } }, async (req) => {
    const user = req.user!;
    const f = parseFilters(engine, ACHIEVEMENT_GROUP, req.query as Record<string, unknown>);
    const all = await countGroup(engine, user, { op: 'read', withDataScope: true }, f);
    const my = await mine(engine, user, f);
    const co = await company(engine, org, user, f);

    // examinations waiting for my decision, and my own records under examination
    const pendingCond = new Conditions();
    pendingCond.add(`e.tenant_id = ${pendingCond.param(user.tenantId)}`);
    pendingCond.add(`e.is_deleted = 0 AND e.examine_status = '1'`);
    let pending: number | null = null;
    if (await addExaminerCondition(engine, org, user, pendingCond)) {
      pending = (await engine.query<{ n: number }>(`SELECT count(*)::int AS n FROM basic_examine e WHERE ${pendingCond.sql()}`, pendingCond.params))[0].n;
    }
    const keys = statusKeys(examinedResources(engine));
    const submitted = Object.fromEntries(keys.map((k) => [k, 0])) as Record<string, number>;
    const rows = await engine.query<{ s: string; n: number }>(
      `SELECT examine_status AS s, count(*)::int AS n FROM basic_examine WHERE tenant_id = $1 AND is_deleted = 0 AND business_user = $2::bigint GROUP BY 1`,
      [user.tenantId, user.userId],
    );
    for (const r of rows) submitted[r.s] = r.n;

    return ok(
      {
        achievements: summarize(all.types, all.rows),
        mine: { total: my.total, byStatus: my.byStatus },
        company: { companyId: co.companyId, companyName: co.companyName, total: co.total, byStatus: co.byStatus },
        examine: { pending, submitted },
      },
      undefined,
      req.lang,
    );
  });
}
