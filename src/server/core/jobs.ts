/**
 * Background jobs (DESIGN §8 "Jobs"): imports, exports, crawls, duplicate checks, report generation and
 * re-segmentation run as pg-boss jobs (one `PgBoss` per kernel, its tables in the schema `pgboss` of the same
 * database), and every job has a status row in `kc_job` (migration 0009) that the UI polls.
 *
 * - `define(kind, handler, options)`: a module registers a kind once (in its `routes`); the queue is created
 *   and this node's worker fetches its jobs in batches (`batchSize`, default 4 — DESIGN §13: pg-boss polls, a
 *   queue of single fetches crawls) and runs them one after another (`perJobResults`: a failing job does not
 *   fail its batch neighbours).
 * - `enqueue(kind, owner, params, { title })`: inserts the status row (status `queued`) and sends the job;
 *   answers the job id (the row's id, a snowflake string). `folder(id)` is the job's own folder
 *   (`<DATA_DIR>/files/jobs/<id>/`) for its input and result files.
 * - the handler gets a `JobContext`: `params`, the owner, `folder`, and `report({progress, read, written,
 *   failed})`, which stores at most one update per 300 ms (plus the last one). It answers a `JobOutcome`; a
 *   thrown error marks the job failed with the error's message (an `ApiError`'s zh text, else 操作失败) and
 *   the stack goes to the log, never to the user.
 * - restarts: the status row and pg-boss's job are in PostgreSQL. A job whose node died is failed by pg-boss's
 *   monitor after `heartbeatSeconds` (30 s) without a heartbeat and retried once (`retryLimit` 1) on any node;
 *   its row goes back to `running`, and a handler writes its result idempotently (results go to the job's
 *   folder under a fixed name).
 * - reads for the UI (`get`, `list`, `resultFile`): only the owner (same tenant and same user) sees a job;
 *   anyone else gets nothing (404 at the endpoints).
 *
 * Endpoints (`registerJobRoutes`): `GET /api/blade-job/job/detail?id=` (one job: `JobView`),
 * `GET /api/blade-job/job/list?kind=&status=&ref=` (the caller's 50 newest jobs, newest first) and
 * `GET /api/blade-job/job/file?id=` (the result file as an attachment named `result_name`).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PgBoss } from 'pg-boss';
import { sql, type Db } from './db/index.js';
import { nextId } from './ids.js';
import { ApiError, ok } from './envelope.js';
import type { AuthUser } from './context.js';
import { isId } from '../../shared/contract/ids.js';

/** The life of a job: queued → running → done | failed. */
export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

/** Who started a job: the request's user as it was (tenant, user, department, active roles). */
export type JobOwner = AuthUser;

/** Counts a job reports while it runs: `progress` in percent (0–100), rows `read`, `written`, `failed`. */
export interface JobProgress {
  progress?: number;
  read?: number;
  written?: number;
  failed?: number;
}

export interface JobContext<P> {
  /** The job id (kc_job.id). */
  id: string;
  params: P;
  owner: JobOwner;
  /** The job's own folder (exists): inputs saved by the enqueuer, results written by the handler. */
  folder: string;
  /** Stores progress (throttled to one write per 300 ms; `flush` forces the write). */
  report(p: JobProgress, flush?: boolean): Promise<void>;
}

export interface JobOutcome {
  /** A file in the job's folder (its base name) the owner can download as `resultName`. */
  resultFile?: string;
  resultName?: string;
  /** JSON for the UI (the import's message, counts …). */
  result?: unknown;
  /** A user-facing failure the handler itself decided (the job ends `failed` with it, counts kept). */
  error?: string;
}

export type JobHandler<P> = (ctx: JobContext<P>) => Promise<JobOutcome>;

/** What the UI sees of a job (camelCase, ids as strings, times as ISO text). */
export interface JobView {
  id: string;
  kind: string;
  title: string | null;
  status: JobStatus;
  progress: number;
  readCount: number;
  writtenCount: number;
  failedCount: number;
  error: string | null;
  resultName: string | null;
  hasFile: boolean;
  result: unknown;
  params: unknown;
  createTime: string;
  startTime: string | null;
  finishTime: string | null;
}

interface BossData {
  jobId: string;
}

type Row = Record<string, any>;

const FILE_NAME_RE = /^[A-Za-z0-9._-]{1,100}$/;

