/**
 * What the search schemas cannot say, and indexing on write (DESIGN §8 Search; issue 14):
 *
 * - every resource (`hooksAll`, no resource named): after a committed add or edit, the records are indexed
 *   under every live index definition of the tenant that names the resource; after a removal their documents
 *   go. The definitions of a tenant are cached 5 s per node (dropped at once on the node that edits them); a
 *   failure is logged and caught up by the next `mapping` (re-index job) — the write itself stands.
 * - es/index: the resource must be a tenant-scoped resource (400 数据资源不存在), the title field and every
 *   searchable field fields of it (400 字段 x 不存在), the index name unique in the tenant (400 索引名称已存在);
 *   after an add, or an edit that changes resource, fields, title field or enabled, the index is rebuilt (a
 *   `search-reindex` job); a removal drops its documents.
 * - es/ikdic: the word is one word (no blanks, 1–50 characters; 400 词语不能包含空白字符) and unique per kind in the
 *   tenant (400 该词语已存在); after any change the tenant's segmenter is rebuilt and the documents holding the
 *   changed words are re-segmented (a `search-resegment` job; the old word of an edit counts too).
 */
import { sql, type Db } from '../../core/db/index.js';
import { ApiError } from '../../core/envelope.js';
import type { Jobs } from '../../core/jobs.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Registry } from '../../resources/registry.js';
import { dropRecords, indexRecords, tenantIndexes, type IndexDef } from './documents.js';
import { enqueueResegment, REINDEX_JOB } from './jobs.js';
import type { Segmenters } from './segment.js';

export const INDEX_RESOURCE = 'es/index';
export const DIC_RESOURCE = 'es/ikdic';

export const M = {
  resourceUnknown: { zh: '数据资源不存在', en: 'The resource does not exist' },
  fieldUnknown: (f: string) => ({ zh: `字段 ${f} 不存在`, en: `The field ${f} does not exist` }),
  nameTaken: { zh: '索引名称已存在', en: 'The index name is taken' },
  wordBlank: { zh: '词语不能包含空白字符', en: 'A word cannot hold blanks' },
  wordTaken: { zh: '该词语已存在', en: 'The word exists already' },
};

export interface HookDeps {
  db: Db;
  engine: ResourceEngine;
  registry: Registry;
  jobs: Jobs;
  segmenters: Segmenters;
  log: (e: unknown) => void;
  /** search_document was written on this node (drops the result cache's pages now; other nodes hear the trigger). */
  written?: () => void;
}

/** The per-node cache of index definitions by tenant (5 s). */
export class IndexCache {
  private readonly m = new Map<string, { at: number; defs: IndexDef[] }>();
  constructor(private readonly db: Db) {}
  async of(tenantId: string): Promise<IndexDef[]> {
    const hit = this.m.get(tenantId);
    if (hit && Date.now() - hit.at < 5000) return hit.defs;
    const defs = await tenantIndexes(this.db, tenantId);
    this.m.set(tenantId, { at: Date.now(), defs });
    return defs;
  }
  invalidate(tenantId: string): void {
    this.m.delete(tenantId);
  }
}

