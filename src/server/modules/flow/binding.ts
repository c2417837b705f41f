/**
 * The generic binding of resources to processes (DESIGN §4 `flow`, §8): a resource whose schema names a
 * `flow` gets, under its `api`, the workflow endpoints of spec 001 §7 (the project calls' names), all scoped by
 * the caller's tenant, roles (roleAlias) and department:
 *
 * | endpoint               | what                                                                               |
 * | ---------------------- | ---------------------------------------------------------------------------------- |
 * | POST start-process     | `{businessId}` starts the process for a record of the caller's (its registrant or an administrator); a body without `businessId` is a new record: it is submitted, then started. With workflow `actions`, the action of kind submit runs instead (its rules, its status) |
 * | GET claim-list         | open tasks nobody holds whose candidate roles and departments include the caller   |
 * | GET/POST confirm-task  | `taskId`: claims the task (403 when the caller is not a candidate or the task was given to someone else — an assignee, another user's part of a multi-user task, parts.ts —, 400 when claimed by another) |
 * | POST complete-task     | `{taskId, outcome, comment, returnTo?}`: completes a task the caller holds or may claim (`returnTo`: with the outcome `return`, the user task to go back to — runtime.ts `complete`); with workflow `actions` the action whose outcome it is runs (its rules, its status, its history) |
 * | GET todo-list          | open tasks the caller may complete now (held by them, or for their roles)          |
 * | GET send-list          | instances the caller started, with their current tasks                             |
 * | GET done-list          | tasks the caller completed                                                         |
 * | GET expert-todo / -done| todo-list / done-list limited to tasks for the expert role (parameter expert_role)  |
 *
 * Lists are paged (`current`, `size`) and answer `{records, total, size, current, pages}`; each record is the
 * task (`taskId`, `taskKey`, `taskName`, `processInstanceId`, `businessId`, …) with the business record under
 * `record` (read through the engine: the caller's data scope applies).
 *
 * The same claim and completion are also offered for any task whatever its resource, for the to-do screen
 * (one list over every resource): POST `/api/blade-flow/process/claim-task` `{taskId}` and
 * `/api/blade-flow/process/complete-task` `{taskId, outcome, comment}` find the task's resource and answer as
 * the resource's own endpoints do.
 *
 * `advance` is the ActionRunner's process binding (resources/actions.ts `ProcessBinding`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser, OrgCache } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Resource } from '../../resources/registry.js';
import type { ActionRunner, ActionStep } from '../../resources/actions.js';
import { paging } from '../../resources/query.js';
import { isId } from '../../../shared/contract/ids.js';
import type { WorkflowAction } from '../../../shared/schema/types.js';
import { latestDefinition } from './deploy.js';
import type { Business, FlowRuntime, StepResult } from './runtime.js';
import { claimTaskTodos } from './todo.js';

type Row = Record<string, unknown>;
const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const OUTCOME = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
/** A BPMN element id a task may be returned to (`returnTo`). */
const STEP = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

export const FLOW_ENDPOINTS = ['start-process', 'claim-list', 'confirm-task', 'complete-task', 'todo-list', 'send-list', 'done-list', 'expert-todo', 'expert-done'] as const;

export class FlowBinding {
  constructor(
    private readonly db: Db,
    private readonly engine: ResourceEngine,
    private readonly org: OrgCache,
    private readonly runtime: FlowRuntime,
    private readonly actions: ActionRunner,
  ) {}

  /** The menu path the to-dos of `r` link to: `flow.path`, else the path of its menu. */
  async menuPath(r: Resource, db: Db = this.db): Promise<string | null> {
    if (r.schema.flow?.path) return r.schema.flow.path;
    if (!r.schema.menu) return null;
    const res = await sql<{ path: string | null }>`SELECT path FROM blade_menu WHERE code = ${r.schema.menu} AND is_deleted = 0 LIMIT 1`.execute(db);
    return res.rows[0]?.path ?? null;
  }

