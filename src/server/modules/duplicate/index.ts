/**
 * Duplicate checking (DESIGN §8; spec 001 §7 "/duplicate"; issue 15): documents compared against a library
 * with the matched passages.
 *
 * - resources (schemas/duplicate/): `duplicate/file` (files to check, uploaded through put-file and
 *   extracted on submit), `duplicate/duplicatetask` (a check of files against a library, run as a job),
 *   `duplicate/duplicatealgorithm` (winnowing, MinHash + LSH, SimHash and their thresholds);
 * - hooks.ts: what those schemas cannot say; job.ts: the `duplicate-check` job; routes.ts: options, getResult,
 *   getText, the .docx report and `checkRepeat` for resources with `duplicateCheck`;
 * - the algorithm: text.ts (normalisation), extract.ts (docx, pdf, txt), fingerprint.ts, documents.ts
 *   (storage and indexes), check.ts (candidates and figures), align.ts (passages), library.ts (what is
 *   compared against);
 * - seed: every live tenant without any algorithm record gets the defaults of algorithm.ts (once: a tenant
 *   whose administrator removed them all is left alone — removed rows count).
 */
import { sql } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';
import type { Module } from '../../core/module.js';
import { SEEDED_ALGORITHMS } from './algorithm.js';
import { CHECK_JOB, registerDuplicateHooks } from './hooks.js';
import { checkJob } from './job.js';
import { migrations } from './migrations.js';
import { registerDuplicateRoutes } from './routes.js';

export const module: Module = {
  name: 'duplicate',
  migrations,
  async routes(app, k) {
    const db = k.database.db;
    registerDuplicateHooks({ db, engine: k.engine, jobs: k.jobs, dataDir: k.config.dataDir, log: (e) => app.log.error(e) });
    await k.jobs.define(CHECK_JOB, checkJob(db, k.registry, k.config.dataDir), { batchSize: 1 });
    registerDuplicateRoutes(app, { db, engine: k.engine, registry: k.registry, dataDir: k.config.dataDir });
  },
  async seed(k) {
    const db = k.database.db;
    const tenants = await sql<{ t: string }>`SELECT tenant_id AS t FROM blade_tenant WHERE is_deleted = 0 ORDER BY tenant_id`.execute(db);
    for (const { t } of tenants.rows) {
      await db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(hashtext(${`duplicate-seed:${t}`}))`.execute(trx);
        if ((await sql`SELECT 1 FROM duplicate_algorithm WHERE tenant_id = ${t} LIMIT 1`.execute(trx)).rows.length) return;
        for (const a of SEEDED_ALGORITHMS) {
          await sql`INSERT INTO duplicate_algorithm (id, tenant_id, name, algorithm_type, gram_size, window_size, hash_count, band_count, max_distance, min_length,
                      report_ratio, top_sources, is_default, remark)
                    VALUES (${nextId()}::bigint, ${t}, ${a.name}, ${a.algorithmType}, ${a.gramSize}, ${a.windowSize}, ${a.hashCount}, ${a.bandCount}, ${a.maxDistance},
                      ${a.minLength}, ${a.reportRatio}, ${a.topSources}, ${a.isDefault}, ${a.remark})`.execute(trx);
        }
      });
    }
  },
};
