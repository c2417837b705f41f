import { describe, expect, it } from 'vitest';
import { headline, MAX_FRAGMENTS, MAX_WORDS, MIN_WORDS } from './headline.js';

const words = (n: number, w = 'x') => Array.from({ length: n }, (_, i) => `${w}${i}`);

describe('headline', () => {
  it('marks every query word of a short text, case-insensitively', () => {
    expect(headline('采用 横向 通风 降低 粮 温 ， Nitrogen 气调', ['横向', '通风', 'nitrogen'])).toBe('采用 <em>横向</em> <em>通风</em> 降低 粮 温 ， <em>Nitrogen</em> 气调');
  });

  it('gives the first MIN_WORDS words of a text without a query word', () => {
    expect(headline(words(30).join(' '), ['无'])).toBe(words(MIN_WORDS).join(' '));
    expect(headline('', ['无'])).toBe('');
  });

  it('cuts passages of at most MAX_WORDS words around the matches, with context, joined by " … "', () => {
    const t = [...words(50, 'a'), '储粮', ...words(50, 'b'), '储粮', ...words(50, 'c')];
    const h = headline(t.join(' '), ['储粮']);
    const parts = h.split(' … ');
    expect(parts).toHaveLength(2);
    for (const p of parts) {
      expect(p.split(' ').length).toBeGreaterThanOrEqual(MIN_WORDS);
      expect(p.split(' ').length).toBeLessThanOrEqual(MAX_WORDS);
      expect(p).toContain('<em>储粮</em>');
    }
    expect(parts[0].startsWith('a44 ')).toBe(true); // six words of context before the match
    expect(h).not.toContain('a0 ');
  });

  it('keeps the MAX_FRAGMENTS passages holding most different query words, in the order of the text', () => {
    const gap = words(60, 'g');
    const t = ['低温', ...gap, '低温', '储粮', ...gap, '低温', ...gap, '储粮', '低温', ...gap, '储粮'].join(' ');
    const parts = headline(t, ['低温', '储粮']).split(' … ');
    expect(parts).toHaveLength(MAX_FRAGMENTS);
    // the two passages with both words, and the first of those with one (ties by position)
    expect(parts[0]).toContain('<em>低温</em>');
    expect(parts[0]).not.toContain('储粮');
    expect(parts[1]).toContain('<em>低温</em> <em>储粮</em>');
    expect(parts[2]).toContain('<em>储粮</em> <em>低温</em>');
  });
});
