/**
 * Label widths of forms and filter bars (spec 000 §9 "Label width 130 in forms"; issue 18 defect 12: English
 * labels were cut at 130 px — "Achievement s…", "Journal / proce…").
 *
 * Chinese labels keep the spec's width. English labels are longer: the width grows to what the longest label
 * of the form needs, up to a cap, and a label longer than the cap wraps onto a second line instead of being
 * cut (Formily's `labelWrap`). Widths are estimated from the text (no canvas: this also runs under jsdom) at
 * antd's 14 px: a CJK character 14 px, a capital 9.5, other characters 7.5, a space 4, plus 26 px for the
 * required mark, the colon and the gap.
 */
import type { Lang } from '../../shared/contract/lang.js';

/** The form label width of spec 000 §9, px. */
export const FORM_LABEL_WIDTH = 130;
/** The widest an English label column gets, px; longer labels wrap. */
export const MAX_LABEL_WIDTH = 220;
const LABEL_CHROME = 26;

/** Estimated width of `text` in px at 14 px. */
export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) {
    if (/[\u2e80-\u9fff\uff00-\uffef]/.test(ch)) w += 14;
    else if (ch === ' ') w += 4;
    else if (/[A-Z]/.test(ch)) w += 9.5;
    else w += 7.5;
  }
  return Math.ceil(w);
}

/** The titles of the fields a schema shows with a FormItem (any depth; array-table column titles excluded). */
export function formItemTitles(node: unknown): string[] {
  const out: string[] = [];
  const walk = (n: any) => {
    if (!n || typeof n !== 'object') return;
    if (n['x-decorator'] === 'FormItem' && typeof n.title === 'string') out.push(n.title);
    // the fields inside an array table are cells under column headers, not labelled form items
    if (typeof n['x-component'] === 'string' && n['x-component'].startsWith('ArrayTable')) return;
    for (const child of Object.values(n.properties ?? {})) walk(child);
  };
  walk(node);
  return out;
}

/**
 * The FormLayout props for labels `titles` in `lang`: `{ labelWidth, labelWrap: true }`. zh: `base`; en: the
 * longest label's width, at least `base`, at most MAX_LABEL_WIDTH.
 */
export function labelLayout(titles: string[], lang: Lang, base = FORM_LABEL_WIDTH): { labelWidth: number; labelWrap: true } {
  if (lang !== 'en') return { labelWidth: base, labelWrap: true };
  const need = Math.max(0, ...titles.map(textWidth)) + LABEL_CHROME;
  return { labelWidth: Math.min(MAX_LABEL_WIDTH, Math.max(base, need)), labelWrap: true };
}
