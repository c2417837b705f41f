/**
 * The crawler task endpoints besides the generic ones (spec 002 §7 "Crawler" `spider/task`; issue 16). Each
 * checks the caller's grant on `spider/task` (menu spider_task: reading = the menu, start / pasue / stop /
 * saveConfigData = spider_task_edit, copy = spider_task_add, deleteAll = spider_task_delete; 403 otherwise)
 * and reaches the caller's tenant only (another tenant's task id is 404).
 *
 * - `GET start?id=`: queues the crawl job (crawl.ts); a paused task resumes where it stopped, any other starts
 *   afresh from its start URLs (rows already stored are kept, never stored twice). 400 when it is running or
 *   has no configuration. Answers `{taskStatus, jobId}`.
 * - `GET pasue?id=` (the spec's spelling) / `GET stop?id=`: asks the running crawl to pause / stop (it does so
 *   within about half a second; pages in flight finish). Stop drops the pending pages.
 * - `GET copy?id=`: a new idle task with the name + "（副本）" / " (copy)" and the same configuration.
 * - `GET getExecuteStatus?id=`: `{taskStatus, progress, pagesCount, rowsCount, errorCount, pending, jobId,
 *   finishTime}`.
 * - `GET getConfigData?id=`: `{config, configJson}` (the stored configuration, null when none, and the same as
 *   indented JSON text for the form). `POST saveConfigData?id=` with the configuration as the body or as
 *   `{configJson: text}`: checked by config.ts (400 with its message, nothing stored); 400 while running.
 * - `GET viewData?id=&current=&size=`: the task's rows `{records: [{id, url, createTime, ...fields}], total,
 *   size, current, pages}` (size ≤ 100), newest first. `GET viewLogData?id=&current=&size=`: its log rows
 *   likewise.
 * - `POST deleteAll?ids=` (or body `{ids}`): removes the collected rows, frontier and logs of idle tasks.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { Jobs } from '../../core/jobs.js';
import type { AuthUser } from '../../core/context.js';
import { nextId } from '../../core/ids.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Registry } from '../../resources/registry.js';
import { isId } from '../../../shared/contract/ids.js';
import { CONFIG_MESSAGES, ConfigError, checkConfig } from './config.js';
import { CRAWL_JOB, TASK_STATUS } from './crawl.js';

export const TASK_RESOURCE = 'spider/task';

type Row = Record<string, any>;

function idParam(req: FastifyRequest, name = 'id'): string {
  const v = (req.query as Row)[name];
  if (typeof v !== 'string' || v === '') throw new ApiError(400, 'missingParam', { param: name });
  if (!isId(v)) throw new ApiError(400, 'badParam', { param: name });
  return v;
}

function paging(req: FastifyRequest): { current: number; size: number } {
  const q = req.query as Row;
  const current = q.current === undefined ? 1 : Number(q.current);
  const size = q.size === undefined ? 10 : Number(q.size);
  if (!Number.isInteger(current) || current < 1 || current > 100000) throw new ApiError(400, 'badParam', { param: 'current' });
  if (!Number.isInteger(size) || size < 1 || size > 100) throw new ApiError(400, 'badParam', { param: 'size' });
  return { current, size };
}

const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : d ? String(d) : null);

export interface RouteDeps {
  db: Db;
  engine: ResourceEngine;
  registry: Registry;
  jobs: Jobs;
}

/**
 * Starts (or resumes, when paused) the crawl of task `id` of `user`'s tenant as `user`: claims the task
 * (status running), clears the frontier of a task that was not paused, queues the `spider-crawl` job.
 * Answers `{taskStatus, jobId}`; 400 when it has no configuration or is already running, 404 when unknown.
 * Used by `start` and by the schedules (schedule.ts).
 */
