/**
 * User tasks done by each of several users (bpmn.ts "Tasks done by each of several users": `candidateUsers`,
 * `candidateUsersFrom`, `partDone`, `pickerRoles` / `pickerDepts`) — BPMN's parallel multi-instance with its
 * collection read from the database, kept as `flow_task` rows:
 *
 * - Entering the step (`enter`, from runtime.ts `persist`): one *part* per user — a task row whose `assignee` is
 *   that user (only they, or an administrator, may complete it: binding.ts `canDo`), every part on the step's one
 *   engine execution (`execution_id`), `candidate_roles` the task's roles (so the expert lists keep finding
 *   them). No user: one *placeholder* (`awaiting_candidates`) for the pickers, in their to-do list.
 * - Completing a part (`completePart`, from runtime.ts `complete`): the user's row must meet `partDone` (400
 *   `PART_NOT_DONE`); a placeholder of a source-fed task cannot be completed (400 `PICK_FIRST`: pick the users
 *   first; a task fed only by `candidateUsers` has no picking, its placeholder is a plain task of the pickers).
 *   While other parts are open the engine is not touched: the part is recorded (task row, history, to-do done)
 *   and the step keeps waiting. The last part signals the engine with its outcome, the variable
 *   `parts.<task id>` = `{total, outcomes: {<outcome>: n}, results: [{userId, userName, outcome, comment,
 *   row}]}` (`row`: the user's row of the source, e.g. an expert's scores) for the steps after it.
 * - A row of a source resource written while such a step waits (`sync`, from the flow module's every-resource
 *   hooks, inside the write's transaction): the users are read again — a new user gets a part, an open part
 *   whose user's row went is cancelled, the placeholder goes once someone is picked (and comes back when every
 *   pick goes before any part was done). When the parts left are all done, the engine goes on (`resumeParts`).
 *
 * A source's rows are read through the resource registry (`sourceReader`): the live rows of the caller's tenant
 * whose link field equals the business id, oldest first; the user field holds a user id. An unknown resource
 * or field stops the step (400, the file names it: the process cannot go on).
 */
import { sql, type Db } from '../../core/db/index.js';
import { ApiError } from '../../core/envelope.js';
import type { AuthUser, OrgCache } from '../../core/context.js';
import { nextId } from '../../core/ids.js';
import type { Registry } from '../../resources/registry.js';
import { evaluate, resolveValue, type CandidateSource, type TaskConfig } from './bpmn.js';
import { closeTaskTodos, createTaskTodos } from './todo.js';

type Row = Record<string, unknown>;

/** One user of a multi-instance task, with their row of the source (null for `candidateUsers`). */
export interface PartUser {
  userId: string;
  row: Row | null;
}

/** Reads the users named by `src` for business record `businessId` of tenant `tenantId`. */
export type SourceReader = (db: Db, tenantId: string, src: CandidateSource, businessId: string) => Promise<PartUser[]>;

export const PICK_FIRST = (task: string) => ({ zh: `请先选定任务「${task}」的办理人`, en: `Pick the handlers of the task "${task}" first` });
export const PART_NOT_DONE = (task: string) => ({ zh: `您在任务「${task}」中的工作尚未完成，不能办理`, en: `Your part of the task "${task}" is not finished yet` });

/** True when tasks of `cfg` are done by each of several users (module comment). */
export function isMulti(cfg: TaskConfig | undefined): boolean {
  return !!cfg && (!!cfg.candidateUsers?.length || !!cfg.candidateUsersFrom);
}

/** The reader of `candidateUsersFrom` sources over the resource registry (module comment). */
export function sourceReader(registry: Registry): SourceReader {
  return async (db, tenantId, src, businessId) => {
    const r = registry.resources.get(src.resource);
    const link = r?.byField.get(src.link);
    const user = r?.byField.get(src.user);
    if (!r || !link || !user) {
      throw new ApiError(400, { zh: `流程无法继续：候选用户来源「${src.resource}:${src.link}:${src.user}」不存在`, en: `The process cannot go on: the candidate user source "${src.resource}:${src.link}:${src.user}" does not exist` });
    }
    const rows = (await sql<Row>`SELECT * FROM ${sql.table(r.schema.table)} WHERE is_deleted = 0 AND ${sql.ref(link.column)}::text = ${businessId}
                                  ${r.tenantScoped ? sql`AND tenant_id = ${tenantId}` : sql``} ORDER BY create_time, id`.execute(db)).rows;
    const out: PartUser[] = [];
    for (const raw of rows) {
      const row: Row = {};
      for (const [k, v] of Object.entries(raw)) row[r.byColumn.get(k)?.field ?? k] = typeof v === 'bigint' ? String(v) : v;
      const id = row[user.field];
      if (id !== null && id !== undefined && /^\d{1,19}$/.test(String(id)) && !out.some((u) => u.userId === String(id))) out.push({ userId: String(id), row });
    }
    return out;
  };
}

