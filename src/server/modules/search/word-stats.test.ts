import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { BUCKETED_FROM, RARE_DOCS, WordStats } from './word-stats.js';

/** A pool answering the statistics query with `row` and counting the reads. */
function pool(row: { docs: number; words: string[] | null; freqs: number[] | null }) {
  const p = { reads: 0, query: async () => (p.reads++, { rows: [row] }) };
  return p as typeof p & pg.Pool;
}

describe('WordStats.plan', () => {
  const docs = 1_000_000;
  // listed shares, then the least and greatest share and the share of nulls (pg_stats most_common_elem_freqs)
  const listed = { docs, words: ['通风', '粮', '温'], freqs: [0.9, 0.4, 0.012, 0.012, 0.9, 0] };

  it('searches a small corpus plainly whatever its words', async () => {
    expect(await new WordStats(pool({ ...listed, docs: BUCKETED_FROM - 1 })).plan(['通风'])).toBe('plain');
  });

  it('uses buckets when every word is common, plain when one is rare or not listed', async () => {
    const s = new WordStats(pool(listed));
    expect(await s.plan(['通风', '粮'])).toBe('buckets');
    expect(RARE_DOCS).toBeGreaterThan(0.012 * docs);
    expect(await s.plan(['通风', '温'])).toBe('plain'); // 温 in 12,000 documents: its posting list is short
  });

  it('a word missing from the statistics is bounded by the least listed share', async () => {
    const common = { docs, words: ['通风'], freqs: [0.9, 0.5, 0.9, 0] };
    expect(await new WordStats(pool(common)).plan(['通风', '未列'])).toBe('buckets'); // bound 500,000
    const rare = { docs, words: ['通风'], freqs: [0.9, 0.01, 0.9, 0] };
    expect(await new WordStats(pool(rare)).plan(['通风', '未列'])).toBe('plain'); // bound 10,000 < RARE_DOCS
  });

  it('without statistics a large corpus is searched in buckets', async () => {
    expect(await new WordStats(pool({ docs, words: null, freqs: null })).plan(['通风'])).toBe('buckets');
  });

  it('reads the statistics once per ttl, again after invalidate', async () => {
    const p = pool(listed);
    const s = new WordStats(p, 60_000);
    await Promise.all([s.plan(['通风']), s.plan(['粮'])]);
    await s.plan(['温']);
    expect(p.reads).toBe(1);
    s.invalidate();
    await s.plan(['温']);
    expect(p.reads).toBe(2);
  });
});