const REBUILD_KEYS = ['resource', 'fields', 'titleField', 'enabled'];
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Registers the hooks of the module comment. */
export function registerSearchHooks(d: HookDeps, cache: IndexCache): void {
  const { db, engine } = d;
  engine.hooksAll({
    async afterCommit({ action, ids, user, resource }) {
      const name = resource.schema.name;
      let written = 0;
      try {
        if (action === 'remove') written = await dropRecords(db, user.tenantId, name, ids);
        else {
          const defs = (await cache.of(user.tenantId)).filter((x) => x.resource === name && x.enabled);
          // (re-)indexing also drops a record that no longer qualifies: any definition that ran counts as a write
          for (const def of defs) written += 1 + (await indexRecords(db, d.registry, d.segmenters, def, ids));
        }
      } catch (e) {
        written++;
        d.log(e);
      } finally {
        if (written) d.written?.();
      }
    },
  });

  const rebuildWanted = new Map<string, boolean>();
  engine.hooks(INDEX_RESOURCE, {
    async beforeSubmit({ isNew, record, existing, user, trx }) {
      const v = { ...existing, ...record };
      const r = d.registry.resources.get(String(v.resource ?? ''));
      if (!r || !r.tenantScoped) throw new ApiError(400, M.resourceUnknown);
      const fields = Array.isArray(v.fields) ? (v.fields as Array<Record<string, unknown>>) : [];
      for (const f of [String(v.titleField ?? ''), ...fields.map((x) => String(x.field ?? ''))]) {
        const col = r.byField.get(f);
        if (!col || col.column === 'tenant_id' || col.column === 'is_deleted') throw new ApiError(400, M.fieldUnknown(f));
      }
      const taken = await sql`SELECT 1 FROM es_index WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND index_name = ${String(v.indexName)}
          AND id <> ${isNew ? '0' : String(existing?.id)}::bigint`.execute(trx);
      if (taken.rows.length) throw new ApiError(400, M.nameTaken);
      if (isNew) Object.assign(record, { indexStatus: 0, progress: 0, docCount: 0 });
      rebuildWanted.set(`${user.tenantId}:${isNew ? 'new' : String(existing?.id)}`, isNew || REBUILD_KEYS.some((k) => record[k] !== undefined && !same(record[k], existing?.[k])));
    },
    async afterCommit({ action, ids, user, saved }) {
      cache.invalidate(user.tenantId);
      try {
        if (action === 'remove') {
          await sql`DELETE FROM search_document WHERE tenant_id = ${user.tenantId} AND index_id = ANY(${ids}::bigint[])`.execute(db);
          return;
        }
        const key = `${user.tenantId}:${action === 'add' ? 'new' : String(saved?.id)}`;
        const wanted = rebuildWanted.get(key);
        rebuildWanted.delete(key);
        if (wanted && saved) await enqueueReindex(d, user, String(saved.id), String(saved.indexName ?? ''));
      } catch (e) {
        d.log(e);
      }
    },
  });

  const oldWords = new Map<string, string>();
  engine.hooks(DIC_RESOURCE, {
    async beforeSubmit({ isNew, record, existing, user, trx }) {
      const v = { ...existing, ...record };
      const word = String(v.word ?? '').trim();
      if (!word || /\s/.test(word)) throw new ApiError(400, M.wordBlank);
      const taken = await sql`SELECT 1 FROM es_ikdic WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND lower(word) = lower(${word}) AND word_type = ${Number(v.wordType ?? 1)}::bigint
          AND id <> ${isNew ? '0' : String(existing?.id)}::bigint`.execute(trx);
      if (taken.rows.length) throw new ApiError(400, M.wordTaken);
      record.word = word;
      if (!isNew && existing?.word && existing.word !== word) oldWords.set(`${user.tenantId}:${String(existing.id)}`, String(existing.word));
    },
    async afterCommit({ action, ids, user, saved }) {
      d.segmenters.invalidate(user.tenantId);
      try {
        let words: string[] = [];
        if (action === 'remove') {
          words = (await sql<{ word: string }>`SELECT word FROM es_ikdic WHERE tenant_id = ${user.tenantId} AND id = ANY(${ids}::bigint[])`.execute(db)).rows.map((x) => x.word);
        } else if (saved) {
          const k = `${user.tenantId}:${String(saved.id)}`;
          words = [String(saved.word), ...(oldWords.has(k) ? [oldWords.get(k)!] : [])];
          oldWords.delete(k);
        }
        if (words.length) await enqueueResegment(d.jobs, user, words, 'es/ikdic');
      } catch (e) {
        d.log(e);
      }
    },
  });
}

/** Queues the rebuild of an index (a `search-reindex` job) and marks it building; answers the job id. */
export async function enqueueReindex(d: { db: Db; jobs: Jobs }, user: Parameters<Jobs['enqueue']>[1], indexId: string, indexName: string): Promise<string> {
  await sql`UPDATE es_index SET index_status = 1, progress = 0 WHERE id = ${indexId}::bigint AND tenant_id = ${user.tenantId}`.execute(d.db);
  return d.jobs.enqueue(REINDEX_JOB, user, { indexId, ref: indexId }, { title: `重建索引：${indexName}` });
}
