/**
 * Reading and checking BPMN 2.0 files (DESIGN §8 Workflow), before anything is stored:
 *
 * - `parseBpmn(xml)`: parses with bpmn-moddle (the BPMN 2.0 meta-model bpmn-engine itself runs on) and answers
 *   every executable process of the file with what the engine needs besides the BPMN semantics: per user task
 *   its assignee and candidates (`TaskConfig`). Refused (`BpmnError`, a message in zh and en naming the problem)
 *   are: text that is not XML or not BPMN 2.0 definitions, unresolved references (a sequence flow to a missing
 *   node), a process without id or start event, a sequence flow condition this evaluator cannot read, an
 *   expression in a task attribute it cannot read, and a file with no executable process.
 * - User task attributes are read by local name whatever their namespace, so files drawn for Flowable or
 *   Camunda work (`flowable:assignee`, `camunda:candidateGroups`) as well as ours (`kc:`):
 *   `assignee` (a user id or `${variable}`), `candidateGroups` / `candidateRoles` (comma list of role aliases),
 *   `candidateDepts` (comma list of department ids or `${variable}` holding ids, e.g. `${companyChain}`),
 *   `dueDays` (days until the task is due, shown with it).
 * - Tasks done by each of several users (multi-instance, parallel; parts.ts): `candidateUsers` (comma list of
 *   user ids or `${variable}` holding ids) or `candidateUsersFrom="<resource>:<link field>:<user field>"` — the
 *   users named by `<user field>` in the live rows of `<resource>` (same tenant) whose `<link field>` is the
 *   process's business record, e.g. `kc:candidateUsersFrom="project/expert:projectId:expertId"`: the experts
 *   picked for the project. Each user gets their own part (a task they alone may complete: 403 for anyone else);
 *   the process goes on after the last part, with every part's outcome and comment (and the user's row) in the
 *   variable `parts.<task id>`. The rows are read again whenever one of them is written while the step waits:
 *   a user picked later gets a part, a user whose row goes loses an open part. No user yet: the task waits with
 *   `pickerRoles` / `pickerDepts` (default: `candidateRoles` / `candidateDepts`) — the people who pick, who see
 *   it in their to-do list and cannot complete it (400) until someone is picked. `partDone` (a condition over
 *   `row`, the user's row, and the process variables, e.g. `${row.reviewStatus == 1}`) must hold before a user
 *   completes their part (400 otherwise). This is BPMN's `multiInstanceLoopCharacteristics` (isSequential=false,
 *   completion when all are done) with the collection read from the database instead of fixed on entry: the
 *   experts of a project are picked while its review step waits, which a collection fixed on entry cannot see.
 * - English names (every user-facing text exists in zh and en): `kc:nameEn` on a process and on a user task
 *   gives the English of its `name` (the to-dos' English texts, todo.ts); without it the name serves both.
 * - Timers are BPMN's own: a `timerEventDefinition` (`timeDuration` PT2H / P3D, `timeDate`, `timeCycle`) on an
 *   intermediate catch event or a boundary event of a user task; an interrupting boundary timer is a due date
 *   (the task is cancelled and the flow goes on from the event), a non-interrupting one (`cancelActivity=
 *   "false"`) a reminder (the task's to-dos are pushed again). They survive restarts (timers.ts).
 * - `evaluate(expr, vars)`: the gateway conditions — `${outcome == 'approve'}`, `${record.level >= 3 &&
 *   outcome != 'reject'}`: comparisons (== != > >= < <=) of a variable path (`a.b.c`) with a quoted string,
 *   a number, true/false/null or another path, combined with && || ! and parentheses. No code is run (no
 *   eval, no vm): a condition is data.
 */
import { loadBpmnModdle } from '../../core/lazy-libs.js';

export class BpmnError extends Error {
  constructor(readonly zh: string, readonly en: string) {
    super(zh);
  }
}

export interface TaskConfig {
  name: string | null;
  /** the English name (`kc:nameEn`), when the file gives one */
  nameEn?: string;
  assignee?: string;
  candidateRoles: string[];
  candidateDepts: string[];
  dueDays?: number;
  /** users who each do a part (module comment): ids or `${variable}`; absent in files deployed before */
  candidateUsers?: string[];
  /** the related resource whose rows name the users who each do a part (module comment) */
  candidateUsersFrom?: CandidateSource;
  /** the condition a user's row must meet before they complete their part */
  partDone?: string;
  /** who picks the users while none is picked (default: the candidate roles and departments) */
  pickerRoles?: string[];
  pickerDepts?: string[];
}

/** `kc:candidateUsersFrom`: rows of `resource` whose `link` field is the business id name users in `user`. */
export interface CandidateSource {
  resource: string;
  link: string;
  user: string;
}

