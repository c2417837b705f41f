/**
 * Passages two texts share (DESIGN §8: "the matched passages, offsets in both texts"): greedy string tiling
 * over the core texts (text.ts) seeded by k-gram hashes. Scanning the query from left to right, at each
 * position the longest common run starting there (over the source positions whose k-gram hash is equal,
 * checked character by character and extended as far as both texts agree) is taken as a passage when it is at
 * least `minLength` core characters long, and the scan continues after it; otherwise the scan moves on by one.
 * Hash collisions cannot produce a passage (every character is compared). Deterministic: the same texts give
 * the same passages.
 *
 * A run shorter than `minLength` is kept when it is the whole query (a short text — a project name — found
 * entire in a source is a full match).
 */
import { gramHashes } from './fingerprint.js';

/** One shared run: `[qStart, qEnd)` in the query's core text, `[sStart, sEnd)` in the source's. */
export interface CorePassage {
  qStart: number;
  qEnd: number;
  sStart: number;
  sEnd: number;
}

/** Source positions kept per k-gram hash (a gram repeated more often in one source is a filler, not a seed). */
const MAX_SEEDS = 16;

/**
 * The passages of `query` (core text, its k-gram hashes `qHashes`) found in `source` (core text), at least
 * `minLength` characters long (see the module comment); in query order.
 */
export function alignPassages(query: string, qHashes: Int32Array, source: string, k: number, minLength: number): CorePassage[] {
  const out: CorePassage[] = [];
  if (query.length < k || source.length < k) {
    // too short for a k-gram: only an exact containment counts
    if (query.length > 0 && query.length < k) {
      const at = source.indexOf(query);
      if (at >= 0) out.push({ qStart: 0, qEnd: query.length, sStart: at, sEnd: at + query.length });
    }
    return out;
  }
  const sHashes = gramHashes(source, k);
  const seeds = new Map<number, number[]>();
  for (let j = 0; j < sHashes.length; j++) {
    const list = seeds.get(sHashes[j]);
    if (!list) seeds.set(sHashes[j], [j]);
    else if (list.length < MAX_SEEDS) list.push(j);
  }
  const whole = query.length;
  let i = 0;
  while (i < qHashes.length) {
    const list = seeds.get(qHashes[i]);
    let best = 0;
    let bestJ = -1;
    if (list) {
      for (const j of list) {
        let len = 0;
        while (i + len < query.length && j + len < source.length && query.charCodeAt(i + len) === source.charCodeAt(j + len)) len++;
        if (len > best) {
          best = len;
          bestJ = j;
        }
      }
    }
    if (best >= k && (best >= minLength || (i === 0 && best === whole))) {
      out.push({ qStart: i, qEnd: i + best, sStart: bestJ, sEnd: bestJ + best });
      i += best;
    } else i++;
  }
  return out;
}

/**
 * Seed and extend (the winnowing path): the passages of `query` in `source` (core texts) through the pairs
 * `[queryPos, sourcePos]` of shared fingerprints (k-grams at those positions with equal hashes), sorted by
 * query position. Each pair is checked character by character (a hash collision gives nothing) and extended
 * both ways as far as the texts agree, never back into the previous passage; at each query position the
 * longest extension is kept when it is at least `minLength` long (or the whole query). Winnowing makes this
 * exact for passages of at least w + k − 1 characters: such a passage holds a window whose minimum both texts
 * selected — a shared fingerprint (fingerprint.ts). Cost: the seeds and the passages' lengths, independent of
 * the texts' lengths.
 */
export function alignSeeds(query: string, source: string, k: number, minLength: number, pairs: Array<[number, number]>): CorePassage[] {
  const out: CorePassage[] = [];
  let lastEnd = 0;
  for (let i = 0; i < pairs.length; ) {
    const p = pairs[i][0];
    let best = 0;
    let bestStart = 0;
    let bestJ = 0;
    for (; i < pairs.length && pairs[i][0] === p; i++) {
      if (p < lastEnd) continue;
      const j = pairs[i][1];
      let f = 0;
      while (p + f < query.length && j + f < source.length && query.charCodeAt(p + f) === source.charCodeAt(j + f)) f++;
      if (f < k) continue; // a hash collision
      let b = 0;
      while (p - b - 1 >= lastEnd && j - b - 1 >= 0 && query.charCodeAt(p - b - 1) === source.charCodeAt(j - b - 1)) b++;
      if (b + f > best) {
        best = b + f;
        bestStart = p - b;
        bestJ = j - b;
      }
    }
    if (best >= k && (best >= minLength || (bestStart === 0 && best === query.length))) {
      out.push({ qStart: bestStart, qEnd: bestStart + best, sStart: bestJ, sEnd: bestJ + best });
      lastEnd = bestStart + best;
    }
  }
  return out;
}

/** The number of positions covered by the union of the intervals `[start, end)`. */
export function coverage(intervals: Array<{ start: number; end: number }>): number {
  const sorted = [...intervals].sort((a, b) => a.start - b.start || a.end - b.end);
  let total = 0;
  let curS = -1;
  let curE = -1;
  for (const { start, end } of sorted) {
    if (start > curE) {
      if (curE > curS) total += curE - curS;
      curS = start;
      curE = end;
    } else if (end > curE) curE = end;
  }
  if (curE > curS) total += curE - curS;
  return total;
}
