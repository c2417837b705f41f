/**
 * The workflow module (DESIGN §8 Workflow, To-dos and push): BPMN 2.0 processes executed by bpmn-engine and
 * kept in PostgreSQL (runtime.ts), their definitions (deploy.ts: the shipped files of schemas/flows deployed
 * at start; manager.ts: upload, deploy, versions, instances, history), the generic binding of resources that
 * name a `flow` (binding.ts: the ActionRunner's process binding and the per-resource workflow endpoints) and
 * the to-dos and push messages every task and notice gives (todo.ts, /api/basic/todo/*: texts from the to-do
 * templates, delivery by the users' message settings); process timers (due
 * dates, reminders) are pg-boss jobs that survive restarts (timers.ts). Tasks done by each of the users a
 * related resource names (parts.ts) are read again through an every-resource hook whenever a row of such a
 * resource is written while their step waits.
 */
import type { Module } from '../../core/module.js';
import { migrations } from './migrations.js';
import { deployShipped } from './deploy.js';
import { FlowRuntime } from './runtime.js';
import { FlowBinding } from './binding.js';
import { registerManagerRoutes } from './manager.js';
import { createTaskTodos, registerTodoRoutes } from './todo.js';
import { todoPort } from '../../core/todo-port.js';
import { FlowTimers } from './timers.js';
import { sourceReader } from './parts.js';
import { sql, type Db } from '../../core/db/index.js';
import type { AuthUser } from '../../core/context.js';

type Row = Record<string, unknown>;

export const module: Module = {
  name: 'flow',
  migrations,
  async routes(app, k) {
    const db = k.database.db;
    await deployShipped(db); // idempotent: a file deploys again only when its text changed
    const runtime = new FlowRuntime(db, k.org);
    await new FlowTimers(k.jobs.boss, db, runtime, (l) => app.log.warn(l)).start(); // timers survive restarts (pg-boss)
    // tasks done by each of the users a related resource names (parts.ts): read through the registry, and read
    // again whenever a row of such a resource is written while its step waits
    runtime.parts.reader = sourceReader(k.engine.registry);
    const syncParts = async (trx: Db, user: AuthUser, resource: string, rows: () => Row[] | Promise<Row[]>) => {
      // every write of every resource asks; the partial index flow_task_source_idx answers at once when none waits
      const waits = await sql`SELECT 1 FROM flow_task WHERE tenant_id = ${user.tenantId} AND candidate_source = ${resource} AND end_time IS NULL LIMIT 1`.execute(trx);
      if (waits.rows.length === 0) return;
      const written = await rows();
      const config = async (instanceId: string) => {
        const inst = (await sql<Row>`SELECT definition_id::text AS d, variables FROM flow_instance WHERE id = ${instanceId}::bigint`.execute(trx)).rows[0];
        if (!inst) return null;
        const def = await runtime.definition(trx, String(inst.d));
        const vars = inst.variables as Row;
        return { cfg: def.config.tasks, processName: def.name, processNameEn: def.config.nameEn ?? null, vars, path: (vars.todoPath as string | null) ?? null };
      };
      await runtime.parts.sync(trx, user, resource, written, config, async (instanceId, executionId, summary) => {
        await runtime.resumeParts(trx, instanceId, executionId, summary, user);
      });
    };
    k.engine.hooksAll({
      async afterSubmit(c) {
        await syncParts(c.trx, c.user, c.resource.schema.name, () => [c.saved, ...(c.existing ? [c.existing] : [])]);
      },
      async afterRemove(c) {
        const r = c.resource;
        await syncParts(c.trx, c.user, r.schema.name, async () => {
          const rows = (await sql<Row>`SELECT * FROM ${sql.table(r.schema.table)} WHERE ${sql.ref(r.keyColumn)}::text = ANY(${c.ids}::text[])`.execute(c.trx)).rows;
          return rows.map((x) => Object.fromEntries(Object.entries(x).map(([col, v]) => [r.byColumn.get(col)?.field ?? col, v])));
        });
      },
    });
    const binding = new FlowBinding(db, k.engine, k.org, runtime, k.actions);
    k.actions.registerProcess(binding);
    binding.mount(app);
    registerManagerRoutes(app, db, k.engine);
    registerTodoRoutes(app, db, k.org);
    // other modules hand users work as to-dos through core/todo-port.ts (spider: a finished crawl)
    todoPort.create = createTaskTodos;
  },
};