const SOURCE = /^([a-z][\w-]*(?:\/[\w-]+)*):([A-Za-z_]\w{0,63}):([A-Za-z_]\w{0,63})$/;

export interface ProcessInfo {
  key: string;
  name: string;
  /** the English name (`kc:nameEn`), when the file gives one */
  nameEn?: string;
  /** user task id → its configuration */
  tasks: Record<string, TaskConfig>;
  /**
   * every flow node id → its name and BPMN type (for the history of nodes the engine does not name); a
   * boundary event also names the task it is attached to and whether it interrupts it (`cancelActivity`,
   * BPMN 2.0 §10.5.4, default true) — a non-interrupting timer on a user task is a reminder (runtime.ts)
   */
  nodes: Record<string, { name: string | null; type: string; attachedTo?: string; cancelActivity?: boolean; timer?: boolean }>;
  /** true when the file carries a diagram (BPMNDI) bpmn-js can draw */
  hasDiagram: boolean;
}

type Moddle = { $type: string; id?: string; name?: string; $attrs?: Record<string, string>; [k: string]: unknown };

/** The value of attribute `local` in any namespace (`kc:assignee`, `flowable:assignee`, `assignee`). */
function attr(el: Moddle, ...locals: string[]): string | undefined {
  const attrs = el.$attrs ?? {};
  for (const [k, v] of Object.entries(attrs)) {
    const local = k.includes(':') ? k.slice(k.indexOf(':') + 1) : k;
    if (locals.includes(local) && !k.startsWith('xmlns')) return String(v).trim();
  }
  const direct = locals.map((l) => el[l]).find((v) => typeof v === 'string');
  return typeof direct === 'string' ? direct.trim() : undefined;
}

const list = (s: string | undefined) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : []);
const EXPR = /^\$\{\s*([A-Za-z_][\w.]*)\s*\}$/;

/** Parses and checks a BPMN 2.0 file (see the module comment); throws BpmnError. */
export async function parseBpmn(xml: string): Promise<ProcessInfo[]> {
  if (typeof xml !== 'string' || xml.trim() === '') throw new BpmnError('流程文件为空', 'The process file is empty');
  const BpmnModdle = await loadBpmnModdle(); // before the try: not the file's fault
  let parsed: { rootElement: Moddle; warnings: Array<{ message: string }> };
  try {
    parsed = (await new BpmnModdle().fromXML(xml.trim())) as unknown as typeof parsed;
  } catch (e) {
    const why = String((e as Error).message).split('\n')[0];
    throw new BpmnError(`不是有效的 BPMN 2.0 文件：${why}`, `Not a valid BPMN 2.0 file: ${why}`);
  }
  const root = parsed.rootElement;
  if (!root || root.$type !== 'bpmn:Definitions') throw new BpmnError('不是有效的 BPMN 2.0 文件：缺少 definitions 根元素', 'Not a valid BPMN 2.0 file: the definitions root element is missing');
  const unresolved = parsed.warnings.find((w) => w.message.startsWith('unresolved reference'));
  if (unresolved) throw new BpmnError(`流程文件引用了不存在的节点：${unresolved.message}`, `The process file refers to a missing node: ${unresolved.message}`);
  const hasDiagram = Array.isArray(root.diagrams) && (root.diagrams as unknown[]).length > 0;
  const out: ProcessInfo[] = [];
  for (const el of (root.rootElements as Moddle[] | undefined) ?? []) {
    if (el.$type !== 'bpmn:Process' || el.isExecutable === false) continue;
    if (!el.id || !/^[A-Za-z_][\w-]{0,63}$/.test(el.id)) throw new BpmnError(`流程标识无效：${el.id ?? ''}`, `Invalid process id: ${el.id ?? ''}`);
    const elements = (el.flowElements as Moddle[] | undefined) ?? [];
    if (!elements.some((x) => x.$type === 'bpmn:StartEvent')) throw new BpmnError(`流程 ${el.id} 没有开始事件`, `Process ${el.id} has no start event`);
    const tasks: Record<string, TaskConfig> = {};
    const nodes: ProcessInfo['nodes'] = {};
    for (const x of elements) {
      if (!x.id) continue;
      if (x.$type === 'bpmn:SequenceFlow') {
        const cond = (x.conditionExpression as Moddle | undefined)?.body;
        if (typeof cond === 'string' && cond.trim() !== '') {
          try {
            compile(cond);
          } catch (e) {
            throw new BpmnError(`连线 ${x.id} 的条件无法识别：${cond}（${(e as Error).message}）`, `The condition of sequence flow ${x.id} cannot be read: ${cond} (${(e as Error).message})`);
          }
        }
        continue;
      }
      nodes[x.id] = { name: x.name ?? null, type: x.$type.replace(/^bpmn:/, '') };
      if (x.$type === 'bpmn:BoundaryEvent') {
        const timer = ((x.eventDefinitions as Moddle[] | undefined) ?? []).some((d) => d.$type === 'bpmn:TimerEventDefinition');
        Object.assign(nodes[x.id], { attachedTo: (x.attachedToRef as Moddle | undefined)?.id, cancelActivity: x.cancelActivity !== false, timer });
      }
      if (x.$type !== 'bpmn:UserTask') continue;
      const assignee = attr(x, 'assignee');
      const depts = list(attr(x, 'candidateDepts'));
      for (const v of [assignee, ...depts]) {
        if (v && v.includes('$') && !EXPR.test(v)) throw new BpmnError(`任务 ${x.id} 的表达式无法识别：${v}`, `An expression of task ${x.id} cannot be read: ${v}`);
      }
      const due = attr(x, 'dueDays');
      const nameEn = attr(x, 'nameEn');
      tasks[x.id] = {
        name: x.name ?? null,
        ...(nameEn ? { nameEn: nameEn.slice(0, 200) } : {}),
        ...(assignee ? { assignee } : {}),
        candidateRoles: [...list(attr(x, 'candidateGroups')), ...list(attr(x, 'candidateRoles'))],
        candidateDepts: depts,
        ...(due && /^\d{1,4}$/.test(due) ? { dueDays: Number(due) } : {}),
        ...partsConfig(x),
      };
    }
    const processEn = attr(el, 'nameEn');
    out.push({ key: el.id, name: el.name || el.id, ...(processEn ? { nameEn: processEn.slice(0, 200) } : {}), tasks, nodes, hasDiagram });
  }
  if (out.length === 0) throw new BpmnError('流程文件中没有可执行的流程', 'The file holds no executable process');
  return out;
}

