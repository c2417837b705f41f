/**
 * Logs (spec 000 §7 Logs, 002 §2 logs (usual, api, error); DESIGN §5, §11; issue 9). The three lists are
 * generic resources (schemas/system/log-usual.json, log-api.json, log-error.json: list, page, detail,
 * searchable by time range `createTime_dategt/_datelt`, user `createBy`, path `requestUri`, status
 * `statusCode`), read only, tenant-scoped, and `platformSeesAll` (an administrator of 000000 sees every
 * tenant's rows, anonymous ones included). Who writes them:
 * - usual log: the engine's audit rows (`audit: true` schemas: who, when, what changed — write.ts);
 * - API log and server errors: the request pipeline (core/pipeline.ts);
 * - client errors: the shell's log dialog uploads its entries here (below).
 *
 * `POST /api/blade-log/error/submit` (signed-in): body one entry or an array of at most 100 entries (also
 * `{list: [...]}`), each `{type, url, message, stack, info, time}` as the shell keeps them (spec 000 §3
 * error log entry). Each becomes a blade_log_error row: exception_name `client:<type>`, request_uri = url,
 * message, stack_trace = stack, params = `{info, time}` as JSON, the caller's tenant, user, IP and user agent.
 * Texts are cut to their column's length; a NUL character, a non-object entry or more than 100 entries is a
 * 400 and nothing is stored (one transaction). Answers `{count}`.
 *
 * Retention: rows older than the parameter `log_retention_days` (blade_param; default 180 days, at least 1)
 * are deleted from the three tables by `pruneLogs`, which runs 1 minute after start and then every 6 hours
 * on every API node (a plain periodic DELETE in batches of 5,000 rows — idempotent, so nodes running it at
 * once only share the work; pg-boss is not installed). The timer stops when the app closes.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import { nextId } from '../../core/ids.js';

/** Default retention of the log tables, in days (issue 9: 'kept 180 days by default'). */
export const DEFAULT_LOG_RETENTION_DAYS = 180;
/** How often the prune runs, in ms. */
export const LOG_PRUNE_INTERVAL_MS = 6 * 3600_000;
const LOG_TABLES = ['blade_log_usual', 'blade_log_api', 'blade_log_error'] as const;
const MAX_ENTRIES = 100;

/** The retention in days: the `log_retention_days` parameter when it is a whole number ≥ 1, else the default. */
export async function logRetentionDays(db: Db): Promise<number> {
  const r = await sql<{ v: string }>`SELECT param_value AS v FROM blade_param WHERE param_key = 'log_retention_days' AND is_deleted = 0 LIMIT 1`.execute(db);
  const n = Number(r.rows[0]?.v);
  return Number.isInteger(n) && n >= 1 ? n : DEFAULT_LOG_RETENTION_DAYS;
}

/**
 * Deletes the rows of the three log tables older than `days` (default: `logRetentionDays`), in batches of
 * 5,000 so no statement holds the tables long. Answers the rows deleted per table.
 */
export async function pruneLogs(db: Db, days?: number): Promise<Record<string, number>> {
  const keep = days ?? (await logRetentionDays(db));
  const out: Record<string, number> = {};
  for (const table of LOG_TABLES) {
    let total = 0;
    for (;;) {
      const r = await sql`DELETE FROM ${sql.table(table)} WHERE ctid IN (
                            SELECT ctid FROM ${sql.table(table)} WHERE create_time < now() - make_interval(days => ${keep}::int) LIMIT 5000)`.execute(db);
      const n = Number(r.numAffectedRows ?? 0);
      total += n;
      if (n < 5000) break;
    }
    out[table] = total;
  }
  return out;
}

/** A text cut to `max` characters; refuses NUL (PostgreSQL cannot store it) with 400 naming `param`. */
function text(v: unknown, max: number, param: string): string | null {
  if (v === undefined || v === null || v === '') return null;
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  if (s.includes('\u0000')) throw new ApiError(400, 'nulInParam', { param });
  return s.slice(0, max);
}

/** Mounts the client error upload and starts the periodic prune (module comment). */
export function registerLogModule(app: FastifyInstance, db: Db): void {
  app.post('/api/blade-log/error/submit', { schema: { tags: ['system/log-error'], summary: 'The shell uploads its client error log' } }, async (req) => {
    const user = req.user;
    if (!user) throw new ApiError(401, 'unauthorized');
    const raw = req.body;
    const list: unknown[] = Array.isArray(raw) ? raw : raw && typeof raw === 'object' && Array.isArray((raw as { list?: unknown }).list) ? (raw as { list: unknown[] }).list : [raw];
    if (list.length === 0) throw new ApiError(400, 'clientLogEmpty');
    if (list.length > MAX_ENTRIES) throw new ApiError(400, 'clientLogTooMany', { max: MAX_ENTRIES });
    const rows = list.map((e, i) => {
      if (!e || typeof e !== 'object' || Array.isArray(e)) throw new ApiError(400, 'badParam', { param: `[${i}]` });
      const x = e as Record<string, unknown>;
      const message = text(x.message, 10_000, 'message');
      if (!message) throw new ApiError(400, 'clientLogNoMessage');
      return {
        id: nextId(),
        tenant_id: user.tenantId,
        method: 'CLIENT',
        request_uri: text(x.url, 2000, 'url'),
        params: text({ info: x.info ?? null, time: x.time ?? null }, 10_000, 'info'),
        remote_ip: req.ip,
        user_agent: (req.headers['user-agent'] ?? '').slice(0, 1000),
        exception_name: `client:${text(x.type, 240, 'type') ?? 'error'}`,
        message,
        stack_trace: text(x.stack, 50_000, 'stack'),
        user_id: user.userId,
        create_by: user.account.slice(0, 64),
      };
    });
    await db.transaction().execute((trx) => trx.insertInto('blade_log_error').values(rows).execute());
    return ok({ count: rows.length }, undefined, req.lang);
  });

  const run = () => void pruneLogs(db).catch((e: unknown) => app.log.error({ err: e }, 'log prune failed'));
  const first = setTimeout(run, 60_000);
  const every = setInterval(run, LOG_PRUNE_INTERVAL_MS);
  first.unref();
  every.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(every);
  });
}
