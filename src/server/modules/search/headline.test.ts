import { describe, expect, it } from 'vitest';
import { headline, MAX_FRAGMENTS, MAX_WORDS, MIN_WORDS } from './headline.js';

const words = (n: number, w = 'x') => Array.from({ length: n }, (_, i) => `${w}${i}`);
/** The words of a highlight made of ASCII words (their blanks are kept), marks removed. */
const wordsOf = (h: string) => h.replace(/<\/?em>/g, '').split(' ');

describe('headline', () => {
  it('marks every query word; Chinese without blanks, ASCII words and the field separator as ts_headline + joining gave', () => {
    expect(headline('采用 横向 通风 降低 粮 温 ， nitrogen 气调 in 2024 年', ['横向', '通风', 'nitrogen'])).toBe('采用<em>横向</em><em>通风</em>降低粮温，<em>nitrogen</em>气调 in 2024 年');
  });

  it('gives the first MIN_WORDS words of a text without a query word', () => {
    expect(headline(words(30).join(' '), ['无'])).toBe(words(MIN_WORDS).join(' '));
    expect(headline('', ['无'])).toBe('');
    expect(headline('  ', ['无'])).toBe('');
  });

  it('cuts passages of at most MAX_WORDS words around the matches, with context, joined by " … "', () => {
    const t = [...words(50, 'a'), 'grain', ...words(50, 'b'), 'grain', ...words(50, 'c')];
    const h = headline(t.join(' '), ['grain']);
    const parts = h.split(' … ');
    expect(parts).toHaveLength(2);
    for (const p of parts) {
      expect(wordsOf(p).length).toBeGreaterThanOrEqual(MIN_WORDS);
      expect(wordsOf(p).length).toBeLessThanOrEqual(MAX_WORDS);
      expect(p).toContain('<em>grain</em>');
    }
    expect(parts[0].startsWith('a44 ')).toBe(true); // six words of context before the match
    expect(h).not.toContain('a0 ');
  });

  it('keeps the MAX_FRAGMENTS passages holding most different query words, in the order of the text', () => {
    const gap = words(60, 'g');
    const t = ['低温', ...gap, '低温', '储粮', ...gap, '低温', ...gap, '储粮', '低温', ...gap, '储粮'].join(' ');
    const parts = headline(t, ['低温', '储粮']).split('…');
    expect(parts).toHaveLength(MAX_FRAGMENTS);
    // the two passages with both words, and the first of those with one (ties by position)
    expect(parts[0]).toContain('<em>低温</em>');
    expect(parts[0]).not.toContain('储粮');
    expect(parts[1]).toContain('<em>低温</em><em>储粮</em>');
    expect(parts[2]).toContain('<em>储粮</em><em>低温</em>');
    expect(parts[0].endsWith(' ')).toBe(true); // an ASCII word before the delimiter keeps its blank
  });

  it('joins passages that touch without an ellipsis: nothing was left out between them', () => {
    // 45 words of matches in a row: the first passage stops at MAX_WORDS, the next one starts right after it
    const t = Array.from({ length: 45 }, (_, i) => (i % 2 ? '粮' : '温')).join(' ');
    const h = headline(t, ['粮', '温']);
    expect(h).not.toContain('…');
    expect(h.match(/<em>/g)).toHaveLength(45);
  });
});
