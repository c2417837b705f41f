/**
 * The highlighted passages of a search hit (DESIGN §8 Search; spec 001 §7 "/es" searchData: hits come highlighted),
 * computed on the node from the hit's segmented text instead of by PostgreSQL's `ts_headline`, which parses each
 * hit's text again inside the search statement: ≈ 80 µs a hit, a quarter of a whole search's database time under
 * bench:search's load (10 hits a page), against ≈ 10 µs here — and the database is what limits how many searches a
 * 2-core node answers (issue 14 budget p95 < 50 ms at 20 clients).
 *
 * Input: `seg`, the hit's display words separated by single spaces (documents.ts: jieba's plain segmentation, the
 * same the query's words come from: segment.ts `queryWords`), and the query's words. A word of the text matches when
 * it equals a query word (both lower case). Output, as ts_headline gave it with `MaxWords=40, MinWords=12,
 * MaxFragments=3, FragmentDelimiter=" … "`: up to `MAX_FRAGMENTS` passages of the text, each of at most `MAX_WORDS`
 * words and around the query words it holds, each match as `<em>word</em>`; when there are more passages, those
 * holding the most different query words (then the most matches) are kept, shown in the order of the text and joined
 * by ` … `. A text without any query word gives its first `MIN_WORDS` words. The text is not escaped here (it is
 * plain text; the clients show only the `<em>` marks as markup).
 */
export const MAX_WORDS = 40;
export const MIN_WORDS = 12;
export const MAX_FRAGMENTS = 3;
/** Words of context kept before a passage's first match and after its last. */
const CONTEXT = 6;

interface Fragment {
  start: number;
  /** Exclusive. */
  end: number;
  distinct: number;
  matches: number;
}

/** The highlighted passages of `seg` for `words` (see the module comment). */
export function headline(seg: string, words: readonly string[]): string {
  const tokens = seg.split(' ').filter(Boolean);
  const wanted = new Set(words.map((w) => w.toLowerCase()));
  const hit = tokens.map((t) => wanted.has(t.toLowerCase()));
  const fragments: Fragment[] = [];
  let from = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (!hit[i] || i < from) continue;
    const start = Math.max(from, i - CONTEXT);
    const limit = Math.min(tokens.length, start + MAX_WORDS);
    // the passage runs to CONTEXT words past the last match that fits in MAX_WORDS words
    let last = i;
    for (let j = i + 1; j < limit; j++) if (hit[j]) last = j;
    let end = Math.min(limit, last + 1 + CONTEXT);
    if (end - start < MIN_WORDS) end = Math.min(tokens.length, start + MIN_WORDS);
    const seen = new Set<string>();
    let matches = 0;
    for (let j = start; j < end; j++) {
      if (!hit[j]) continue;
      matches++;
      seen.add(tokens[j].toLowerCase());
    }
    fragments.push({ start, end, distinct: seen.size, matches });
    from = end;
  }
  const mark = (f: { start: number; end: number }) =>
    tokens
      .slice(f.start, f.end)
      .map((t, k) => (hit[f.start + k] ? `<em>${t}</em>` : t))
      .join(' ');
  if (!fragments.length) return mark({ start: 0, end: Math.min(tokens.length, MIN_WORDS) });
  return fragments
    .map((f, k) => ({ f, k }))
    .sort((a, b) => b.f.distinct - a.f.distinct || b.f.matches - a.f.matches || a.k - b.k)
    .slice(0, MAX_FRAGMENTS)
    .sort((a, b) => a.k - b.k)
    .map(({ f }) => mark(f))
    .join(' … ');
}
