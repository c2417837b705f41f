/**
 * The report list (spec 002 §2 'report list', §7 `blade-report/report/rest`: GET list, POST remove (ids)): the
 * files generated for a user — Excel exports that ran as jobs, error workbooks of imports, generated reports —
 * one `system/report` row each (table blade_report_file: name, kind, jobId, link, rowCount), written by the
 * code that produced the file (`addReport`). The file itself is the job's result (core/jobs.ts), downloaded
 * from `link` (`/api/blade-job/job/file?id=<jobId>`).
 *
 * Per user: `list` is the caller's own files (the engine's page with `create_user = me`: filters, sort and
 * paging as every list), and `remove` logically deletes the caller's own rows and deletes their files; an id
 * that is not the caller's answers 404 and nothing changes. Any signed-in user may use both.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import type { Jobs } from '../../core/jobs.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { isId } from '../../../shared/contract/ids.js';

export const REPORT = 'system/report';
const BASE = '/api/blade-report/report/rest';

/** Records a generated file of job `jobId` in `owner`'s report list. */
export async function addReport(engine: ResourceEngine, owner: AuthUser, f: { name: string; kind: 'export' | 'import-errors' | 'report'; jobId: string; rowCount: number }): Promise<void> {
  await sql`INSERT INTO blade_report_file (id, tenant_id, name, kind, job_id, link, row_count, create_user, create_dept, update_user)
            VALUES (${nextId()}::bigint, ${owner.tenantId}, ${f.name.slice(0, 255)}, ${f.kind}, ${f.jobId}::bigint, ${`/api/blade-job/job/file?id=${f.jobId}`},
                    ${f.rowCount}, ${owner.userId}::bigint, ${owner.deptId || null}::bigint, ${owner.userId}::bigint)`.execute(engine.db);
  engine.changed('blade_report_file');
}

/** Mounts `list` and `remove` of the report list (see the module comment). */
export function registerReportRoutes(app: FastifyInstance, engine: ResourceEngine, jobs: Jobs): void {
  const tags = [REPORT];
  app.get(`${BASE}/list`, { schema: { tags, summary: 'Report files: a page of my generated files' } }, async (req) => {
    const r = engine.registry.get(REPORT);
    const user = await engine.authorize(req.user, r, 'myList');
    return ok(await engine.page(r, user, (req.query ?? {}) as Record<string, unknown>, (c) => c.add(`create_user = ${c.param(user.userId)}::bigint`), false), undefined, req.lang);
  });

  app.post(`${BASE}/remove`, { schema: { tags, summary: 'Report files: remove my files (ids)' } }, async (req) => {
    if (!req.user) throw new ApiError(401, 'unauthorized');
    const user = req.user;
    const raw = (req.query as Record<string, unknown>).ids;
    if (typeof raw !== 'string' || raw.trim() === '') throw new ApiError(400, 'idsRequired');
    const ids = [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))];
    if (ids.length > 1000 || !ids.every(isId)) throw new ApiError(400, 'badParam', { param: 'ids' });
    const jobIds = await engine.db.transaction().execute(async (trx) => {
      const done = await sql<{ job_id: string | null }>`UPDATE blade_report_file SET is_deleted = 1, update_user = ${user.userId}::bigint, update_time = now()
                      WHERE id = ANY(${ids}::bigint[]) AND tenant_id = ${user.tenantId} AND create_user = ${user.userId}::bigint AND is_deleted = 0
                      RETURNING job_id::text AS job_id`.execute(trx);
      if (done.rows.length !== ids.length) throw new ApiError(404, 'notFound'); // all or nothing
      return done.rows.map((r) => r.job_id).filter((j): j is string => !!j);
    });
    engine.changed('blade_report_file');
    await jobs.remove(jobIds, user);
    return ok(null, undefined, req.lang);
  });
}
