/**
 * Duplicate-check algorithms (records of duplicate/duplicatealgorithm an administrator edits; issue 15) and
 * the defaults seeded in every tenant.
 *
 * Kinds (`algorithmType`):
 * - `winnowing`: fingerprints of character k-grams (`gramSize` k) winnowed with `windowSize` w; candidates
 *   are the library documents sharing fingerprints; finds copied passages anywhere in a text (any common run of
 *   w + k − 1 characters or more shares a fingerprint).
 * - `minhash`: MinHash signatures (`hashCount` functions) of the k-gram sets, `bandCount` LSH bands:
 *   candidates are documents alike as a whole (Jaccard ≳ (1/b)^(1/r)); for versions of one document.
 * - `simhash`: 64-bit SimHash of the k-grams; candidates within Hamming distance `maxDistance` (≤ 3): near-
 *   identical documents.
 * Whatever found the candidates, the passages are computed by comparing the texts (align.ts), so the figures
 * of every kind mean the same: `minLength` = shortest passage reported (core characters: punctuation and
 * blanks not counted); `reportRatio` = a source is listed when it covers at least this percentage of the
 * checked text; `topSources` = how many sources the result lists.
 *
 * Defaults for Chinese text: one Chinese character carries about one morpheme, so an 8-character gram spans two
 * to four words — distinctive enough that common k-grams are rare, short enough to survive light editing; a
 * window of 8 guarantees every shared run of 15 characters is seen, below the 20-character passages reported
 * (Chinese plagiarism checkers flag runs of 13 or more characters; 20 keeps stock phrases of the field out).
 */

export type AlgorithmType = 'winnowing' | 'minhash' | 'simhash';

export interface Algorithm {
  id: string | null;
  name: string;
  algorithmType: AlgorithmType;
  gramSize: number;
  windowSize: number;
  hashCount: number;
  bandCount: number;
  maxDistance: number;
  minLength: number;
  reportRatio: number;
  topSources: number;
}

/** The built-in default (also used when a tenant has no algorithm record). */
export const DEFAULT_ALGORITHM: Algorithm = {
  id: null,
  name: '逐字指纹（Winnowing）',
  algorithmType: 'winnowing',
  gramSize: 8,
  windowSize: 8,
  hashCount: 128,
  bandCount: 32,
  maxDistance: 3,
  minLength: 20,
  reportRatio: 0,
  topSources: 20,
};

/** The records seeded in every tenant without any (name, kind, parameters, remark). */
export const SEEDED_ALGORITHMS: Array<Omit<Algorithm, 'id'> & { isDefault: boolean; remark: string }> = [
  { ...DEFAULT_ALGORITHM, isDefault: true, remark: '8 字滑动指纹、窗口 8：连续 15 字以上的相同文字必被发现，报告 20 字以上的相同段落' },
  { ...DEFAULT_ALGORITHM, name: '严格指纹（13 字）', gramSize: 6, windowSize: 6, minLength: 13, isDefault: false, remark: '6 字指纹、窗口 6，报告连续 13 字以上的相同文字（常见查重系统的口径）' },
  { ...DEFAULT_ALGORITHM, name: '近似文档（MinHash）', algorithmType: 'minhash', gramSize: 5, hashCount: 128, bandCount: 32, isDefault: false, remark: '整篇相似的文档（Jaccard 约 0.4 以上）：同一文档的不同版本' },
  { ...DEFAULT_ALGORITHM, name: '近重复文档（SimHash）', algorithmType: 'simhash', gramSize: 4, maxDistance: 3, isDefault: false, remark: '64 位 SimHash，海明距离 3 以内：几乎相同的文档' },
];

const int = (v: unknown, d: number, min: number, max: number) => {
  const n = Number(v);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, Math.round(n))) : d;
};

/** An algorithm from its record (camelCase, as the engine answers it); out-of-range values are clamped. */
export function algorithmOf(rec: Record<string, unknown>): Algorithm {
  const d = DEFAULT_ALGORITHM;
  const type = (['winnowing', 'minhash', 'simhash'] as const).find((t) => t === rec.algorithmType) ?? 'winnowing';
  const hashCount = int(rec.hashCount, d.hashCount, 16, 512);
  let bandCount = int(rec.bandCount, d.bandCount, 1, hashCount);
  while (hashCount % bandCount) bandCount--; // bands must divide the signature
  const ratio = Number(rec.reportRatio);
  return {
    id: rec.id === undefined || rec.id === null ? null : String(rec.id),
    name: String(rec.name ?? d.name),
    algorithmType: type,
    gramSize: int(rec.gramSize, d.gramSize, 2, 30),
    windowSize: int(rec.windowSize, d.windowSize, 1, 100),
    hashCount,
    bandCount,
    maxDistance: int(rec.maxDistance, d.maxDistance, 0, 3),
    minLength: int(rec.minLength, d.minLength, 5, 1000),
    reportRatio: Number.isFinite(ratio) ? Math.min(100, Math.max(0, ratio)) : d.reportRatio,
    topSources: int(rec.topSources, d.topSources, 1, 200),
  };
}

/** The key the fingerprints of `a` are stored under (documents are indexed once per scheme). */
export function schemeOf(a: Algorithm): string {
  switch (a.algorithmType) {
    case 'winnowing':
      return `w:${a.gramSize}:${a.windowSize}`;
    case 'minhash':
      return `m:${a.gramSize}:${a.hashCount}:${a.bandCount}`;
    case 'simhash':
      return `s:${a.gramSize}`;
  }
}
