/**
 * Tender-document analysis (issue 17; spec 002 §7 smartdoc/biddingbaseinfo `analysis-file`): an uploaded
 * tender document becomes the catalogue of the bid — its headings (itemType `chapter`) and, under them, the
 * requirements a bid must answer: scoring items (评分项, with their points), qualification items (资格项) and
 * deadlines (时间节点, with the time read from the text).
 *
 * Reading: .docx through mammoth's HTML (`convertToHtml`: styled headings h1–h6, paragraphs, lists, tables
 * with their cells), .pdf through unpdf (pdf.js: each page's text; lines become paragraphs, tables are lost,
 * so scoring lines are read from "… N分" in the text). Both libraries are loaded at first use.
 *
 * Headings: a styled heading (Word's 标题 1…6) by its level, or a short paragraph numbered the way Chinese
 * tender documents number them (GB/T 9704 practice; 《标准施工招标文件》): 第…章 / 第…部分 (rank 1), 第…节 (2),
 * 一、 (3), （一） (4). Levels are relative: a heading's level is one more than the open headings above it.
 *
 * Requirements (under the nearest heading):
 * - a table whose header names points (分值, 分数, 满分, 权重) or that stands under a scoring heading (评分, 评标,
 *   评审): one scoring item per row — its factor (评分因素 / 评审项目 …), its standard (评分标准 / 细则 …) and
 *   its points; rows 合计 / 总计 are sums, not items;
 * - a paragraph under a scoring heading with "N分": a scoring item with those points;
 * - under a qualification heading (资格, 资质), every paragraph and every table row: a qualification item;
 *   a table whose header says 资格 or 审查 also, wherever it stands;
 * - anywhere, a paragraph or table row with a date and a time word (截止, 开标, 递交, 提交, 报名, 答疑, 澄清, 开始,
 *   结束): a deadline item, its time as `yyyy-MM-dd HH:mm:ss`.
 *
 * Errors are `ApiError(400)` with zh and en texts, never a 500 for a user's file: not .docx / .pdf, damaged,
 * no text, no heading found.
 */
import { ApiError } from '../../core/envelope.js';

export type ItemType = 'chapter' | 'scoring' | 'qualification' | 'deadline' | 'requirement';

/** One entry of the analysed catalogue; `parent` is the index of its heading in the answer (-1 at the top). */
export interface CatalogueItem {
  parent: number;
  level: number;
  itemType: ItemType;
  title: string;
  content?: string;
  score?: number;
  deadlineTime?: string;
}

/** A block of the document's text: a heading (styled, with its level), a paragraph, or a table's rows of cells. */
export type Block = { kind: 'heading'; level: number; text: string } | { kind: 'para'; text: string } | { kind: 'table'; rows: string[][] };

export const TENDER_MESSAGES = {
  type: (ext: string) => ({ zh: `招标文件只支持 .docx、.pdf 格式，不支持 ${ext}`, en: `The tender document must be .docx or .pdf, not ${ext}` }),
  damaged: (name: string) => ({ zh: `文件「${name}」已损坏或无法读取，请检查后重新上传`, en: `The file "${name}" is damaged or cannot be read: check it and upload it again` }),
  noHeading: (name: string) => ({ zh: `未能从文件「${name}」中识别出章节标题`, en: `No chapter headings were found in "${name}"` }),
};

const TITLE_MAX = 300;
const CONTENT_MAX = 5000;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };
const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, e: string) => ENTITIES[e]).replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)));
const plain = (html: string) => decode(html.replace(/<br\s*\/?>/g, ' ').replace(/<\/p>\s*<p>/g, ' ').replace(/<[^>]+>/g, '')).replace(/\s+/g, ' ').trim();

/** The blocks of mammoth's HTML of a .docx (top-level headings, paragraphs, list items and tables in order). */
export function htmlBlocks(html: string): Block[] {
  const out: Block[] = [];
  const re = /<(h[1-6]|p|table|ul|ol)\b[^>]*>([\s\S]*?)<\/\1>/g;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    const [, tag, inner] = m;
    if (tag === 'table') {
      const rows = [...inner.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/g)].map((r) => [...r[1].matchAll(/<t[dh]\b[^>]*>([\s\S]*?)<\/t[dh]>/g)].map((c) => plain(c[1])));
      if (rows.length) out.push({ kind: 'table', rows });
    } else if (tag === 'ul' || tag === 'ol') {
      for (const li of inner.matchAll(/<li\b[^>]*>([\s\S]*?)<\/li>/g)) {
        const text = plain(li[1]);
        if (text) out.push({ kind: 'para', text });
      }
    } else {
      const text = plain(inner);
      if (!text) continue;
      out.push(tag === 'p' ? { kind: 'para', text } : { kind: 'heading', level: Number(tag[1]), text });
    }
  }
  return out;
}

