/**
 * Documents and their fingerprints (migrations.ts): saving a text once per source, indexing it under an
 * algorithm's scheme, and dropping it. All functions take the tenant and touch only its rows.
 *
 * - `saveDocument(db, doc)`: inserts the document of a source, or answers the live one already stored for it —
 *   replaced (its fingerprints dropped) when the text changed (`content_hash`), its title, link and folder
 *   updated when they changed (nothing written otherwise). Answers the document id.
 * - `indexDocuments(db, tenantId, docs, algorithm)`: computes and stores the fingerprints of `docs` under the
 *   algorithm's scheme (winnowed k-gram hashes and positions; MinHash bands and signature; SimHash blocks and value) in
 *   one statement per table, replacing what the documents had under that scheme (idempotent: a retried job
 *   writes the same rows).
 * - `ensureIndexed(db, tenantId, ids, algorithm, progress)`: indexes those of `ids` not yet indexed under the
 *   scheme, 200 at a time, reporting `progress(done, total)`.
 * - `dropDocuments(db, tenantId, sourceType, keys)` (or `dropIds` by document id): marks the documents removed and deletes
 *   their fingerprints.
 */
import { createHash } from 'node:crypto';
import { sql, type Db } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';
import { schemeOf, type Algorithm } from './algorithm.js';
import { coreOf } from './text.js';
import { gramHashes, lshBands, minhash, simhash, simhashBlocks, winnow } from './fingerprint.js';

export type SourceType = 'file' | 'attach' | 'record';

export interface DocumentInput {
  tenantId: string;
  sourceType: SourceType;
  sourceKey: string;
  title: string;
  content: string;
  link?: string | null;
  folder?: string | null;
  resource?: string | null;
  recordId?: string | null;
}

/** The `content_hash` of a text (sha-256, hex). */
export const contentHash = (s: string) => createHash('sha256').update(s).digest('hex');

/** See the module comment. */
export async function saveDocument(db: Db, d: DocumentInput): Promise<string> {
  const hash = contentHash(d.content);
  const found = await sql<{ id: string; content_hash: string; title: string; link: string | null; folder: string | null }>`
    SELECT id::text AS id, content_hash, title, link, folder FROM duplicate_document
     WHERE tenant_id = ${d.tenantId} AND source_type = ${d.sourceType} AND source_key = ${d.sourceKey} AND is_deleted = 0`.execute(db);
  const old = found.rows[0];
  const title = d.title.slice(0, 500);
  if (old && old.content_hash === hash) {
    // a library walk meets every record again: write only what changed
    if (old.title !== title || old.link !== (d.link ?? null) || old.folder !== (d.folder ?? null)) {
      await sql`UPDATE duplicate_document SET title = ${title}, link = ${d.link ?? null}, folder = ${d.folder ?? null} WHERE id = ${old.id}::bigint`.execute(db);
    }
    return old.id;
  }
  if (old) await dropIds(db, d.tenantId, [old.id]);
  const id = nextId();
  await sql`INSERT INTO duplicate_document (id, tenant_id, source_type, source_key, resource, record_id, title, link, folder, content, char_count, content_hash)
            VALUES (${id}::bigint, ${d.tenantId}, ${d.sourceType}, ${d.sourceKey.slice(0, 300)}, ${d.resource ?? null}, ${d.recordId ?? null}::bigint,
                    ${title}, ${d.link ?? null}, ${d.folder ?? null}, ${d.content}, ${d.content.length}, ${hash})`.execute(db);
  return id;
}

export async function dropIds(db: Db, tenantId: string, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await sql`UPDATE duplicate_document SET is_deleted = 1 WHERE tenant_id = ${tenantId} AND id = ANY(${ids}::bigint[])`.execute(db);
  await sql`DELETE FROM duplicate_fingerprint WHERE document_id = ANY(${ids}::bigint[]) AND tenant_id = ${tenantId}`.execute(db);
  await sql`DELETE FROM duplicate_band WHERE document_id = ANY(${ids}::bigint[]) AND tenant_id = ${tenantId}`.execute(db);
  await sql`DELETE FROM duplicate_signature WHERE document_id = ANY(${ids}::bigint[]) AND tenant_id = ${tenantId}`.execute(db);
}

/** See the module comment. */
export async function dropDocuments(db: Db, tenantId: string, sourceType: SourceType, keys: string[]): Promise<void> {
  if (!keys.length) return;
  const r = await sql<{ id: string }>`SELECT id::text AS id FROM duplicate_document
     WHERE tenant_id = ${tenantId} AND source_type = ${sourceType} AND source_key = ANY(${keys}::text[]) AND is_deleted = 0`.execute(db);
  await dropIds(db, tenantId, r.rows.map((x) => x.id));
}