/** The multi-instance attributes of user task `x` (module comment); throws BpmnError on one it cannot read. */
function partsConfig(x: Moddle): Partial<TaskConfig> {
  const out: Partial<TaskConfig> = {};
  const users = list(attr(x, 'candidateUsers'));
  for (const v of users) {
    if (!/^\d{1,19}$/.test(v) && !EXPR.test(v)) throw new BpmnError(`任务 ${x.id} 的候选用户无法识别：${v}`, `A candidate user of task ${x.id} cannot be read: ${v}`);
  }
  if (users.length) out.candidateUsers = users;
  const from = attr(x, 'candidateUsersFrom');
  if (from) {
    const m = SOURCE.exec(from);
    if (!m) throw new BpmnError(`任务 ${x.id} 的候选用户来源无法识别：${from}（格式：资源:关联字段:用户字段）`, `The candidate user source of task ${x.id} cannot be read: ${from} (format: resource:link field:user field)`);
    out.candidateUsersFrom = { resource: m[1], link: m[2], user: m[3] };
  }
  const done = attr(x, 'partDone');
  if (done) {
    try {
      compile(done);
    } catch (e) {
      throw new BpmnError(`任务 ${x.id} 的完成条件无法识别：${done}（${(e as Error).message}）`, `The part condition of task ${x.id} cannot be read: ${done} (${(e as Error).message})`);
    }
    out.partDone = done;
  }
  const pickerRoles = list(attr(x, 'pickerRoles'));
  const pickerDepts = list(attr(x, 'pickerDepts'));
  for (const v of pickerDepts) if (v.includes('$') && !EXPR.test(v)) throw new BpmnError(`任务 ${x.id} 的表达式无法识别：${v}`, `An expression of task ${x.id} cannot be read: ${v}`);
  if (pickerRoles.length) out.pickerRoles = pickerRoles;
  if (pickerDepts.length) out.pickerDepts = pickerDepts;
  return out;
}