/** What opening a task row needs besides its candidates. */
export interface TaskSeed {
  tenantId: string;
  instanceId: string;
  processKey: string;
  processName: string;
  /** the English names (bpmn.ts `kc:nameEn`), for the to-dos' English texts */
  processNameEn?: string | null;
  taskKey: string;
  taskName: string | null;
  taskNameEn?: string | null;
  executionId: string;
  businessType: string;
  businessId: string;
  businessName: string | null;
  startUser: string | null;
  initiatorName: string | null;
  path: string | null;
  from: AuthUser;
}

/** Inserts one task row and the to-dos of the users it is for; answers its id. */
export async function openTask(
  trx: Db, org: OrgCache, t: TaskSeed,
  who: { assignee: string | null; roles: string[]; depts: string[]; source?: string | null; awaiting?: boolean },
): Promise<string> {
  const id = nextId();
  await sql`INSERT INTO flow_task (id, tenant_id, instance_id, process_key, business_type, business_id, business_name, task_key, task_name, execution_id, assignee,
                                   candidate_roles, candidate_depts, start_user, candidate_source, awaiting_candidates)
            VALUES (${id}::bigint, ${t.tenantId}, ${t.instanceId}::bigint, ${t.processKey}, ${t.businessType}, ${t.businessId}::bigint, ${t.businessName}, ${t.taskKey},
                    ${t.taskName}, ${t.executionId}, ${who.assignee}::bigint, ${who.roles}::text[], ${who.depts}::bigint[], ${t.startUser}::bigint,
                    ${who.source ?? null}, ${who.awaiting ?? false})`.execute(trx);
  await createTaskTodos(trx, org, {
    tenantId: t.tenantId, taskId: id, taskName: t.taskName, processName: t.processName, processKey: t.processKey, initiatorName: t.initiatorName,
    processNameEn: t.processNameEn ?? null, taskNameEn: t.taskNameEn ?? null,
    businessType: t.businessType, businessId: t.businessId, businessName: t.businessName, assignee: who.assignee, roles: who.roles, depts: who.depts, path: t.path, from: t.from,
  });
  return id;
}

/** Department ids from a candidate list (`${…}` resolved against `vars`). */
export function deptIds(list: string[], vars: Row): string[] {
  return list.flatMap((d) => {
    const v = resolveValue(d, vars);
    return Array.isArray(v) ? v.map(String) : v === null || v === undefined || v === '' ? [] : [String(v)];
  }).filter((d) => /^\d{1,19}$/.test(d));
}

export class TaskParts {
  /** Reads `candidateUsersFrom` sources (the flow module sets it: `sourceReader`). */
  reader: SourceReader | null = null;

  constructor(private readonly org: OrgCache) {}

  /** The users of `cfg` now (module comment). */
  async users(db: Db, tenantId: string, cfg: TaskConfig, vars: Row, businessId: string): Promise<PartUser[]> {
    const out: PartUser[] = [];
    for (const v of cfg.candidateUsers ?? []) {
      const val = resolveValue(v, vars);
      for (const id of Array.isArray(val) ? val : [val]) {
        if (id !== null && id !== undefined && /^\d{1,19}$/.test(String(id)) && !out.some((u) => u.userId === String(id))) out.push({ userId: String(id), row: null });
      }
    }
    if (cfg.candidateUsersFrom) {
      if (!this.reader) throw new ApiError(400, { zh: '流程无法继续：候选用户来源无法读取', en: 'The process cannot go on: candidate user sources cannot be read' });
      for (const u of await this.reader(db, tenantId, cfg.candidateUsersFrom, businessId)) if (!out.some((x) => x.userId === u.userId)) out.push(u);
    }
    return out;
  }

