/**
 * To-dos and push (DESIGN §8 'To-dos and push'; spec 001 §7 '/basic/todo', spec 000 §4 'Polling'): every
 * open user task and every notice is a `basic_todo` row for one user.
 *
 * - A task waiting on an assignee gives that user a to-do; a task for candidates gives one to every user of
 *   the tenant holding a candidate role (roleAlias) whose department or company is one of the candidate
 *   departments (any, when the task names none). Claiming a task removes the other candidates' to-dos;
 *   completing it makes the completer's to-do done (`state` 1) and removes the others'.
 * - `type` 1 has a go-now link (`path`, the menu path of the record's screen), 2 is text only (a notice).
 * - Texts (issue 11 'to-do templates define the text of each kind'): a process task's to-do takes the title and
 *   content of the tenant's enabled template (`system/todotemplate`, table blade_todo_template) of kind
 *   `task.<process key>`, else of kind `task` (the newest edit wins when two share a kind); placeholders
 *   `{processName}`, `{taskName}`, `{businessName}`, `{initiatorName}`. Without one: title
 *   `<process name>：<task name>`, content the record's label.
 * - Both languages (DESIGN §7: no screen half in one language): a row keeps its texts in zh (`title`, `content`)
 *   and en (`title_en`, `content_en`): the English of a task's to-do is the template's `titleEn` / `contentEn`
 *   when it has them, else `<process nameEn>: <task nameEn>` (bpmn.ts `kc:nameEn`, the zh name where the file
 *   gives none); the placeholders are filled with the English names. Every answer below gives `title` and
 *   `content` in the caller's language (Accept-Language; the English falls back to the zh text when a row has
 *   none: a notice an administrator wrote, rows from before), so the home page's cards, the notice pop-up and the
 *   lists follow the UI's language; the `title` filter of `list` matches either.
 * - Delivery (issue 11 'message settings decide which kinds a user receives'; system/msgsetting.ts, reached
 *   through core/message-channels.ts): each user's channels for the kind — `todo` for task to-dos, `notice` for notices. `site`: the row is pushed (myPush);
 *   a task to-do without `site` is still listed and counted (it is the user's work) but never pushed, a notice
 *   without `site` is not stored for that user. `sms` / `email`: the title (and content) go to the user's phone
 *   / e-mail through the outbox (core/outbox.ts; a user without one gets nothing there), queued in the step's
 *   transaction and delivered after it committed (core/outbox-dispatch.ts); a gateway's failure is recorded
 *   in the outbox and never touches the step.
 *
 * Endpoints (GET unless said; every one for the signed-in user's own rows in their tenant, nothing else):
 * `list` (paged; `state` 0 open (default) / 1 done, `title` contains, `type`), `detail?id=` (marks it read; a
 * task's to-do also answers `processInstanceId` and `taskOpen`, what its handling page /work/todo/<id> needs),
 * `myTodo` (newest open to-dos, `size` ≤ 50), `myMessage` (newest notices), `myTodoPath` (`[{path, count}]` of
 * open to-dos), `countNumber` (`{path: count}` of open to-dos, the menus' `todoNumber`: the shell sums a
 * parent's children), `myPush` (at most 10 rows not pushed yet, marked pushed by the call — the client polls
 * every 15 s and shows them 3 s apart for 10 s each, spec 000 §4), `allRead`, `againTodoParam?taskId=` (who a
 * reminder would reach), `sendAgainTodo?taskId=` (pushes the open to-dos of the task again: its starter or an
 * administrator), POST `remove?ids=` (own rows), POST `submit` (administrators: a notice to `userIds`; answers how many got it on site).
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser, OrgCache } from '../../core/context.js';
import { nextId } from '../../core/ids.js';
import { paging } from '../../resources/query.js';
import { isId } from '../../../shared/contract/ids.js';
import { isDateFilterText } from '../../../shared/schema/derive.js';
import { Outbox, smsProviderFromEnv } from '../../core/outbox.js';
import type { Lang } from '../../../shared/i18n/messages.js';
import { channelsOfUsers } from '../../core/message-channels.js';
import type { TodoRequest } from '../../core/todo-port.js';

type Row = Record<string, unknown>;

/** Push messages per poll (spec 000 §4: at most 10 notifications). */
export const PUSH_MAX = 10;

/** A to-do to create (core/todo-port.ts: the same shape for the flow's tasks and other modules' work). */
export type TaskTodo = TodoRequest;

