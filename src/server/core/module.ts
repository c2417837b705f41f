/**
 * The shape every server module has (DESIGN §3): what is not generic, one folder per area of the spec, listed
 * once in src/server/app.ts (NocoBase's plugin lifecycle is the model, without its base-class sprawl).
 *
 * - `name`: the area (`system`, `basic`, `flow` …), used in logs;
 * - `routes(app, kernel)`: mounts the module's own endpoints and registers its engine hooks and workflow
 *   flows (`kernel.engine.hooks`, `kernel.actions.registerFlow`); called once per app, before the generic
 *   resource endpoints and the workflow action endpoints are mounted;
 * - `migrations`: optional, the module's own tables (`{ '0001_name': { up } }`, applied after the core's as
 *   `<name>/0001_name`, src/server/core/db/migrate.ts);
 * - `seed(kernel)`: optional, fills an empty database at start (after migrations and table sync).
 *
 * A module never imports another module's internals: what two modules share lives in core/ or resources/.
 */
import type { FastifyInstance } from 'fastify';
import type { Kernel } from '../app.js';
import type { ModuleMigrations } from './db/migrate.js';

export interface Module {
  name: string;
  migrations?: ModuleMigrations;
  routes(app: FastifyInstance, kernel: Kernel): void | Promise<void>;
  seed?(kernel: Kernel): Promise<void>;
}
