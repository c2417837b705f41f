/**
 * The request pipeline (DESIGN §5): language → token → user context → route → envelope → API log, and the
 * error handler that turns every failure into the envelope with the right status.
 *
 * - `Blade-Auth: bearer <jwt>` sets `request.user` (null when absent); a present but invalid, expired or
 *   revoked token answers 401 on routes that are not public (`config: { public: true }`).
 * - `Accept-Language` picks zh (default) or en for messages.
 * - Errors: `ApiError` → its code; Fastify's body/JSON/validation errors → 400 (413 too: an oversized body
 *   is the caller's mistake); rate limit → 429; anything else → 500 with an error id, the stack stored in
 *   `blade_log_error` and never sent.
 * - Every request under /api is written to `blade_log_api` (method, path, user, tenant, ip, duration in ms,
 *   status). What is acknowledged is never lost on a crash of the Node process (DESIGN §11 audit logs):
 *   - writes (every method but GET and HEAD) are inserted in an `onSend` hook, awaited, before the reply
 *     leaves: once a client has the answer of a change, its log row is committed. `time` is then the time to
 *     the reply (without writing it out). A failed insert is reported on the server's log and does not change
 *     the reply (the change itself is already committed);
 *   - reads (GET, HEAD, and a POST whose route says `config: { readOnly: true }`) change nothing, so losing the
 *     last second of them in a crash is acceptable: they are buffered and inserted in batches once a second (or
 *     per 500 rows), keeping logging off the hot path of lists and searches. A request whose reply never passed
 *     `onSend` (a hijacked reply) is buffered too, in `onResponse`.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from './db/index.js';
import { sql } from './db/index.js';
import { ApiError, ValidationError } from './envelope.js';
import { nextId } from './ids.js';
import { userFromClaims } from './context.js';
import type { TokenService } from './auth/tokens.js';
import { langFromHeader, t } from '../../shared/i18n/messages.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    public?: boolean;
    /** A POST that changes nothing (a search with a body, spec 001 §7 getDataPage): its API log row is a read's. */
    readOnly?: boolean;
  }
}

interface ApiLogEntry {
  id: string;
  tenant_id: string | null;
  method: string;
  request_uri: string;
  params: string | null;
  status_code: number;
  remote_ip: string;
  user_agent: string | null;
  time: number;
  user_id: string | null;
  create_by: string | null;
}

/**
 * The API log writer (table `blade_log_api`): `write` inserts one row now (writes, before their reply), `push`
 * buffers rows that a timer inserts once a second in one multi-row insert (reads). `close` stops the timer and
 * writes what is buffered.
 */
