/**
 * Export of a crawl task's rows into a database table (spec 002 §7 `spider/task` testConnection,
 * getTableNames, getTableColumns, exportData, getExportStatus; `spider/exportconfig`; DESIGN §8 "Crawler";
 * issue 16 "Export").
 *
 * Where rows go (the "connection", body `exportConfigId`):
 * - absent / empty: the platform's own database, in the tenant's own PostgreSQL schema `spider_export_<tenant>`
 *   (created on first use) — never the platform's tables, never another tenant's schema;
 * - an id of `spider/exportconfig` of the caller's tenant: the PostgreSQL database at the URL an administrator
 *   typed there (schemas/spider/exportconfig.json: its password is write-only, kept apart from the URL and
 *   never answered). No endpoint takes a URL: a caller can only name a stored connection, so nothing but what
 *   the administrator typed is ever connected to.
 * - body `targetType: 'records'`: the platform's records of a resource with the `portalRecord` key (the portal's
 *   journal catalogue …) through the engine's submit, as export-records.ts says; `tableName` is then the
 *   resource's name and a mapping's `column` one of its fields.
 *
 * Endpoints (POST, body JSON; the caller's grant `spider_task_edit` on `spider/task`, 403 otherwise; a task or
 * connection of another tenant is 404):
 * - `testConnection` `{exportConfigId?}` → `{ok: true, database, version}`; 400 数据库连接失败：… otherwise;
 * - `getTableNames` `{exportConfigId?}` → `[{value: "schema.table", label}]` (base tables, ≤ 1000, sorted);
 * - `getTableColumns` `{exportConfigId?, tableName}` → `[{name, type, nullable}]` in column order;
 * - `exportData?id=` `{exportConfigId?, tableName, columns: [{field, column}], createTable?}` → `{jobId}`: the
 *   mapping is checked against the table's columns (`field` = a row field of the task's configuration, or
 *   `url` / `createTime`); with `createTable` a missing table of the own database is created (`id bigserial`
 *   plus one text column per mapping). The choice is stored on the task (exportConfigId, exportTable,
 *   exportColumns) and the `spider-export` job copies every collected row (batches of 200, values as
 *   parameters; identifiers quoted). Copying again copies again (no de-duplication in a foreign table).
 * - `GET getExportStatus?id=` → the task's last export job (JobView: status, progress, counts, error) or null.
 */
import pg from 'pg';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createOnce, sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import type { JobContext, JobOutcome, Jobs } from '../../core/jobs.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Registry } from '../../resources/registry.js';
import { isId } from '../../../shared/contract/ids.js';
import { TASK_STATUS } from './crawl.js';
import { exportToRecords, recordColumns, recordTarget, recordTargets } from './export-records.js';
import type { Lang } from '../../../shared/contract/lang.js';

export const EXPORT_JOB = 'spider-export';
export const EXPORT_CONFIG_RESOURCE = 'spider/exportconfig';

export const EXPORT_MESSAGES = {
  connect: { zh: '数据库连接失败：{0}', en: 'Could not connect to the database: {0}' },
  connection: { zh: '所选数据库连接不存在', en: 'The chosen database connection does not exist' },
  url: { zh: '连接地址须为 postgresql://用户@主机:端口/数据库', en: 'The connection URL must be postgresql://user@host:port/database' },
  table: { zh: '所选数据表不存在', en: 'The chosen table does not exist' },
  tableName: { zh: '表名须为小写字母、数字、下划线（不超过 63 个字符）', en: 'A table name is lower-case letters, digits and underscores (at most 63 characters)' },
  columns: { zh: '请设置 1 至 200 个字段映射，目标字段须存在且不重复', en: 'Map 1 to 200 fields; each target column must exist and be used once' },
  running: { zh: '任务正在运行，请在采集结束后导出', en: 'The task is running: export once the crawl has ended' },
  exporting: { zh: '该任务正在导出，请稍后', en: 'An export of this task is under way' },
  failed: { zh: '导出失败：{0}', en: 'The export failed: {0}' },
};

