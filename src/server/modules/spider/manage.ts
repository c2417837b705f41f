/**
 * Crawl task calls around the crawl itself (spec 002 §7 `spider/task` saveMessageUser, moveGroup, dashboard;
 * §2 "Crawler screens": dashboard, move group, message users; issue 16). Each checks the caller's grant on
 * `spider/task` (reading = the menu spider_task, writes = spider_task_edit; 403 otherwise) and reaches the
 * caller's tenant only (another tenant's task is 404, its users and groups are refused as unknown).
 *
 * - `POST saveMessageUser?id=` body `{userIds: [id]}` (or `messageUser`, an array or comma text; ≤ 50 live
 *   users of the tenant; empty = nobody): the users told when the task's crawl finishes or fails. Answers
 *   `{messageUser}`.
 * - `POST moveGroup?ids=&groupId=` (or body `{ids, groupId}`): puts tasks into a `spider/taskgroup` of the
 *   tenant (no groupId = out of any group). Answers `{moved}`.
 * - `GET dashboard?id=&jobId=`: the task's counters and, per minute of its crawl (the given run, default the
 *   last; at most 240 minutes), pages fetched, rows stored and errors — from its log (spider_tasklog):
 *   `{taskStatus, pagesCount, rowsCount, errorCount, jobId, perMinute: [{minute (yyyy-MM-dd HH:mm:ss, the
 *   server's time zone as every date of the contract), time (HH:mm), pages, rows, errors}]}`.
 * - `notifyFinished`: called when a crawl ends done or failed; every message user gets a to-do (core/todo-port.ts
 *   `createTodos`: the flow module's rows, as a workflow to-do — it shows in the to-do list and is pushed by
 *   `myPush`) linking to the task list, titled with the task's name and outcome.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser, OrgCache } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Registry } from '../../resources/registry.js';
import { isId } from '../../../shared/contract/ids.js';
import { createTodos } from '../../core/todo-port.js';
import { TASK_STATUS } from './crawl.js';

export const MANAGE_MESSAGES = {
  users: { zh: '通知用户不存在或超过 50 个', en: 'A user to notify does not exist, or there are more than 50' },
  group: { zh: '所选任务分组不存在', en: 'The chosen task group does not exist' },
};

type Row = Record<string, any>;

/** A list of ids from an array or comma text; 400 badParam when one is not an id. */
function idList(raw: unknown, param: string): string[] {
  const list = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? raw.split(',') : raw === undefined || raw === null ? [] : null;
  if (!list) throw new ApiError(400, 'badParam', { param });
  const ids = [...new Set(list.map((s) => s.trim()).filter(Boolean))];
  if (!ids.every(isId)) throw new ApiError(400, 'badParam', { param });
  return ids;
}

/** The to-dos of a finished (done or failed) crawl for the task's message users (see the module comment). */
export async function notifyFinished(db: Db, org: OrgCache, owner: AuthUser, taskId: string, jobId: string, status: number): Promise<number> {
  const r = await sql<Row>`SELECT name, message_user, rows_count, error_count FROM spider_task WHERE id = ${taskId}::bigint AND tenant_id = ${owner.tenantId} AND is_deleted = 0`.execute(db);
  const t = r.rows[0];
  const users: string[] = Array.isArray(t?.message_user) ? t.message_user.filter((u: unknown) => typeof u === 'string' && isId(u)) : [];
  if (!t || !users.length) return 0;
  const outcome = status === TASK_STATUS.done ? `采集完成，共 ${Number(t.rows_count ?? 0)} 条数据，${Number(t.error_count ?? 0)} 个错误` : '采集失败';
  const outcomeEn = status === TASK_STATUS.done ? `Crawl finished: ${Number(t.rows_count ?? 0)} rows, ${Number(t.error_count ?? 0)} errors` : 'Crawl failed';
  let n = 0;
  for (const assignee of users) {
    n += await createTodos(db, org, {
      tenantId: owner.tenantId, taskId: jobId, taskName: outcome, processName: `采集任务「${String(t.name ?? '')}」`, businessType: 'spider/task', businessId: taskId,
      taskNameEn: outcomeEn, processNameEn: `Crawl task "${String(t.name ?? '')}"`,
      businessName: String(t.name ?? ''), assignee, roles: [], depts: [], path: '/spider/task', from: owner,
    });
  }
  return n;
}

export interface ManageDeps {
  db: Db;
  engine: ResourceEngine;
  registry: Registry;
}

