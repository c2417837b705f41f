/**
 * Fingerprints of a document's core text (text.ts), for the three algorithm kinds an administrator chooses
 * from (duplicate/duplicatealgorithm). Every function is deterministic (fixed seeds, no randomness), so the
 * same text always gives the same fingerprints and a check the same figures.
 *
 * - `gramHashes(core, k)`: a 32-bit hash of every character k-gram (Karp–Rabin rolling hash, then
 *   MurmurHash3's fmix32 finaliser so that neighbouring grams spread over the whole range).
 * - `winnow(hashes, w)`: robust winnowing (Schleimer, Wilkerson, Aiken, "Winnowing: local algorithms for
 *   document fingerprinting", SIGMOD 2003): the minimum hash of every window of `w` consecutive k-grams (the
 *   rightmost on ties), each selected position once. Guarantee: any common substring of at least `w + k − 1`
 *   characters shares at least one fingerprint; a run of `g` consecutive common k-grams shares at least
 *   `floor(g / w)` (`guaranteedShared`).
 * - `minhash(hashes, n)`: the MinHash signature (Broder 1997) of the k-gram set under `n` seeded hash
 *   functions; `lshBands(sig, bands)`: one bucket key per band of `n / bands` rows (locality-sensitive
 *   hashing: two documents of Jaccard similarity s share a bucket with probability 1 − (1 − s^r)^b);
 *   `estimateJaccard` = the share of equal signature positions.
 * - `simhash(hashes)`: Charikar's 64-bit SimHash of the k-gram multiset as `[hi, lo]` 32-bit halves;
 *   `simhashBlocks` = the four 16-bit blocks as bucket keys (pigeonhole: fingerprints within Hamming distance 3
 *   share at least one block); `hamming` = the distance of two.
 */

/** MurmurHash3's 32-bit finaliser (a bijection on 32-bit integers with full avalanche). */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

const BASE = 0x01000193; // FNV prime: odd, so multiplication by it is a bijection modulo 2^32

/** The hash of every k-gram of `core` (length `core.length − k + 1`, empty when shorter than k). */
export function gramHashes(core: string, k: number): Int32Array {
  const n = core.length - k + 1;
  if (n <= 0) return new Int32Array(0);
  const out = new Int32Array(n);
  let pow = 1; // BASE^(k-1)
  for (let i = 1; i < k; i++) pow = Math.imul(pow, BASE);
  let h = 0;
  for (let i = 0; i < k; i++) h = (Math.imul(h, BASE) + core.charCodeAt(i)) | 0;
  out[0] = fmix32(h);
  for (let i = 1; i < n; i++) {
    h = (h - Math.imul(core.charCodeAt(i - 1), pow)) | 0;
    h = (Math.imul(h, BASE) + core.charCodeAt(i + k - 1)) | 0;
    out[i] = fmix32(h);
  }
  return out;
}

export interface Fingerprint {
  hash: number;
  /** The k-gram's position in the core text. */
  pos: number;
}

/** Robust winnowing of `hashes` with window `w` (see the module comment). */
export function winnow(hashes: Int32Array, w: number): Fingerprint[] {
  const out: Fingerprint[] = [];
  const n = hashes.length;
  if (n === 0) return out;
  if (n < w) {
    // a text shorter than one window: its minimum is its fingerprint
    let m = 0;
    for (let i = 1; i < n; i++) if (hashes[i] <= hashes[m]) m = i;
    out.push({ hash: hashes[m], pos: m });
    return out;
  }
  let min = -1;
  for (let end = w - 1; end < n; end++) {
    const start = end - w + 1;
    if (min < start) {
      // the minimum left the window: scan it again (rightmost minimum)
      min = start;
      for (let i = start + 1; i <= end; i++) if (hashes[i] <= hashes[min]) min = i;
      out.push({ hash: hashes[min], pos: min });
    } else if (hashes[end] <= hashes[min]) {
      min = end;
      out.push({ hash: hashes[min], pos: min });
    }
  }
  return out;
}

/** The least number of fingerprints a common passage of `length` core characters is sure to share. */
export function guaranteedShared(length: number, k: number, w: number): number {
  return Math.floor(Math.max(0, length - k + 1) / w);
}

/** The `n` seeds of the MinHash functions (fixed: signatures stay comparable across runs and nodes). */
function seeds(n: number): Int32Array {
  const s = new Int32Array(n);
  for (let i = 0; i < n; i++) s[i] = fmix32(Math.imul(i + 1, 0x9e3779b9));
  return s;
}

/** The MinHash signature of the set of `hashes` under `n` hash functions (uint32 values in an Int32Array). */
export function minhash(hashes: Int32Array, n: number): Int32Array {
  const sig = new Uint32Array(n).fill(0xffffffff);
  const sd = seeds(n);
  const distinct = new Set<number>(hashes);
  for (const x of distinct) {
    for (let i = 0; i < n; i++) {
      const v = fmix32(x ^ sd[i]) >>> 0;
      if (v < sig[i]) sig[i] = v;
    }
  }
  return new Int32Array(sig.buffer);
}

/** One bucket key per band (`bands` must divide the signature's length). */
export function lshBands(sig: Int32Array, bands: number): number[] {
  const r = Math.floor(sig.length / bands);
  const keys: number[] = [];
  for (let b = 0; b < bands; b++) {
    let h = fmix32(b + 0x51ed27);
    for (let i = b * r; i < (b + 1) * r; i++) h = fmix32(Math.imul(h, BASE) ^ sig[i]);
    keys.push(h);
  }
  return keys;
}

/** The share of equal positions of two signatures of the same length (the Jaccard similarity's estimate). */
export function estimateJaccard(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  if (!n) return 0;
  let same = 0;
  for (let i = 0; i < n; i++) if (a[i] === b[i]) same++;
  return same / n;
}

/** Charikar's SimHash over the k-gram multiset: `[hi, lo]` (signed 32-bit halves of the 64-bit value). */
export function simhash(hashes: Int32Array): [number, number] {
  const v = new Int32Array(64);
  for (let i = 0; i < hashes.length; i++) {
    const a = hashes[i];
    const b = fmix32(a ^ 0x2545f491);
    for (let bit = 0; bit < 32; bit++) {
      v[bit] += (a >>> bit) & 1 ? 1 : -1;
      v[32 + bit] += (b >>> bit) & 1 ? 1 : -1;
    }
  }
  let hi = 0;
  let lo = 0;
  for (let bit = 0; bit < 32; bit++) {
    if (v[bit] > 0) hi |= 1 << bit;
    if (v[32 + bit] > 0) lo |= 1 << bit;
  }
  return [hi | 0, lo | 0];
}

/** The four 16-bit blocks of a SimHash as bucket keys `(block << 16) | value`. */
export function simhashBlocks([hi, lo]: readonly [number, number]): number[] {
  return [(0 << 16) | (hi >>> 16), (1 << 16) | (hi & 0xffff), (2 << 16) | (lo >>> 16), (3 << 16) | (lo & 0xffff)];
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Hamming distance of two SimHashes. */
export function hamming(a: readonly [number, number], b: readonly [number, number]): number {
  return popcount(a[0] ^ b[0]) + popcount(a[1] ^ b[1]);
}
