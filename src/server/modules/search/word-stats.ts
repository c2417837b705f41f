/**
 * How common a query's words are among the indexed documents, from PostgreSQL's own statistics of
 * `search_document.tsv` (pg_stats `most_common_elems` / `most_common_elem_freqs`, which ANALYZE and autovacuum
 * keep for tsvector columns: ts_typanalyze), read at most every `ttlMs` per node. search.ts asks it which way to
 * look for a query's candidates (DESIGN §8 Search; issue 14 budget p95 < 50 ms):
 *
 * - `plain` — one GIN bitmap scan over all documents. Its cost is that of the query's rarest word (GIN's AND scan
 *   walks the other words' posting lists only past that word's entries), so it is the fast way for a query with a
 *   rare word, and the only sensible one for a small corpus;
 * - `buckets` — the same scan bucket by bucket, newest first, until enough candidates are found (migrations.ts
 *   0003). When every word is common, a plain scan would collect hundreds of thousands of matches to rank 100.
 *
 * The rule: `buckets` when the corpus has at least `BUCKETED_FROM` documents and the rarest word is in at least
 * `RARE_DOCS` of them by the statistics; a word the statistics do not list is rarer than the least frequent one
 * they list (that frequency bounds it); no statistics yet on a large corpus (never analysed) → `buckets`, whose
 * cost per bucket is bounded either way.
 */
import type pg from 'pg';
import { BUCKET_SIZE } from './migrations.js';

export type SearchPlan = 'plain' | 'buckets';

/** Below this many documents a plain scan is always cheap (a few buckets at most). */
export const BUCKETED_FROM = 4 * BUCKET_SIZE;
/** A word in fewer documents than this makes the plain scan the cheaper one (its posting list is short). */
export const RARE_DOCS = 20_000;

interface Snapshot {
  at: number;
  /** Documents in search_document (pg_class.reltuples; 0 when never counted). */
  docs: number;
  /** Word → share of documents holding it (0–1), for the words the statistics list. */
  freq: Map<string, number>;
  /** The share of the least common word listed (a bound for words not listed); null without statistics. */
  floor: number | null;
}

/** The per-node reader of the word statistics (see the module comment). */
export class WordStats {
  private snap: Snapshot | null = null;
  private loading: Promise<Snapshot> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly ttlMs = 60_000,
  ) {}

  /** Forgets the statistics read (the next `plan` reads them again). */
  invalidate(): void {
    this.snap = null;
  }

  /** The way to search for `words` (all of them must match), see the module comment. */
  async plan(words: string[]): Promise<SearchPlan> {
    const s = await this.snapshot();
    if (s.docs < BUCKETED_FROM || !words.length) return 'plain';
    if (s.floor === null) return 'buckets';
    const rarest = Math.min(...words.map((w) => (s.freq.get(w) ?? s.floor!) * s.docs));
    return rarest < RARE_DOCS ? 'plain' : 'buckets';
  }

  private async snapshot(): Promise<Snapshot> {
    if (this.snap && Date.now() - this.snap.at < this.ttlMs) return this.snap;
    this.loading ??= this.read().finally(() => (this.loading = null));
    this.snap = await this.loading;
    return this.snap;
  }

  private async read(): Promise<Snapshot> {
    const r = await this.pool.query<{ docs: number; words: string[] | null; freqs: number[] | null }>(
      `SELECT greatest(c.reltuples, 0)::float8 AS docs, s.most_common_elems::text::text[] AS words, s.most_common_elem_freqs::float8[] AS freqs
         FROM pg_class c LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = 'search_document' AND s.attname = 'tsv'
        WHERE c.oid = 'search_document'::regclass`,
    );
    const row = r.rows[0];
    const freq = new Map<string, number>();
    let floor: number | null = null;
    if (row?.words?.length && row.freqs) {
      // most_common_elem_freqs: one share per element, then the least and the greatest share and the share of nulls
      row.words.forEach((w, i) => freq.set(w, Number(row.freqs![i])));
      floor = Number(row.freqs[row.words.length]);
    }
    return { at: Date.now(), docs: Number(row?.docs ?? 0), freq, floor };
  }
}
