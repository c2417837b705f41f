/**
 * Pinyin initials of Chinese text, for the menu search (issue 18 defect 4: "bdsj" finds 表单设计).
 *
 * No dictionary is shipped: the browser's ICU pinyin collation (`Intl.Collator('zh-Hans-CN-u-co-pinyin')`)
 * orders Han characters by their reading, so a character's initial is the letter of the last boundary
 * character that sorts at or before it. The boundaries are the first characters of each initial in that order
 * (no pinyin starts with i, u or v), measured on this ICU over U+4E00–U+9FA5. Characters outside the CJK block
 * keep themselves (lower case). Polyphonic characters get their collation reading (usually the common one).
 */
const BOUNDARIES = '吖丷嚓咑妸发旮哈丌咔垃呣拏喔妑七呥仨他屲夕丫帀';
const LETTERS = 'abcdefghjklmnopqrstwxyz';

let collator: Intl.Collator | null = null;
const cache = new Map<string, string>();

/** The pinyin initial of one character (lower case), or the character itself lower-cased when it is not Han. */
export function initialOf(ch: string): string {
  if (!/[\u4e00-\u9fa5]/.test(ch)) return ch.toLowerCase();
  const hit = cache.get(ch);
  if (hit !== undefined) return hit;
  collator ??= new Intl.Collator('zh-Hans-CN-u-co-pinyin');
  let letter = '';
  for (let i = 0; i < BOUNDARIES.length; i++) {
    if (collator.compare(ch, BOUNDARIES[i]) >= 0) letter = LETTERS[i];
    else break;
  }
  cache.set(ch, letter);
  return letter;
}

/** The initials of `text`, one per character ("表单设计" → "bdsj"; "Excel模板" → "excelmb"). */
export function pinyinInitials(text: string): string {
  return Array.from(text, initialOf).join('');
}