function view(r: Row): JobView {
  const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : d ? String(d) : null);
  return {
    id: String(r.id),
    kind: r.kind,
    title: r.title ?? null,
    status: r.status,
    progress: Number(r.progress),
    readCount: Number(r.read_count),
    writtenCount: Number(r.written_count),
    failedCount: Number(r.failed_count),
    error: r.error ?? null,
    resultName: r.result_name ?? null,
    hasFile: !!r.result_file,
    result: r.result ?? null,
    params: r.params ?? null,
    createTime: iso(r.create_time)!,
    startTime: iso(r.start_time),
    finishTime: iso(r.finish_time),
  };
}

const clamp = (n: number) => Math.max(0, Math.min(100, Math.round(n)));

export class Jobs {
  readonly boss: PgBoss;
  private readonly handlers = new Map<string, JobHandler<any>>();
  private readonly queues = new Map<string, Promise<void>>();
  private started = false;
  /** The folder holding every job's folder: `<DATA_DIR>/files/jobs`. */
  readonly root: string;

  constructor(
    private readonly db: Db,
    connectionString: string,
    dataDir: string,
    private readonly log: (line: string) => void = () => undefined,
    /** Seconds between a worker's polls when idle (pg-boss's minimum is 0.5). */
    private readonly pollSeconds = 1,
  ) {
    this.root = path.join(dataDir, 'files', 'jobs');
    this.boss = new PgBoss({ connectionString, schema: 'pgboss', max: 4, application_name: 'kc-jobs' });
    this.boss.on('error', (e) => this.log(`[jobs] ${(e as Error).message}`));
  }

  /** Starts pg-boss (creating or migrating its schema under its own advisory lock). */
  async start(): Promise<void> {
    await this.boss.start();
    this.started = true;
  }