export async function startTask(d: { db: Db; jobs: Jobs }, user: AuthUser, id: string): Promise<{ taskStatus: number; jobId: string }> {
  const { db } = d;
  const r = await sql<Row>`SELECT name, task_status, config_data IS NOT NULL AS configured FROM spider_task WHERE id = ${id}::bigint AND tenant_id = ${user.tenantId} AND is_deleted = 0`.execute(db);
  const task = r.rows[0];
  if (!task) throw new ApiError(404, 'notFound');
  if (!task.configured) throw new ApiError(400, CONFIG_MESSAGES.noConfig);
  const claimed = await sql<Row>`UPDATE spider_task SET task_status = 1, update_time = now(),
        progress = CASE WHEN task_status = 2 THEN progress ELSE 0 END, finish_time = NULL
      WHERE id = ${id}::bigint AND tenant_id = ${user.tenantId} AND task_status <> 1 RETURNING id`.execute(db);
  if (!claimed.rows.length) throw new ApiError(400, CONFIG_MESSAGES.taskRunning);
  if (Number(task.task_status) !== TASK_STATUS.paused) await sql`DELETE FROM spider_request WHERE tenant_id = ${user.tenantId} AND task_id = ${id}::bigint`.execute(db);
  try {
    const jobId = await d.jobs.enqueue(CRAWL_JOB, user, { taskId: id, ref: id }, { title: String(task.name ?? '') });
    await sql`UPDATE spider_task SET job_id = ${jobId} WHERE id = ${id}::bigint AND tenant_id = ${user.tenantId}`.execute(db);
    return { taskStatus: TASK_STATUS.running, jobId };
  } catch (e) {
    await sql`UPDATE spider_task SET task_status = 5 WHERE id = ${id}::bigint AND tenant_id = ${user.tenantId}`.execute(db);
    throw e;
  }
}