const fmt = (m: { zh: string; en: string }, x: string) => ({ zh: m.zh.replace('{0}', x), en: m.en.replace('{0}', x) });
const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;
const FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
type Row = Record<string, any>;

/** A place rows can go: the tenant's schema of the own database, or a stored connection. */
export interface Target {
  /** null = the platform's own database. */
  exportConfigId: string | null;
  tenantId: string;
}

/** The tenant's schema in the own database. Tenant ids are digits/letters (blade_tenant). */
export function ownSchema(tenantId: string): string {
  if (!/^[A-Za-z0-9]{1,12}$/.test(tenantId)) throw new ApiError(400, 'badParam', { param: 'tenantId' });
  return `spider_export_${tenantId.toLowerCase()}`;
}

/** Checks an administrator's connection URL; answers it without a password and the password it carried. */
export function checkUrl(raw: unknown): { url: string; password: string | null } {
  let u: URL;
  try {
    u = new URL(String(raw ?? ''));
  } catch {
    throw new ApiError(400, EXPORT_MESSAGES.url);
  }
  if (!['postgres:', 'postgresql:'].includes(u.protocol) || !u.hostname || !u.username || u.pathname.length < 2 || String(raw).length > 500) throw new ApiError(400, EXPORT_MESSAGES.url);
  const password = u.password ? decodeURIComponent(u.password) : null;
  u.password = '';
  return { url: u.href, password };
}

/** A query runner over the target: the own database (inside the tenant's schema) or a fresh pg client. */
interface Conn {
  query(text: string, params?: unknown[]): Promise<Row[]>;
  /** The schema a table must be in (own database), or null (any user schema of a stored connection). */
  schema: string | null;
  close(): Promise<void>;
}

/**
 * Creates the tenant's export schema when it is missing: once, even for two first calls at the same time (they
 * raced to a 500 on pg_namespace's unique index, found by no-500.test.ts; core/db `createOnce`).
 */
async function ensureSchema(db: Db, schema: string): Promise<void> {
  if ((await sql`SELECT 1 FROM pg_namespace WHERE nspname = ${schema}`.execute(db)).rows.length) return;
  await createOnce(db, schema, `CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(schema)}`);
}

async function open(db: Db, pool: pg.Pool, t: Target): Promise<Conn> {
  if (!t.exportConfigId) {
    const schema = ownSchema(t.tenantId);
    await ensureSchema(db, schema);
    return { schema, query: async (text, params) => (await pool.query(text, params as any[])).rows, close: async () => undefined };
  }
  const r = await sql<Row>`SELECT url, password FROM spider_exportconfig WHERE id = ${t.exportConfigId}::bigint AND tenant_id = ${t.tenantId} AND is_deleted = 0`.execute(db);
  const cfg = r.rows[0];
  if (!cfg) throw new ApiError(404, EXPORT_MESSAGES.connection);
  const u = new URL(checkUrl(cfg.url).url);
  if (cfg.password) u.password = encodeURIComponent(String(cfg.password));
  const client = new pg.Client({ connectionString: u.href, connectionTimeoutMillis: 5000, statement_timeout: 60_000, query_timeout: 60_000 } as pg.ClientConfig);
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    throw new ApiError(400, fmt(EXPORT_MESSAGES.connect, (e as Error).message.slice(0, 200) || String((e as Error & { code?: string }).code ?? '')));
  }
  return { schema: null, query: async (text, params) => (await client.query(text, params as any[])).rows, close: () => client.end().catch(() => undefined) };
}

/** The base tables a target offers: `schema.table`. */
async function tables(c: Conn): Promise<string[]> {
  const rows = await c.query(
    `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables WHERE table_type = 'BASE TABLE'
       AND table_schema NOT IN ('pg_catalog', 'information_schema') AND table_schema NOT LIKE 'pg\\_%'
       AND ($1::text IS NULL OR table_schema = $1) ORDER BY 1 LIMIT 1000`,
    [c.schema],
  );
  return rows.map((r) => String(r.name));
}

