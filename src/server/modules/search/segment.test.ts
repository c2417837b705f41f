/**
 * The segmentation with the grain-storage lexicon (lexicon.ts): its words stay whole in documents, in queries and
 * in the words shown, and do not take characters from the common words around them.
 */
import { describe, expect, it } from 'vitest';
import { baseSegmenter } from './segment.js';
import { DOMAIN_WORDS } from './lexicon.js';

const seg = baseSegmenter();

describe('grain-storage lexicon', () => {
  it('keeps each of its words whole, alone and in a sentence', () => {
    for (const w of DOMAIN_WORDS) {
      expect(seg.queryWords(w), w).toEqual([w]);
      expect(seg.displayWords(`在${w}中`), w).toContain(w);
      expect(seg.documentWords(`关于${w}的研究`), w).toContain(w);
    }
  });

  it('a query finds the sentence: the same words both sides', () => {
    const doc = seg.documentWords('本装置用于浅圆仓的粮情测控，实时采集粮温并计算宜存率');
    for (const q of ['浅圆仓', '粮情测控', '粮温', '宜存率', '粮情']) for (const w of seg.queryWords(q)) expect(doc, q).toContain(w);
    // a compound of the lexicon also holds its parts (search mode)
    expect(doc).toEqual(expect.arrayContaining(['粮情', '测控', '粮情测控']));
  });

  it('leaves the common words around its words alone', () => {
    expect(seg.displayWords('储粮温度监测')).toEqual(['储粮', '温度', '监测']);
    expect(seg.displayWords('粮情况')).toEqual(['粮', '情况']);
    expect(seg.displayWords('食粮温饱')).toEqual(['食粮', '温饱']);
    expect(seg.queryWords('仓库温度')).toEqual(['仓库', '温度']);
  });
});