/** The users a task is for (see the module comment). */
export async function taskUsers(db: Db, org: OrgCache, tenantId: string, assignee: string | null, roles: string[], depts: string[]): Promise<string[]> {
  if (assignee) return [assignee];
  if (roles.length === 0) return [];
  const res = await sql<{ id: string; dept_id: string | null }>`
    SELECT DISTINCT u.id::text AS id, u.dept_id::text AS dept_id FROM blade_user u
      JOIN blade_user_role ur ON ur.user_id = u.id
      JOIN blade_role r ON r.id = ur.role_id AND r.is_deleted = 0
     WHERE u.tenant_id = ${tenantId} AND u.is_deleted = 0 AND r.tenant_id = ${tenantId} AND r.role_alias = ANY(${roles}::text[])`.execute(db);
  if (depts.length === 0) return res.rows.map((r) => r.id);
  const out: string[] = [];
  for (const u of res.rows) {
    if (!u.dept_id) continue;
    const company = await org.companyOf(tenantId, u.dept_id);
    if (depts.includes(u.dept_id) || (company && depts.includes(company))) out.push(u.id);
  }
  return out;
}

const PLACEHOLDER = /\{(processName|taskName|businessName|initiatorName)\}/g;

/** The texts of a to-do in zh (`title`, `content`) and en (`titleEn`, `contentEn`). */
export interface TodoTexts {
  title: string;
  content: string | null;
  titleEn: string;
  contentEn: string | null;
}

/** The texts of task `t`'s to-do in zh and en: its template's (module comment), else the default texts. */
export async function taskTexts(db: Db, t: TaskTodo): Promise<TodoTexts> {
  const processEn = t.processNameEn || t.processName;
  const taskEn = t.taskNameEn || t.taskName || '';
  const fallback: TodoTexts = {
    title: `${t.processName}：${t.taskName ?? ''}`.slice(0, 200), content: t.businessName,
    titleEn: `${processEn}: ${taskEn}`.slice(0, 200), contentEn: t.businessName,
  };
  if (!t.processKey) return fallback;
  const kinds = [`task.${t.processKey}`, 'task'];
  const row = (await sql<{ title: string; content: string | null; title_en: string | null; content_en: string | null }>`
    SELECT title, content, title_en, content_en FROM blade_todo_template WHERE tenant_id = ${t.tenantId} AND is_deleted = 0 AND enabled = 1 AND code = ANY(${kinds}::text[])
     ORDER BY array_position(${kinds}::text[], code::text), update_time DESC NULLS LAST, id DESC LIMIT 1`.execute(db)).rows[0];
  if (!row) return fallback;
  const zh: Record<string, string> = { processName: t.processName, taskName: t.taskName ?? '', businessName: t.businessName ?? '', initiatorName: t.initiatorName ?? '' };
  const en: Record<string, string> = { ...zh, processName: processEn, taskName: taskEn };
  const fill = (s: string, vars: Record<string, string>) => s.replace(PLACEHOLDER, (_, k: string) => vars[k]);
  return {
    title: fill(row.title, zh).slice(0, 200), content: row.content ? fill(row.content, zh).slice(0, 1000) : null,
    // a template without English keeps the default English texts: an English screen never shows the zh template
    titleEn: row.title_en ? fill(row.title_en, en).slice(0, 200) : fallback.titleEn,
    contentEn: row.content_en ? fill(row.content_en, en).slice(0, 1000) : fallback.contentEn,
  };
}

/**
 * Queues `title` / `content` as SMS and e-mail for the users whose channels ask for them (module comment),
 * through `db` — the caller's transaction: the messages leave after it committed (core/outbox-dispatch.ts),
 * and a rolled-back step sends nothing.
 */
async function sendOut(db: Db, tenantId: string, channels: Map<string, string[]>, title: string, content: string | null): Promise<void> {
  const wanted = [...channels].filter(([, c]) => c.includes('sms') || c.includes('email')).map(([u]) => u);
  if (wanted.length === 0) return;
  const people = (await sql<{ id: string; phone: string | null; email: string | null }>`
    SELECT id::text AS id, phone, email FROM blade_user WHERE tenant_id = ${tenantId} AND id = ANY(${wanted}::bigint[]) AND is_deleted = 0`.execute(db)).rows;
  const outbox = new Outbox(db, smsProviderFromEnv());
  const text = content ? `${title}\n${content}` : title;
  for (const p of people) {
    const c = channels.get(p.id) ?? [];
    const sends: Array<['sms' | 'email', string | null]> = [['sms', c.includes('sms') ? p.phone : null], ['email', c.includes('email') ? p.email : null]];
    for (const [channel, recipient] of sends) {
      if (recipient) await outbox.queue({ tenantId, channel, recipient, subject: title, content: text });
    }
  }
}