  /** Stops the workers (a running job is given 10 s to finish, else pg-boss retries it later) and the pool. */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, timeout: 10_000, close: true }).catch(() => undefined);
  }

  /** The job's folder (`<root>/<id>`), created on demand. `id` must be a job id. */
  async folder(id: string): Promise<string> {
    if (!isId(id)) throw new Error(`not a job id: ${id}`);
    const dir = path.join(this.root, id);
    await fsp.mkdir(dir, { recursive: true });
    return dir;
  }

  /** Creates the pg-boss queue of `kind` once per node (retry once, 1 h limit, 30 s heartbeat, kept 7 days). */
  private queue(kind: string): Promise<void> {
    let q = this.queues.get(kind);
    if (!q) {
      q = this.boss.createQueue(kind, { retryLimit: 1, expireInSeconds: 3600, heartbeatSeconds: 30, deleteAfterSeconds: 7 * 86400 });
      q.catch(() => this.queues.delete(kind));
      this.queues.set(kind, q);
    }
    return q;
  }

  /**
   * Registers the handler of `kind` and starts this node's worker for it (once per kind and node; a second
   * call replaces the handler). `batchSize` jobs are fetched per poll.
   */
  async define<P>(kind: string, handler: JobHandler<P>, options: { batchSize?: number } = {}): Promise<void> {
    const known = this.handlers.has(kind);
    this.handlers.set(kind, handler);
    if (known) return;
    await this.queue(kind);
    await this.boss.work<BossData>(kind, { batchSize: options.batchSize ?? 4, pollingIntervalSeconds: this.pollSeconds, perJobResults: true, heartbeatRefreshSeconds: 10 }, async (batch) => {
      const results = [];
      for (const j of batch) {
        await this.run(kind, j.data.jobId);
        results.push({ id: j.id, status: 'completed' as const });
      }
      return results;
    });
  }

  /**
   * Creates the status row of a `kind` job for `owner` and queues it; answers the job id. `prepare(folder)`
   * runs before the job is sent (the enqueuer saves the job's input there).
   */
  async enqueue<P extends object>(kind: string, owner: JobOwner, params: P, opts: { title?: string; prepare?: (folder: string) => Promise<void> } = {}): Promise<string> {
    const id = await this.insert(kind, owner, params, opts.title);
    try {
      if (opts.prepare) await opts.prepare(await this.folder(id));
      await this.queue(kind);
      const bossId = await this.boss.send(kind, { jobId: id } satisfies BossData);
      await sql`UPDATE kc_job SET boss_id = ${bossId} WHERE id = ${id}::bigint`.execute(this.db);
    } catch (e) {
      await this.finish(id, 'failed', { error: (e as Error).message });
      throw e;
    }
    return id;
  }

  private async insert(kind: string, owner: JobOwner, params: object, title: string | undefined): Promise<string> {
    const id = nextId();
    await sql`INSERT INTO kc_job (id, tenant_id, create_user, create_dept, kind, title, params)
              VALUES (${id}::bigint, ${owner.tenantId}, ${owner.userId}::bigint, ${owner.deptId || null}::bigint, ${kind}, ${title?.slice(0, 200) ?? null},
                      ${JSON.stringify({ params, owner })}::jsonb)`.execute(this.db);
    return id;
  }

  /**
   * Runs a `kind` job for `owner` in this request instead of the queue (small work the user waits for), with
   * the same status row, folder and outcome as a queued one, so its result file is downloadable alike;
   * answers the finished job. The kind must be defined on this node.
   */
  async runNow<P extends object>(kind: string, owner: JobOwner, params: P, opts: { title?: string; prepare?: (folder: string) => Promise<void> } = {}): Promise<JobView> {
    const id = await this.insert(kind, owner, params, opts.title);
    if (opts.prepare) await opts.prepare(await this.folder(id));
    await this.run(kind, id);
    return (await this.get(id, owner))!;
  }

  /** Runs job `id` now (its worker does this; see the module comment for failures). */
  private async run(kind: string, id: string): Promise<void> {
    const handler = this.handlers.get(kind);
    const rows = await sql<Row>`UPDATE kc_job SET status = 'running', start_time = now(), update_time = now(), error = NULL
                                 WHERE id = ${id}::bigint AND status IN ('queued', 'running') RETURNING params`.execute(this.db);
    const row = rows.rows[0];
    if (!row || !handler) return; // removed, already finished, or a kind this node does not run
    const { params, owner } = row.params as { params: unknown; owner: JobOwner };
    let last = 0;
    let pending: JobProgress | null = null;
    const write = async (p: JobProgress) => {
      await sql`UPDATE kc_job SET progress = COALESCE(${p.progress === undefined ? null : clamp(p.progress)}::smallint, progress),
                  read_count = COALESCE(${p.read ?? null}::int, read_count), written_count = COALESCE(${p.written ?? null}::int, written_count),
                  failed_count = COALESCE(${p.failed ?? null}::int, failed_count), update_time = now()
                WHERE id = ${id}::bigint`.execute(this.db);
    };
    const ctx: JobContext<unknown> = {
      id,
      params,
      owner,
      folder: await this.folder(id),
      async report(p, flush = false) {
        pending = { ...pending, ...p };
        const now = Date.now();
        if (!flush && now - last < 300) return;
        last = now;
        const send = pending;
        pending = null;
        await write(send);
      },
    };
    try {
      const out = await handler(ctx);
      if (pending) await write(pending);
      await this.finish(id, out.error ? 'failed' : 'done', out);
    } catch (e) {
      const err = e as Error & { localized?: (l: 'zh') => string };
      this.log(`[jobs] ${kind} ${id} failed: ${err.stack ?? err.message}`);
      if (pending) await write(pending).catch(() => undefined);
      await this.finish(id, 'failed', { error: err instanceof ApiError ? err.localized('zh') : '操作失败' });
    }
  }

  private async finish(id: string, status: 'done' | 'failed', out: JobOutcome): Promise<void> {
    const file = out.resultFile && FILE_NAME_RE.test(out.resultFile) ? out.resultFile : null;
    await sql`UPDATE kc_job SET status = ${status}, progress = CASE WHEN ${status} = 'done' THEN 100 ELSE progress END,
                error = ${out.error ?? null}, result_file = ${file}, result_name = ${file ? (out.resultName ?? file).slice(0, 255) : null},
                result = ${out.result === undefined ? null : JSON.stringify(out.result)}::jsonb, finish_time = now(), update_time = now()
              WHERE id = ${id}::bigint`.execute(this.db);
  }

  /** The job `id` when `user` owns it (same tenant, same user, not removed), else null. */
  async get(id: string, user: AuthUser): Promise<JobView | null> {
    if (!isId(id)) return null;
    const r = await sql<Row>`SELECT * FROM kc_job WHERE id = ${id}::bigint AND tenant_id = ${user.tenantId} AND create_user = ${user.userId}::bigint AND is_deleted = 0`.execute(this.db);
    return r.rows[0] ? view(r.rows[0]) : null;
  }

  /**
   * The caller's 50 newest jobs, newest first; `kind` and `status` filter exactly, `ref` matches the
   * `params.ref` the enqueuer stored (a template id …).
   */
  async list(user: AuthUser, filter: { kind?: string; status?: string; ref?: string } = {}): Promise<JobView[]> {
    const r = await sql<Row>`SELECT * FROM kc_job WHERE tenant_id = ${user.tenantId} AND create_user = ${user.userId}::bigint AND is_deleted = 0
                               AND (${filter.kind ?? null}::text IS NULL OR kind = ${filter.kind ?? null})
                               AND (${filter.status ?? null}::text IS NULL OR status = ${filter.status ?? null})
                               AND (${filter.ref ?? null}::text IS NULL OR params->'params'->>'ref' = ${filter.ref ?? null})
                             ORDER BY create_time DESC, id DESC LIMIT 50`.execute(this.db);
    return r.rows.map(view);
  }

  /** The absolute path and download name of job `id`'s result file, when `user` owns the job and it has one. */
  async resultFile(id: string, user: AuthUser): Promise<{ file: string; name: string } | null> {
    if (!isId(id)) return null;
    const r = await sql<Row>`SELECT result_file, result_name FROM kc_job WHERE id = ${id}::bigint AND tenant_id = ${user.tenantId}
                               AND create_user = ${user.userId}::bigint AND is_deleted = 0 AND result_file IS NOT NULL`.execute(this.db);
    const row = r.rows[0];
    if (!row || !FILE_NAME_RE.test(row.result_file)) return null;
    const file = path.join(this.root, id, row.result_file);
    return fs.existsSync(file) ? { file, name: row.result_name ?? row.result_file } : null;
  }

  /** Hides the caller's jobs `ids` and deletes their folders; answers how many were removed. */
  async remove(ids: string[], user: AuthUser): Promise<number> {
    const valid = ids.filter(isId);
    if (!valid.length) return 0;
    const r = await sql<Row>`UPDATE kc_job SET is_deleted = 1, update_time = now() WHERE id = ANY(${valid}::bigint[]) AND tenant_id = ${user.tenantId}
                               AND create_user = ${user.userId}::bigint AND is_deleted = 0 RETURNING id::text AS id`.execute(this.db);
    for (const { id } of r.rows) await fsp.rm(path.join(this.root, id), { recursive: true, force: true });
    return r.rows.length;
  }
}