const startsWith = (b: Buffer, ...bytes: number[]) => b.length >= bytes.length && bytes.every((x, i) => b[i] === x);

/** The blocks of tender file `buf` (extension `ext`, lower case; `name` for messages). Throws TENDER_MESSAGES. */
export async function tenderBlocks(buf: Buffer, ext: string, name: string): Promise<Block[]> {
  if (ext !== 'docx' && ext !== 'pdf') throw new ApiError(400, TENDER_MESSAGES.type(ext ? `.${ext}` : name));
  // the readers are loaded before the try: a failure to load one is the server's, never the user's file
  const mammoth = ext === 'docx' ? (await import('mammoth')).default : null;
  const unpdf = ext === 'pdf' ? await import('unpdf') : null;
  try {
    if (mammoth) {
      if (!startsWith(buf, 0x50, 0x4b, 0x03, 0x04)) throw new Error('not a zip');
      return htmlBlocks((await mammoth.convertToHtml({ buffer: buf })).value);
    }
    if (!startsWith(buf, 0x25, 0x50, 0x44, 0x46, 0x2d)) throw new Error('not a pdf');
    const pdf = await unpdf!.getDocumentProxy(new Uint8Array(buf));
    const { text } = await unpdf!.extractText(pdf, { mergePages: false });
    const pages = Array.isArray(text) ? text : [text];
    return pages.flatMap((p) => p.split(/\r?\n/)).map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean).map((text) => ({ kind: 'para' as const, text }));
  } catch {
    throw new ApiError(400, TENDER_MESSAGES.damaged(name));
  }
}

const CN = '一二三四五六七八九十百零〇';
const RANKS: Array<[RegExp, number]> = [
  [new RegExp(`^第[${CN}\\d]+[章篇]|^第[${CN}\\d]+部分`), 1],
  [new RegExp(`^第[${CN}\\d]+节`), 2],
  [new RegExp(`^[${CN}]+[、．.]`), 3],
  [new RegExp(`^[（(][${CN}]+[）)]`), 4],
];

/** The rank of a numbered paragraph that reads as a heading (short, no sentence end), or 0. */
export function headingRank(text: string): number {
  if (text.length > 40 || /[。；;：:]$/.test(text) || /[。；;]/.test(text)) return 0;
  for (const [re, rank] of RANKS) if (re.test(text)) return rank;
  return 0;
}

const SCORING_HEAD = /评分|评标|评审|分值/;
const QUALIFY_HEAD = /资格|资质/;
const SCORE_COL = /分值|分数|满分|权重|得分/;
const FACTOR_COL = /评分因素|评审因素|评分项|评审项目|评分内容|评审内容|考核内容|因素|项目|内容/;
const STANDARD_COL = /标准|细则|要求|说明|办法/;
const QUALIFY_TABLE = /资格|审查/;
const TIME_WORD = /截止|开标|递交|提交|报名|答疑|澄清|开始|结束|时间|日期/;
const SUM_ROW = /^(合计|总计|总分|小计)/;

const pad = (n: number) => String(n).padStart(2, '0');

/** The first date (and time) in `text` as `yyyy-MM-dd HH:mm:ss` (00:00:00 without a time), or null. */
export function readDeadline(text: string): string | null {
  const m = /(\d{4})\s*[年\-/.]\s*(\d{1,2})\s*[月\-/.]\s*(\d{1,2})\s*日?(?:\s*[(（][^)）]{0,4}[)）])?\s*(上午|下午|晚上)?\s*(?:(\d{1,2})\s*[时:：点](?:\s*(\d{1,2})\s*分?)?)?/.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  let h = m[5] ? Number(m[5]) : 0;
  const min = m[6] ? Number(m[6]) : 0;
  if ((m[4] === '下午' || m[4] === '晚上') && h < 12) h += 12;
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || h > 23 || min > 59) return null;
  return `${y}-${pad(mo)}-${pad(d)} ${pad(h)}:${pad(min)}:00`;
}

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);
const points = (s: string): number | undefined => {
  const m = /(\d+(?:\.\d+)?)/.exec(s);
  return m ? Number(m[1]) : undefined;
};

