/**
 * The workflow module (DESIGN §8 Workflow, To-dos and push): BPMN 2.0 processes executed by bpmn-engine and
 * kept in PostgreSQL (runtime.ts), their definitions (deploy.ts: the shipped files of schemas/flows deployed
 * at start; manager.ts: upload, deploy, versions, instances, history), the generic binding of resources that
 * name a `flow` (binding.ts: the ActionRunner's process binding and the per-resource workflow endpoints) and
 * the to-dos and push messages every task and notice gives (todo.ts, /api/basic/todo/*: texts from the to-do
 * templates, delivery by the users' message settings); process timers (due
 * dates, reminders) are pg-boss jobs that survive restarts (timers.ts).
 */
import type { Module } from '../../core/module.js';
import { migrations } from './migrations.js';
import { deployShipped } from './deploy.js';
import { FlowRuntime } from './runtime.js';
import { FlowBinding } from './binding.js';
import { registerManagerRoutes } from './manager.js';
import { registerTodoRoutes, todoDelivery } from './todo.js';
import { channelsOfUsers } from '../system/msgsetting.js';
import { FlowTimers } from './timers.js';

export const module: Module = {
  name: 'flow',
  migrations,
  async routes(app, k) {
    const db = k.database.db;
    await deployShipped(db); // idempotent: a file deploys again only when its text changed
    const runtime = new FlowRuntime(db, k.org);
    await new FlowTimers(k.jobs.boss, db, runtime, (l) => app.log.warn(l)).start(); // timers survive restarts (pg-boss)
    const binding = new FlowBinding(db, k.engine, k.org, runtime, k.actions);
    k.actions.registerProcess(binding);
    binding.mount(app);
    registerManagerRoutes(app, db, k.engine);
    registerTodoRoutes(app, db, k.org);
    // who receives which kinds, by which channels: the users' message settings (system/usermsgsetting)
    todoDelivery.channels = (d, tenantId, users, kind) => channelsOfUsers(k.engine, d, tenantId, users, kind);
  },
};
