/**
 * The highlighted passages of a search hit (DESIGN §8 Search; spec 001 §7 "/es" searchData: hits come highlighted),
 * computed on the node from the hit's segmented text instead of by PostgreSQL's `ts_headline`, which parses each
 * hit's text again inside the search statement: ≈ 80 µs a hit, a quarter of a whole search's database time under
 * bench:search's load (10 hits a page) — and the database is what limits how many searches a 2-core node answers
 * (issue 14 budget p95 < 50 ms at 20 clients). This walks the text once by character codes and builds strings
 * only for the passages it keeps (a few µs a hit).
 *
 * Input: `seg`, the hit's display words in lower case separated by single spaces (documents.ts, segment.ts
 * `displayWords`: jieba's plain segmentation, the same the query's words come from: `queryWords`), and the query's
 * words (lower case). A word of the text matches when it equals a query word. Output, as ts_headline gave it with
 * `MaxWords=40, MinWords=12, MaxFragments=3`: up to `MAX_FRAGMENTS` passages of the text, each of at most
 * `MAX_WORDS` words around the matches it holds, each match as `<em>word</em>`; when there are more passages, those
 * holding the most different query words (then the most matches) are kept, in the order of the text, joined by
 * ` … ` (two that touch are one run of text). A text without any query word gives its first `MIN_WORDS` words.
 * Chinese reads without the blanks between words: no blank is kept between two words (or marks, or `…`) whose facing characters are not ASCII, nor around
 * the fields' separator `，`. The text is not escaped here (it is plain text; clients show only `<em>` as markup).
 */
export const MAX_WORDS = 40;
export const MIN_WORDS = 12;
export const MAX_FRAGMENTS = 3;
/** Words of context kept before a passage's first match and after its last. */
const CONTEXT = 6;
const SPACE = 32;
const COMMA = 0xff0c; // ，

interface Fragment {
  start: number;
  /** Exclusive. */
  end: number;
  distinct: number;
  matches: number;
  order: number;
}

const popcount = (x: number) => {
  let n = 0;
  for (let v = x; v; v &= v - 1) n++;
  return n;
};

/** The highlighted passages of `seg` for `words` (see the module comment). */
export function headline(seg: string, words: readonly string[]): string {
  // the words of the text: [starts[k], ends[k]) and which query word each is (-1: none)
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < seg.length; ) {
    while (i < seg.length && seg.charCodeAt(i) === SPACE) i++;
    if (i >= seg.length) break;
    const s = i;
    while (i < seg.length && seg.charCodeAt(i) !== SPACE) i++;
    starts.push(s);
    ends.push(i);
  }
  const n = starts.length;
  const hit = new Int8Array(n).fill(-1);
  const wanted = words.slice(0, 30);
  for (let k = 0; k < n; k++) {
    const len = ends[k] - starts[k];
    for (let w = 0; w < wanted.length; w++) {
      if (wanted[w].length === len && seg.startsWith(wanted[w], starts[k])) {
        hit[k] = w;
        break;
      }
    }
  }
  const fragments: Fragment[] = [];
  for (let i = 0, from = 0; i < n; i++) {
    if (hit[i] < 0 || i < from) continue;
    const start = Math.max(from, i - CONTEXT);
    const limit = Math.min(n, start + MAX_WORDS);
    // the passage runs to CONTEXT words past the last match that fits in MAX_WORDS words
    let last = i;
    for (let j = i + 1; j < limit; j++) if (hit[j] >= 0) last = j;
    let end = Math.min(limit, last + 1 + CONTEXT);
    if (end - start < MIN_WORDS) end = Math.min(n, start + MIN_WORDS);
    let seen = 0;
    let matches = 0;
    for (let j = start; j < end; j++) {
      if (hit[j] < 0) continue;
      matches++;
      seen |= 1 << hit[j];
    }
    fragments.push({ start, end, distinct: popcount(seen), matches, order: fragments.length });
    from = end;
  }
  const kept = fragments.length
    ? fragments
        .sort((a, b) => b.distinct - a.distinct || b.matches - a.matches || a.order - b.order)
        .slice(0, MAX_FRAGMENTS)
        .sort((a, b) => a.order - b.order)
    : [{ start: 0, end: Math.min(n, MIN_WORDS) }];
  // joins at a word boundary: no blank when both facing sides are non-ASCII or marks, or one is the separator
  const tight = (k: number, side: 'end' | 'start') => hit[k] >= 0 || seg.charCodeAt(side === 'end' ? ends[k] - 1 : starts[k]) > 127;
  const comma = (k: number) => ends[k] - starts[k] === 1 && seg.charCodeAt(starts[k]) === COMMA;
  let out = '';
  for (let f = 0; f < kept.length; f++) {
    const { start, end } = kept[f];
    // a passage that begins where the one before ended continues it: no … where nothing was left out
    const continues = f > 0 && kept[f - 1].end === start;
    if (f > 0 && !continues) out += (tight(kept[f - 1].end - 1, 'end') ? '' : ' ') + '…' + (tight(start, 'start') ? '' : ' ');
    for (let k = start; k < end; k++) {
      if ((k > start || continues) && !((tight(k - 1, 'end') && tight(k, 'start')) || comma(k - 1) || comma(k))) out += ' ';
      const word = seg.slice(starts[k], ends[k]);
      out += hit[k] >= 0 ? `<em>${word}</em>` : word;
    }
  }
  return out;
}
