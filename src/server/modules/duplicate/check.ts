/**
 * One check: a text against a library of documents of the same tenant (DESIGN §8 Duplicate checking).
 *
 * 1. Candidates, by the algorithm's kind (algorithm.ts). Winnowing: the checked text's fingerprints (winnowed
 *    with the window max(w, (minLength − k + 1) / 3), see winnowingCandidates) are looked up in
 *    `duplicate_fingerprint`, one index probe each reading at most `cap + 1` rows; a fingerprint found in more
 *    than `cap` documents (STOP_MIN, STOP_SHARE) is a stock phrase of the field and is ignored, as MOSS does;
 *    candidates are the documents sharing at least as many fingerprints as a passage of `minLength` characters
 *    must share (`guaranteedShared`, less one that may be a stock phrase), most shared first, at most
 *    `MAX_CANDIDATES`. MinHash: documents sharing an LSH bucket. SimHash: documents sharing a 16-bit block and
 *    within `maxDistance`.
 * 2. Passages: every candidate's text compared with the checked text (align.ts: seed and extend from the shared
 *    fingerprints' positions in both texts for winnowing, a full scan otherwise); offsets mapped from the core
 *    texts to the stored texts.
 * 3. Figures: a source's similarity = the share (percent, two decimals) of the checked text's core characters
 *    its passages cover; a source is reported when that is at least `reportRatio` (and it has a passage); the
 *    overall similarity = the share covered by the passages of all reported sources (overlaps counted once).
 *    Sources are listed most similar first (ties by document id), at most `topSources`; every passage of a
 *    reported source is listed, in the order of the checked text.
 * Only documents whose ids are in `library` (the caller built it from the task's choice, in its tenant) are
 * candidates, and every query names the tenant. Deterministic: same texts and library, same result.
 */
import { sql, type Db } from '../../core/db/index.js';
import { schemeOf, type Algorithm } from './algorithm.js';
import { alignPassages, alignSeeds, coverage, type CorePassage } from './align.js';
import { estimateJaccard, gramHashes, guaranteedShared, hamming, lshBands, minhash, simhash, simhashBlocks, winnow } from './fingerprint.js';
import { coreOf } from './text.js';

/** The most candidates whose texts are compared per check. */
export const MAX_CANDIDATES = 200;

/**
 * A fingerprint found in more than max(STOP_MIN, STOP_SHARE × library size) documents is a stock phrase and
 * seeds nothing (the lookup reads at most that many rows per fingerprint).
 */
export const STOP_MIN = 20;
export const STOP_SHARE = 0.002;

export interface SourceResult {
  documentId: string;
  title: string;
  sourceType: string;
  link: string | null;
  resource: string | null;
  recordId: string | null;
  similarity: number;
  matchedChars: number;
  passageCount: number;
}

export interface PassageResult {
  sourceDocumentId: string;
  sourceTitle: string;
  /** `[start, end)` in the checked document's stored text. */
  start: number;
  end: number;
  /** `[sourceStart, sourceEnd)` in the source document's stored text. */
  sourceStart: number;
  sourceEnd: number;
  /** Core characters (letters and digits) the passage spans. */
  length: number;
}

export interface CheckResult {
  documentId: string | null;
  title: string;
  charCount: number;
  similarity: number;
  matchedChars: number;
  sourceCount: number;
  sources: SourceResult[];
  passages: PassageResult[];
}

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10000) / 100 : 0);

/** A candidate: its document, its rank score, and (winnowing) the query positions of the fingerprints it shares. */
type Cand = { id: string; score: number; pairs?: Array<[number, number]> };

async function winnowingCandidates(db: Db, tenantId: string, core: string, a: Algorithm, library: Set<string>, self: string | null): Promise<Cand[]> {
  const grams = gramHashes(core, a.gramSize);
  // the query is winnowed with a wider window, so that a passage of minLength still holds three fingerprints
  // (one may be a stock phrase, see STOP_MIN): the minimum of a wider window is the minimum of every narrower
  // window inside it, which the library document selected too — fewer lookups, the same passages
  const effMin = Math.min(a.minLength, core.length);
  const wq = Math.max(a.windowSize, Math.floor((effMin - a.gramSize + 1) / 3));
  const at = new Map<number, number[]>();
  for (const f of winnow(grams, wq)) {
    const list = at.get(f.hash);
    if (list) list.push(f.pos);
    else at.set(f.hash, [f.pos]);
  }
  const fps = [...at.keys()];
  if (!fps.length) return [];
  const cap = Math.max(STOP_MIN, Math.ceil(library.size * STOP_SHARE));
  const rows = await sql<{ h: number; d: string; p: number }>`
    SELECT q.h, f.document_id::text AS d, f.pos AS p FROM unnest(${fps}::int[]) AS q(h)
    CROSS JOIN LATERAL (SELECT document_id, pos FROM duplicate_fingerprint
                         WHERE tenant_id = ${tenantId} AND scheme = ${schemeOf(a)} AND hash = q.h LIMIT ${cap + 1}) f`.execute(db);
  const perHash = new Map<number, number>();
  for (const r of rows.rows) perHash.set(r.h, (perHash.get(r.h) ?? 0) + 1);
  const shared = new Map<string, { hashes: Set<number>; pairs: Array<[number, number]> }>();
  for (const r of rows.rows) {
    if (perHash.get(r.h)! > cap || r.d === self || !library.has(r.d)) continue;
    let c = shared.get(r.d);
    if (!c) shared.set(r.d, (c = { hashes: new Set(), pairs: [] }));
    c.hashes.add(r.h);
    for (const qp of at.get(r.h)!) c.pairs.push([qp, r.p]);
  }
  // one guaranteed fingerprint may have been a stock phrase
  const need = Math.max(1, guaranteedShared(effMin, a.gramSize, wq) - 1);
  return [...shared]
    .filter(([, c]) => c.hashes.size >= need)
    .map(([id, c]) => ({ id, score: c.hashes.size, pairs: c.pairs.sort((x, y) => x[0] - y[0] || x[1] - y[1]) }));
}

