/**
 * The crawler (DESIGN §8 "Crawler"; spec 002 §2 "Crawler screens", §7 "Crawler"; issue 16): research managers
 * collect policy notices, journal catalogues and patents from web sites into the platform.
 *
 * - resources (schemas/spider/): `spider/task` (a task: name, status, counters; its configuration through
 *   getConfigData / saveConfigData, config.ts), `spider/tasklog` (one row per page fetched, failed or skipped);
 * - crawl.ts: the `spider-crawl` job (crawlee's CheerioCrawler, or PlaywrightCrawler on Debian's chromium);
 * - routes.ts: start, pasue, stop, copy, getExecuteStatus, getConfigData, saveConfigData, viewData,
 *   viewLogData, deleteAll;
 * - schedule.ts: `cron/schedule` (schemas/spider/schedule.json) mirrored into pg-boss schedules;
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
    const run = crawlJob(db, CHROMIUM);
    await k.jobs.define(CRAWL_JOB, async (ctx) => {
      try {
        return await run(ctx as any);
      } catch (e) {
        await sql`UPDATE spider_task SET task_status = ${TASK_STATUS.failed}, finish_time = now() WHERE id = ${(ctx.params as any).taskId}::bigint AND tenant_id = ${ctx.owner.tenantId}`.execute(db).catch(() => undefined);
        throw e;
      }
    }, { batchSize: 1 });
    registerTaskRoutes(app, { db, engine: k.engine, registry: k.registry, jobs: k.jobs });
    await registerSchedules(app, { db, engine: k.engine, registry: k.registry, jobs: k.jobs, log: (e) => app.log.error(e) });
  },
};
