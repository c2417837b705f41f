/**
 * The crawler (DESIGN §8 "Crawler"; spec 002 §2 "Crawler screens", §7 "Crawler"; issue 16): research managers
 * collect policy notices, journal catalogues and patents from web sites into the platform.
 *
 * - resources (schemas/spider/): `spider/task` (a task: name, status, counters; its configuration through
 *   getConfigData / saveConfigData, config.ts), `spider/tasklog` (one row per page fetched, failed or skipped);
 * - crawl.ts: the `spider-crawl` job (crawlee's CheerioCrawler, or PlaywrightCrawler on Debian's chromium);
 *   xpath.ts: fields and rows by XPath (jsdom) beside CSS selectors;
 * - routes.ts: start, pasue, stop, copy, getExecuteStatus, getConfigData, saveConfigData, viewData,
 *   viewLogData, deleteAll;
 * - schedule.ts: `cron/schedule` (schemas/spider/schedule.json) mirrored into pg-boss schedules;
 * - export.ts (+ export-records.ts for the portal's records): testConnection, getTableNames, getTableColumns, exportData (the `spider-export` job),
 *   getExportStatus, over `spider/exportconfig` connections (their URL checked and its password moved to the
 *   write-only password by a hook) or the tenant's own schema of the platform's database;
 * - manage.ts: saveMessageUser (to-dos when a crawl finishes or fails), moveGroup (`spider/taskgroup`),
 *   dashboard;
 * - client.ts: `spider/client`, this node's load and running crawls, refreshed by a heartbeat;
 * - migrations.ts: the crawl's frontier and collected rows.
 *
 * New tasks start idle with empty counters (a hook, so a submit cannot set them).
 */
import type { Module } from '../../core/module.js';
import { sql } from '../../core/db/index.js';
import { CRAWL_JOB, TASK_STATUS, crawlJob } from './crawl.js';
import { migrations } from './migrations.js';
import { TASK_RESOURCE, registerTaskRoutes } from './routes.js';
import { registerSchedules } from './schedule.js';
import { CrawlNode } from './client.js';
import { EXPORT_CONFIG_RESOURCE, EXPORT_JOB, checkUrl, exportJob, registerExportRoutes } from './export.js';
import { notifyFinished, registerManageRoutes } from './manage.js';

/** Debian's chromium (DESIGN §2); CHROMIUM_PATH overrides. */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const module: Module = {
  name: 'spider',
  migrations,
  async routes(app, k) {
    const db = k.database.db;
    k.engine.hooks(TASK_RESOURCE, {
      beforeSubmit({ isNew, record }) {
        if (isNew) Object.assign(record, { taskStatus: TASK_STATUS.idle, progress: 0, pagesCount: 0, rowsCount: 0, errorCount: 0, configData: null, jobId: null, finishTime: null });
      },
      async afterCommit({ action, ids, user }) {
        if (action !== 'remove') return;
        await sql`UPDATE spider_task SET task_status = ${TASK_STATUS.stopped} WHERE tenant_id = ${user.tenantId} AND id = ANY(${ids}::bigint[]) AND task_status IN (1, 2)`.execute(db).catch((e) => app.log.error(e));
      },
    });
    k.engine.hooks(EXPORT_CONFIG_RESOURCE, {
      beforeSubmit({ record, existing }) {
        const { url, password } = checkUrl(record.url ?? existing?.url);
        record.url = url;
        if (password) record.password = password;
      },
    });
    const node = new CrawlNode(db, (e) => app.log.error(e));
    node.start();
    app.addHook('onClose', () => node.stop());
    const run = crawlJob(db, CHROMIUM);
    const log = (e: unknown) => app.log.error(e);
    await k.jobs.define(CRAWL_JOB, async (ctx) => {
      const taskId = (ctx.params as { taskId: string }).taskId;
      try {
        const out = await node.track(taskId, ctx.owner.tenantId, () => run(ctx as any));
        const status = (out.result as { taskStatus?: number } | undefined)?.taskStatus;
        if (status === TASK_STATUS.done) await notifyFinished(db, k.org, ctx.owner, taskId, ctx.id, status).catch(log);
        return out;
      } catch (e) {
        await sql`UPDATE spider_task SET task_status = ${TASK_STATUS.failed}, finish_time = now() WHERE id = ${taskId}::bigint AND tenant_id = ${ctx.owner.tenantId}`.execute(db).catch(() => undefined);
        await notifyFinished(db, k.org, ctx.owner, taskId, ctx.id, TASK_STATUS.failed).catch(log);
        throw e;
      }
    }, { batchSize: 1 });
    await k.jobs.define(EXPORT_JOB, exportJob(db, k.database.pool, k.engine), { batchSize: 1 });
    registerTaskRoutes(app, { db, engine: k.engine, registry: k.registry, jobs: k.jobs });
    registerExportRoutes(app, { db, pool: k.database.pool, engine: k.engine, registry: k.registry, jobs: k.jobs });
    registerManageRoutes(app, { db, engine: k.engine, registry: k.registry });
    await registerSchedules(app, { db, engine: k.engine, registry: k.registry, jobs: k.jobs, log: (e) => app.log.error(e) });
  },
};
