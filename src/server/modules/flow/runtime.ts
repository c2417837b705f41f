/**
 * The process engine (DESIGN §8 Workflow): bpmn-engine executes the BPMN 2.0 definitions; this class keeps
 * them in PostgreSQL so that no node holds a process in memory between two requests.
 *
 * Every step — `start` (a new instance) and `complete` (a user task done with an outcome and a comment) — runs
 * inside the caller's transaction:
 *   1. the instance row is locked (FOR UPDATE); bpmn-engine is built from the definition's XML and, for an
 *      existing instance, `recover(state)` + `resume()` from the state the last step saved — on whichever
 *      node takes the request, after any restart;
 *   2. the waiting user task is signalled with `{outcome, comment}`; the instance's variables get `outcome`,
 *      `comment`, `lastUser`; exclusive gateways decide on them through `${…}` conditions (bpmn.ts `evaluate`,
 *      no code executed);
 *   3. when the engine waits again (or ends), its `getState()` is saved with the current nodes; every user
 *      task it now waits on becomes a `flow_task` row (assignee and candidates from the file, `${…}` resolved
 *      against the variables) and a `basic/todo` row per user it is for (todo.ts) — a task done by each of
 *      several users (`candidateUsers`, `candidateUsersFrom`) becomes one row per user instead, and the engine
 *      is signalled only when the last of them completes (parts.ts); every finished activity a
 *      `flow_history` row. An engine error (a gateway with no way out, say) throws 400 with the reason, and the
 *      transaction leaves everything as it was.
 *
 * Variables every instance starts with: `initiator` (user id), `initiatorName`, `initiatorDept`,
 * `businessType`, `businessId`, `businessName`, `company` (the record's company), `companyChain` (that company
 * and every company above it, for "research management of this company or a company above it") and `record`
 * (the record's scalar fields, for gateways on record fields).
 */
import { EventEmitter } from 'node:events';
import type { Engine } from 'bpmn-engine';
import { loadBpmnEngine } from '../../core/lazy-libs.js';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError } from '../../core/envelope.js';
import type { AuthUser, OrgCache } from '../../core/context.js';
import { nextId } from '../../core/ids.js';
import { resolveValue, type ProcessInfo } from './bpmn.js';
import { engineExpressions } from './expressions.js';
import { closeTaskTodos } from './todo.js';
import { deptIds, isMulti, openTask, TaskParts, type TaskSeed } from './parts.js';

type Row = Record<string, unknown>;

export interface DefinitionRow {
  id: string;
  tenant_id: string;
  process_key: string;
  name: string;
  version: number;
  xml: string;
  config: ProcessInfo;
  suspension_state: number;
}

export interface Business {
  type: string;
  id: string;
  name: string | null;
  record: Row;
  /** the department the record belongs to (its create_dept), for `company` / `companyChain` */
  dept: string | null;
  /** the menu path its to-dos link to */
  path: string | null;
}

/** A timer the engine waits on: fire it (`FlowRuntime.fireTimer`) at `expireAt` — timers.ts schedules it. */
export interface DueTimer {
  tenantId: string;
  instanceId: string;
  /** the timer event's id in the BPMN file */
  activityId: string;
  /** ISO time it expires */
  expireAt: string;
}

/** What one step left: the instance's status and current nodes, and the tasks now open. */
export interface StepResult {
  instanceId: string;
  status: 'running' | 'completed';
  currentNodes: string[];
  openTasks: Array<{ id: string; taskKey: string; taskName: string | null }>;
}

const displayName = (u: AuthUser) => u.realName || u.nickName || u.userName || u.account;

interface Collected {
  waits: Array<{ id: string; executionId: string; type: string }>;
  /** timers the engine set (`resumed`: one set before, re-armed by `resume` with its remaining time) */
  timers: Array<{ id: string; expireAt: string; timeout: number; resumed: boolean }>;
  ended: Array<{ id: string; type: string; name: string | null }>;
  error?: Error;
  done: boolean;
}

export class FlowRuntime {
  /** Where new timers go to be fired later (timers.ts sets it); none = they live only while a step runs. */
  schedule: ((t: DueTimer) => Promise<void>) | null = null;
  /** Tasks done by each of several users (parts.ts). */
  readonly parts: TaskParts;