/** Creates the to-dos of a new task (texts from its template, delivery by each user's settings). */
export async function createTaskTodos(db: Db, org: OrgCache, t: TaskTodo): Promise<number> {
  const users = await taskUsers(db, org, t.tenantId, t.assignee, t.roles, t.depts);
  if (users.length === 0) return 0;
  const { title, content, titleEn, contentEn } = await taskTexts(db, t);
  const channels = await channelsOfUsers(db, t.tenantId, users, 'todo');
  const ids = users.map(() => nextId());
  const quiet = users.map((u) => !(channels.get(u) ?? ['site']).includes('site')); // listed, never pushed
  await sql`INSERT INTO basic_todo (id, tenant_id, user_id, title, content, title_en, content_en, path, type, business_type, business_id, business_name, task_id, create_user, create_dept, push_time)
            SELECT i, ${t.tenantId}, u, ${title}, ${content}, ${titleEn}, ${contentEn}, ${t.path}, 1, ${t.businessType}, ${t.businessId}::bigint, ${t.businessName}, ${t.taskId}::bigint,
                   ${t.from.userId}::bigint, ${t.from.deptId || null}::bigint, CASE WHEN q THEN now() END
              FROM unnest(${ids}::bigint[], ${users}::bigint[], ${quiet}::boolean[]) AS x(i, u, q)`.execute(db);
  await sendOut(db, t.tenantId, channels, title, content);
  return users.length;
}

/** A task was completed by `doneBy` (its to-do becomes done, the others' go) or cancelled (`doneBy` null). */
export async function closeTaskTodos(db: Db, tenantId: string, taskId: string, doneBy: string | null): Promise<void> {
  if (doneBy) {
    const upd = await sql`UPDATE basic_todo SET state = 1, is_read = 1, update_time = now() WHERE tenant_id = ${tenantId} AND task_id = ${taskId}::bigint AND user_id = ${doneBy}::bigint AND is_deleted = 0`.execute(db);
    if (Number(upd.numAffectedRows ?? 0) === 0) {
      // an administrator (or a user without a to-do) completed it: the done list still shows it
      await sql`INSERT INTO basic_todo (id, tenant_id, user_id, title, content, title_en, content_en, path, type, business_type, business_id, business_name, task_id, state, is_read, push_time)
                SELECT ${nextId()}::bigint, tenant_id, ${doneBy}::bigint, title, content, title_en, content_en, path, type, business_type, business_id, business_name, task_id, 1, 1, now()
                  FROM basic_todo WHERE tenant_id = ${tenantId} AND task_id = ${taskId}::bigint AND is_deleted = 0 LIMIT 1`.execute(db);
    }
  }
  await sql`UPDATE basic_todo SET is_deleted = 1, update_time = now() WHERE tenant_id = ${tenantId} AND task_id = ${taskId}::bigint AND state = 0 AND is_deleted = 0
             ${doneBy ? sql`AND user_id <> ${doneBy}::bigint` : sql``}`.execute(db);
}

/** `userId` claimed the task: the other candidates' to-dos go; the claimer keeps (or gets) one. */
export async function claimTaskTodos(db: Db, tenantId: string, taskId: string, userId: string): Promise<void> {
  const mine = await sql`SELECT 1 FROM basic_todo WHERE tenant_id = ${tenantId} AND task_id = ${taskId}::bigint AND user_id = ${userId}::bigint AND is_deleted = 0`.execute(db);
  if (mine.rows.length === 0) {
    await sql`INSERT INTO basic_todo (id, tenant_id, user_id, title, content, title_en, content_en, path, type, business_type, business_id, business_name, task_id)
              SELECT ${nextId()}::bigint, tenant_id, ${userId}::bigint, title, content, title_en, content_en, path, type, business_type, business_id, business_name, task_id
                FROM basic_todo WHERE tenant_id = ${tenantId} AND task_id = ${taskId}::bigint AND is_deleted = 0 LIMIT 1`.execute(db);
  }
  await sql`UPDATE basic_todo SET is_deleted = 1, update_time = now() WHERE tenant_id = ${tenantId} AND task_id = ${taskId}::bigint AND user_id <> ${userId}::bigint AND state = 0 AND is_deleted = 0`.execute(db);
}

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const COLS = `id, title, content, title_en, content_en, path, type, business_type, business_id, business_name, task_id, state, is_read, push_time, create_time`;

