/**
 * Assembles the server: `startKernel` brings up the database (embedded or DATABASE_URL), migrates, loads
 * the schemas (the folder's, then the published versions of the schema store over them) and syncs their
 * tables, seeds an empty database, and listens for what other nodes change (kc_cache, kc_schema);
 * `buildApp` creates the Fastify instance with the pipeline, the auth, system and module routes and the
 * generic resource endpoints.
 *
 * Tests build the same app over a test database (see tests/integration/global-setup.ts), so what they exercise is
 * what `npm start` serves.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import fastifyStatic from '@fastify/static';
import pg from 'pg';
import { repoRoot, type ServerConfig } from './core/config.js';
import { loadOrCreateSecrets } from './core/secrets.js';
import { startEmbedded, type EmbeddedDb } from './core/db/embedded.js';
import { openDatabase, type Database } from './core/db/index.js';
import { migrate } from './core/db/migrate.js';
import { TokenService } from './core/auth/tokens.js';
import { GrantCache, listenForCacheChanges, OrgCache } from './core/context.js';
import { Channels, CHANNEL, notify } from './core/channels.js';
import { ApiLogWriter, installPipeline } from './core/pipeline.js';
import { securityHeaders } from './core/security-headers.js';
import { installInputGuard } from './core/input-guard.js';
import { installApiScopeCheck } from './core/api-scope.js';
import { registerAuthRoutes } from './core/auth/routes.js';
import { Registry } from './resources/registry.js';
import { syncTables } from './resources/sync.js';
import { ResourceEngine } from './resources/engine.js';
import { SchemaStore } from './resources/store.js';
import { ActionRunner } from './resources/actions.js';
import { Jobs, registerJobRoutes } from './core/jobs.js';
import { OutboxDispatcher } from './core/outbox-dispatch.js';
import { smsProviderFromEnv } from './core/outbox.js';
import type { Module } from './core/module.js';
import { module as system } from './modules/system/index.js';
import { module as basic } from './modules/basic/index.js';
import { module as files } from './modules/files/index.js';
import { module as excel } from './modules/excel/index.js';
import { module as flow } from './modules/flow/index.js';
import { module as duplicate } from './modules/duplicate/index.js';
import { module as search } from './modules/search/index.js';
import { module as portal } from './modules/portal/index.js';
import { module as spider } from './modules/spider/index.js';
import { module as project } from './modules/project/index.js';
import { module as documents } from './modules/documents/index.js';
import { module as smartdoc } from './modules/smartdoc/index.js';

/** The server modules (DESIGN §3), listed once: each mounts its routes and registers its hooks and flows. */
export const MODULES: readonly Module[] = [system, basic, files, flow, excel, duplicate, search, portal, spider, project, documents, smartdoc];
import { seedIfEmpty, seedRegionsIfEmpty, type SeedResult } from './modules/system/seed/index.js';

export interface Kernel {
  config: ServerConfig;
  database: Database;
  embedded?: EmbeddedDb;
  registry: Registry;
  /** The schema store: published versions, drafts, and the reloads NOTIFY kc_schema triggers. */
  schemas: SchemaStore;
  engine: ResourceEngine;
  /** The schemas' workflow actions; modules register their flows (`actions.flow`) here. */
  actions: ActionRunner;
  tokens: TokenService;
  org: OrgCache;
  grants: GrantCache;
  apiLog: ApiLogWriter;
  listener: pg.Client;
  /** The LISTEN/NOTIFY channels over `listener` (core/channels.ts). */
  channels: Channels;
  seed: SeedResult;
  /**
   * Runs every module's `seed` again (each is idempotent and fills what a live tenant lacks): a tenant created
   * at run time gets its dictionaries, algorithms, search indexes … at once, not at the next start.
   */
  reseed(): Promise<void>;
  /** Background jobs (core/jobs.ts): pg-boss and the kc_job status rows; modules `define` their kinds. */
  jobs: Jobs;
  /** Delivers queued SMS / e-mail after their transaction committed (core/outbox-dispatch.ts). */
  outbox: OutboxDispatcher;
  close(): Promise<void>;
}

