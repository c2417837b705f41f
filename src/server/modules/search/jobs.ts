/**
 * The search module's jobs (DESIGN §8 Jobs, Search; §13 "a change to jieba's user dictionary leaves the
 * existing tsvectors stale: re-segment (a job)"):
 *
 * - `search-reindex` `{indexId}`: rebuilds one index definition of the owner's tenant — walks the live rows of
 *   its resource by key in batches of 500 (documents.ts `indexRecords`), then drops documents of records that
 *   no longer exist; the definition's `indexStatus` goes 1 (building) → 2 (ready, `docCount` set) or 3
 *   (failed), `progress` 0–100 on the row and on the job.
 * - `search-resegment` `{words}`: after an IK dictionary change, re-segments the tenant's documents whose text
 *   holds one of the changed words (their segmented text with the blanks removed contains the word), index by
 *   index in batches of 500; progress 0–100, `read` = documents found, `written` = documents re-indexed.
 */
import { sql, type Db } from '../../core/db/index.js';
import type { JobContext, JobOutcome, Jobs } from '../../core/jobs.js';
import type { AuthUser } from '../../core/context.js';
import type { Registry } from '../../resources/registry.js';
import { quote } from '../../resources/query.js';
import { indexById, indexRecords, tenantIndexes } from './documents.js';
import type { Segmenters } from './segment.js';

export const REINDEX_JOB = 'search-reindex';
export const RESEGMENT_JOB = 'search-resegment';
const BATCH = 500;

/** The owner of a tenant's jobs the platform starts itself (the seed, a lexicon change): user 0, not a person. */
export function systemOwner(tenantId: string): AuthUser {
  return { tenantId, userId: '0', deptId: null, isAdmin: true, activeRoleIds: [] } as unknown as AuthUser;
}

/** Queues the re-segmentation of `owner`'s tenant's documents holding `words` (`ref` says what changed them). */
export function enqueueResegment(jobs: Pick<Jobs, 'enqueue'>, owner: AuthUser, words: string[], ref: string): Promise<string> {
  return jobs.enqueue(RESEGMENT_JOB, owner, { words, ref }, { title: `重新分词：${words.join('、').slice(0, 80)}` });
}

export interface JobDeps {
  db: Db;
  registry: Registry;
  segmenters: Segmenters;
}

/** The `search-reindex` handler. */
export function reindexJob(d: JobDeps) {
  return async (ctx: JobContext<{ indexId: string }>): Promise<JobOutcome> => {
    const tenantId = ctx.owner.tenantId;
    const def = await indexById(d.db, tenantId, ctx.params.indexId);
    if (!def) return { error: '索引不存在或已删除' };
    const setRow = (extra: ReturnType<typeof sql>) => sql`UPDATE es_index SET update_time = now(), ${extra} WHERE id = ${def.id}::bigint AND tenant_id = ${tenantId}`.execute(d.db);
    try {
      await setRow(sql`index_status = 1, progress = 0`);
      const r = d.registry.resources.get(def.resource);
      let written = 0;
      if (r && r.tenantScoped && def.enabled) {
        const table = sql.table(r.schema.table);
        const key = sql.ref(r.keyColumn);
        const total = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = ${tenantId} AND is_deleted = 0`.execute(d.db)).rows[0].n;
        let after = '0';
        let read = 0;
        for (;;) {
          const ids = (await sql<{ id: string }>`SELECT ${key}::text AS id FROM ${table} WHERE tenant_id = ${tenantId} AND is_deleted = 0 AND ${key} > ${after}::bigint
              ORDER BY ${key} LIMIT ${BATCH}`.execute(d.db)).rows.map((x) => x.id);
          if (!ids.length) break;
          written += await indexRecords(d.db, d.registry, d.segmenters, def, ids);
          read += ids.length;
          after = ids[ids.length - 1];
          const progress = Math.min(99, Math.round((read / Math.max(total, 1)) * 100));
          await ctx.report({ progress, read, written });
          await setRow(sql`progress = ${progress}`);
        }
        await sql`DELETE FROM search_document s WHERE s.tenant_id = ${tenantId} AND s.index_id = ${def.id}::bigint
            AND NOT EXISTS (SELECT 1 FROM ${table} t WHERE t.${sql.raw(quote(r.keyColumn))} = s.record_id AND t.tenant_id = ${tenantId} AND t.is_deleted = 0)`.execute(d.db);
      } else {
        await sql`DELETE FROM search_document WHERE tenant_id = ${tenantId} AND index_id = ${def.id}::bigint`.execute(d.db);
      }
      await setRow(sql`index_status = 2, progress = 100, doc_count = ${written}`);
      await ctx.report({ progress: 100, written }, true);
      return { result: { indexId: def.id, docCount: written } };
    } catch (e) {
      await setRow(sql`index_status = 3`).catch(() => undefined);
      throw e;
    }
  };
}

/** The `search-resegment` handler. */
export function resegmentJob(d: JobDeps) {
  return async (ctx: JobContext<{ words: string[] }>): Promise<JobOutcome> => {
    const tenantId = ctx.owner.tenantId;
    d.segmenters.invalidate(tenantId);
    const words = [...new Set((ctx.params.words ?? []).map((w) => String(w).trim().toLowerCase()).filter(Boolean))];
    if (!words.length) return { result: { documents: 0 } };
    const patterns = words.map((w) => '%' + w.replace(/[\\%_]/g, (c) => '\\' + c).replace(/\s+/g, '') + '%');
    const affected = (
      await sql<{ index_id: string; record_id: string }>`SELECT index_id::text, record_id::text FROM search_document
        WHERE tenant_id = ${tenantId} AND replace(seg, ' ', '') ILIKE ANY(${patterns}::text[]) ORDER BY index_id, record_id`.execute(d.db)
    ).rows;
    const defs = new Map((await tenantIndexes(d.db, tenantId)).map((x) => [x.id, x]));
    let written = 0;
    let done = 0;
    await ctx.report({ progress: 0, read: affected.length });
    for (let i = 0; i < affected.length; i += BATCH) {
      const batch = affected.slice(i, i + BATCH);
      const byIndex = new Map<string, string[]>();
      for (const a of batch) byIndex.set(a.index_id, [...(byIndex.get(a.index_id) ?? []), a.record_id]);
      for (const [indexId, ids] of byIndex) {
        const def = defs.get(indexId);
        if (def) written += await indexRecords(d.db, d.registry, d.segmenters, def, ids);
        else await sql`DELETE FROM search_document WHERE tenant_id = ${tenantId} AND index_id = ${indexId}::bigint AND record_id = ANY(${ids}::bigint[])`.execute(d.db);
      }
      done += batch.length;
      await ctx.report({ progress: Math.round((done / affected.length) * 100), read: affected.length, written });
    }
    await ctx.report({ progress: 100, read: affected.length, written }, true);
    return { result: { documents: affected.length, written } };
  };
}