/** A row as the API answers it: camelCase, `title` / `content` in `lang` (module comment). */
function toTodo(row: Row, lang: Lang): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) if (k !== 'title_en' && k !== 'content_en') out[camel(k)] = ['type', 'state', 'is_read'].includes(k) ? Number(v) : v;
  if (lang === 'en' && row.title_en) {
    out.title = row.title_en;
    out.content = row.content_en ?? null;
  }
  out.description = out.content ?? null; // the push message's field (spec 000 §3.4)
  return out;
}

function idParam(q: Row, name: string): string {
  const v = q[name];
  if (v === undefined || v === '') throw new ApiError(400, 'missingParam', { param: name });
  if (typeof v !== 'string' || !isId(v)) throw new ApiError(400, 'badParam', { param: name });
  return v;
}

function intParam(q: Row, name: string, allowed: number[]): number | undefined {
  const v = q[name];
  if (v === undefined || v === '' || v === '-1') return undefined;
  if (typeof v !== 'string' || !allowed.map(String).includes(v)) throw new ApiError(400, 'badParam', { param: name });
  return Number(v);
}

export function registerTodoRoutes(app: FastifyInstance, db: Db, org: OrgCache): void {
  const tags = ['basic/todo'];
  const base = '/api/basic/todo';
  const me = (u: AuthUser) => sql`tenant_id = ${u.tenantId} AND user_id = ${u.userId}::bigint AND is_deleted = 0`;

  app.get(`${base}/list`, { schema: { tags, summary: 'My to-dos, paged (state 0 open, 1 done)' } }, async (req) => {
    const q = req.query as Row;
    const { current, size } = paging(q);
    // the list screen's search sends `<field>_equal`, `<field>` (contains) and the creation date range
    const state = intParam(q, q.state_equal !== undefined ? 'state_equal' : 'state', [0, 1]) ?? 0;
    const type = intParam(q, q.type_equal !== undefined ? 'type_equal' : 'type', [1, 2]);
    const title = typeof q.title === 'string' && q.title.trim() !== '' ? '%' + q.title.trim().replace(/[\\%_]/g, (c) => '\\' + c) + '%' : null;
    const date = (k: string) => {
      const v = q[k];
      if (v === undefined || v === '') return null;
      // a real day and time (2024-02-30 is refused here, not by PostgreSQL: DESIGN §11), as every list filter
      if (typeof v !== 'string') throw new ApiError(400, 'badParam', { param: k });
      if (!isDateFilterText(v)) throw new ApiError(400, 'badDateParam', { param: k });
      return v;
    };
    const from = date('createTime_dategt');
    const to = date('createTime_datelt');
    const where = sql`${me(req.user!)} AND state = ${state} ${type === undefined ? sql`` : sql`AND type = ${type}`} ${title ? sql`AND (title ILIKE ${title} OR title_en ILIKE ${title})` : sql``}
                      ${from ? sql`AND create_time >= ${from}::timestamp` : sql``} ${to ? sql`AND create_time <= ${to}::timestamp` : sql``}`;
    const rows = await sql<Row>`SELECT ${sql.raw(COLS)} FROM basic_todo WHERE ${where} ORDER BY create_time DESC, id DESC LIMIT ${size} OFFSET ${(current - 1) * size}`.execute(db);
    const total = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM basic_todo WHERE ${where}`.execute(db)).rows[0].n);
    return ok({ records: rows.rows.map((x) => toTodo(x, req.lang)), total, size, current, pages: Math.ceil(total / size) }, undefined, req.lang);
  });

  app.get(`${base}/detail`, { schema: { tags, summary: 'One of my to-dos (marks it read)' } }, async (req) => {
    const id = idParam(req.query as Row, 'id');
    const rows = await sql<Row>`UPDATE basic_todo SET is_read = 1 WHERE id = ${id}::bigint AND ${me(req.user!)} RETURNING ${sql.raw(COLS)}`.execute(db);
    if (!rows.rows[0]) throw new ApiError(404, 'notFound');
    const todo = toTodo(rows.rows[0], req.lang);
    // a task's to-do opens its handling page (/work/todo/<id>): the instance, and whether the task is still open
    if (todo.taskId) {
      const task = (await sql<{ instance_id: string; open: boolean }>`
        SELECT instance_id::text AS instance_id, (end_time IS NULL) AS open FROM flow_task WHERE id = ${String(todo.taskId)}::bigint AND tenant_id = ${req.user!.tenantId}`.execute(db)).rows[0];
      todo.processInstanceId = task?.instance_id ?? null;
      todo.taskOpen = task?.open ?? false;
    }
    return ok(todo, undefined, req.lang);
  });

  const newest = (type: number) => async (req: import('fastify').FastifyRequest) => {
    const q = req.query as Row;
    const size = q.size === undefined || q.size === '' ? 10 : Number(q.size);
    if (!Number.isInteger(size) || size < 1 || size > 50) throw new ApiError(400, 'badParam', { param: 'size' });
    const rows = await sql<Row>`SELECT ${sql.raw(COLS)} FROM basic_todo WHERE ${me(req.user!)} AND state = 0 AND type = ${type} ORDER BY create_time DESC, id DESC LIMIT ${size}`.execute(db);
    const total = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM basic_todo WHERE ${me(req.user!)} AND state = 0 AND type = ${type}`.execute(db)).rows[0].n);
    return ok({ records: rows.rows.map((x) => toTodo(x, req.lang)), total }, undefined, req.lang);
  };
  app.get(`${base}/myTodo`, { schema: { tags, summary: 'My newest open to-dos' } }, newest(1));
  app.get(`${base}/myMessage`, { schema: { tags, summary: 'My newest notices' } }, newest(2));

  const perPath = async (u: AuthUser) =>
    (await sql<{ path: string; count: number }>`SELECT path, count(*)::int AS count FROM basic_todo WHERE ${me(u)} AND state = 0 AND path IS NOT NULL GROUP BY path ORDER BY path`.execute(db)).rows;
  app.get(`${base}/myTodoPath`, { schema: { tags, summary: 'Open to-dos per menu path' } }, async (req) => ok(await perPath(req.user!), undefined, req.lang));
  app.get(`${base}/countNumber`, { schema: { tags, summary: 'Open to-dos per menu path as {path: count} (menus’ todoNumber)' } }, async (req) => {
    const out: Record<string, number> = {};
    for (const r of await perPath(req.user!)) out[r.path] = r.count;
    return ok(out, undefined, req.lang);
  });

  app.get(`${base}/myPush`, { schema: { tags, summary: 'At most 10 to-dos and notices not pushed yet; marks them pushed' } }, async (req) => {
    const u = req.user!;
    const rows = await sql<Row>`
      UPDATE basic_todo SET push_time = now() WHERE id IN (
        SELECT id FROM basic_todo WHERE ${me(u)} AND state = 0 AND push_time IS NULL ORDER BY create_time DESC, id DESC LIMIT ${PUSH_MAX} FOR UPDATE SKIP LOCKED)
      RETURNING ${sql.raw(COLS)}`.execute(db);
    const records = rows.rows.map((x) => toTodo(x, req.lang)).sort((a, b) => String(b.createTime).localeCompare(String(a.createTime)) || String(b.id).localeCompare(String(a.id)));
    return ok(records, undefined, req.lang);
  });

  app.get(`${base}/allRead`, { schema: { tags, summary: 'Marks all my to-dos and notices read' } }, async (req) => {
    const res = await sql`UPDATE basic_todo SET is_read = 1 WHERE ${me(req.user!)} AND is_read = 0`.execute(db);
    return ok(Number(res.numAffectedRows ?? 0), undefined, req.lang);
  });

  /** The open task `taskId` of the caller's tenant, when the caller started its process or is an administrator. */
  const remindable = async (u: AuthUser, taskId: string) => {
    const t = (await sql<Row>`SELECT t.*, i.start_user AS instance_start_user FROM flow_task t JOIN flow_instance i ON i.id = t.instance_id
                                WHERE t.id = ${taskId}::bigint AND t.tenant_id = ${u.tenantId} AND t.end_time IS NULL`.execute(db)).rows[0];
    if (!t) throw new ApiError(404, 'notFound');
    if (!u.isAdmin && String(t.instance_start_user) !== u.userId) throw new ApiError(403, 'forbidden');
    return t;
  };
  app.get(`${base}/againTodoParam`, { schema: { tags, summary: 'Who a reminder of an open task would reach' } }, async (req) => {
    const u = req.user!;
    const taskId = idParam(req.query as Row, 'taskId');
    await remindable(u, taskId);
    const rows = await sql<Row>`SELECT t.user_id::text AS user_id, coalesce(nullif(b.real_name, ''), b.name, b.account) AS user_name FROM basic_todo t
                                  JOIN blade_user b ON b.id = t.user_id WHERE t.tenant_id = ${u.tenantId} AND t.task_id = ${taskId}::bigint AND t.state = 0 AND t.is_deleted = 0 ORDER BY t.user_id`.execute(db);
    return ok({ taskId, users: rows.rows.map((r) => ({ userId: r.user_id, userName: r.user_name })) }, undefined, req.lang);
  });
  app.get(`${base}/sendAgainTodo`, { schema: { tags, summary: 'Pushes the open to-dos of a task again (a reminder)' } }, async (req) => {
    const u = req.user!;
    const taskId = idParam(req.query as Row, 'taskId');
    await remindable(u, taskId);
    const res = await sql`UPDATE basic_todo SET push_time = NULL, is_read = 0, update_time = now() WHERE tenant_id = ${u.tenantId} AND task_id = ${taskId}::bigint AND state = 0 AND is_deleted = 0`.execute(db);
    return ok(Number(res.numAffectedRows ?? 0), req.lang === 'en' ? 'Reminder sent' : '已再次提醒', req.lang);
  });

  app.post(`${base}/remove`, { schema: { tags, summary: 'Removes my own to-dos and notices' } }, async (req) => {
    const raw = (req.query as Row).ids;
    const ids = typeof raw === 'string' ? raw.split(',').map((s) => s.trim()).filter(Boolean) : [];
    if (ids.length === 0) throw new ApiError(400, 'missingParam', { param: 'ids' });
    if (ids.some((i) => !isId(i))) throw new ApiError(400, 'badParam', { param: 'ids' });
    const res = await sql`UPDATE basic_todo SET is_deleted = 1, update_time = now() WHERE id = ANY(${ids}::bigint[]) AND ${me(req.user!)}`.execute(db);
    return ok(Number(res.numAffectedRows ?? 0), undefined, req.lang);
  });

  app.post(`${base}/submit`, { schema: { tags, summary: 'Administrators: sends a notice to users of the tenant' } }, async (req) => {
    const u = req.user!;
    if (!u.isAdmin) throw new ApiError(403, 'forbidden');
    const b = (req.body ?? {}) as Row;
    if (typeof b !== 'object' || Array.isArray(b)) throw new ApiError(400, 'bodyNotObject');
    const title = typeof b.title === 'string' ? b.title.trim() : '';
    if (!title) throw new ApiError(400, { zh: '请输入标题', en: 'Please enter the title' });
    if (title.length > 200) throw new ApiError(400, { zh: '标题不能超过200个字符', en: 'The title must be at most 200 characters' });
    const content = typeof b.content === 'string' ? b.content.trim().slice(0, 1000) : null;
    const path = typeof b.path === 'string' && b.path.startsWith('/') ? b.path.slice(0, 255) : null;
    const userIds = (Array.isArray(b.userIds) ? b.userIds.map(String) : typeof b.userIds === 'string' ? b.userIds.split(',') : []).map((s: string) => s.trim()).filter(Boolean);
    if (userIds.length === 0) throw new ApiError(400, 'missingParam', { param: 'userIds' });
    if (userIds.some((i: string) => !isId(i))) throw new ApiError(400, 'badParam', { param: 'userIds' });
    const known = (await sql<{ id: string }>`SELECT id::text AS id FROM blade_user WHERE tenant_id = ${u.tenantId} AND is_deleted = 0 AND id = ANY(${userIds}::bigint[])`.execute(db)).rows.map((r) => r.id);
    if (known.length !== new Set(userIds).size) throw new ApiError(400, 'badParam', { param: 'userIds' });
    // a notice reaches the users whose `notice` setting has the site channel; SMS / e-mail as they chose
    const channels = await channelsOfUsers(db, u.tenantId, known, 'notice');
    const site = known.filter((x) => (channels.get(x) ?? ['site']).includes('site'));
    const ids = site.map(() => nextId());
    await sql`INSERT INTO basic_todo (id, tenant_id, user_id, title, content, path, type, create_user, create_dept)
              SELECT i, ${u.tenantId}, x, ${title}, ${content}, ${path}, ${path ? 1 : 2}, ${u.userId}::bigint, ${u.deptId || null}::bigint
                FROM unnest(${ids}::bigint[], ${site}::bigint[]) AS y(i, x)`.execute(db);
    await sendOut(db, u.tenantId, channels, title, content);
    return ok(site.length, undefined, req.lang);
  });
  void org;
}