  /** Enters a multi-instance step: a part per user, or the placeholder for the pickers; answers the task ids. */
  async enter(trx: Db, seed: TaskSeed, cfg: TaskConfig, vars: Row): Promise<string[]> {
    const users = await this.users(trx, seed.tenantId, cfg, vars, seed.businessId);
    const source = cfg.candidateUsersFrom?.resource ?? null;
    if (users.length === 0) return [await this.openPlaceholder(trx, seed, cfg, vars)];
    const ids: string[] = [];
    for (const u of users) ids.push(await openTask(trx, this.org, seed, { assignee: u.userId, roles: cfg.candidateRoles, depts: [], source }));
    return ids;
  }

  private openPlaceholder(trx: Db, seed: TaskSeed, cfg: TaskConfig, vars: Row): Promise<string> {
    const roles = cfg.pickerRoles ?? cfg.candidateRoles;
    const depts = deptIds(cfg.pickerDepts ?? cfg.candidateDepts, vars);
    return openTask(trx, this.org, seed, { assignee: null, roles, depts, source: cfg.candidateUsersFrom?.resource ?? null, awaiting: true });
  }

  /**
   * `user` completes `task`, a part (or placeholder) of a multi-instance step (module comment). Answers
   * `pending` with the parts still open (the step keeps waiting), else the variable `parts.<task id>` the
   * engine goes on with; the caller records this task's completion either way.
   */
  async completePart(trx: Db, task: Row, cfg: TaskConfig, vars: Row, outcome: string, comment: string | null, user: AuthUser): Promise<{ pending: Row[] } | { summary: Row }> {
    const name = String(task.task_name ?? task.task_key);
    if (task.awaiting_candidates && cfg.candidateUsersFrom) throw new ApiError(400, PICK_FIRST(name));
    const businessId = String(task.business_id);
    const users = await this.users(trx, user.tenantId, cfg, vars, businessId);
    if (cfg.partDone && !task.awaiting_candidates) {
      const mine = users.find((u) => u.userId === String(task.assignee ?? user.userId));
      if (!mine || !evaluate(cfg.partDone, { ...vars, row: mine.row ?? {} })) throw new ApiError(400, PART_NOT_DONE(name));
    }
    const siblings = (await sql<Row>`SELECT id::text AS id, task_key, task_name, assignee::text AS assignee, end_time, outcome, comment, operator_user::text AS operator_user,
                                            operator_name, awaiting_candidates
                                       FROM flow_task WHERE tenant_id = ${user.tenantId} AND instance_id = ${String(task.instance_id)}::bigint
                                        AND execution_id = ${String(task.execution_id)} AND NOT cancelled AND id <> ${String(task.id)}::bigint ORDER BY create_time, id`.execute(trx)).rows;
    const open = siblings.filter((t) => !t.end_time);
    if (open.length) return { pending: open };
    const done = siblings.filter((t) => t.end_time && !t.awaiting_candidates);
    const me = { userId: String(task.assignee ?? user.userId), userName: user.realName || user.nickName || user.userName || user.account, outcome, comment };
    return { summary: summarize([...done.map((t) => ({ userId: String(t.assignee ?? t.operator_user), userName: t.operator_name, outcome: t.outcome, comment: t.comment })), me], users) };
  }