/**
 * The catalogue of a tender document's blocks (see the module comment): headings and the requirements under
 * them, in document order; `parent` indexes the answer.
 */
export function analyseTender(blocks: Block[]): CatalogueItem[] {
  const out: CatalogueItem[] = [];
  const stack: Array<{ rank: number; index: number; text: string }> = [];
  const parentIndex = () => (stack.length ? stack[stack.length - 1].index : -1);
  const levelBelow = () => stack.length + 1;
  const push = (item: Omit<CatalogueItem, 'parent' | 'level'>) => out.push({ parent: parentIndex(), level: levelBelow(), ...item });
  const deadline = (text: string, title: string) => {
    const at = TIME_WORD.test(text) ? readDeadline(text) : null;
    if (at) push({ itemType: 'deadline', title: clip(title, TITLE_MAX), content: clip(text, CONTENT_MAX), deadlineTime: at });
    return at !== null;
  };
  for (const b of blocks) {
    if (b.kind === 'heading' || (b.kind === 'para' && headingRank(b.text))) {
      const text = b.text;
      // a styled heading ranks by its level, a numbered paragraph by its numbering (both 1 = chapter)
      const rank = b.kind === 'heading' ? b.level : headingRank(text);
      while (stack.length && stack[stack.length - 1].rank >= rank) stack.pop();
      out.push({ parent: parentIndex(), level: levelBelow(), itemType: 'chapter', title: clip(text, TITLE_MAX) });
      stack.push({ rank, index: out.length - 1, text });
      continue;
    }
    // the nearest heading that names a kind decides (资格审查 under 评标办法 is about qualification)
    const kind = [...stack].reverse().map((h) => (QUALIFY_HEAD.test(h.text) ? 'q' : SCORING_HEAD.test(h.text) ? 's' : '')).find(Boolean);
    const inScoring = kind === 's';
    const inQualify = kind === 'q';
    if (b.kind === 'para') {
      if (deadline(b.text, b.text)) continue;
      const score = /(\d+(?:\.\d+)?)\s*分/.exec(b.text);
      if (inScoring && score) {
        push({ itemType: 'scoring', title: clip(b.text.split(/[：:，,（(]/)[0] || b.text, TITLE_MAX), content: clip(b.text, CONTENT_MAX), score: Number(score[1]) });
      } else if (inQualify) push({ itemType: 'qualification', title: clip(b.text, TITLE_MAX), content: clip(b.text, CONTENT_MAX) });
      continue;
    }
    const [head, ...rows] = b.rows;
    const scoreCol = head.findIndex((c) => SCORE_COL.test(c));
    const headText = head.join(' ');
    if (scoreCol >= 0 || (inScoring && rows.length)) {
      const factorCol = head.findIndex((c, i) => i !== scoreCol && FACTOR_COL.test(c) && !STANDARD_COL.test(c));
      const standardCol = head.findIndex((c, i) => i !== scoreCol && i !== factorCol && STANDARD_COL.test(c));
      for (const row of rows) {
        const title = (factorCol >= 0 ? row[factorCol] : row.find((c, i) => i !== scoreCol && c && !/^\d+(\.\d+)?$/.test(c))) ?? '';
        if (!title || SUM_ROW.test(title) || row.every((c) => !c)) continue;
        const content = standardCol >= 0 ? row[standardCol] : row.filter((_, i) => i !== scoreCol && i !== factorCol).join(' ');
        const score = scoreCol >= 0 ? points(row[scoreCol] ?? '') : points(row.join(' '));
        push({ itemType: 'scoring', title: clip(title, TITLE_MAX), content: clip(content ?? '', CONTENT_MAX), ...(score !== undefined ? { score } : {}) });
      }
      continue;
    }
    // a qualification table's first row is its header; any other table (the 投标人须知前附表 …) is read whole for deadlines
    const qualifyTable = inQualify || QUALIFY_TABLE.test(headText);
    const itemCol = qualifyTable ? head.findIndex((c) => /因素|条件|项目|要求|内容/.test(c)) : -1;
    for (const row of qualifyTable ? rows : b.rows) {
      const text = row.filter(Boolean).join(' ');
      if (!text) continue;
      if (deadline(text, row.find((c) => c && !/^[\d.]+$/.test(c)) ?? text)) continue; // a clause number is no title
      if (qualifyTable) push({ itemType: 'qualification', title: clip((itemCol >= 0 ? row[itemCol] : '') || row.filter(Boolean).slice(-1)[0] || text, TITLE_MAX), content: clip(text, CONTENT_MAX) });
    }
  }
  return out;
}