/** `attachment` Content-Disposition for `name` (ASCII fallback plus RFC 5987 UTF-8 name). */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

function signedIn(req: FastifyRequest): AuthUser {
  if (!req.user) throw new ApiError(401, 'unauthorized');
  return req.user;
}

const text = (v: unknown, param: string) => {
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string' || v.length > 64) throw new ApiError(400, 'badParam', { param });
  return v;
};

/** Mounts the job endpoints the UI polls (see the module comment); any signed-in user, own jobs only. */
export function registerJobRoutes(app: FastifyInstance, jobs: Jobs): void {
  const tags = ['jobs'];
  app.get('/api/blade-job/job/detail', { schema: { tags, summary: 'Jobs: one of my jobs (status, progress 0–100, counts, error, result file)' } }, async (req) => {
    const user = signedIn(req);
    const id = (req.query as Row).id;
    if (typeof id !== 'string' || id === '') throw new ApiError(400, 'missingParam', { param: 'id' });
    if (!isId(id)) throw new ApiError(400, 'badParam', { param: 'id' });
    const job = await jobs.get(id, user);
    if (!job) throw new ApiError(404, 'notFound');
    return ok(job, undefined, req.lang);
  });
  app.get('/api/blade-job/job/list', { schema: { tags, summary: 'Jobs: my 50 newest jobs (kind, status, ref filters)' } }, async (req) => {
    const user = signedIn(req);
    const q = req.query as Row;
    const status = text(q.status, 'status');
    if (status && !['queued', 'running', 'done', 'failed'].includes(status)) throw new ApiError(400, 'badParam', { param: 'status' });
    return ok(await jobs.list(user, { kind: text(q.kind, 'kind'), status, ref: text(q.ref, 'ref') }), undefined, req.lang);
  });
  app.get('/api/blade-job/job/file', { schema: { tags, summary: 'Jobs: the result file of one of my jobs' } }, async (req, reply) => {
    const user = signedIn(req);
    const id = (req.query as Row).id;
    if (typeof id !== 'string' || !isId(id)) throw new ApiError(400, 'badParam', { param: 'id' });
    const found = await jobs.resultFile(id, user);
    if (!found) throw new ApiError(404, 'notFound');
    const type = found.name.endsWith('.xlsx') ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'application/octet-stream';
    return reply.header('content-type', type).header('content-disposition', attachment(found.name)).header('cache-control', 'no-store').send(fs.createReadStream(found.file));
  });
}