async function bandCandidates(db: Db, tenantId: string, core: string, a: Algorithm, library: Set<string>, self: string | null): Promise<Cand[]> {
  const grams = gramHashes(core, a.gramSize);
  if (!grams.length) return [];
  const scheme = schemeOf(a);
  let keys: number[];
  let mine: number[];
  if (a.algorithmType === 'minhash') {
    const sig = minhash(grams, a.hashCount);
    mine = [...sig];
    keys = [...new Set(lshBands(sig, a.bandCount))];
  } else {
    const s = simhash(grams);
    mine = s;
    keys = simhashBlocks(s);
  }
  const rows = await sql<{ d: string; sig: number[] }>`
    SELECT s.document_id::text AS d, s.sig FROM duplicate_signature s
     WHERE s.scheme = ${scheme} AND s.tenant_id = ${tenantId}
       AND s.document_id IN (SELECT document_id FROM duplicate_band WHERE tenant_id = ${tenantId} AND scheme = ${scheme} AND bucket = ANY(${keys}::int[]))`.execute(db);
  const out: Cand[] = [];
  for (const r of rows.rows) {
    if (r.d === self || !library.has(r.d)) continue;
    if (a.algorithmType === 'minhash') out.push({ id: r.d, score: estimateJaccard(mine, r.sig) });
    else {
      const dist = hamming(mine as [number, number], r.sig as [number, number]);
      if (dist <= a.maxDistance) out.push({ id: r.d, score: 64 - dist });
    }
  }
  return out;
}

/**
 * Checks `query` (stored text `content`; `id` its document, left out of the candidates) against the documents
 * `library` of tenant `tenantId` with algorithm `a` (see the module comment).
 */
export async function checkText(db: Db, tenantId: string, query: { id: string | null; title: string; content: string }, library: Set<string>, a: Algorithm): Promise<CheckResult> {
  const { core, map } = coreOf(query.content);
  const empty: CheckResult = { documentId: query.id, title: query.title, charCount: query.content.length, similarity: 0, matchedChars: 0, sourceCount: 0, sources: [], passages: [] };
  if (!core.length || !library.size) return empty;
  const found = a.algorithmType === 'winnowing' ? await winnowingCandidates(db, tenantId, core, a, library, query.id) : await bandCandidates(db, tenantId, core, a, library, query.id);
  const cands = found.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)).slice(0, MAX_CANDIDATES);
  if (!cands.length) return empty;
  const docs = await sql<{ id: string; title: string; source_type: string; link: string | null; resource: string | null; record_id: string | null; content: string }>`
    SELECT id::text AS id, title, source_type, link, resource, record_id::text AS record_id, content FROM duplicate_document
     WHERE tenant_id = ${tenantId} AND id = ANY(${cands.map((c) => c.id)}::bigint[]) AND is_deleted = 0`.execute(db);
  const qHashes = gramHashes(core, a.gramSize);
  const pairsOf = new Map(cands.filter((c) => c.pairs).map((c) => [c.id, c.pairs!]));
  const sources: Array<SourceResult & { cps: CorePassage[]; smap: Int32Array }> = [];
  for (const d of docs.rows) {
    const s = coreOf(d.content);
    const pairs = pairsOf.get(d.id);
    const cps = pairs && core.length >= a.gramSize ? alignSeeds(core, s.core, a.gramSize, a.minLength, pairs) : alignPassages(core, qHashes, s.core, a.gramSize, a.minLength);
    if (!cps.length) continue;
    const matched = coverage(cps.map((p) => ({ start: p.qStart, end: p.qEnd })));
    const similarity = pct(matched, core.length);
    if (similarity < a.reportRatio) continue;
    sources.push({ documentId: d.id, title: d.title, sourceType: d.source_type, link: d.link, resource: d.resource, recordId: d.record_id, similarity, matchedChars: matched, passageCount: cps.length, cps, smap: s.map });
  }
  sources.sort((x, y) => y.matchedChars - x.matchedChars || (x.documentId < y.documentId ? -1 : x.documentId > y.documentId ? 1 : 0));
  const passages: PassageResult[] = [];
  const all: Array<{ start: number; end: number }> = [];
  for (const s of sources) {
    for (const p of s.cps) {
      all.push({ start: p.qStart, end: p.qEnd });
      passages.push({
        sourceDocumentId: s.documentId,
        sourceTitle: s.title,
        start: map[p.qStart],
        end: map[p.qEnd - 1] + 1,
        sourceStart: s.smap[p.sStart],
        sourceEnd: s.smap[p.sEnd - 1] + 1,
        length: p.qEnd - p.qStart,
      });
    }
  }
  passages.sort((x, y) => x.start - y.start || x.end - y.end || (x.sourceDocumentId < y.sourceDocumentId ? -1 : x.sourceDocumentId > y.sourceDocumentId ? 1 : 0));
  const matchedChars = coverage(all);
  return {
    ...empty,
    similarity: pct(matchedChars, core.length),
    matchedChars,
    sourceCount: sources.length,
    sources: sources.slice(0, a.topSources).map(({ cps: _c, smap: _m, ...rest }) => rest),
    passages,
  };
}
