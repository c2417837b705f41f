/**
 * A cache of search result pages (DESIGN §10 "Search over 1,000,000 portal documents: p95 under 50 ms"; issue 14),
 * in the manner of Solr's queryResultCache and CountCache (resources/count-cache.ts).
 *
 * Why: a search over a large index costs 10–150 ms of database time on a busy 2-core machine (the posting lists of
 * common words are read whole, the candidates ranked), and the searches people make repeat — a portal's popular
 * words, a user paging through hits, the same search from every visitor of a channel. The page of a repeated
 * search is answered from memory.
 *
 * - Key: the exact SQL and parameters of the search (search.ts), which hold the tenant, the words, the indexes,
 *   the caller's data-scope conditions (all parameters: access.ts builds them from in-memory grants and org
 *   trees), the filters and the page — a hit is exactly what the query would answer on the same data, and no
 *   one is served a page built for another scope.
 * - Invalidation: an entry depends on `search_document` and the tables of the resources it searched. Every write
 *   of a resource table sends `kc_cache count:<table>` (ResourceEngine.changed) and every write of
 *   search_document sends `count:search_document` (a statement trigger, search/0002); the module bumps the
 *   table's generation on each (`invalidate`), on every node. An entry stores the generations of its tables
 *   taken BEFORE its query ran and is served only while they are unchanged, so a page computed across a
 *   concurrent commit is never kept. Notifications arrive after commit (a few ms); `ttlMs` (60 s) bounds what a
 *   write that bypassed both paths could leave.
 * - Bounds: at most `maxEntries` pages and `maxBytes` of their JSON text (8 MB; least recently used first out).
 * - `Cache-Control: no-cache` on a request skips the lookup (the page is computed and stored afresh).
 */
export class SearchResultCache<V> {
  private readonly entries = new Map<string, { at: number; stamp: number[]; tables: string[]; bytes: number; value: V }>();
  private readonly generations = new Map<string, number>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(
    readonly maxEntries = 2_000,
    readonly maxBytes = 8 * 1024 * 1024,
    readonly ttlMs = 60_000,
  ) {}

  /** The current generations of `tables` (take it before running the query whose result is to be stored). */
  stamp(tables: string[]): number[] {
    return tables.map((t) => this.generations.get(t) ?? 0);
  }

  /** The page stored under `key`, if its tables did not change since and it is younger than `ttlMs`. */
  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) {
      this.misses++;
      return undefined;
    }
    const now = this.stamp(e.tables);
    if (Date.now() - e.at > this.ttlMs || now.some((g, i) => g !== e.stamp[i])) {
      this.drop(key);
      this.misses++;
      return undefined;
    }
    // most recently used last
    this.entries.delete(key);
    this.entries.set(key, e);
    this.hits++;
    return e.value;
  }

  /** Stores `value` computed from data as of `stamp` (of `tables`); kept only if none of them changed meanwhile. */
  set(key: string, tables: string[], stamp: number[], value: V): void {
    if (this.maxEntries <= 0 || this.stamp(tables).some((g, i) => g !== stamp[i])) return;
    const bytes = JSON.stringify(value).length * 2 + key.length * 2;
    if (bytes > this.maxBytes / 4) return;
    this.drop(key);
    while (this.entries.size && (this.entries.size >= this.maxEntries || this.bytes + bytes > this.maxBytes)) this.drop(this.entries.keys().next().value!);
    this.entries.set(key, { at: Date.now(), stamp, tables, bytes, value });
    this.bytes += bytes;
  }

  /** `table` changed: every page that read it is stale from now on. */
  invalidate(table: string): void {
    this.generations.set(table, (this.generations.get(table) ?? 0) + 1);
  }

  /** Pages stored, and the bytes of their text. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private drop(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.bytes -= e.bytes;
    this.entries.delete(key);
  }
}
