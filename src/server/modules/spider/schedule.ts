/**
 * Crawl schedules (spec 002 §7 `cron/schedule`; DESIGN §8 "Crawler": cron expressions run by pg-boss; issue
 * 16): a `cron/schedule` record (task, cron expression, status) is mirrored into a pg-boss schedule of the queue
 * `spider-schedule` keyed by the record id. pg-boss keeps schedules in PostgreSQL (they survive restarts) and
 * its cron monitor sends each occurrence once across all nodes; this node's worker then starts the task as
 * the user who last saved the schedule (routes.ts `startTask`; a task still running is left alone, logged).
 *
 * - hooks: a new or edited record names a live task of the tenant (400 所选采集任务不存在) and a valid 5-field
 *   cron expression (400 Cron 表达式不正确); a new one starts enabled; after the commit the pg-boss schedule is
 *   set or dropped; a removal drops it.
 * - `GET getOneBySpiderTask?spiderTaskId=`: the task's first schedule (null when none).
 * - `GET getJobsBySpriderTask?spiderTaskId=&current=&size=` (the spec's spelling): the crawl jobs the task has
 *   run, newest first `{records: JobView-like, total, size, current, pages}`.
 * - `POST stopOrStart?id=`: toggles the status (or sets `scheduleStatus` 0/1 given in the body).
 * - `POST batchSave`: `[{spiderTaskId, cronExpression, remark?}]` (≤ 50) — all checked first (nothing stored on
 *   a bad one), then stored enabled in one transaction.
 * Grants: menu spider_schedule (reading), spider_schedule_edit (stopOrStart), spider_schedule_add (batchSave).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PgBoss } from 'pg-boss';
import { CronExpressionParser } from 'cron-parser';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { Jobs, JobOwner } from '../../core/jobs.js';
import { nextId } from '../../core/ids.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Registry } from '../../resources/registry.js';
import { isId } from '../../../shared/contract/ids.js';
import { CRAWL_JOB } from './crawl.js';
import { startTask } from './routes.js';

export const SCHEDULE_RESOURCE = 'cron/schedule';
export const SCHEDULE_QUEUE = 'spider-schedule';

export const SCHEDULE_MESSAGES = {
  task: { zh: '所选采集任务不存在', en: 'The chosen crawl task does not exist' },
  cron: { zh: 'Cron 表达式不正确（分 时 日 月 周）', en: 'Not a valid cron expression (minute hour day month weekday)' },
  batch: { zh: '请提交 1 至 50 个定时采集', en: 'Submit 1 to 50 schedules' },
};

type Row = Record<string, any>;

/** True when `cron` is a 5-field cron expression cron-parser (pg-boss's parser) accepts. */
export function validCron(cron: unknown): cron is string {
  if (typeof cron !== 'string' || cron.trim().split(/\s+/).length !== 5 || cron.length > 100) return false;
  try {
    CronExpressionParser.parse(cron.trim());
    return true;
  } catch {
    return false;
  }
}

interface Deps {
  db: Db;
  engine: ResourceEngine;
  registry: Registry;
  jobs: Jobs;
  log: (e: unknown) => void;
}

interface ScheduleData {
  scheduleId: string;
  tenantId: string;
  owner: JobOwner;
}

