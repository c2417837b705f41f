/**
 * The platform's grain-storage lexicon: words of the enterprise group's own field that jieba's general
 * dictionary splits into single characters (浅圆仓 → 浅/圆/仓, 粮情 → 粮/情, 宜存率 → 宜/存/率), added to every
 * tenant's segmentation (segment.ts) so that a search for 浅圆仓 finds 浅圆仓 and not any text holding 浅, 圆 and
 * 仓, and highlights it as one word. Tenants add their own words in the IK dictionary (es/ikdic) as before.
 *
 * The words are the storage terms of GB/T 29890-2013 粮油储藏技术规范 (warehouse types, grain-condition
 * monitoring, ventilation, fumigation, controlled atmosphere) and quality terms of the grain standards
 * (GB 1351 小麦: 不完善粒; GB 2761 真菌毒素限量: 玉米赤霉烯酮). Kept out: words whose characters also begin a
 * common word (仓温 would take 仓温度 from 温度, 仓湿 仓湿度 from 湿度).
 *
 * Frequency: jieba's user-word frequency, the same for all; 1,000 keeps each word whole (the segmentation test
 * in segment.test.ts) without taking characters from the common words around it (储粮温度 stays 储粮/温度).
 *
 * A change of the list leaves stored documents segmented the old way: `syncLexicon` (run by the module's seed at
 * start) compares the list with the one the database last indexed with (`search_lexicon`, migration
 * search/0004) and, when they differ, queues a re-segmentation (jobs.ts `search-resegment`) of the documents
 * holding an added or removed word, per tenant that has documents, then records the list.
 */
import { sql, type Db } from '../../core/db/index.js';
import type { Jobs } from '../../core/jobs.js';
import { enqueueResegment, systemOwner } from './jobs.js';

export const LEXICON_FREQUENCY = 1000;

export const DOMAIN_WORDS: readonly string[] = [
  // warehouse types
  '浅圆仓', '立筒仓', '砖圆仓', '高大平房仓', '房式仓', '钢板仓',
  // grain condition and its monitoring
  '粮情', '粮情测控', '粮情检测', '粮温', '粮堆', '测温电缆', '宜存率', '扦样', '不完善粒', '虫粮等级', '基本无虫粮',
  '玉米赤霉烯酮',
  // ventilation, cooling, drying
  '地槽通风', '谷冷机', '就仓干燥', '粮面压盖', '内环流控温',
  // fumigation and controlled atmosphere
  '环流熏蒸', '充氮气调', '氮气气调',
];

/** The jieba user-dictionary text of the lexicon ("word frequency" lines). */
export function lexiconDict(): Buffer {
  return Buffer.from(DOMAIN_WORDS.map((w) => `${w} ${LEXICON_FREQUENCY}`).join('\n') + '\n');
}

/**
 * Queues the re-segmentation a changed lexicon needs (see the module comment) and records the list; answers the
 * words that changed ([] when none). Idempotent and safe from several nodes starting at once (an advisory lock
 * around the compare-and-record). A database that never recorded a list and has no documents just records it.
 * `shipped` is the list the segmentation uses (tests pass another to stand for an upgrade).
 */
export async function syncLexicon(db: Db, jobs: Pick<Jobs, 'enqueue'>, shipped: readonly string[] = DOMAIN_WORDS): Promise<string[]> {
  const current = [...new Set(shipped)].sort();
  const work = await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('search-lexicon'))`.execute(trx);
    const row = (await sql<{ words: string[] }>`SELECT words FROM search_lexicon WHERE id = 1`.execute(trx)).rows[0];
    const before = new Set(row?.words ?? []);
    const now = new Set(current);
    const changed = [...current.filter((w) => !before.has(w)), ...[...before].filter((w) => !now.has(w))].sort();
    if (row && !changed.length) return null;
    await sql`INSERT INTO search_lexicon (id, words, update_time) VALUES (1, ${current}::text[], now())
              ON CONFLICT (id) DO UPDATE SET words = excluded.words, update_time = now()`.execute(trx);
    const tenants = (await sql<{ t: string }>`SELECT DISTINCT tenant_id AS t FROM search_document ORDER BY 1`.execute(trx)).rows.map((r) => r.t);
    return { changed, tenants };
  });
  if (!work) return [];
  for (const tenantId of work.tenants) await enqueueResegment(jobs, systemOwner(tenantId), work.changed, 'lexicon');
  return work.changed;
}