  constructor(
    private readonly db: Db,
    private readonly org: OrgCache,
  ) {
    this.parts = new TaskParts(org);
  }

  /** The company of `dept` and every company above it (ids, nearest first). */
  async companyChain(tenantId: string, dept: string | null): Promise<{ company: string | null; chain: string[] }> {
    if (!dept) return { company: null, chain: [] };
    const company = await this.org.companyOf(tenantId, dept);
    if (!company) return { company: null, chain: [] };
    const res = await sql<{ id: string }>`
      SELECT a.id::text AS id FROM blade_dept d
        JOIN blade_dept a ON a.tenant_id = d.tenant_id AND a.id::text = ANY(string_to_array(d.ancestors, ',')) AND a.dept_category = 1 AND a.is_deleted = 0
       WHERE d.id = ${company}::bigint AND d.tenant_id = ${tenantId}
       ORDER BY length(a.ancestors) DESC`.execute(this.db);
    return { company, chain: [company, ...res.rows.map((r) => r.id)] };
  }

  /** Builds an engine whose `${…}` conditions read `vars` (see bpmn.ts `evaluate`). */
  private async engine(def: DefinitionRow, vars: Row): Promise<Engine> {
    const { Engine } = await loadBpmnEngine();
    const expressions = engineExpressions(vars);
    return new Engine({ name: `${def.process_key}:${def.version}`, source: def.xml, expressions } as ConstructorParameters<typeof Engine>[0]);
  }

  private listener(c: Collected): EventEmitter {
    const l = new EventEmitter();
    l.on('wait', (api: { id: string; type: string; content: { executionId: string } }) => {
      c.waits.push({ id: api.id, type: api.type, executionId: api.content.executionId });
    });
    l.on('activity.timer', (api: { id: string; content: { expireAt?: Date | string; timeout?: number; isResumed?: boolean } }) => {
      const at = api.content.expireAt;
      if (at) c.timers.push({ id: api.id, expireAt: new Date(at).toISOString(), timeout: Number(api.content.timeout ?? 0), resumed: !!api.content.isResumed });
    });
    l.on('activity.end', (api: { id: string; type: string; name?: string; owner?: { name?: string } }) => {
      c.ended.push({ id: api.id, type: String(api.type).replace(/^bpmn:/, ''), name: api.owner?.name ?? api.name ?? null });
    });
    return l;
  }

  /** Waits until the engine rests (waiting, ended or failed), at most `ms`. */
  private async settle(engine: Engine, c: Collected, ms = 5000): Promise<void> {
    const started = Date.now();
    for (;;) {
      if (c.error) throw new ApiError(400, { zh: `流程无法继续：${c.error.message}`, en: `The process cannot go on: ${c.error.message}` });
      const st = engine.state as string;
      if (c.done || st === 'idle' || st === 'stopped') return;
      const status = (engine.execution as unknown as { activityStatus?: string } | undefined)?.activityStatus;
      if (status === 'wait' || status === 'idle' || status === 'timer') return;
      if (Date.now() - started > ms) throw new ApiError(400, { zh: '流程执行超时', en: 'The process step timed out' });
      await new Promise((r) => setImmediate(r));
    }
  }