  /**
   * Reads the users of the open multi-instance steps fed by `resource` again when a row `written` (field names:
   * the saved row, the row before an update, a removed row) names their business record (module comment). `resume(instanceId, executionId, summary)` is called for a step
   * whose parts are all done now.
   */
  async sync(trx: Db, user: AuthUser, resource: string, written: Row[], config: (instanceId: string) => Promise<{ cfg: Record<string, TaskConfig>; processName: string; processNameEn?: string | null; vars: Row; path: string | null } | null>,
    resume: (instanceId: string, executionId: string, summary: Row) => Promise<void>): Promise<void> {
    const steps = (await sql<Row>`SELECT DISTINCT instance_id::text AS instance_id, execution_id, task_key, business_id::text AS business_id FROM flow_task
                                   WHERE tenant_id = ${user.tenantId} AND candidate_source = ${resource} AND end_time IS NULL LIMIT 1000`.execute(trx)).rows;
    for (const st of steps) {
      const link = (await config(String(st.instance_id)))?.cfg[String(st.task_key)]?.candidateUsersFrom?.link;
      if (!link || !written.some((w) => w[link] !== null && w[link] !== undefined && String(w[link]) === st.business_id)) continue;
      const inst = (await sql<Row>`SELECT id::text AS id, process_key, business_type, business_id::text AS business_id, business_name, start_user::text AS start_user, run_status
                                     FROM flow_instance WHERE id = ${String(st.instance_id)}::bigint AND tenant_id = ${user.tenantId} FOR UPDATE`.execute(trx)).rows[0];
      const conf = inst && inst.run_status === 'running' ? await config(String(inst.id)) : null;
      const cfg = conf?.cfg[String(st.task_key)];
      if (!inst || !conf || !cfg) continue;
      const users = await this.users(trx, user.tenantId, cfg, conf.vars, String(inst.business_id));
      const tasks = (await sql<Row>`SELECT id::text AS id, assignee::text AS assignee, end_time, outcome, comment, operator_user::text AS operator_user, operator_name, awaiting_candidates
                                      FROM flow_task WHERE tenant_id = ${user.tenantId} AND instance_id = ${String(inst.id)}::bigint AND execution_id = ${String(st.execution_id)}
                                       AND NOT cancelled ORDER BY create_time, id`.execute(trx)).rows;
      const seed: TaskSeed = {
        tenantId: user.tenantId, instanceId: String(inst.id), processKey: String(inst.process_key), processName: conf.processName, processNameEn: conf.processNameEn ?? null, taskKey: String(st.task_key), taskName: cfg.name, taskNameEn: cfg.nameEn ?? null,
        executionId: String(st.execution_id), businessType: String(inst.business_type), businessId: String(inst.business_id), businessName: (inst.business_name as string | null) ?? null,
        startUser: (inst.start_user as string | null) ?? null, initiatorName: (conf.vars.initiatorName as string | null) ?? null, path: conf.path, from: user,
      };
      const parts = tasks.filter((t) => !t.awaiting_candidates);
      const placeholder = tasks.find((t) => t.awaiting_candidates && !t.end_time);
      const wanted = new Set(users.map((u) => u.userId));
      for (const u of users) {
        if (!parts.some((t) => t.assignee === u.userId)) await openTask(trx, this.org, seed, { assignee: u.userId, roles: cfg.candidateRoles, depts: [], source: resource });
      }
      for (const t of parts.filter((p) => !p.end_time && !wanted.has(String(p.assignee)))) await cancel(trx, user.tenantId, String(t.id));
      if (users.length && placeholder) await cancel(trx, user.tenantId, String(placeholder.id));
      const doneParts = parts.filter((t) => t.end_time);
      const stillOpen = parts.some((t) => !t.end_time && wanted.has(String(t.assignee))) || users.some((u) => !parts.some((t) => t.assignee === u.userId));
      if (!stillOpen && users.length === 0 && doneParts.length === 0 && !placeholder) await this.openPlaceholder(trx, seed, cfg, conf.vars);
      if (!stillOpen && doneParts.length > 0) {
        await resume(String(inst.id), String(st.execution_id), summarize(doneParts.map((t) => ({ userId: String(t.assignee ?? t.operator_user), userName: t.operator_name, outcome: t.outcome, comment: t.comment })), users));
      }
    }
  }
}

async function cancel(trx: Db, tenantId: string, taskId: string): Promise<void> {
  await sql`UPDATE flow_task SET end_time = now(), cancelled = true WHERE id = ${taskId}::bigint`.execute(trx);
  await closeTaskTodos(trx, tenantId, taskId, null);
}

/** The variable `parts.<task id>` of a finished multi-instance step (module comment). */
function summarize(results: Array<{ userId: string; userName: unknown; outcome: unknown; comment: unknown }>, users: PartUser[]): Row {
  const outcomes: Record<string, number> = {};
  for (const r of results) outcomes[String(r.outcome)] = (outcomes[String(r.outcome)] ?? 0) + 1;
  return {
    total: results.length,
    outcomes,
    results: results.map((r) => ({ ...r, row: scalars(users.find((u) => u.userId === r.userId)?.row ?? null) })),
  };
}

/** The scalar fields of `row` (what a process variable keeps of a record, as runtime.ts `record`). */
function scalars(row: Row | null): Row | null {
  if (!row) return null;
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
  return out;
}