export class ApiLogWriter {
  private buf: ApiLogEntry[] = [];
  private timer: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();
  constructor(private readonly db: Db) {
    this.timer = setInterval(() => void this.flush(), 1000);
    this.timer.unref();
  }
  /** Inserts `e` at once; resolves when it is committed (never rejects: a failure is reported on stderr). */
  async write(e: ApiLogEntry): Promise<void> {
    try {
      await this.db.insertInto('blade_log_api').values(e).execute();
    } catch (err) {
      console.error('[api-log] could not write the entry of', e.method, e.request_uri, ':', (err as Error).message);
    }
  }
  /** Buffers `e` for the next batch (within a second; at once when 500 rows are waiting). */
  push(e: ApiLogEntry): void {
    this.buf.push(e);
    if (this.buf.length >= 500) void this.flush();
  }
  /** Writes what is buffered; resolves once every earlier write has finished too. */
  flush(): Promise<void> {
    const rows = this.buf;
    this.buf = [];
    this.writing = this.writing.then(async () => {
      if (rows.length === 0) return;
      try {
        await this.db.insertInto('blade_log_api').values(rows).execute();
      } catch (e) {
        console.error('[api-log] could not write', rows.length, 'entries:', (e as Error).message);
      }
    });
    return this.writing;
  }
  /** Stops the timer and writes what is buffered. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}

function clientIp(req: FastifyRequest): string {
  return req.ip;
}

/** Installs language, authentication, logging and error handling on `app`. */
export function installPipeline(
  app: FastifyInstance,
  deps: {
    db: Db;
    tokens: TokenService;
    apiLog: ApiLogWriter;
    /** Answers the client's index.html for a client route (a GET that is no API call and names no file). */
    clientIndex?: (reply: FastifyReply) => Promise<unknown>;
  },
): void {
  app.decorateRequest('user', null);
  app.decorateRequest('lang', 'zh');

  app.addHook('onRequest', async (req) => {
    req.lang = langFromHeader(req.headers['accept-language']);
    const header = req.headers['blade-auth'];
    const raw = Array.isArray(header) ? header[0] : header;
    if (!raw) return;
    const token = raw.replace(/^bearer\s+/i, '').trim();
    const claims = token ? await deps.tokens.verifyAccess(token) : null;
    if (!claims) {
      if (req.routeOptions.config?.public || !req.url.startsWith('/api/')) return;
      throw new ApiError(401, 'unauthorized');
    }
    const roleHeader = req.headers['role-id'];
    const roleId = (Array.isArray(roleHeader) ? roleHeader[0] : roleHeader) || undefined;
    req.user = userFromClaims(claims, roleId);
  });

  // only the API needs a user; the client's static files and its HTML routes are public
  app.addHook('preHandler', async (req) => {
    if (!req.url.startsWith('/api/')) return;
    if (!req.routeOptions.config?.public && !req.user && req.routeOptions.url) throw new ApiError(401, 'unauthorized');
  });

  /** The API log row of `req` answered by `reply` (status and elapsed time as of now). */
  const logEntry = (req: FastifyRequest, reply: FastifyReply): ApiLogEntry => {
    const [path, qs] = req.url.split('?');
    return {
      id: nextId(),
      tenant_id: req.user?.tenantId ?? null,
      method: req.method,
      request_uri: path.slice(0, 2000),
      // query strings may carry passwords on the token endpoint: never store those
      params: qs && !path.includes('/oauth/') ? qs.slice(0, 2000) : null,
      status_code: reply.statusCode,
      remote_ip: clientIp(req),
      user_agent: (req.headers['user-agent'] ?? '').slice(0, 1000) || null,
      time: Math.round(reply.elapsedTime),
      user_id: req.user?.userId ?? null,
      create_by: req.user?.account ?? null,
    };
  };
  // requests whose log row is written (or buffered) already: onSend may run twice when it fails
  const logged = new WeakSet<FastifyRequest>();
  const isRead = (req: FastifyRequest) => req.method === 'GET' || req.method === 'HEAD' || req.routeOptions.config?.readOnly === true;

  // writes: the row is committed before the reply leaves (see the module header)
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.url.startsWith('/api/') || isRead(req) || logged.has(req)) return payload;
    logged.add(req);
    await deps.apiLog.write(logEntry(req, reply));
    return payload;
  });

  // reads (and anything onSend did not see): buffered
  app.addHook('onResponse', async (req, reply) => {
    if (!req.url.startsWith('/api/') || logged.has(req)) return;
    logged.add(req);
    deps.apiLog.push(logEntry(req, reply));
  });

  app.setNotFoundHandler(async (req, reply) => {
    const p = req.url.split('?')[0];
    const clientRoute = !p.startsWith('/api/') && (p.startsWith('/myiframe/') || !/\.[A-Za-z0-9]{1,8}$/.test(p));
    if (deps.clientIndex && (req.method === 'GET' || req.method === 'HEAD') && clientRoute) return deps.clientIndex(reply);
    const lang = langFromHeader(req.headers['accept-language']);
    return reply.code(404).send({ code: 404, success: false, data: null, msg: t('routeNotFound', lang, { path: req.url.split('?')[0] }) });
  });

  app.setErrorHandler(async (err: FastifyError | ApiError, req, reply: FastifyReply) => {
    const lang = req.lang ?? langFromHeader(req.headers['accept-language']);
    if (err instanceof ValidationError) {
      return reply.code(400).send({ code: 400, success: false, data: err.fieldList(lang), msg: err.localized(lang) });
    }
    if (err instanceof ApiError) {
      const body: Record<string, unknown> = { code: err.code, success: false, data: err.data, msg: err.localized(lang) };
      return reply.code(err.code).send(body);
    }
    const fe = err as FastifyError;
    if (fe.validation) {
      const first = fe.validation[0];
      if (fe.validationContext === 'body' && !first?.instancePath) {
        return reply.code(400).send({ code: 400, success: false, data: null, msg: t('bodyNotObject', lang) });
      }
      const field = (first?.instancePath ?? '').split('/').filter(Boolean).join('.') || String((first?.params as any)?.missingProperty ?? '');
      const msg = t('badParam', lang, { param: field || fe.validationContext || 'body' });
      return reply.code(400).send({ code: 400, success: false, data: [{ field, message: msg }], msg });
    }
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(400).send({ code: 400, success: false, data: null, msg: t('bodyTooLarge', lang, { limit: app.initialConfig.bodyLimit }) });
    }
    if (fe.statusCode === 429) {
      return reply.code(429).send({ code: 429, success: false, data: null, msg: t('tooManyRequests', lang) });
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      const msg = fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || /JSON/.test(fe.message) ? t('badJson', lang) : t('failure', lang);
      return reply.code(400).send({ code: 400, success: false, data: null, msg });
    }
    const errorId = nextId();
    req.log.error({ err, errorId }, 'unhandled error');
    try {
      await sql`INSERT INTO blade_log_error (id, tenant_id, method, request_uri, params, remote_ip, user_agent, exception_name, message, stack_trace, user_id, create_by)
                VALUES (${errorId}, ${req.user?.tenantId ?? null}, ${req.method}, ${req.url.split('?')[0].slice(0, 2000)}, ${null}, ${clientIp(req)},
                        ${(req.headers['user-agent'] ?? '').slice(0, 1000)}, ${(err as Error).name ?? 'Error'}, ${(err as Error).message ?? String(err)},
                        ${(err as Error).stack ?? null}, ${req.user?.userId ?? null}, ${req.user?.account ?? null})`.execute(deps.db);
    } catch (e) {
      req.log.error({ err: e }, 'could not write the error log');
    }
    return reply.code(500).send({ code: 500, success: false, data: { errorId }, msg: t('serverError', lang, { errorId }) });
  });
}