async function columns(c: Conn, table: string): Promise<Array<{ name: string; type: string; nullable: boolean }>> {
  const [schema, name] = splitTable(table);
  if (c.schema && schema !== c.schema) throw new ApiError(400, EXPORT_MESSAGES.table);
  const rows = await c.query(
    `SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
    [schema, name],
  );
  return rows.map((r) => ({ name: String(r.column_name), type: String(r.data_type), nullable: r.is_nullable === 'YES' }));
}

function splitTable(table: unknown): [string, string] {
  if (typeof table !== 'string' || table.length > 200) throw new ApiError(400, EXPORT_MESSAGES.table);
  const cut = table.indexOf('.');
  if (cut < 1 || table.includes('\u0000')) throw new ApiError(400, EXPORT_MESSAGES.table);
  return [table.slice(0, cut), table.slice(cut + 1)];
}

const quoted = (table: string) => splitTable(table).map((p) => pg.escapeIdentifier(p)).join('.');

function target(user: AuthUser, body: Row): Target {
  const id = body.exportConfigId;
  if (id === undefined || id === null || id === '') return { exportConfigId: null, tenantId: user.tenantId };
  if (typeof id !== 'string' || !isId(id)) throw new ApiError(400, 'badParam', { param: 'exportConfigId' });
  return { exportConfigId: id, tenantId: user.tenantId };
}

async function withConn<T>(db: Db, pool: pg.Pool, t: Target, fn: (c: Conn) => Promise<T>): Promise<T> {
  const c = await open(db, pool, t);
  try {
    return await fn(c);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new ApiError(400, fmt(EXPORT_MESSAGES.connect, (e as Error).message.slice(0, 200)));
  } finally {
    await c.close();
  }
}

export interface ExportParams {
  taskId: string;
  ref: string;
  target: Target;
  table: string;
  columns: Array<{ field: string; column: string }>;
  /** A records resource (export-records.ts) instead of a table. */
  records?: string;
  lang?: Lang;
}

/** The `spider-export` job (see the module comment). */
export function exportJob(db: Db, pool: pg.Pool, engine: ResourceEngine) {
  return async (ctx: JobContext<ExportParams>): Promise<JobOutcome> => {
    const p = ctx.params;
    if (p.records) return exportToRecords(db, engine, ctx, valueOf);
    const tenantId = ctx.owner.tenantId;
    const total = (await sql<Row>`SELECT count(*)::int AS n FROM spider_data WHERE tenant_id = ${tenantId} AND task_id = ${p.taskId}::bigint`.execute(db)).rows[0].n as number;
    const c = await open(db, pool, { ...p.target, tenantId });
    let written = 0;
    try {
      const cols = p.columns.map((m) => pg.escapeIdentifier(m.column)).join(', ');
      let after = '0';
      for (;;) {
        const r = await sql<Row>`SELECT id::text AS id, url, data, create_time FROM spider_data WHERE tenant_id = ${tenantId} AND task_id = ${p.taskId}::bigint AND id > ${after}::bigint ORDER BY id LIMIT 200`.execute(db);
        if (!r.rows.length) break;
        const values: unknown[] = [];
        const tuples = r.rows.map((row) => {
          const start = values.length;
          for (const m of p.columns) values.push(valueOf(row, m.field));
          return `(${p.columns.map((_, i) => `$${start + i + 1}`).join(', ')})`;
        });
        try {
          await c.query(`INSERT INTO ${quoted(p.table)} (${cols}) VALUES ${tuples.join(', ')}`, values);
        } catch (e) {
          return { error: fmt(EXPORT_MESSAGES.failed, (e as Error).message.slice(0, 200)).zh, result: { written, total } };
        }
        written += r.rows.length;
        after = r.rows[r.rows.length - 1].id;
        await ctx.report({ progress: total ? (100 * written) / total : 100, read: written, written });
      }
    } finally {
      await c.close();
    }
    await ctx.report({ progress: 100, read: written, written }, true);
    return { result: { written, total, table: p.table } };
  };
}

function valueOf(row: Row, field: string): unknown {
  if (field === 'url') return row.url;
  if (field === 'createTime') return row.create_time instanceof Date ? row.create_time.toISOString() : row.create_time;
  const v = (row.data as Row)?.[field];
  if (v === undefined || v === null) return null;
  return typeof v === 'object' ? JSON.stringify(v) : v;
}

export interface ExportDeps {
  db: Db;
  pool: pg.Pool;
  engine: ResourceEngine;
  registry: Registry;
  jobs: Jobs;
}

/** Mounts the endpoints of the module comment. */
export function registerExportRoutes(app: FastifyInstance, d: ExportDeps): void {
  const { db, pool, engine } = d;
  const tags = ['spider'];
  const task = () => d.registry.resources.get('spider/task')!;
  const body = (req: FastifyRequest): Row => {
    const b = req.body;
    if (b === undefined || b === null) return {};
    if (typeof b !== 'object' || Array.isArray(b)) throw new ApiError(400, 'bodyNotObject');
    return b as Row;
  };
  const taskId = (req: FastifyRequest) => {
    const v = (req.query as Row).id;
    if (typeof v !== 'string' || v === '') throw new ApiError(400, 'missingParam', { param: 'id' });
    if (!isId(v)) throw new ApiError(400, 'badParam', { param: 'id' });
    return v;
  };

  app.post('/api/spider/task/testConnection', { schema: { tags, summary: 'Crawl export: test a database connection' } }, async (req) => {
    const user = await engine.authorize(req.user, task(), 'edit');
    const out = await withConn(db, pool, target(user, body(req)), async (c) => {
      const r = await c.query(`SELECT current_database() AS database, split_part(version(), ' ', 2) AS version`);
      return { ok: true, database: r[0].database, version: r[0].version };
    });
    return ok(out, undefined, req.lang);
  });

  app.post('/api/spider/task/getTableNames', { schema: { tags, summary: 'Crawl export: the tables of a connection' } }, async (req) => {
    const user = await engine.authorize(req.user, task(), 'edit');
    if (body(req).targetType === 'records') return ok(await recordTargets(engine, user, req.lang), undefined, req.lang);
    const names = await withConn(db, pool, target(user, body(req)), tables);
    return ok(names.map((n) => ({ value: n, label: n })), undefined, req.lang);
  });

  app.post('/api/spider/task/getTableColumns', { schema: { tags, summary: 'Crawl export: the columns of a table' } }, async (req) => {
    const user = await engine.authorize(req.user, task(), 'edit');
    const b = body(req);
    if (b.targetType === 'records') return ok(recordColumns(await recordTarget(engine, user, b.tableName), req.lang), undefined, req.lang);
    const cols = await withConn(db, pool, target(user, b), (c) => columns(c, b.tableName));
    if (!cols.length) throw new ApiError(400, EXPORT_MESSAGES.table);
    return ok(cols, undefined, req.lang);
  });

  app.post('/api/spider/task/exportData', { schema: { tags, summary: 'Crawl export: copy the collected rows into a table (a job)' } }, async (req) => {
    const user = await engine.authorize(req.user, task(), 'edit');
    const id = taskId(req);
    const row = await engine.findOne(task(), user, id);
    if (!row) throw new ApiError(404, 'notFound');
    const b = body(req);
    const t = target(user, b);
    const mapping = Array.isArray(b.columns) ? (b.columns as Row[]) : [];
    const fields = new Set<string>(['url', 'createTime']);
    for (const rule of ((row.configData as Row | null)?.rules ?? []) as Row[]) for (const f of rule.fields ?? []) fields.add(String(f.name));
    const targets = mapping.map((m) => (m && typeof m === 'object' ? m.column : undefined));
    if (!mapping.length || mapping.length > 200 || mapping.some((m) => !m || typeof m !== 'object' || typeof m.field !== 'string' || !FIELD.test(m.field) || !fields.has(m.field))
      || targets.some((c) => typeof c !== 'string' || c.length > 63 || c.includes('\u0000')) || new Set(targets).size !== targets.length) {
      throw new ApiError(400, EXPORT_MESSAGES.columns);
    }
    if (row.taskStatus === TASK_STATUS.running) throw new ApiError(400, EXPORT_MESSAGES.running);
    const columnsMap = mapping.map((m) => ({ field: String(m.field), column: String(m.column) }));
    let table = typeof b.tableName === 'string' ? b.tableName : '';
    const records = b.targetType === 'records' ? await recordTarget(engine, user, table) : null;
    if (records) {
      const have = new Set(recordColumns(records, req.lang).map((x) => x.name));
      if (!columnsMap.every((m) => have.has(m.column))) throw new ApiError(400, EXPORT_MESSAGES.columns);
    } else await withConn(db, pool, t, async (c) => {
      if (b.createTable === true && c.schema) {
        if (!IDENT.test(table) || !columnsMap.every((m) => IDENT.test(m.column) && m.column !== 'id')) throw new ApiError(400, table && IDENT.test(table) ? EXPORT_MESSAGES.columns : EXPORT_MESSAGES.tableName);
        table = `${c.schema}.${table}`;
        // the own database (c.schema): created once even when two exports ask at the same time (core/db createOnce)
        await createOnce(db, table, `CREATE TABLE IF NOT EXISTS ${quoted(table)} (id bigserial PRIMARY KEY, ${columnsMap.map((m) => `${pg.escapeIdentifier(m.column)} text`).join(', ')})`);
      }
      if (!(await tables(c)).includes(table)) throw new ApiError(400, EXPORT_MESSAGES.table);
      const have = new Set((await columns(c, table)).map((x) => x.name));
      if (!columnsMap.every((m) => have.has(m.column))) throw new ApiError(400, EXPORT_MESSAGES.columns);
    });
    const busy = await sql<Row>`SELECT 1 FROM spider_task t JOIN kc_job j ON j.id = t.export_job_id::bigint WHERE t.id = ${id}::bigint AND t.tenant_id = ${user.tenantId} AND j.status IN ('queued', 'running')`.execute(db);
    if (busy.rows.length) throw new ApiError(400, EXPORT_MESSAGES.exporting);
    const params: ExportParams = { taskId: id, ref: id, target: t, table, columns: columnsMap, ...(records ? { records: records.schema.name, lang: req.lang } : {}) };
    const jobId = await d.jobs.enqueue(EXPORT_JOB, user, params, { title: String(row.name ?? '') });
    await sql`UPDATE spider_task SET export_config_id = ${records ? null : t.exportConfigId}::bigint, export_table = ${table}, export_columns = ${JSON.stringify(columnsMap)}::jsonb, export_job_id = ${jobId},
        update_user = ${user.userId}::bigint, update_time = now() WHERE id = ${id}::bigint AND tenant_id = ${user.tenantId}`.execute(db);
    return ok({ jobId, table }, undefined, req.lang);
  });

  app.get('/api/spider/task/getExportStatus', { schema: { tags, summary: 'Crawl export: the status of the last export' } }, async (req) => {
    const user = await engine.authorize(req.user, task(), 'read');
    const id = taskId(req);
    const row = await engine.findOne(task(), user, id);
    if (!row) throw new ApiError(404, 'notFound');
    const jobId = (await sql<Row>`SELECT export_job_id FROM spider_task WHERE id = ${id}::bigint AND tenant_id = ${user.tenantId}`.execute(db)).rows[0]?.export_job_id;
    if (!jobId) return ok(null, undefined, req.lang);
    const r = await sql<Row>`SELECT id::text AS id, status, progress, read_count, written_count, failed_count, error, result, create_time, finish_time FROM kc_job
        WHERE id = ${jobId}::bigint AND tenant_id = ${user.tenantId}`.execute(db);
    const j = r.rows[0];
    if (!j) return ok(null, undefined, req.lang);
    const iso = (x: unknown) => (x instanceof Date ? x.toISOString() : x ? String(x) : null);
    return ok({ jobId: j.id, status: j.status, progress: Number(j.progress), readCount: Number(j.read_count), writtenCount: Number(j.written_count), error: j.error ?? null,
      result: j.result ?? null, createTime: iso(j.create_time), finishTime: iso(j.finish_time) }, undefined, req.lang);
  });
}