/** Mounts the endpoints of the module comment. */
export function registerTaskRoutes(app: FastifyInstance, d: RouteDeps): void {
  const { db, engine } = d;
  const tags = ['spider'];
  const res = () => d.registry.resources.get(TASK_RESOURCE)!;
  /** The caller (allowed `op`) and the task `id` of their tenant, else 403 / 404. */
  const taskOf = async (req: FastifyRequest, op: 'read' | 'edit' | 'add' | 'remove') => {
    const user = await engine.authorize(req.user, res(), op);
    const id = idParam(req);
    const task = await engine.findOne(res(), user, id);
    if (!task) throw new ApiError(404, 'notFound');
    return { user, id, task };
  };
  const statusOf = async (tenantId: string, id: string) => {
    const r = await sql<Row>`SELECT task_status, progress, pages_count, rows_count, error_count, job_id, finish_time,
        (SELECT count(*)::int FROM spider_request q WHERE q.tenant_id = t.tenant_id AND q.task_id = t.id AND q.state = 0) AS pending
        FROM spider_task t WHERE id = ${id}::bigint AND tenant_id = ${tenantId}`.execute(db);
    const x = r.rows[0];
    return { taskStatus: Number(x.task_status ?? 0), progress: Number(x.progress ?? 0), pagesCount: Number(x.pages_count ?? 0), rowsCount: Number(x.rows_count ?? 0),
      errorCount: Number(x.error_count ?? 0), pending: x.pending as number, jobId: x.job_id ?? null, finishTime: iso(x.finish_time) };
  };

  app.get('/api/spider/task/start', { schema: { tags, summary: 'Crawl tasks: start or resume a crawl (a job)' } }, async (req) => {
    const { user, id } = await taskOf(req, 'edit');
    return ok(await startTask(d, user, id), undefined, req.lang);
  });

  const control = (path: string, to: number, summary: string) =>
    app.get(`/api/spider/task/${path}`, { schema: { tags, summary } }, async (req) => {
      const { user, id } = await taskOf(req, 'edit');
      const from = to === TASK_STATUS.paused ? [TASK_STATUS.running] : [TASK_STATUS.running, TASK_STATUS.paused];
      const r = await sql<Row>`UPDATE spider_task SET task_status = ${to}, update_time = now() WHERE id = ${id}::bigint AND tenant_id = ${user.tenantId}
          AND task_status = ANY(${from}::int[]) RETURNING id`.execute(db);
      if (r.rows.length && to === TASK_STATUS.stopped) {
        // a paused task has no crawl running: its pending pages are dropped here
        await sql`DELETE FROM spider_request WHERE tenant_id = ${user.tenantId} AND task_id = ${id}::bigint AND state = 0
            AND NOT EXISTS (SELECT 1 FROM kc_job j WHERE j.id = (SELECT job_id::bigint FROM spider_task WHERE id = ${id}::bigint) AND j.status IN ('queued', 'running'))`.execute(db);
      }
      return ok(await statusOf(user.tenantId, id), undefined, req.lang);
    });
  control('pasue', TASK_STATUS.paused, 'Crawl tasks: pause a running crawl');
  control('stop', TASK_STATUS.stopped, 'Crawl tasks: stop a crawl (pending pages dropped)');

  app.get('/api/spider/task/copy', { schema: { tags, summary: 'Crawl tasks: copy a task (name and configuration)' } }, async (req) => {
    const { user, task } = await taskOf(req, 'add');
    const copyId = nextId();
    const zh = `${String(task.name ?? '')}（副本）`.slice(0, 100);
    await sql`INSERT INTO spider_task (id, tenant_id, name, remark, config_data, task_status, progress, pages_count, rows_count, error_count, create_user, create_dept, create_time, update_user, update_time, status, is_deleted)
        VALUES (${copyId}::bigint, ${user.tenantId}, ${req.lang === 'en' ? `${String(task.name ?? '')} (copy)`.slice(0, 100) : zh}, ${task.remark ?? null},
                ${task.configData ? JSON.stringify(task.configData) : null}::jsonb, 0, 0, 0, 0, 0, ${user.userId}::bigint, ${user.deptId || null}::bigint, now(), ${user.userId}::bigint, now(), 1, 0)`.execute(db);
    return ok(await engine.findOne(res(), user, copyId), undefined, req.lang);
  });

  app.get('/api/spider/task/getExecuteStatus', { schema: { tags, summary: 'Crawl tasks: execution status and progress' } }, async (req) => {
    const { user, id } = await taskOf(req, 'read');
    return ok(await statusOf(user.tenantId, id), undefined, req.lang);
  });

  app.get('/api/spider/task/getConfigData', { schema: { tags, summary: 'Crawl tasks: the configuration' } }, async (req) => {
    const { task } = await taskOf(req, 'read');
    const config = task.configData ?? null;
    return ok({ config, configJson: config ? JSON.stringify(config, null, 2) : '' }, undefined, req.lang);
  });

  app.post('/api/spider/task/saveConfigData', { schema: { tags, summary: 'Crawl tasks: save the configuration (checked)' } }, async (req) => {
    const { user, id, task } = await taskOf(req, 'edit');
    const body = req.body as Row | undefined;
    let input: unknown = body;
    if (body && typeof body === 'object' && typeof body.configJson === 'string') {
      try {
        input = JSON.parse(body.configJson);
      } catch {
        throw new ApiError(400, CONFIG_MESSAGES.invalid);
      }
    }
    let cfg;
    try {
      cfg = await checkConfig(input);
    } catch (e) {
      if (e instanceof ConfigError) throw new ApiError(400, e.text);
      throw e;
    }
    if (task.taskStatus === TASK_STATUS.running) throw new ApiError(400, CONFIG_MESSAGES.taskRunning);
    if (cfg.browserId && !(await sql`SELECT 1 FROM spider_browser WHERE id = ${cfg.browserId}::bigint AND tenant_id = ${user.tenantId} AND is_deleted = 0`.execute(db)).rows.length) {
      throw new ApiError(400, CONFIG_MESSAGES.browser);
    }
    await sql`UPDATE spider_task SET config_data = ${JSON.stringify(cfg)}::jsonb, update_user = ${user.userId}::bigint, update_time = now()
        WHERE id = ${id}::bigint AND tenant_id = ${user.tenantId}`.execute(db);
    return ok({ config: cfg }, undefined, req.lang);
  });

  app.get('/api/spider/task/viewData', { schema: { tags, summary: 'Crawl tasks: the collected rows (paged)' } }, async (req) => {
    const { user, id } = await taskOf(req, 'read');
    const { current, size } = paging(req);
    const total = (await sql<Row>`SELECT count(*)::int AS n FROM spider_data WHERE tenant_id = ${user.tenantId} AND task_id = ${id}::bigint`.execute(db)).rows[0].n as number;
    const r = await sql<Row>`SELECT id::text AS id, url, data, create_time FROM spider_data WHERE tenant_id = ${user.tenantId} AND task_id = ${id}::bigint
        ORDER BY create_time DESC, id DESC LIMIT ${size} OFFSET ${(current - 1) * size}`.execute(db);
    const records = r.rows.map((x) => ({ ...(x.data as Row), id: x.id, url: x.url, createTime: iso(x.create_time) }));
    return ok({ records, total, size, current, pages: Math.ceil(total / size) }, undefined, req.lang);
  });

  app.get('/api/spider/task/viewLogData', { schema: { tags, summary: 'Crawl tasks: the crawl log (paged)' } }, async (req) => {
    const { user, id } = await taskOf(req, 'read');
    const { current, size } = paging(req);
    const total = (await sql<Row>`SELECT count(*)::int AS n FROM spider_tasklog WHERE tenant_id = ${user.tenantId} AND task_id = ${id}::bigint AND is_deleted = 0`.execute(db)).rows[0].n as number;
    const r = await sql<Row>`SELECT id::text AS id, level, url, message, status_code, row_count, duration, create_time FROM spider_tasklog
        WHERE tenant_id = ${user.tenantId} AND task_id = ${id}::bigint AND is_deleted = 0 ORDER BY create_time DESC, id DESC LIMIT ${size} OFFSET ${(current - 1) * size}`.execute(db);
    const records = r.rows.map((x) => ({ id: x.id, level: x.level, url: x.url, message: x.message, statusCode: x.status_code === null ? null : Number(x.status_code), rowCount: Number(x.row_count ?? 0), duration: x.duration === null ? null : Number(x.duration), createTime: iso(x.create_time) }));
    return ok({ records, total, size, current, pages: Math.ceil(total / size) }, undefined, req.lang);
  });

  app.post('/api/spider/task/deleteAll', { schema: { tags, summary: 'Crawl tasks: remove the collected rows and logs of tasks' } }, async (req) => {
    const user = await engine.authorize(req.user, res(), 'remove');
    const raw = (req.query as Row).ids ?? (req.body as Row | undefined)?.ids;
    const ids = (Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : []).map(String).filter(Boolean);
    if (!ids.length) throw new ApiError(400, 'missingParam', { param: 'ids' });
    if (ids.length > 500 || !ids.every(isId)) throw new ApiError(400, 'badParam', { param: 'ids' });
    const mine = await sql<Row>`SELECT id::text AS id FROM spider_task WHERE tenant_id = ${user.tenantId} AND id = ANY(${ids}::bigint[]) AND is_deleted = 0 AND task_status <> 1`.execute(db);
    const own = mine.rows.map((x) => x.id as string);
    await db.transaction().execute(async (trx) => {
      await sql`DELETE FROM spider_data WHERE tenant_id = ${user.tenantId} AND task_id = ANY(${own}::bigint[])`.execute(trx);
      await sql`DELETE FROM spider_request WHERE tenant_id = ${user.tenantId} AND task_id = ANY(${own}::bigint[])`.execute(trx);
      await sql`UPDATE spider_tasklog SET is_deleted = 1 WHERE tenant_id = ${user.tenantId} AND task_id = ANY(${own}::bigint[])`.execute(trx);
      await sql`UPDATE spider_task SET rows_count = 0, pages_count = 0, error_count = 0, progress = 0 WHERE tenant_id = ${user.tenantId} AND id = ANY(${own}::bigint[])`.execute(trx);
    });
    return ok({ removed: own.length }, undefined, req.lang);
  });
}