/** Registers the hooks, the worker and the endpoints of the module comment. */
export async function registerSchedules(app: FastifyInstance, d: Deps): Promise<void> {
  const { db, engine } = d;
  const boss: PgBoss = d.jobs.boss;
  const res = () => d.registry.resources.get(SCHEDULE_RESOURCE)!;
  if (!(await boss.getQueue(SCHEDULE_QUEUE))) await boss.createQueue(SCHEDULE_QUEUE, { retryLimit: 0, deleteAfterSeconds: 86400 }).catch(() => undefined);

  /** Mirrors record `id` into pg-boss (set when live and enabled, dropped otherwise). */
  const sync = async (id: string, user: JobOwner) => {
    const r = await sql<Row>`SELECT cron_expression, schedule_status, is_deleted, tenant_id FROM cron_schedule WHERE id = ${id}::bigint AND tenant_id = ${user.tenantId}`.execute(db);
    const row = r.rows[0];
    if (row && Number(row.is_deleted) === 0 && Number(row.schedule_status) === 1) {
      await boss.schedule(SCHEDULE_QUEUE, row.cron_expression, { scheduleId: id, tenantId: user.tenantId, owner: user } satisfies ScheduleData, { key: id, tz: 'UTC' });
    } else {
      await boss.unschedule(SCHEDULE_QUEUE, id);
    }
  };
  const taskExists = async (trx: Db, tenantId: string, taskId: unknown) =>
    typeof taskId === 'string' && isId(taskId) && (await sql`SELECT 1 FROM spider_task WHERE id = ${taskId}::bigint AND tenant_id = ${tenantId} AND is_deleted = 0`.execute(trx)).rows.length > 0;

  engine.hooks(SCHEDULE_RESOURCE, {
    async beforeSubmit({ isNew, record, existing, user, trx }) {
      const taskId = record.spiderTaskId ?? existing?.spiderTaskId;
      if (!(await taskExists(trx, user.tenantId, taskId))) throw new ApiError(400, SCHEDULE_MESSAGES.task);
      const cron = record.cronExpression ?? existing?.cronExpression;
      if (!validCron(cron)) throw new ApiError(400, SCHEDULE_MESSAGES.cron);
      record.cronExpression = cron.trim().replace(/\s+/g, ' ');
      if (isNew) Object.assign(record, { scheduleStatus: 1, lastFireTime: null });
    },
    async afterCommit({ ids, user }) {
      for (const id of ids) await sync(id, user).catch(d.log);
    },
  });

  await boss.work<ScheduleData>(SCHEDULE_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
    const { scheduleId, tenantId, owner } = job.data;
    const r = await sql<Row>`UPDATE cron_schedule SET last_fire_time = now() WHERE id = ${scheduleId}::bigint AND tenant_id = ${tenantId} AND is_deleted = 0 AND schedule_status = 1
        RETURNING spider_task_id::text AS task`.execute(db);
    if (!r.rows[0]) return;
    await startTask({ db, jobs: d.jobs }, owner, r.rows[0].task).catch(d.log);
  });

  const tags = ['spider'];
  const q = (req: FastifyRequest, name: string) => {
    const v = (req.query as Row)[name];
    if (typeof v !== 'string' || v === '') throw new ApiError(400, 'missingParam', { param: name });
    if (!isId(v)) throw new ApiError(400, 'badParam', { param: name });
    return v;
  };

  app.get('/api/cron/schedule/getOneBySpiderTask', { schema: { tags, summary: 'Schedules: the first schedule of a crawl task' } }, async (req) => {
    const user = await engine.authorize(req.user, res(), 'read');
    const taskId = q(req, 'spiderTaskId');
    const r = await sql<Row>`SELECT id::text AS id FROM cron_schedule WHERE tenant_id = ${user.tenantId} AND spider_task_id = ${taskId}::bigint AND is_deleted = 0 ORDER BY create_time, id LIMIT 1`.execute(db);
    return ok(r.rows[0] ? await engine.findOne(res(), user, r.rows[0].id) : null, undefined, req.lang);
  });

  app.get('/api/cron/schedule/getJobsBySpriderTask', { schema: { tags, summary: 'Schedules: the crawl jobs a task has run' } }, async (req) => {
    const user = await engine.authorize(req.user, res(), 'read');
    const taskId = q(req, 'spiderTaskId');
    const current = Number((req.query as Row).current ?? 1);
    const size = Number((req.query as Row).size ?? 10);
    if (!Number.isInteger(current) || current < 1 || !Number.isInteger(size) || size < 1 || size > 100) throw new ApiError(400, 'badParam', { param: 'size' });
    const total = (await sql<Row>`SELECT count(*)::int AS n FROM kc_job WHERE tenant_id = ${user.tenantId} AND kind = ${CRAWL_JOB} AND params->'params'->>'ref' = ${taskId} AND is_deleted = 0`.execute(db)).rows[0].n as number;
    const r = await sql<Row>`SELECT id::text AS id, status, progress, read_count, written_count, failed_count, error, create_time, start_time, finish_time FROM kc_job
        WHERE tenant_id = ${user.tenantId} AND kind = ${CRAWL_JOB} AND params->'params'->>'ref' = ${taskId} AND is_deleted = 0
        ORDER BY create_time DESC, id DESC LIMIT ${size} OFFSET ${(current - 1) * size}`.execute(db);
    const iso = (x: unknown) => (x instanceof Date ? x.toISOString() : x ? String(x) : null);
    const records = r.rows.map((x) => ({ id: x.id, status: x.status, progress: Number(x.progress), readCount: Number(x.read_count), writtenCount: Number(x.written_count),
      failedCount: Number(x.failed_count), error: x.error, createTime: iso(x.create_time), startTime: iso(x.start_time), finishTime: iso(x.finish_time) }));
    return ok({ records, total, size, current, pages: Math.ceil(total / size) }, undefined, req.lang);
  });

  app.post('/api/cron/schedule/stopOrStart', { schema: { tags, summary: 'Schedules: stop or start a schedule' } }, async (req) => {
    const user = await engine.authorize(req.user, res(), 'edit');
    const id = q(req, 'id');
    if (!(await engine.findOne(res(), user, id))) throw new ApiError(404, 'notFound');
    const want = (req.body as Row | undefined)?.scheduleStatus;
    if (want !== undefined && want !== 0 && want !== 1) throw new ApiError(400, 'badParam', { param: 'scheduleStatus' });
    await sql`UPDATE cron_schedule SET schedule_status = COALESCE(${want ?? null}::int, 1 - schedule_status), update_user = ${user.userId}::bigint, update_time = now()
        WHERE id = ${id}::bigint AND tenant_id = ${user.tenantId}`.execute(db);
    await sync(id, user);
    return ok(await engine.findOne(res(), user, id), undefined, req.lang);
  });

  app.post('/api/cron/schedule/batchSave', { schema: { tags, summary: 'Schedules: save several schedules at once' } }, async (req) => {
    const user = await engine.authorize(req.user, res(), 'add');
    const body = req.body;
    if (!Array.isArray(body) || body.length < 1 || body.length > 50) throw new ApiError(400, SCHEDULE_MESSAGES.batch);
    for (const item of body as Row[]) {
      if (!item || typeof item !== 'object' || !(await taskExists(db, user.tenantId, item.spiderTaskId))) throw new ApiError(400, SCHEDULE_MESSAGES.task);
      if (!validCron(item.cronExpression)) throw new ApiError(400, SCHEDULE_MESSAGES.cron);
      if (item.remark !== undefined && (typeof item.remark !== 'string' || item.remark.length > 500)) throw new ApiError(400, 'badParam', { param: 'remark' });
    }
    const ids: string[] = [];
    await db.transaction().execute(async (trx) => {
      for (const item of body as Row[]) {
        const id = nextId();
        ids.push(id);
        await sql`INSERT INTO cron_schedule (id, tenant_id, spider_task_id, cron_expression, schedule_status, remark, create_user, create_dept, create_time, update_user, update_time, status, is_deleted)
            VALUES (${id}::bigint, ${user.tenantId}, ${item.spiderTaskId}::bigint, ${String(item.cronExpression).trim().replace(/\s+/g, ' ')}, 1, ${item.remark ?? null},
                    ${user.userId}::bigint, ${user.deptId || null}::bigint, now(), ${user.userId}::bigint, now(), 1, 0)`.execute(trx);
      }
    });
    for (const id of ids) await sync(id, user).catch(d.log);
    return ok({ ids }, undefined, req.lang);
  });
}
