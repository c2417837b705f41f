/**
 * The crawl job (`spider-crawl`, DESIGN §8 "Jobs" and "Crawler"; issue 16): runs one task's configuration
 * (config.ts) with crawlee — CheerioCrawler for static pages, PlaywrightCrawler on Debian's chromium
 * (`/usr/bin/chromium`, or CHROMIUM_PATH) when `useBrowser` — from the task's frontier in PostgreSQL
 * (`spider_request`, migrations.ts), so that a paused task resumes on any node without fetching a finished
 * page again, and stores:
 *
 * - rows in `spider_data` (one per page for a detail rule, one per `rowSelector` match for a list rule;
 *   `row_key` = URL + `#` + row index, unique per task: a page fetched twice stores its rows once);
 * - one `spider_tasklog` row per page fetched (level `info`), failed after its retry (level `error`, the
 *   HTTP status or the error) or skipped because robots.txt forbids it (level `warn`; never fetched);
 * - the task's counters (`pagesCount`, `rowsCount`, `errorCount`, `progress` = handled / (handled + pending),
 *   in percent), also reported to the job's status row (read = pages, written = rows, failed = errors).
 *
 * Control: the task's `taskStatus` (TASK_STATUS) is read every 400 ms; `paused` or `stopped` ends the crawl
 * gracefully (pages in flight finish). A stopped crawl's pending requests are dropped; a paused one keeps
 * them. The crawl ends `done` when the frontier is empty or `maxPages` pages were handled.
 *
 * crawlee keeps nothing on disk: each run gets its own in-memory storage (`persistStorage: false`); the
 * module sets CRAWLEE_STORAGE_DIR to a temporary folder in case anything is written anyway.
 */
import os from 'node:os';
import path from 'node:path';
import type { CheerioAPI } from 'cheerio';
import { loadCheerio } from '../../core/lazy-libs.js';
import { sql, type Db } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';
import type { JobContext, JobOutcome } from '../../core/jobs.js';
import { checkConfig, type FieldRule, type PageRule, type SpiderConfig } from './config.js';
import { extractRowsXPath, usesXPath } from './xpath.js';

process.env.CRAWLEE_STORAGE_DIR ??= path.join(os.tmpdir(), 'kc-crawlee');
process.env.CRAWLEE_PERSIST_STORAGE ??= 'false';

export const CRAWL_JOB = 'spider-crawl';

/** spider_task.task_status: 0 idle, 1 running (queued or crawling), 2 paused, 3 stopped, 4 done, 5 failed. */
export const TASK_STATUS = { idle: 0, running: 1, paused: 2, stopped: 3, done: 4, failed: 5 } as const;

/** spider_request.state. */
const REQ = { pending: 0, done: 1, failed: 2, forbidden: 3 } as const;

export interface CrawlParams {
  taskId: string;
  ref: string;
}

type Row = Record<string, any>;

/** The URL without its fragment: the frontier's key. */
export function uniqueKey(u: string): string {
  const url = new URL(u);
  url.hash = '';
  return url.href;
}

/**
 * A field's post-processing (config.ts `process`, applied in order; null stays null): `trim`, `collapse`
 * (runs of white space to one space), `number` (the first number, thousands commas ignored), `absoluteUrl`
 * (against the page's URL), `regex` (the first capture group of `pattern`, else the whole match).
 */
export function postProcess(raw: string | number | null, f: FieldRule, pageUrl: string): string | number | null {
  let v = raw;
  for (const step of f.process ?? []) {
    if (v === null) break;
    const s: string = String(v);
    if (step === 'trim') v = s.trim();
    else if (step === 'collapse') v = s.replace(/\s+/g, ' ').trim();
    else if (step === 'number') {
      const m = /-?\d+(?:\.\d+)?/.exec(s.replace(/,/g, ''));
      v = m ? Number(m[0]) : null;
    } else if (step === 'absoluteUrl') {
      try {
        v = new URL(s, pageUrl).href;
      } catch {
        v = null;
      }
    } else if (step === 'regex') {
      const m = new RegExp(f.pattern!).exec(s);
      v = m ? (m[1] ?? m[0]) : null;
    }
  }
  return v;
}

function applyField(scope: ReturnType<CheerioAPI>, f: FieldRule, pageUrl: string): string | number | null {
  const el = f.selector ? scope.find(f.selector).first() : scope.first();
  if (!el.length) return null;
  return postProcess(f.attr ? (el.attr(f.attr) ?? null) : el.text(), f, pageUrl);
}

