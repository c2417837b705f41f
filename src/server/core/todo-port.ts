/**
 * To-dos for work of other modules (DESIGN §3: a module never imports another's internals — this port lets a
 * module hand a user work without importing the flow module).
 *
 * The flow module owns the to-do rows (flow/todo.ts: the to-do list, the home page's cards, pushes, SMS and
 * e-mail by the users' message settings) and fills `todoPort.create` when its routes mount; a module with work
 * for someone (spider: a finished crawl, spider/manage.ts) calls `createTodos`. A to-do is a `TodoRequest`:
 * zh and en names, the business record it is about, and its users — `assignee`, or the users of `roles` within
 * `depts`. Answers the number of to-dos created (0 on a kernel without the flow module).
 */
import type { AuthUser, OrgCache } from './context.js';
import type { Db } from './db/index.js';

export interface TodoRequest {
  tenantId: string;
  taskId: string;
  taskName: string | null;
  processName: string;
  /** the English names of the process and the task (bpmn.ts `kc:nameEn`; the zh names when absent) */
  processNameEn?: string | null;
  taskNameEn?: string | null;
  /** the process key: a task of a process takes the to-do template of its kind (module comment) */
  processKey?: string;
  /** who started the process, for the template's `{initiatorName}` */
  initiatorName?: string | null;
  businessType: string;
  businessId: string;
  businessName: string | null;
  assignee: string | null;
  roles: string[];
  depts: string[];
  path: string | null;
  from: AuthUser;
}

export const todoPort: { create: ((db: Db, org: OrgCache, t: TodoRequest) => Promise<number>) | null } = { create: null };

/** Creates the to-dos of `t` through the flow module (see the module comment). */
export async function createTodos(db: Db, org: OrgCache, t: TodoRequest): Promise<number> {
  return todoPort.create ? todoPort.create(db, org, t) : 0;
}