/** Mounts saveMessageUser, moveGroup and dashboard. */
export function registerManageRoutes(app: FastifyInstance, d: ManageDeps): void {
  const { db, engine } = d;
  const tags = ['spider'];
  const res = () => d.registry.resources.get('spider/task')!;
  const q = (req: FastifyRequest) => req.query as Row;
  const b = (req: FastifyRequest): Row => {
    const body = req.body;
    if (body === undefined || body === null) return {};
    if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'bodyNotObject');
    return body as Row;
  };
  const taskOf = async (req: FastifyRequest, op: 'read' | 'edit') => {
    const user = await engine.authorize(req.user, res(), op);
    const id = q(req).id;
    if (typeof id !== 'string' || id === '') throw new ApiError(400, 'missingParam', { param: 'id' });
    if (!isId(id)) throw new ApiError(400, 'badParam', { param: 'id' });
    const task = await engine.findOne(res(), user, id);
    if (!task) throw new ApiError(404, 'notFound');
    return { user, id, task };
  };

  app.post('/api/spider/task/saveMessageUser', { schema: { tags, summary: 'Crawl tasks: the users told when a crawl finishes or fails' } }, async (req) => {
    const { user, id } = await taskOf(req, 'edit');
    const body = b(req);
    const users = idList(body.userIds ?? body.messageUser, 'userIds');
    if (users.length > 50) throw new ApiError(400, MANAGE_MESSAGES.users);
    const known = users.length
      ? (await sql<Row>`SELECT id::text AS id FROM blade_user WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND id = ANY(${users}::bigint[])`.execute(db)).rows.length
      : 0;
    if (known !== users.length) throw new ApiError(400, MANAGE_MESSAGES.users);
    await sql`UPDATE spider_task SET message_user = ${JSON.stringify(users)}::jsonb, update_user = ${user.userId}::bigint, update_time = now()
        WHERE id = ${id}::bigint AND tenant_id = ${user.tenantId}`.execute(db);
    return ok({ messageUser: users }, undefined, req.lang);
  });

  app.post('/api/spider/task/moveGroup', { schema: { tags, summary: 'Crawl tasks: move tasks into a group' } }, async (req) => {
    const user = await engine.authorize(req.user, res(), 'edit');
    const body = b(req);
    const ids = idList(q(req).ids ?? body.ids, 'ids');
    if (!ids.length) throw new ApiError(400, 'missingParam', { param: 'ids' });
    if (ids.length > 500) throw new ApiError(400, 'badParam', { param: 'ids' });
    const g = q(req).groupId ?? body.groupId;
    const groupId = g === undefined || g === null || g === '' ? null : String(g);
    if (groupId !== null && !isId(groupId)) throw new ApiError(400, 'badParam', { param: 'groupId' });
    if (groupId && !(await sql`SELECT 1 FROM spider_taskgroup WHERE id = ${groupId}::bigint AND tenant_id = ${user.tenantId} AND is_deleted = 0`.execute(db)).rows.length) {
      throw new ApiError(400, MANAGE_MESSAGES.group);
    }
    const mine = await sql<Row>`SELECT count(*)::int AS n FROM spider_task WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND id = ANY(${ids}::bigint[])`.execute(db);
    if (mine.rows[0].n !== ids.length) throw new ApiError(404, 'notFound');
    const r = await sql`UPDATE spider_task SET group_id = ${groupId}::bigint, update_user = ${user.userId}::bigint, update_time = now()
        WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND id = ANY(${ids}::bigint[])`.execute(db);
    engine.changed('spider_task');
    return ok({ moved: Number(r.numAffectedRows ?? 0) }, undefined, req.lang);
  });

  app.get('/api/spider/task/dashboard', { schema: { tags, summary: 'Crawl tasks: pages, rows and errors per minute' } }, async (req) => {
    const { user, id, task } = await taskOf(req, 'read');
    const given = q(req).jobId;
    if (given !== undefined && given !== '' && (typeof given !== 'string' || !isId(given))) throw new ApiError(400, 'badParam', { param: 'jobId' });
    const jobId: string | null = given || task.jobId || null;
    const r = jobId
      ? await sql<Row>`SELECT to_char(date_trunc('minute', create_time), 'YYYY-MM-DD HH24:MI:SS') AS minute, count(*) FILTER (WHERE level IN ('info', 'error'))::int AS pages,
            coalesce(sum(row_count), 0)::int AS rows, count(*) FILTER (WHERE level = 'error')::int AS errors
          FROM spider_tasklog WHERE tenant_id = ${user.tenantId} AND task_id = ${id}::bigint AND job_id = ${jobId}::bigint AND is_deleted = 0
          GROUP BY 1 ORDER BY 1 LIMIT 240`.execute(db)
      : { rows: [] as Row[] };
    const perMinute = r.rows.map((x) => ({ minute: x.minute as string, time: (x.minute as string).slice(11, 16), pages: x.pages as number, rows: x.rows as number, errors: x.errors as number }));
    return ok({ taskStatus: task.taskStatus ?? 0, pagesCount: task.pagesCount ?? 0, rowsCount: task.rowsCount ?? 0, errorCount: task.errorCount ?? 0, jobId, perMinute }, undefined, req.lang);
  });
}