/** The fingerprints of one text under `a`: winnowed hashes, band keys, signature. */
export function fingerprintsOf(content: string, a: Algorithm): { hashes: number[]; positions: number[]; bands: number[]; sig: number[] } {
  const { core } = coreOf(content);
  const grams = gramHashes(core, a.gramSize);
  switch (a.algorithmType) {
    case 'winnowing': {
      const fps = winnow(grams, a.windowSize);
      return { hashes: fps.map((f) => f.hash), positions: fps.map((f) => f.pos), bands: [], sig: [] };
    }
    case 'minhash': {
      if (!grams.length) return { hashes: [], positions: [], bands: [], sig: [] };
      const sig = minhash(grams, a.hashCount);
      return { hashes: [], positions: [], bands: [...new Set(lshBands(sig, a.bandCount))], sig: [...sig] };
    }
    case 'simhash': {
      if (!grams.length) return { hashes: [], positions: [], bands: [], sig: [] };
      const s = simhash(grams);
      return { hashes: [], positions: [], bands: simhashBlocks(s), sig: [...s] };
    }
  }
}

/** See the module comment. */
export async function indexDocuments(db: Db, tenantId: string, docs: Array<{ id: string; content: string }>, a: Algorithm): Promise<void> {
  if (!docs.length) return;
  const scheme = schemeOf(a);
  const ids = docs.map((d) => d.id);
  const fpHash: number[] = [];
  const fpDoc: string[] = [];
  const fpPos: number[] = [];
  const bandKey: number[] = [];
  const bandDoc: string[] = [];
  const sigs: string[] = [];
  for (const d of docs) {
    const f = fingerprintsOf(d.content, a);
    f.hashes.forEach((h, i) => {
      fpHash.push(h);
      fpDoc.push(d.id);
      fpPos.push(f.positions[i]);
    });
    for (const b of f.bands) {
      bandKey.push(b);
      bandDoc.push(d.id);
    }
    sigs.push(`{${f.sig.join(',')}}`);
  }
  await db.transaction().execute(async (trx) => {
    await sql`DELETE FROM duplicate_fingerprint WHERE document_id = ANY(${ids}::bigint[]) AND tenant_id = ${tenantId} AND scheme = ${scheme}`.execute(trx);
    await sql`DELETE FROM duplicate_band WHERE document_id = ANY(${ids}::bigint[]) AND tenant_id = ${tenantId} AND scheme = ${scheme}`.execute(trx);
    await sql`DELETE FROM duplicate_signature WHERE document_id = ANY(${ids}::bigint[]) AND scheme = ${scheme}`.execute(trx);
    if (fpHash.length) {
      await sql`INSERT INTO duplicate_fingerprint (tenant_id, scheme, hash, document_id, pos)
                SELECT ${tenantId}, ${scheme}, h, d, p FROM unnest(${fpHash}::int[], ${fpDoc}::bigint[], ${fpPos}::int[]) AS x(h, d, p)`.execute(trx);
    }
    if (bandKey.length) {
      await sql`INSERT INTO duplicate_band (tenant_id, scheme, bucket, document_id)
                SELECT ${tenantId}, ${scheme}, b, d FROM unnest(${bandKey}::int[], ${bandDoc}::bigint[]) AS x(b, d)`.execute(trx);
    }
    await sql`INSERT INTO duplicate_signature (document_id, scheme, tenant_id, sig)
              SELECT d, ${scheme}, ${tenantId}, s::int[] FROM unnest(${ids}::bigint[], ${sigs}::text[]) AS x(d, s)`.execute(trx);
  });
}

/** See the module comment. */
export async function ensureIndexed(db: Db, tenantId: string, ids: string[], a: Algorithm, progress?: (done: number, total: number) => Promise<void>): Promise<void> {
  if (!ids.length) return;
  const scheme = schemeOf(a);
  const missing = await sql<{ id: string }>`
    SELECT d.id::text AS id FROM duplicate_document d
     WHERE d.tenant_id = ${tenantId} AND d.id = ANY(${ids}::bigint[]) AND d.is_deleted = 0
       AND NOT EXISTS (SELECT 1 FROM duplicate_signature s WHERE s.document_id = d.id AND s.scheme = ${scheme})
     ORDER BY d.id`.execute(db);
  const todo = missing.rows.map((r) => r.id);
  for (let i = 0; i < todo.length; i += 200) {
    const batch = todo.slice(i, i + 200);
    const rows = await sql<{ id: string; content: string }>`SELECT id::text AS id, content FROM duplicate_document
       WHERE tenant_id = ${tenantId} AND id = ANY(${batch}::bigint[])`.execute(db);
    await indexDocuments(db, tenantId, rows.rows, a);
    await progress?.(Math.min(todo.length, i + batch.length), todo.length);
  }
}