/**
 * The rows of a page under `rule`: one per `rowSelector` / `rowXPath` match (a list rule) or one for the page
 * (a detail rule); rows missing a `required` field are dropped. Answers `[index, row]` pairs (index = the
 * match's). A rule naming an XPath is extracted by xpath.ts (jsdom), any other by cheerio.
 */
export async function extractRows(html: string, rule: PageRule, pageUrl: string): Promise<Array<[number, Record<string, unknown>]>> {
  if (usesXPath(rule)) return extractRowsXPath(html, rule, pageUrl, postProcess);
  const $ = (await loadCheerio()).load(html);
  const scopes = rule.rowSelector ? $(rule.rowSelector).toArray().map((e) => $(e)) : [$.root()];
  const out: Array<[number, Record<string, unknown>]> = [];
  scopes.forEach((scope, i) => {
    const row: Record<string, unknown> = {};
    for (const f of rule.fields) row[f.name] = applyField(scope, f, pageUrl);
    if (rule.fields.some((f) => f.required && (row[f.name] === null || row[f.name] === ''))) return;
    out.push([i, row]);
  });
  return out;
}

/** The absolute URLs to follow from a page: pattern-matching links and the pagination link. */
export async function linksOf(html: string, cfg: SpiderConfig, pageUrl: string): Promise<string[]> {
  const $ = (await loadCheerio()).load(html);
  const patterns = cfg.linkPatterns.map((p) => new RegExp(p));
  const abs = (h: string | undefined) => {
    if (!h) return null;
    try {
      const u = new URL(h, pageUrl);
      return u.protocol === 'http:' || u.protocol === 'https:' ? uniqueKey(u.href) : null;
    } catch {
      return null;
    }
  };
  const out = new Set<string>();
  if (patterns.length) {
    for (const e of $(cfg.linkSelector).toArray()) {
      const u = abs($(e).attr('href'));
      if (u && patterns.some((p) => p.test(u))) out.add(u);
    }
  }
  if (cfg.nextPageSelector) for (const e of $(cfg.nextPageSelector).toArray()) {
    const u = abs($(e).attr('href'));
    if (u) out.add(u);
  }
  return [...out];
}