  /** The business of `record` of `r`, as the runtime needs it. */
  async business(r: Resource, record: Row, db: Db): Promise<Business> {
    const label = r.schema.labelField ?? 'name';
    const name = record[label] ?? record.title ?? null;
    return {
      type: r.schema.name, id: String(record[r.key] ?? record.id), name: name === null ? null : String(name).slice(0, 500), record,
      dept: record.createDept ? String(record.createDept) : null, path: await this.menuPath(r, db),
    };
  }

  /** The departments a candidate list is matched against: the caller's and their company. */
  private async userDepts(user: AuthUser): Promise<string[]> {
    if (!user.deptId) return [];
    const company = await this.org.companyOf(user.tenantId, user.deptId);
    return company && company !== user.deptId ? [user.deptId, company] : [user.deptId];
  }

  /** True when `user` may complete (or claim) `task`: its holder, a candidate, or an administrator. */
  async canDo(user: AuthUser, task: Row): Promise<boolean> {
    if (user.isAdmin) return true;
    if (task.assignee) return String(task.assignee) === user.userId;
    const roles = (task.candidate_roles as string[]) ?? [];
    if (!roles.some((r) => user.activeRoleAliases.includes(r))) return false;
    const depts = ((task.candidate_depts as string[]) ?? []).map(String);
    if (depts.length === 0) return true;
    return (await this.userDepts(user)).some((d) => depts.includes(d));
  }

  private async runningInstance(trx: Db, tenantId: string, type: string, id: string): Promise<Row | undefined> {
    return (await sql<Row>`SELECT * FROM flow_instance WHERE tenant_id = ${tenantId} AND business_type = ${type} AND business_id = ${id}::bigint AND run_status = 'running' FOR UPDATE`.execute(trx)).rows[0];
  }

  private async definitionFor(trx: Db, r: Resource, tenantId: string) {
    const key = r.schema.flow!.process;
    const def = await latestDefinition(trx, tenantId, key);
    if (!def) throw new ApiError(400, { zh: `流程「${key}」尚未部署`, en: `The process "${key}" is not deployed` });
    return def;
  }

  /** ActionRunner's process binding: start the record's process, or complete its open task (module comment). */
  async advance(step: ActionStep): Promise<void> {
    const { trx, user, resource: r, record, action, values, role } = step;
    const id = String(record[r.key] ?? record.id);
    let inst = await this.runningInstance(trx, user.tenantId, r.schema.name, id);
    if (!inst) {
      const def = await this.definitionFor(trx, r, user.tenantId);
      await this.runtime.start(trx, def, await this.business(r, record, trx), user);
      if (action.kind === 'submit') return;
      // a record that entered its status before its process existed gets its instance on its first action
      inst = await this.runningInstance(trx, user.tenantId, r.schema.name, id);
      if (!inst) throw new ApiError(400, { zh: '流程已结束', en: 'The process has ended' });
    }
    const comment = typeof values.opinion === 'string' && values.opinion !== '' ? values.opinion : typeof values.comment === 'string' && values.comment !== '' ? values.comment : null;
    await this.completeOpen(trx, user, inst, action, comment, role);
  }

  /** Completes the open task of `inst` that `action` may complete and `user` may do. */
  private async completeOpen(trx: Db, user: AuthUser, inst: Row, action: WorkflowAction, comment: string | null, role: string): Promise<StepResult> {
    const tasks = (await sql<Row>`SELECT * FROM flow_task WHERE tenant_id = ${user.tenantId} AND instance_id = ${String(inst.id)}::bigint AND end_time IS NULL ORDER BY create_time, id FOR UPDATE`.execute(trx)).rows;
    const eligible = action.task ? tasks.filter((t) => action.task!.includes(String(t.task_key))) : tasks;
    for (const t of eligible) if (await this.canDo(user, t)) return this.runtime.complete(trx, t, action.outcome ?? action.key, comment, user, role);
    if (eligible.length === 0) throw new ApiError(400, { zh: `流程当前没有可以「${action.label}」的任务`, en: `The process has no task to ${action.labelEn.toLowerCase()} now` });
    const name = String(eligible[0].task_name ?? eligible[0].task_key);
    throw new ApiError(403, { zh: `您不是任务「${name}」的办理人`, en: `You are not a handler of the task "${name}"` });
  }