/** The value at `path` (`record.level`) in `vars`. */
export function lookup(vars: Record<string, unknown>, path: string): unknown {
  let cur: unknown = vars;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Resolves an attribute value: `${path}` → the variable, else the text itself. */
export function resolveValue(value: string, vars: Record<string, unknown>): unknown {
  const m = EXPR.exec(value);
  return m ? lookup(vars, m[1]) : value;
}

// ---- conditions: a small recursive-descent parser over tokens ----

type Tok = { t: 'str' | 'num' | 'id' | 'op' | 'lp' | 'rp' | 'lit'; v: string };
type Node =
  | { k: 'val'; v: unknown }
  | { k: 'var'; path: string }
  | { k: 'not'; e: Node }
  | { k: 'bin'; op: string; a: Node; b: Node };

function tokenize(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      const end = src.indexOf(c, i + 1);
      if (end < 0) throw new Error('unterminated string');
      toks.push({ t: 'str', v: src.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    const two = src.slice(i, i + 2);
    if (['==', '!=', '>=', '<=', '&&', '||'].includes(two)) {
      toks.push({ t: 'op', v: two });
      i += 2;
      continue;
    }
    if (c === '>' || c === '<' || c === '!') {
      toks.push({ t: 'op', v: c });
      i++;
      continue;
    }
    if (c === '(' || c === ')') {
      toks.push({ t: c === '(' ? 'lp' : 'rp', v: c });
      i++;
      continue;
    }
    const num = /^-?\d+(\.\d+)?/.exec(src.slice(i));
    if (num) {
      toks.push({ t: 'num', v: num[0] });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][\w.]*/.exec(src.slice(i));
    if (id) {
      toks.push({ t: ['true', 'false', 'null'].includes(id[0]) ? 'lit' : 'id', v: id[0] });
      i += id[0].length;
      continue;
    }
    throw new Error(`unexpected "${c}"`);
  }
  return toks;
}

/** Compiles `${…}` into a tree; throws with the reason when it is not a condition of the grammar. */
export function compile(expr: string): Node {
  const m = /^\s*\$\{([\s\S]*)\}\s*$/.exec(expr);
  if (!m) throw new Error('not a ${…} expression');
  const toks = tokenize(m[1]);
  let p = 0;
  const peek = () => toks[p];
  const orExpr = (): Node => {
    let a = andExpr();
    while (peek()?.v === '||') {
      p++;
      a = { k: 'bin', op: '||', a, b: andExpr() };
    }
    return a;
  };
  const andExpr = (): Node => {
    let a = unary();
    while (peek()?.v === '&&') {
      p++;
      a = { k: 'bin', op: '&&', a, b: unary() };
    }
    return a;
  };
  const unary = (): Node => {
    if (peek()?.t === 'op' && peek().v === '!') {
      p++;
      return { k: 'not', e: unary() };
    }
    const a = operand();
    const o = peek();
    if (o?.t === 'op' && ['==', '!=', '>', '>=', '<', '<='].includes(o.v)) {
      p++;
      return { k: 'bin', op: o.v, a, b: operand() };
    }
    return a;
  };
  const operand = (): Node => {
    const tk = toks[p++];
    if (!tk) throw new Error('unexpected end');
    if (tk.t === 'lp') {
      const e = orExpr();
      if (toks[p++]?.t !== 'rp') throw new Error('missing )');
      return e;
    }
    if (tk.t === 'str') return { k: 'val', v: tk.v };
    if (tk.t === 'num') return { k: 'val', v: Number(tk.v) };
    if (tk.t === 'lit') return { k: 'val', v: tk.v === 'true' ? true : tk.v === 'false' ? false : null };
    if (tk.t === 'id') return { k: 'var', path: tk.v };
    throw new Error(`unexpected "${tk.v}"`);
  };
  const tree = orExpr();
  if (p !== toks.length) throw new Error(`unexpected "${toks[p].v}"`);
  return tree;
}

function run(n: Node, vars: Record<string, unknown>): unknown {
  switch (n.k) {
    case 'val':
      return n.v;
    case 'var':
      return lookup(vars, n.path);
    case 'not':
      return !run(n.e, vars);
    case 'bin': {
      if (n.op === '&&') return Boolean(run(n.a, vars)) && Boolean(run(n.b, vars));
      if (n.op === '||') return Boolean(run(n.a, vars)) || Boolean(run(n.b, vars));
      const a = run(n.a, vars);
      const b = run(n.b, vars);
      // values from records and requests arrive as strings or numbers: compare numbers as numbers, else as text
      const num = typeof a === 'number' || typeof b === 'number';
      const x = num && a !== null && b !== null && a !== '' && b !== '' ? Number(a) : a;
      const y = num && a !== null && b !== null && a !== '' && b !== '' ? Number(b) : b;
      switch (n.op) {
        case '==':
          return x === y || (x != null && y != null && String(x) === String(y));
        case '!=':
          return !(x === y || (x != null && y != null && String(x) === String(y)));
        case '>':
          return (x as number) > (y as number);
        case '>=':
          return (x as number) >= (y as number);
        case '<':
          return (x as number) < (y as number);
        default:
          return (x as number) <= (y as number);
      }
    }
  }
}

const compiled = new Map<string, Node>();

/** Evaluates a condition against `vars` (see the module comment). */
export function evaluate(expr: string, vars: Record<string, unknown>): boolean {
  let tree = compiled.get(expr);
  if (!tree) {
    tree = compile(expr);
    if (compiled.size > 1000) compiled.clear();
    compiled.set(expr, tree);
  }
  return Boolean(run(tree, vars));
}