/** The job handler (see the module comment). `chromium` is the browser executable for `useBrowser` tasks. */
export function crawlJob(db: Db, chromium: string) {
  return async (ctx: JobContext<CrawlParams>): Promise<JobOutcome> => {
    const tenantId = ctx.owner.tenantId;
    const taskId = ctx.params.taskId;
    const t = await sql<Row>`SELECT config_data, task_status FROM spider_task WHERE id = ${taskId}::bigint AND tenant_id = ${tenantId} AND is_deleted = 0`.execute(db);
    const task = t.rows[0];
    if (!task || Number(task.task_status) !== TASK_STATUS.running) return { result: { skipped: true } };
    const cfg = await checkConfig(task.config_data);
    const browserUa = cfg.browserId
      ? (await sql<Row>`SELECT user_agent FROM spider_browser WHERE id = ${cfg.browserId}::bigint AND tenant_id = ${tenantId} AND is_deleted = 0`.execute(db).catch(() => ({ rows: [] as Row[] }))).rows[0]?.user_agent
      : undefined;
    const userAgent: string | undefined = browserUa || cfg.userAgent || undefined;
    const rules = cfg.rules.map((r) => ({ rule: r, re: new RegExp(r.urlPattern) }));

    const counts = async () => {
      const r = await sql<Row>`SELECT count(*) FILTER (WHERE state = 0)::int AS pending, count(*) FILTER (WHERE state IN (1, 2))::int AS handled,
          count(*) FILTER (WHERE state = 2)::int AS failed FROM spider_request WHERE tenant_id = ${tenantId} AND task_id = ${taskId}::bigint`.execute(db);
      const d = await sql<Row>`SELECT count(*)::int AS n FROM spider_data WHERE tenant_id = ${tenantId} AND task_id = ${taskId}::bigint`.execute(db);
      return { pending: r.rows[0].pending as number, handled: r.rows[0].handled as number, failed: r.rows[0].failed as number, rows: d.rows[0].n as number };
    };
    const saveCounts = async (flush = false) => {
      const c = await counts();
      const progress = c.handled + c.pending ? Math.floor((100 * c.handled) / Math.min(cfg.maxPages, c.handled + c.pending)) : 0;
      await sql`UPDATE spider_task SET pages_count = ${c.handled}, rows_count = ${c.rows}, error_count = ${c.failed}, progress = ${Math.min(100, progress)}, update_time = now()
                WHERE id = ${taskId}::bigint AND tenant_id = ${tenantId}`.execute(db);
      await ctx.report({ progress, read: c.handled, written: c.rows, failed: c.failed }, flush);
      return c;
    };
    const log = (level: 'info' | 'warn' | 'error', url: string, message: string, statusCode: number | null, rowCount: number, ms: number | null) =>
      sql`INSERT INTO spider_tasklog (id, tenant_id, task_id, job_id, level, url, message, status_code, row_count, duration, create_user, create_time, update_time, status, is_deleted)
          VALUES (${nextId()}::bigint, ${tenantId}, ${taskId}::bigint, ${ctx.id}::bigint, ${level}, ${url.slice(0, 2000)}, ${message.slice(0, 500)}, ${statusCode}, ${rowCount}, ${ms},
                  ${ctx.owner.userId}::bigint, now(), now(), 0, 0)`.execute(db);
    const mark = (url: string, state: number) =>
      sql`UPDATE spider_request SET state = ${state} WHERE tenant_id = ${tenantId} AND task_id = ${taskId}::bigint AND unique_key = ${uniqueKey(url)}`.execute(db);

    // a fresh run (not a resume) starts from the start URLs
    const before = await counts();
    if (before.pending === 0 && before.handled === 0) {
      for (const u of cfg.startUrls) {
        await sql`INSERT INTO spider_request (tenant_id, task_id, unique_key, url, depth) VALUES (${tenantId}, ${taskId}::bigint, ${uniqueKey(u)}, ${u}, 0) ON CONFLICT DO NOTHING`.execute(db);
      }
    }
    const budget = cfg.maxPages - before.handled;
    const pending = await sql<Row>`SELECT url, depth FROM spider_request WHERE tenant_id = ${tenantId} AND task_id = ${taskId}::bigint AND state = 0 ORDER BY create_time, url`.execute(db);

    const { Configuration, log: crawleeLog, LogLevel } = await import('@crawlee/core');
    crawleeLog.setLevel(LogLevel.OFF); // the task log (spider_tasklog) is the record; crawlee's console lines are noise
    const config = new Configuration({ persistStorage: false, purgeOnStart: true, availableMemoryRatio: 0.1 });
    const started = new Map<string, number>();

    /** Stores one page's rows and follows its links; answers the rows it stored. */
    const handlePage = async (url: string, html: string, depth: number, statusCode: number | null, addRequests: (r: object[]) => Promise<unknown>) => {
      const hit = rules.find((r) => r.re.test(url));
      let stored = 0;
      if (hit) {
        for (const [i, row] of await extractRows(html, hit.rule, url)) {
          const r = await sql`INSERT INTO spider_data (id, tenant_id, task_id, row_key, url, data) VALUES (${nextId()}::bigint, ${tenantId}, ${taskId}::bigint, ${`${uniqueKey(url)}#${i}`}, ${url}, ${JSON.stringify(row)}::jsonb)
                              ON CONFLICT DO NOTHING`.execute(db);
          stored += Number(r.numAffectedRows ?? 0);
        }
      }
      if (depth < cfg.maxDepth) {
        const fresh: object[] = [];
        for (const link of await linksOf(html, cfg, url)) {
          const r = await sql`INSERT INTO spider_request (tenant_id, task_id, unique_key, url, depth) VALUES (${tenantId}, ${taskId}::bigint, ${link}, ${link}, ${depth + 1}) ON CONFLICT DO NOTHING`.execute(db);
          if (Number(r.numAffectedRows ?? 0)) fresh.push({ url: link, uniqueKey: link, userData: { depth: depth + 1 } });
        }
        if (fresh.length) await addRequests(fresh);
      }
      await mark(url, REQ.done);
      await log('info', url, hit ? `${hit.rule.name}` : '-', statusCode, stored, Date.now() - (started.get(url) ?? Date.now()));
      await saveCounts();
      if (cfg.delayMs) await new Promise((r) => setTimeout(r, cfg.delayMs));
    };

    const common = {
      maxConcurrency: cfg.concurrency,
      maxRequestsPerCrawl: Math.max(0, budget),
      maxRequestRetries: 1,
      requestHandlerTimeoutSecs: cfg.timeoutSecs + 30,
      navigationTimeoutSecs: cfg.timeoutSecs,
      respectRobotsTxtFile: cfg.respectRobotsTxt ? (userAgent ? { userAgent } : true) : false,
      useSessionPool: false,
      async onSkippedRequest({ url, reason }: { url: string; reason: string }) {
        if (reason !== 'robotsTxt') return;
        await mark(url, REQ.forbidden);
        await log('warn', url, 'robots.txt', null, 0, null);
      },
      async failedRequestHandler({ request }: { request: { url: string; errorMessages: string[] } }, error: Error) {
        await mark(request.url, REQ.failed);
        const code = /status code[: ]+(\d{3})/i.exec(error.message)?.[1] ?? /\b([45]\d\d)\b/.exec(error.message)?.[1];
        await log('error', request.url, error.message.split('\n')[0], code ? Number(code) : null, 0, null);
        await saveCounts();
      },
    };
    let crawler: { run(r?: object[]): Promise<unknown>; stop(reason?: string): void; addRequests(r: object[]): Promise<unknown> };
    const initial = pending.rows.slice(0, Math.max(0, budget)).map((r) => ({ url: r.url, uniqueKey: uniqueKey(r.url), userData: { depth: r.depth } }));
    if (!cfg.useBrowser) {
      const { CheerioCrawler } = await import('@crawlee/cheerio');
      crawler = new CheerioCrawler({
        ...common,
        additionalMimeTypes: ['text/plain'],
        preNavigationHooks: [
          async ({ request }: { request: { url: string } }, gotOptions: { headers?: Record<string, string> }) => {
            started.set(request.url, Date.now());
            if (userAgent) gotOptions.headers = { ...gotOptions.headers, 'user-agent': userAgent };
          },
        ],
        async requestHandler({ request, body, response }: { request: { url: string; userData: Row }; body: string | Buffer; response: { statusCode?: number } }) {
          await handlePage(request.url, String(body), Number(request.userData.depth ?? 0), response.statusCode ?? null, (r) => crawler.addRequests(r));
        },
      } as any, config) as any;
    } else {
      const { PlaywrightCrawler } = await import('@crawlee/playwright');
      const { chromium: launcher } = await import('playwright');
      crawler = new PlaywrightCrawler({
        ...common,
        headless: true,
        browserPoolOptions: { useFingerprints: false },
        launchContext: { launcher, userAgent, launchOptions: { executablePath: chromium, args: ['--no-sandbox', '--disable-dev-shm-usage'] } },
        preNavigationHooks: [
          async ({ request }: { request: { url: string } }) => {
            started.set(request.url, Date.now());
          },
        ],
        async requestHandler({ request, page, response }: { request: { url: string; userData: Row }; page: import('playwright').Page; response?: { status(): number } | null }) {
          await page.waitForLoadState('networkidle', { timeout: cfg.timeoutSecs * 1000 }).catch(() => undefined);
          await handlePage(request.url, await page.content(), Number(request.userData.depth ?? 0), response?.status() ?? null, (r) => crawler.addRequests(r));
        },
      } as any, config) as any;
    }

    let final: number = TASK_STATUS.done;
    const watch = setInterval(() => {
      sql<Row>`SELECT task_status FROM spider_task WHERE id = ${taskId}::bigint AND tenant_id = ${tenantId}`.execute(db).then((r) => {
        const s = Number(r.rows[0]?.task_status ?? TASK_STATUS.stopped);
        if (s === TASK_STATUS.paused || s === TASK_STATUS.stopped) {
          final = s;
          crawler.stop(s === TASK_STATUS.paused ? 'paused' : 'stopped');
        }
      }, () => undefined);
    }, 400);
    try {
      if (initial.length) await crawler.run(initial);
    } finally {
      clearInterval(watch);
    }
    const now = await sql<Row>`SELECT task_status FROM spider_task WHERE id = ${taskId}::bigint AND tenant_id = ${tenantId}`.execute(db);
    const s = Number(now.rows[0]?.task_status);
    if (s === TASK_STATUS.paused || s === TASK_STATUS.stopped) final = s;
    if (final === TASK_STATUS.stopped) await sql`DELETE FROM spider_request WHERE tenant_id = ${tenantId} AND task_id = ${taskId}::bigint AND state = 0`.execute(db);
    const c = await saveCounts(true);
    if (final === TASK_STATUS.done) await sql`DELETE FROM spider_request WHERE tenant_id = ${tenantId} AND task_id = ${taskId}::bigint AND state = 0`.execute(db);
    await sql`UPDATE spider_task SET task_status = ${final}, progress = CASE WHEN ${final} = 4 THEN 100 ELSE progress END, finish_time = CASE WHEN ${final} = 2 THEN finish_time ELSE now() END, update_time = now()
              WHERE id = ${taskId}::bigint AND tenant_id = ${tenantId} AND task_status IN (1, 2, 3)`.execute(db);
    return { result: { taskStatus: final, pages: c.handled, rows: c.rows, errors: c.failed } };
  };
}