  /** The action of `r` whose outcome is `outcome` and that applies to the record's current status. */
  private actionFor(r: Resource, outcome: string, status: string): WorkflowAction | undefined {
    const items = r.schema.actions?.items ?? [];
    const here = items.filter((a) => (a.outcome ?? a.key) === outcome);
    return here.find((a) => !a.from || a.from.includes(status)) ?? here[0];
  }

  /** POST start-process (module comment). */
  async startProcess(r: Resource, user: AuthUser, body: unknown, lang: 'zh' | 'en'): Promise<Row> {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'bodyNotObject');
    const b = body as Row;
    let id = b.businessId ?? (b.id !== undefined && b.id !== '' ? b.id : undefined);
    const submitAction = r.schema.actions?.items.find((a) => a.kind === 'submit');
    if (id === undefined || id === null || id === '') {
      await this.definitionFor(this.db, r, user.tenantId); // refuse before a record is stored
      const fields = { ...b };
      delete fields.businessId;
      const saved = await this.engine.submit(r, user, fields, lang);
      id = String(saved[r.key] ?? saved.id);
    }
    if ((typeof id !== 'string' && typeof id !== 'number') || !isId(String(id))) throw new ApiError(400, 'badParam', { param: 'businessId' });
    const businessId = String(id);
    if (submitAction) {
      await this.actions.run(submitAction.endpoint, user, { businessId, businessType: r.schema.name, action: submitAction.key }, lang);
      const inst = (await sql<Row>`SELECT id::text AS id FROM flow_instance WHERE tenant_id = ${user.tenantId} AND business_type = ${r.schema.name} AND business_id = ${businessId}::bigint ORDER BY start_time DESC LIMIT 1`.execute(this.db)).rows[0];
      return { businessId, processInstanceId: inst?.id ?? null };
    }
    try {
      return await this.db.transaction().execute(async (trx) => {
        const record = await this.engine.findOne(r, user, businessId, trx, true);
        if (!record) throw new ApiError(404, 'notFound');
        if (!user.isAdmin && String(record.createUser ?? '') !== user.userId) throw new ApiError(403, { zh: '只有登记人才能发起流程', en: 'Only the person who registered the record may start its process' });
        if (await this.runningInstance(trx, user.tenantId, r.schema.name, businessId)) throw new ApiError(400, { zh: '该记录已有进行中的流程', en: 'The record already has a running process' });
        const def = await this.definitionFor(trx, r, user.tenantId);
        const res = await this.runtime.start(trx, def, await this.business(r, record, trx), user);
        return { businessId, processInstanceId: res.instanceId, status: res.status, currentNodes: res.currentNodes, tasks: res.openTasks };
      });
    } finally {
      this.engine.changed(r.schema.table);
    }
  }

  private async lockTask(trx: Db, r: Resource, user: AuthUser, raw: unknown): Promise<Row> {
    if (raw === undefined || raw === null || raw === '') throw new ApiError(400, 'missingParam', { param: 'taskId' });
    if ((typeof raw !== 'string' && typeof raw !== 'number') || !isId(String(raw))) throw new ApiError(400, 'badParam', { param: 'taskId' });
    const t = (await sql<Row>`SELECT * FROM flow_task WHERE id = ${String(raw)}::bigint AND tenant_id = ${user.tenantId} AND business_type = ${r.schema.name} FOR UPDATE`.execute(trx)).rows[0];
    if (!t) throw new ApiError(404, 'notFound');
    if (t.end_time) throw new ApiError(400, { zh: '任务已办结', en: 'The task is already done' });
    return t;
  }

  /** confirm-task: claims a task. */
  async claim(r: Resource, user: AuthUser, taskId: unknown): Promise<Row> {
    return this.db.transaction().execute(async (trx) => {
      const t = await this.lockTask(trx, r, user, taskId);
      // a task given to someone from the start (an assignee, a user's part: parts.ts) is not theirs to claim: 403 below
      if (t.assignee && String(t.assignee) !== user.userId && t.claim_time) throw new ApiError(400, { zh: '任务已被他人签收', en: 'Someone else has claimed the task' });
      if (!(await this.canDo(user, t))) throw new ApiError(403, { zh: `您不是任务「${String(t.task_name ?? t.task_key)}」的候选人，不能签收`, en: `You are not a candidate of the task "${String(t.task_name ?? t.task_key)}" and cannot claim it` });
      await sql`UPDATE flow_task SET assignee = ${user.userId}::bigint, claim_time = now() WHERE id = ${String(t.id)}::bigint`.execute(trx);
      await claimTaskTodos(trx, user.tenantId, String(t.id), user.userId);
      return { taskId: String(t.id), assignee: user.userId };
    });
  }

  /** complete-task (module comment). */
  async completeTask(r: Resource, user: AuthUser, body: unknown, lang: 'zh' | 'en'): Promise<Row> {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'bodyNotObject');
    const b = body as Row;
    const outcome = b.outcome ?? b.flag;
    if (outcome === undefined || outcome === null || outcome === '') throw new ApiError(400, 'missingParam', { param: 'outcome' });
    if (typeof outcome !== 'string' || !OUTCOME.test(outcome)) throw new ApiError(400, 'badParam', { param: 'outcome' });
    const comment = typeof b.comment === 'string' ? b.comment.trim() : '';
    if (comment.length > 2000) throw new ApiError(400, { zh: '审批意见不能超过2000个字符', en: 'The comment must be at most 2000 characters' });
    const returnTo = b.returnTo === undefined || b.returnTo === null || b.returnTo === '' ? null : b.returnTo;
    if (returnTo !== null && (typeof returnTo !== 'string' || !STEP.test(returnTo))) throw new ApiError(400, 'badParam', { param: 'returnTo' });
    if (r.schema.actions?.items.length) {
      const t = (await sql<Row>`SELECT business_id::text AS business_id FROM flow_task WHERE id = ${isId(String(b.taskId ?? '')) ? String(b.taskId) : '0'}::bigint AND tenant_id = ${user.tenantId} AND business_type = ${r.schema.name}`.execute(this.db)).rows[0];
      if (!t) throw new ApiError(b.taskId === undefined || b.taskId === '' ? 400 : 404, b.taskId === undefined || b.taskId === '' ? 'missingParam' : 'notFound', { param: 'taskId' });
      const record = await this.engine.findOne(r, user, String(t.business_id));
      if (!record) throw new ApiError(404, 'notFound');
      const action = this.actionFor(r, outcome, String(record[r.schema.actions.statusField ?? ''] ?? ''));
      if (!action) throw new ApiError(400, 'badParam', { param: 'outcome' });
      const { data } = await this.actions.run(action.endpoint, user, { businessId: t.business_id, businessType: r.schema.name, action: action.key, opinion: comment }, lang);
      return { taskId: String(b.taskId), outcome, result: data };
    }
    try {
      return await this.db.transaction().execute(async (trx) => {
        const t = await this.lockTask(trx, r, user, b.taskId);
        if (!(await this.canDo(user, t))) throw new ApiError(403, { zh: `您不是任务「${String(t.task_name ?? t.task_key)}」的办理人`, en: `You are not a handler of the task "${String(t.task_name ?? t.task_key)}"` });
        const role = user.activeRoleAliases.find((a) => ((t.candidate_roles as string[]) ?? []).includes(a)) ?? user.activeRoleAliases[0] ?? '';
        const res = await this.runtime.complete(trx, t, outcome, comment || null, user, role, returnTo);
        return { taskId: String(t.id), outcome, processInstanceId: res.instanceId, status: res.status, currentNodes: res.currentNodes, tasks: res.openTasks };
      });
    } finally {
      this.engine.changed(r.schema.table);
    }
  }

  /** The alias of the expert role (the role the parameter expert_role names; aliases are the same in every tenant), or null. */
  private async expertAlias(): Promise<string | null> {
    const res = await sql<{ alias: string }>`
      SELECT r.role_alias AS alias FROM blade_param p JOIN blade_role r ON r.id::text = trim(p.param_value)
       WHERE p.param_key = 'expert_role' AND p.is_deleted = 0 LIMIT 1`.execute(this.db);
    return res.rows[0]?.alias ?? null;
  }

  /** One page of tasks (or instances, send-list) of `r` for `user`. */
  async list(r: Resource, user: AuthUser, which: (typeof FLOW_ENDPOINTS)[number], query: Row): Promise<Row> {
    const { current, size } = paging(query);
    const depts = await this.userDepts(user);
    const roles = user.activeRoleAliases;
    const candidate = sql`(t.assignee IS NULL AND t.candidate_roles && ${roles}::text[] AND (cardinality(t.candidate_depts) = 0 OR t.candidate_depts && ${depts}::bigint[]))`;
    const base = sql`t.tenant_id = ${user.tenantId} AND t.business_type = ${r.schema.name} AND NOT t.cancelled`;
    let where;
    let order = sql`t.create_time DESC, t.id DESC`;
    const expert = which === 'expert-todo' || which === 'expert-done' ? await this.expertAlias() : null;
    switch (which) {
      case 'claim-list':
        where = sql`${base} AND t.end_time IS NULL AND ${candidate}`;
        break;
      case 'todo-list':
        where = sql`${base} AND t.end_time IS NULL AND (t.assignee = ${user.userId}::bigint OR ${candidate})`;
        break;
      case 'expert-todo':
        where = sql`${base} AND t.end_time IS NULL AND (t.assignee = ${user.userId}::bigint OR ${candidate}) AND ${expert ?? ''} = ANY(t.candidate_roles)`;
        break;
      case 'done-list':
        where = sql`${base} AND t.end_time IS NOT NULL AND t.operator_user = ${user.userId}::bigint`;
        order = sql`t.end_time DESC, t.id DESC`;
        break;
      case 'expert-done':
        where = sql`${base} AND t.end_time IS NOT NULL AND t.operator_user = ${user.userId}::bigint AND ${expert ?? ''} = ANY(t.candidate_roles)`;
        order = sql`t.end_time DESC, t.id DESC`;
        break;
      default: {
        // send-list: the instances I started, each with its open tasks
        const w = sql`i.tenant_id = ${user.tenantId} AND i.business_type = ${r.schema.name} AND i.start_user = ${user.userId}::bigint AND i.run_status <> 'deleted'`;
        const rows = (await sql<Row>`SELECT i.id::text AS process_instance_id, i.business_id::text AS business_id, i.business_name, i.run_status AS status, i.current_nodes, i.start_time, i.end_time,
                                            (SELECT string_agg(coalesce(t.task_name, t.task_key), ',') FROM flow_task t WHERE t.instance_id = i.id AND t.end_time IS NULL) AS task_name
                                       FROM flow_instance i WHERE ${w} ORDER BY i.start_time DESC, i.id DESC LIMIT ${size} OFFSET ${(current - 1) * size}`.execute(this.db)).rows;
        const total = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM flow_instance i WHERE ${w}`.execute(this.db)).rows[0].n);
        return this.withRecords(r, user, rows, total, size, current);
      }
    }
    const rows = (await sql<Row>`SELECT t.id::text AS task_id, t.task_key, t.task_name, t.instance_id::text AS process_instance_id, t.business_id::text AS business_id, t.business_name,
                                        t.assignee::text AS assignee, t.candidate_roles, t.claim_time, t.create_time, t.end_time, t.outcome, t.comment, t.operator_name
                                   FROM flow_task t WHERE ${where} ORDER BY ${order} LIMIT ${size} OFFSET ${(current - 1) * size}`.execute(this.db)).rows;
    const total = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM flow_task t WHERE ${where}`.execute(this.db)).rows[0].n);
    return this.withRecords(r, user, rows, total, size, current);
  }

  /** Adds each row's business record (as the caller may read it) under `record`. */
  private async withRecords(r: Resource, user: AuthUser, rows: Row[], total: number, size: number, current: number): Promise<Row> {
    const ids = [...new Set(rows.map((x) => String(x.business_id)))];
    const byId = new Map<string, Row>();
    if (ids.length) {
      const page = (await this.engine.page(r, user, { size: '200' }, (c) => c.add(`${r.keyColumn === 'id' ? 'id' : r.keyColumn} = ANY(${c.param(ids)}::bigint[])`))) as { records: Row[] };
      for (const rec of page.records) byId.set(String(rec[r.key] ?? rec.id), rec);
    }
    const records = rows.map((row) => {
      const out: Row = {};
      for (const [k, v] of Object.entries(row)) out[camel(k)] = v;
      out.record = byId.get(String(row.business_id)) ?? null;
      return out;
    });
    return { records, total, size, current, pages: Math.ceil(total / size) };
  }

  /** The resource (current version, naming a flow) of task `raw` in the caller's tenant; 404 otherwise. */
  private async resourceOfTask(user: AuthUser, raw: unknown): Promise<Resource> {
    if (raw === undefined || raw === null || raw === '') throw new ApiError(400, 'missingParam', { param: 'taskId' });
    if ((typeof raw !== 'string' && typeof raw !== 'number') || !isId(String(raw))) throw new ApiError(400, 'badParam', { param: 'taskId' });
    const t = (await sql<{ business_type: string }>`SELECT business_type FROM flow_task WHERE id = ${String(raw)}::bigint AND tenant_id = ${user.tenantId}`.execute(this.db)).rows[0];
    const r = t ? this.engine.registry.resources.get(t.business_type) : undefined;
    if (!r || !r.schema.flow) throw new ApiError(404, 'notFound');
    return r;
  }

  /** Mounts the endpoints of the module comment for every resource (known at start) naming a flow. */
  mount(app: FastifyInstance): void {
    const tags0 = ['workflow'];
    app.post('/api/blade-flow/process/claim-task', { schema: { tags: tags0, summary: 'Claims a task of any resource' } }, async (req) => {
      const b = (req.body ?? {}) as Row;
      const r = await this.resourceOfTask(req.user!, b.taskId);
      return ok(await this.claim(r, req.user!, b.taskId), req.lang === 'en' ? 'Claimed' : '签收成功', req.lang);
    });
    app.post('/api/blade-flow/process/complete-task', { schema: { tags: tags0, summary: 'Completes a task of any resource with an outcome and a comment' } }, async (req) => {
      const b = (req.body ?? {}) as Row;
      const r = await this.resourceOfTask(req.user!, typeof b === 'object' && b ? b.taskId : undefined);
      return ok(await this.completeTask(r, req.user!, req.body, req.lang), undefined, req.lang);
    });
    for (const r0 of this.engine.registry.resources.values()) {
      if (!r0.schema.flow) continue;
      const name = r0.schema.name;
      const base = r0.schema.api;
      const current = () => {
        const r = this.engine.registry.resources.get(name);
        if (!r || !r.schema.flow) throw new ApiError(404, 'notFound');
        return r;
      };
      const tags = [name, 'workflow'];
      app.post(`${base}/start-process`, { schema: { tags, summary: 'Starts the process of a record' } }, async (req) => ok(await this.startProcess(current(), req.user!, req.body, req.lang), undefined, req.lang));
      const confirm = async (req: FastifyRequest) => {
        const src = (req.method === 'GET' ? req.query : (req.body ?? req.query)) as Row;
        return ok(await this.claim(current(), req.user!, src?.taskId ?? (req.query as Row).taskId), req.lang === 'en' ? 'Claimed' : '签收成功', req.lang);
      };
      app.get(`${base}/confirm-task`, { schema: { tags, summary: 'Claims a task' } }, confirm);
      app.post(`${base}/confirm-task`, { schema: { tags, summary: 'Claims a task' } }, confirm);
      app.post(`${base}/complete-task`, { schema: { tags, summary: 'Completes a task with an outcome and a comment' } }, async (req) =>
        ok(await this.completeTask(current(), req.user!, req.body, req.lang), undefined, req.lang),
      );
      for (const ep of ['claim-list', 'todo-list', 'send-list', 'done-list', 'expert-todo', 'expert-done'] as const) {
        if (app.hasRoute({ method: 'GET', url: `${base}/${ep}` })) continue;
        app.get(`${base}/${ep}`, { schema: { tags, summary: `Workflow list ${ep}` } }, async (req) => ok(await this.list(current(), req.user!, ep, req.query as Row), undefined, req.lang));
      }
    }
  }
}