/** Starts everything below HTTP. `log` receives progress lines. */
export async function startKernel(config: ServerConfig, log: (line: string) => void = () => undefined): Promise<Kernel> {
  const secrets = loadOrCreateSecrets(config.dataDir);
  let embedded: EmbeddedDb | undefined;
  let url = config.databaseUrl;
  if (!url) {
    log(`starting the embedded PostgreSQL in ${path.join(config.dataDir, 'pg')} ...`);
    embedded = await startEmbedded({ dataDir: config.dataDir, port: config.pgPort, password: secrets.pgPassword, log: (l) => /FATAL|ERROR|PANIC/.test(l) && log(`[pg] ${l}`) });
    url = embedded.url;
  }
  const database = openDatabase(url, config.timeZone);
  try {
    const applied = await migrate(database.db, MODULES);
    if (applied.length) log(`migrations applied: ${applied.join(', ')}`);
    const registry = Registry.loadFolder();
    // the published versions (the designer's) replace the folder's before the tables are synced
    const schemas = new SchemaStore(database.db, registry, log);
    const overlaid = await schemas.overlay();
    if (overlaid.length) log(`published schemas served: ${overlaid.join(', ')}`);
    const report = await syncTables(database.db, registry.resources.values());
    if (report.created.length || report.added.length) log(`tables synced: created ${report.created.join(', ') || 'none'}; columns added ${report.added.length}`);
    const seed = await seedIfEmpty(database.db, config.dataDir);
    const regions = await seedRegionsIfEmpty(database.db);
    if (regions) log(`regions seeded: ${regions} (GB/T 2260)`);
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    const channels = new Channels(listener, log);
    const tokens = new TokenService(secrets.jwtKey, database.db);
    await tokens.start(listener);
    const org = new OrgCache(database.db);
    const grants = new GrantCache(database.db);
    await listenForCacheChanges(channels, org, grants);
    await schemas.listen(channels);
    const engine = new ResourceEngine(database.db, registry, org, grants, config.countBound, database.pool, (payload) => {
      notify(database.db, CHANNEL.cache, payload).catch(() => undefined);
    });
    await channels.subscribe(CHANNEL.cache, (payload) => {
      if (payload.startsWith('count:')) engine.counts.invalidate(payload.slice(6));
    });
    const actions = new ActionRunner(engine, org);
    const apiLog = new ApiLogWriter(database.db);
    const jobs = new Jobs(database.db, url, config.dataDir, log);
    await jobs.start();
    const outbox = new OutboxDispatcher(database.db, { sms: smsProviderFromEnv(), log });
    await outbox.start(channels);
    const purge = setInterval(() => void tokens.purgeExpired().catch(() => undefined), 10 * 60_000);
    purge.unref();
    // NOTIFY kc_schema reloads a published schema at once; this catches up with one a node missed
    const schemaResync = setInterval(() => void schemas.resync().catch(() => undefined), 30_000);
    schemaResync.unref();
    const kernel: Kernel = {
      config, database, embedded, registry, schemas, engine, actions, tokens, org, grants, apiLog, listener, channels, seed, jobs, outbox,
      async reseed() {
        for (const m of MODULES) await m.seed?.(kernel);
      },
      async close() {
        clearInterval(purge);
        clearInterval(schemaResync);
        await outbox.stop();
        await jobs.stop();
        await apiLog.close();
        await listener.end().catch(() => undefined);
        await database.close();
        if (embedded) await embedded.stop();
      },
    };
    for (const m of MODULES) await m.seed?.(kernel); // each module fills what it owns (idempotent)
    return kernel;
  } catch (e) {
    await database.close().catch(() => undefined);
    if (embedded) await embedded.stop().catch(() => undefined);
    throw e;
  }
}

/** Answers the client's index.html (never cached: it names the current build's assets), or 404 without a build. */
async function sendIndex(reply: import('fastify').FastifyReply) {
  if (!fs.existsSync(path.join(repoRoot, 'dist/client/index.html'))) {
    return reply.code(404).type('text/plain; charset=utf-8').send('The web client is not built: run npm start (it builds it) or npx vite build.');
  }
  reply.header('Cache-Control', 'no-cache');
  return reply.sendFile('index.html');
}

/** The Fastify app over a started kernel (not listening yet). */
export async function buildApp(k: Kernel, opts: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ? { level: 'warn' } : false,
    bodyLimit: k.config.bodyLimit,
    trustProxy: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
  });
  await app.register(formbody, { bodyLimit: k.config.bodyLimit });
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Kechuang API', description: 'Research and innovation management platform (科创)', version: '0.1.0' },
      components: { securitySchemes: { bladeAuth: { type: 'apiKey', in: 'header', name: 'Blade-Auth' } } },
    },
  });
  await app.register(securityHeaders); // CSP, nosniff, caching (DESIGN §11): before the pipeline's hooks
  installPipeline(app, { db: k.database.db, tokens: k.tokens, apiLog: k.apiLog, clientIndex: sendIndex });
  installInputGuard(app); // DESIGN §11: NUL characters in any query, path parameter or body field → 400
  installApiScopeCheck(app, k.grants); // DESIGN §5: the API scope check, after the token and user context
  registerAuthRoutes(app, { db: k.database.db, tokens: k.tokens, config: k.config });
  for (const m of MODULES) await m.routes(app, k);
  registerJobRoutes(app, k.jobs); // the job status endpoints the UI polls (core/jobs.ts)
  k.actions.mount(app); // the workflow actions the schemas declare, and the endpoints the flows registered
  k.engine.mount(app); // the generic endpoints of every resource, last: module routes win over the catch-all
  app.get('/api/docs', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  // the client build, when there is one: files are looked up at request time (a rebuild while the server runs
  // is served at once); a path that is not an API call and not a file is a client route → index.html
  const clientDir = path.join(repoRoot, 'dist/client');
  await app.register(fastifyStatic, { root: clientDir, prefix: '/', wildcard: true, index: false });
  app.get('/', { config: { public: true }, schema: { hide: true } }, async (_req, reply) => sendIndex(reply));
  return app;
}