  /** Starts an instance of `def` for `business` as `user`; answers the step's result. */
  async start(trx: Db, def: DefinitionRow, business: Business, user: AuthUser, extra: Row = {}): Promise<StepResult> {
    if (def.suspension_state !== 1) throw new ApiError(400, { zh: `流程「${def.name}」已挂起，不能发起`, en: `The process "${def.name}" is suspended and cannot be started` });
    const { company, chain } = await this.companyChain(user.tenantId, business.dept);
    const record: Row = {};
    for (const [k, v] of Object.entries(business.record)) if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) record[k] = v;
    const vars: Row = {
      ...extra,
      initiator: user.userId, initiatorName: displayName(user), initiatorDept: user.deptId || null,
      businessType: business.type, businessId: business.id, businessName: business.name, company, companyChain: chain, record,
      todoPath: business.path,
    };
    const id = nextId();
    await sql`INSERT INTO flow_instance (id, tenant_id, definition_id, process_key, business_type, business_id, business_name, start_user, start_user_name, start_dept, variables)
              VALUES (${id}::bigint, ${user.tenantId}, ${def.id}::bigint, ${def.process_key}, ${business.type}, ${business.id}::bigint, ${business.name},
                      ${user.userId}::bigint, ${displayName(user)}, ${user.deptId || null}::bigint, ${JSON.stringify(vars)}::jsonb)`.execute(trx);
    const c: Collected = { waits: [], ended: [], timers: [], done: false };
    const engine = await this.engine(def, vars);
    engine.once('end', () => (c.done = true));
    engine.once('error', (e: Error) => (c.error = e));
    try {
      await engine.execute({ listener: this.listener(c), variables: { businessId: business.id } });
      await this.settle(engine, c);
      return await this.persist(trx, def, id, engine, vars, c, user, business.path);
    } finally {
      await halt(engine);
    }
  }

  /**
   * Completes the open task `task` (a flow_task row, locked by the caller) with `outcome` and `comment` as
   * `user` acting as `role`; the instance goes on from the state saved by its last step.
   *
   * `returnTo` (issue 11 "return to a named step"): with the outcome `return`, the id of the user task of the
   * process the work goes back to. It is the variable `returnTo` of this step (null otherwise), so the file's
   * gateways route on it (`${outcome == 'return' && returnTo == 'draft'}`). Refused (400, nothing stored):
   * with another outcome, a name that is no user task of the process, or a step no path of the file leads
   * back to (the engine finds no way out of the gateway: 流程「…」不能从当前步骤退回到「…」).
   */
  async complete(trx: Db, task: Row, outcome: string, comment: string | null, user: AuthUser, role: string, returnTo: string | null = null): Promise<StepResult> {
    const inst = (await sql<Row>`SELECT * FROM flow_instance WHERE id = ${String(task.instance_id)}::bigint AND tenant_id = ${user.tenantId} FOR UPDATE`.execute(trx)).rows[0];
    if (!inst || inst.run_status !== 'running') throw new ApiError(400, { zh: '流程已结束，不能办理', en: 'The process has ended' });
    const def = await this.definition(trx, String(inst.definition_id));
    if (returnTo !== null) {
      if (outcome !== 'return') throw new ApiError(400, { zh: '只有退回时才能指定退回的步骤', en: 'A step to return to can be named only when returning' });
      if (def.config.nodes[returnTo]?.type !== 'UserTask') {
        throw new ApiError(400, { zh: `流程「${def.name}」中没有步骤「${returnTo}」`, en: `The process "${def.name}" has no step "${returnTo}"` });
      }
    }
    const vars: Row = { ...(inst.variables as Row), outcome, comment, lastUser: user.userId, returnTo };
    const cfg = def.config.tasks[String(task.task_key)];
    if (isMulti(cfg)) {
      // one part of a multi-instance step (parts.ts): the engine goes on only after the last one
      const part = await this.parts.completePart(trx, task, cfg, inst.variables as Row, outcome, comment, user);
      if ('pending' in part) {
        await this.recordDone(trx, task, String(inst.id), outcome, comment, user, role);
        const open = part.pending.map((t) => ({ id: String(t.id), taskKey: String(t.task_key), taskName: (t.task_name as string | null) ?? null }));
        return { instanceId: String(inst.id), status: 'running', currentNodes: inst.current_nodes as string[], openTasks: open };
      }
      vars.parts = { ...((vars.parts as Row | undefined) ?? {}), [String(task.task_key)]: part.summary };
    }
    const step = await this.signalWaiting(trx, def, inst, vars, String(task.execution_id), user, {
      signal: { outcome, comment },
      before: () => this.recordDone(trx, task, String(inst.id), outcome, comment, user, role),
      settleFailed: (c) => {
        if (returnTo === null || !c.error) return;
        const name = def.config.nodes[returnTo]?.name ?? returnTo;
        throw new ApiError(400, { zh: `流程「${def.name}」不能从当前步骤退回到「${name}」`, en: `The process "${def.name}" cannot return to "${name}" from this step` });
      },
    });
    if (!step) throw new ApiError(400, { zh: '任务已不在等待办理', en: 'The task is no longer waiting' });
    return step;
  }

  /**
   * Recovers instance `inst` (of `def`) with `vars`, finds its execution `executionId` waiting, runs `before`
   * (it records the step, or throws), signals the execution with `signal` and saves the step the engine then
   * takes; answers null when that execution no longer waits. `settleFailed` may turn an engine error after the
   * signal into the user's message (it throws); otherwise the error stands.
   */
  private async signalWaiting(
    trx: Db, def: DefinitionRow, inst: Row, vars: Row, executionId: string, user: AuthUser,
    o: { signal: Row; before?: (activityId: string) => Promise<void> | void; settleFailed?: (c: Collected) => void },
  ): Promise<StepResult | null> {
    const c: Collected = { waits: [], ended: [], timers: [], done: false };
    const engine = await this.engine(def, vars);
    engine.once('end', () => (c.done = true));
    engine.once('error', (e: Error) => (c.error = e));
    try {
      engine.recover(inst.state as object);
      const execution = await engine.resume({ listener: this.listener(c) });
      await this.settle(engine, c);
      const waiting = execution.getPostponed().find((a) => (a as unknown as { content: { executionId: string } }).content.executionId === executionId);
      if (!waiting) return null;
      c.waits = [];
      c.ended = [];
      await o.before?.(waiting.id);
      waiting.signal(o.signal);
      try {
        await this.settle(engine, c);
      } catch (e) {
        o.settleFailed?.(c);
        throw e;
      }
      return await this.persist(trx, def, String(inst.id), engine, vars, c, user, (vars.todoPath as string | null) ?? null, waiting.id);
    } finally {
      await halt(engine);
    }
  }

  /** Records `task` done by `user` (its row, a history row, the to-dos): before the engine is signalled, if it is. */
  private async recordDone(trx: Db, task: Row, instanceId: string, outcome: string, comment: string | null, user: AuthUser, role: string): Promise<void> {
    const who = displayName(user);
    await sql`UPDATE flow_task SET end_time = now(), outcome = ${outcome}, comment = ${comment}, operator_user = ${user.userId}::bigint, operator_name = ${who},
                operator_role = ${role}, assignee = COALESCE(assignee, ${user.userId}::bigint), claim_time = COALESCE(claim_time, now())
               WHERE id = ${String(task.id)}::bigint`.execute(trx);
    await sql`INSERT INTO flow_history (id, tenant_id, instance_id, activity_id, activity_name, activity_type, task_id, assignee, assignee_name, outcome, comment, start_time)
              VALUES (${nextId()}::bigint, ${user.tenantId}, ${instanceId}::bigint, ${String(task.task_key)}, ${(task.task_name as string | null) ?? null}, 'UserTask',
                      ${String(task.id)}::bigint, ${user.userId}::bigint, ${who}, ${outcome}, ${comment}, ${String(task.create_time)}::timestamptz)`.execute(trx);
    await closeTaskTodos(trx, user.tenantId, String(task.id), user.userId);
  }

  /**
   * The parts of a multi-instance step are all done without a completion (parts.ts `sync`: the last open part's
   * user was removed from the source): the engine goes on from execution `executionId` of instance
   * `instanceId` with the last part's outcome and `parts.<task id>` = `summary`.
   */
  async resumeParts(trx: Db, instanceId: string, executionId: string, summary: Row, user: AuthUser): Promise<StepResult | null> {
    const inst = (await sql<Row>`SELECT * FROM flow_instance WHERE id = ${instanceId}::bigint AND tenant_id = ${user.tenantId} AND run_status = 'running' FOR UPDATE`.execute(trx)).rows[0];
    if (!inst) return null;
    const def = await this.definition(trx, String(inst.definition_id));
    const results = (summary.results as Row[]) ?? [];
    const last = results[results.length - 1] ?? {};
    const vars: Row = { ...(inst.variables as Row), outcome: last.outcome ?? null, comment: last.comment ?? null, lastUser: last.userId ?? null, returnTo: null };
    return this.signalWaiting(trx, def, inst, vars, executionId, user, {
      signal: { outcome: vars.outcome, comment: vars.comment },
      before: (activityId) => {
        vars.parts = { ...((vars.parts as Row | undefined) ?? {}), [activityId]: summary };
      },
    });
  }

  /**
   * Fires the timer `t` of a running instance (timers.ts calls this at `expireAt`, on whichever node, after any
   * restart): the instance is resumed from its saved state, where bpmn-engine re-arms the timer with the time
   * left (none: it fires at once) and goes on; the step is saved as any other. A reminder (non-interrupting
   * boundary timer on a user task) also pushes that task's open to-dos again. Answers null when there was
   * nothing to fire: the instance ended, or the flow left the timer (the task was done first), or the timer
   * waiting now is a later one (the task was entered again) — its own schedule fires it.
   */
  async fireTimer(trx: Db, t: DueTimer): Promise<StepResult | null> {
    const inst = (await sql<Row>`SELECT * FROM flow_instance WHERE id = ${t.instanceId}::bigint AND tenant_id = ${t.tenantId} AND run_status = 'running' FOR UPDATE`.execute(trx)).rows[0];
    if (!inst || !(inst.current_nodes as string[]).includes(t.activityId)) return null;
    const def = await this.definition(trx, String(inst.definition_id));
    const vars: Row = { ...(inst.variables as Row) };
    const c: Collected = { waits: [], ended: [], timers: [], done: false };
    const engine = await this.engine(def, vars);
    engine.once('end', () => (c.done = true));
    engine.once('error', (e: Error) => (c.error = e));
    try {
      engine.recover(inst.state as object);
      await engine.resume({ listener: this.listener(c) });
      const armed = c.timers.find((x) => x.id === t.activityId);
      if (armed && armed.timeout > 5000) return null; // a later timer of the same event: not due yet
      if (armed && armed.timeout > 0) await new Promise((r) => setTimeout(r, armed.timeout + 20));
      await this.settle(engine, c);
      if (!c.ended.some((e) => e.id === t.activityId)) return null;
      c.timers = c.timers.filter((x) => !x.resumed);
      const starter = { tenantId: t.tenantId, userId: String(inst.start_user ?? '0'), deptId: inst.start_dept ? String(inst.start_dept) : '' } as AuthUser;
      const node = def.config.nodes[t.activityId];
      if (node?.attachedTo && node.cancelActivity === false) {
        await sql`UPDATE basic_todo SET push_time = NULL, is_read = 0, update_time = now() WHERE tenant_id = ${t.tenantId} AND state = 0 AND is_deleted = 0
                    AND task_id IN (SELECT id FROM flow_task WHERE tenant_id = ${t.tenantId} AND instance_id = ${t.instanceId}::bigint AND task_key = ${node.attachedTo} AND end_time IS NULL)`.execute(trx);
      }
      return await this.persist(trx, def, t.instanceId, engine, vars, c, starter, (vars.todoPath as string | null) ?? null);
    } finally {
      await halt(engine);
    }
  }

  /** The definition row `id` (config parsed). */
  async definition(db: Db, id: string): Promise<DefinitionRow> {
    const row = (await sql<DefinitionRow>`SELECT id::text AS id, tenant_id, process_key, name, version, xml, config, suspension_state FROM flow_definition WHERE id = ${id}::bigint`.execute(db)).rows[0];
    if (!row) throw new ApiError(404, 'notFound');
    return row;
  }

  /** Saves the engine's state after a step: instance, new tasks and their to-dos, finished activities. */
  private async persist(trx: Db, def: DefinitionRow, instanceId: string, engine: Engine, vars: Row, c: Collected, user: AuthUser, path: string | null, skipEnded?: string): Promise<StepResult> {
    const ended = c.done || (engine.state as string) === 'idle';
    const execution = engine.execution;
    // a sequence flow may be postponed too (a discard that reached a step already entered again, on a loop
    // back through a gateway): only flow nodes are the instance's current nodes
    const postponed = ended || !execution ? [] : execution.getPostponed().filter((a) => !/SequenceFlow$/.test(String(a.type))).map((a) => ({ id: a.id, executionId: (a as unknown as { content: { executionId: string } }).content.executionId, type: a.type }));
    const current = [...new Set(postponed.map((p) => p.id))];
    const state = ended ? null : await engine.getState();
    await sql`UPDATE flow_instance SET state = ${state === null ? null : JSON.stringify(state)}::jsonb, variables = ${JSON.stringify(vars)}::jsonb, current_nodes = ${current}::text[],
                run_status = ${ended ? 'completed' : 'running'}, end_time = ${ended ? sql`now()` : sql`NULL`}, update_time = now()
               WHERE id = ${instanceId}::bigint`.execute(trx);
    for (const e of c.ended) {
      if (e.type === 'UserTask' || e.id === skipEnded) continue; // a user task's row is written when it is completed
      const node = def.config.nodes[e.id];
      await sql`INSERT INTO flow_history (id, tenant_id, instance_id, activity_id, activity_name, activity_type)
                VALUES (${nextId()}::bigint, ${user.tenantId}, ${instanceId}::bigint, ${e.id}, ${node?.name ?? e.name}, ${node?.type ?? e.type})`.execute(trx);
    }
    // tasks the engine no longer waits on (ended another way) are cancelled; new waits become tasks
    const open = (await sql<{ id: string; execution_id: string }>`SELECT id::text AS id, execution_id FROM flow_task WHERE tenant_id = ${user.tenantId} AND instance_id = ${instanceId}::bigint AND end_time IS NULL`.execute(trx)).rows;
    const waitingIds = new Set(postponed.map((p) => p.executionId));
    for (const t of open.filter((t) => !waitingIds.has(t.execution_id))) {
      await sql`UPDATE flow_task SET end_time = now(), cancelled = true WHERE id = ${t.id}::bigint`.execute(trx);
      await closeTaskTodos(trx, user.tenantId, t.id, null);
    }
    const known = new Set(open.map((t) => t.execution_id));
    const inst = (await sql<Row>`SELECT business_type, business_id::text AS business_id, business_name, start_user::text AS start_user FROM flow_instance WHERE id = ${instanceId}::bigint`.execute(trx)).rows[0];
    const created: StepResult['openTasks'] = [];
    for (const p of postponed) {
      if (known.has(p.executionId)) {
        const t = open.find((o) => o.execution_id === p.executionId)!;
        created.push({ id: t.id, taskKey: p.id, taskName: def.config.tasks[p.id]?.name ?? null });
        continue;
      }
      const cfg = def.config.tasks[p.id];
      if (!cfg) continue; // a wait that is not a user task (a message or signal catch) has no to-do
      const seed: TaskSeed = {
        tenantId: user.tenantId, instanceId, processKey: def.process_key, processName: def.name, processNameEn: def.config.nameEn ?? null, taskKey: p.id, taskName: cfg.name, taskNameEn: cfg.nameEn ?? null, executionId: p.executionId,
        businessType: String(inst.business_type), businessId: String(inst.business_id), businessName: (inst.business_name as string | null) ?? null,
        startUser: (inst.start_user as string | null) ?? null, initiatorName: (vars.initiatorName as string | null) ?? null, path, from: user,
      };
      if (isMulti(cfg)) {
        for (const id of await this.parts.enter(trx, seed, cfg, vars)) created.push({ id, taskKey: p.id, taskName: cfg.name });
        continue;
      }
      const assigneeRaw = cfg.assignee ? resolveValue(cfg.assignee, vars) : null;
      const assignee = assigneeRaw === null || assigneeRaw === undefined || assigneeRaw === '' ? null : String(assigneeRaw);
      const id = await openTask(trx, this.org, seed, { assignee, roles: cfg.candidateRoles, depts: deptIds(cfg.candidateDepts, vars) });
      created.push({ id, taskKey: p.id, taskName: cfg.name });
    }
    if (!ended && this.schedule) {
      for (const t of c.timers) if (!t.resumed && current.includes(t.id)) await this.schedule({ tenantId: user.tenantId, instanceId, activityId: t.id, expireAt: t.expireAt });
    }
    return { instanceId, status: ended ? 'completed' : 'running', currentNodes: current, openTasks: created };
  }
}

/** Stops an engine that still runs (its timers and listeners go); an ended one has nothing to stop. */
async function halt(engine: Engine): Promise<void> {
  if ((engine.state as string) !== 'running') return;
  await engine.stop().catch(() => undefined);
}
