/**
 * Achievement statistics (spec 001 §3 'achievement statistics', §7 'GET achievement/statistics and
 * statisticsByAuthor'): the counting of resources/stats.ts over the statistics group `achievement` — the
 * resources whose schema says `stats.group: "achievement"` (the six achievement types, and any type an
 * administrator publishes with that group). Year, author and company fields come from each schema's `stats`.
 *
 * `GET /api/basic/achievement/statistics` (filters `type` = short names or resource names, comma list;
 * `examineStatus`; `year`; `yearBy`) answers
 * `{total, byStatus, byType: [{type, resource, name, nameEn, total, byStatus}], byYear: [{year, total, byType}],
 *   byCompany: [{companyId, companyName, total, byType}], yearBy}` (years ascending, companies by total);
 * 403 when the caller may read none of the types.
 *
 * `GET /api/basic/achievement/statisticsByAuthor` (same filters, plus `name` (contains) and `top` (1–100,
 * default 10; `size` too)) counts, per author name, the records naming them: `{authors, top, records: [{name,
 * total, byType}]}`, most records first, then by name.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError, ok } from '../../core/envelope.js';
import type { OrgCache } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { authorCounts, byCompany, byYear, countGroup, parseFilters, summarize } from '../../resources/stats.js';

/** The statistics group of the achievement types (`stats.group` in schemas/basic/*.json). */
export const ACHIEVEMENT_GROUP = 'achievement';

export function registerStatisticsRoutes(app: FastifyInstance, engine: ResourceEngine, org: OrgCache): void {
  const tags = ['basic/achievement'];

  app.get('/api/basic/achievement/statistics', { schema: { tags, summary: 'Achievement counts by type, status, year and company' } }, async (req) => {
    const user = req.user!;
    const f = parseFilters(engine, ACHIEVEMENT_GROUP, req.query as Record<string, unknown>);
    const { types, rows } = await countGroup(engine, user, { op: 'read', withDataScope: true }, f);
    if (types.length === 0) throw new ApiError(403, 'forbidden');
    return ok({ ...summarize(types, rows), byYear: byYear(types, rows), byCompany: await byCompany(engine, org, user, types, rows), yearBy: f.yearBy }, undefined, req.lang);
  });

  app.get('/api/basic/achievement/statisticsByAuthor', { schema: { tags, summary: 'Achievement counts per author name (top N)' } }, async (req) => {
    const user = req.user!;
    const q = req.query as Record<string, unknown>;
    const f = parseFilters(engine, ACHIEVEMENT_GROUP, q, ['name', 'top', 'size', 'current']);
    let top = 10;
    for (const p of ['top', 'size']) {
      const v = q[p];
      if (v === undefined || v === '') continue;
      if (typeof v !== 'string' || !/^\d{1,3}$/.test(v) || Number(v) < 1 || Number(v) > 100) throw new ApiError(400, 'badParam', { param: p });
      top = Number(v);
    }
    const name = q.name;
    if (name !== undefined && (typeof name !== 'string' || name.length > 50)) throw new ApiError(400, 'badParam', { param: 'name' });
    const result = await authorCounts(engine, user, f, typeof name === 'string' && name.trim() ? name.trim() : undefined, top);
    if (!result) throw new ApiError(403, 'forbidden');
    return ok(result, undefined, req.lang);
  });
}
