/**
 * Chinese word segmentation for the search index (DESIGN §8 Search, §13): @node-rs/jieba with its default
 * dictionary and the platform's grain-storage lexicon (lexicon.ts), plus each tenant's IK dictionary (`es/ikdic`:
 * custom words, type 1, loaded as jieba user words with their frequency; stop words, type 2, dropped from
 * documents and queries).
 *
 * - `documentWords(text)`: search-mode segmentation (`cutForSearch`: a compound and its parts, e.g.
 *   低温储粮 → 低温, 储粮, 低温储粮), lower-cased, punctuation and blanks dropped, stop words dropped — what
 *   the tsvector holds; `displayWords(text)`: the plain segmentation of the same text, stop words kept (what headline.ts marks);
 *   `queryWords(text)`: the plain segmentation of a query, de-duplicated (the words a hit must all contain).
 * - jieba's HMM (new-word guessing) is off for documents and queries alike: with it, the same characters split
 *   differently in a sentence and in a short query (在浅圆仓的 → 在/浅/圆仓/的, the query 浅圆仓 → 浅圆仓) and the
 *   query missed; without it both follow the dictionaries (浅圆仓 in both, from the lexicon), and the IK
 *   dictionary adds words.
 * - A tenant without dictionary entries shares one jieba instance (~40 MB, ~1 s to load); a tenant with custom
 *   words has its own, rebuilt when its words change. The entries are read at most every `ttlMs` (5 s) per
 *   node, and at once on the node where they were edited (`invalidate`): another node sees a change within 5 s.
 * - A change of the dictionary leaves stored tsvectors stale (DESIGN §13): the module re-segments the affected
 *   documents as a job (jobs.ts).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Jieba } from '@node-rs/jieba';
import { sql, type Db } from '../../core/db/index.js';
import { lexiconDict } from './lexicon.js';

/** IK dictionary entry types (es/ikdic `wordType`). */
export const WORD_CUSTOM = 1;
export const WORD_STOP = 2;

/** A word worth indexing: holds a letter or digit of any script (punctuation and blanks are not words). */
const WORDLIKE = /[\p{L}\p{N}]/u;
/** Characters the tsvector parser would split on inside one jieba word; they become spaces. */
const SPLIT = /[\s'"\\:&|!()<>*@,;]+/g;

const require = createRequire(import.meta.url);

/**
 * jieba's default dictionary (5 MB of text), read each time an instance is built and then let go: the
 * package's own `dict.js` would hold it, and its 6 MB IDF table we never use, for the life of the process
 * (issue 13's memory budget).
 */
function defaultDict(): Buffer {
  return fs.readFileSync(require.resolve('@node-rs/jieba/dict.txt'));
}

/** A jieba with the default dictionary and the grain-storage lexicon (what every tenant starts from). */
function newJieba(): Jieba {
  const j = Jieba.withDict(defaultDict());
  j.loadDict(lexiconDict());
  return j;
}

let base: Jieba | null = null;
function baseJieba(): Jieba {
  base ??= newJieba();
  return base;
}

/** The segmentation of one tenant (its dictionary applied). */
export class Segmenter {
  constructor(
    private readonly jieba: Jieba,
    readonly stopWords: ReadonlySet<string>,
  ) {}

  private clean(words: string[], keepStop = false): string[] {
    const out: string[] = [];
    for (const w of words) {
      const t = w.toLowerCase().replace(SPLIT, ' ').trim();
      if (!t || !WORDLIKE.test(t) || (!keepStop && this.stopWords.has(t))) continue;
      out.push(t);
    }
    return out;
  }

  documentWords(text: string): string[] {
    return text ? this.clean(this.jieba.cutForSearch(text, false)) : [];
  }

  /** Stop words are kept here: this is the text shown (and searched for changed dictionary words). */
  displayWords(text: string): string[] {
    return text ? this.clean(this.jieba.cut(text, false), true) : [];
  }

  queryWords(text: string): string[] {
    return [...new Set(this.clean(this.jieba.cut(text.slice(0, 200), false)))].slice(0, 16);
  }
}

/** The segmentation of a tenant without IK dictionary entries: jieba's dictionary and the lexicon, no stop words. */
export function baseSegmenter(): Segmenter {
  return new Segmenter(baseJieba(), new Set());
}

interface Entry {
  at: number;
  signature: string;
  segmenter: Segmenter;
}

/** The per-tenant segmenters of one node (see the module comment). */
export class Segmenters {
  private readonly cache = new Map<string, Entry>();
  private shared: Segmenter | null = null;

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 5000,
  ) {}

  /** Loads the default dictionary now (≈1 s) so that the first search does not wait for it. */
  warm(): void {
    baseJieba();
  }

  /** Forgets the tenant's dictionary: the next call reads it again. */
  invalidate(tenantId: string): void {
    this.cache.delete(tenantId);
  }

  /** The segmenter of `tenantId`, its dictionary read at most every ttlMs. */
  async of(tenantId: string): Promise<Segmenter> {
    const hit = this.cache.get(tenantId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.segmenter;
    const r = await sql<{ word: string; word_type: number; frequency: number | null }>`SELECT word, word_type::int AS word_type, frequency::float8 AS frequency FROM es_ikdic
        WHERE tenant_id = ${tenantId} AND is_deleted = 0 ORDER BY word, word_type`.execute(this.db);
    const custom = r.rows.filter((w) => w.word_type === WORD_CUSTOM);
    const stop = new Set(r.rows.filter((w) => w.word_type === WORD_STOP).map((w) => w.word.trim().toLowerCase()));
    const signature = JSON.stringify(r.rows);
    if (hit && hit.signature === signature) {
      hit.at = Date.now();
      return hit.segmenter;
    }
    let segmenter: Segmenter;
    if (!custom.length) {
      segmenter = stop.size ? new Segmenter(baseJieba(), stop) : (this.shared ??= baseSegmenter());
    } else {
      const j = newJieba();
      // jieba's user dictionary lines: "word frequency" (a high default frequency makes the word win)
      j.loadDict(Buffer.from(custom.map((w) => `${w.word.trim().replace(/\s+/g, '')} ${w.frequency && w.frequency > 0 ? w.frequency : 100000}`).join('\n') + '\n'));
      segmenter = new Segmenter(j, stop);
    }
    this.cache.set(tenantId, { at: Date.now(), signature, segmenter });
    return segmenter;
  }
}
