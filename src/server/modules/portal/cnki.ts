/**
 * Readers of the bibliographic export formats of CNKI (中国知网) and of journal catalogue workbooks (issue 14
 * "Journal, CNKI and portal records … imported from files"). Pure functions, no database.
 *
 * Text formats (CNKI's 导出/参考文献 choices; UTF-8, a BOM and CR LF tolerated; a line without a tag continues
 * the previous field):
 * - RefWorks: `RT Journal Article` starts a record, then two-character tags and a blank (`T1`, `A1`, `AD`,
 *   `JF`, `YR`, `vo`, `IS`, `OP`, `K1`, `AB`, `SN`, `LK`, `DO`, `FD`);
 * - EndNote (refer/tagged): `%0 Journal Article` starts a record, then `%T`, `%A` (one per author), `%+`,
 *   `%J`, `%D`, `%V`, `%N`, `%P`, `%K`, `%X`, `%@`, `%U`, `%R`;
 * - NoteExpress: `{Reference Type}: Journal Article` starts a record, then `{Title}:`, `{Author}:`,
 *   `{Author Address}:`, `{Journal}:`, `{Year}:`, `{Volume}:`, `{Issue}:`, `{Pages}:`, `{Keywords}:`,
 *   `{Abstract}:`, `{ISBN/ISSN}:`, `{URL}:`, `{DOI}:`, `{Fund}:`.
 *
 * Every record comes out with the same names (those of the portal/cnki schema): title, authors, institution,
 * source, year, volume, issue, pages, keywords, abstract, issn, doi, url, docType, fund — several authors,
 * keywords or institutions joined by `;`, absent fields left out; a record without a title is dropped.
 */
import { loadExcelJS } from '../../core/lazy-libs.js';

export type CnkiFormat = 'refworks' | 'endnote' | 'noteexpress';
export type ImportFormat = CnkiFormat | 'xlsx';
export type Bib = Record<string, string>;

const MULTI = new Set(['authors', 'keywords', 'institution']);

const REFWORKS: Record<string, string> = {
  RT: 'docType', T1: 'title', A1: 'authors', AU: 'authors', AD: 'institution', JF: 'source', T2: 'source', YR: 'year', VO: 'volume', IS: 'issue',
  OP: 'pages', SP: 'pages', K1: 'keywords', AB: 'abstract', SN: 'issn', LK: 'url', UL: 'url', DO: 'doi', FD: 'fund',
};
const ENDNOTE: Record<string, string> = {
  '%0': 'docType', '%T': 'title', '%A': 'authors', '%+': 'institution', '%J': 'source', '%B': 'source', '%D': 'year', '%V': 'volume', '%N': 'issue',
  '%P': 'pages', '%K': 'keywords', '%X': 'abstract', '%@': 'issn', '%U': 'url', '%R': 'doi',
};
const NOTEEXPRESS: Record<string, string> = {
  'reference type': 'docType', title: 'title', author: 'authors', 'author address': 'institution', journal: 'source', 'secondary title': 'source',
  year: 'year', volume: 'volume', issue: 'issue', pages: 'pages', keywords: 'keywords', abstract: 'abstract', 'isbn/issn': 'issn', url: 'url', doi: 'doi', fund: 'fund',
};

/** The CNKI text format of `text` by its first tagged line, or null when it is none of the three. */
export function detectFormat(text: string): CnkiFormat | null {
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/).map((l) => l.trim()).find(Boolean) ?? '';
  if (/^RT\s+\S/.test(first)) return 'refworks';
  if (/^%0\s+\S/.test(first)) return 'endnote';
  if (/^\{Reference Type\}:/i.test(first)) return 'noteexpress';
  return null;
}

/** The records of a CNKI export in `format` (see the module comment). */
export function parseCnki(text: string, format: CnkiFormat): Bib[] {
  const out: Bib[] = [];
  let cur: Record<string, string[]> | null = null;
  let last = '';
  const flush = () => {
    if (!cur) return;
    const rec: Bib = {};
    for (const [k, vs] of Object.entries(cur)) {
      const parts = MULTI.has(k) ? vs.flatMap((v) => v.split(/[;；]/)).map((v) => v.trim()).filter(Boolean) : vs.map((v) => v.trim()).filter(Boolean);
      if (parts.length) rec[k] = parts.join(MULTI.has(k) ? ';' : k === 'abstract' ? '\n' : ' ');
    }
    if (rec.title) out.push(rec);
    cur = null;
  };
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = raw.replace(/\s+$/, '');
    let tag: string | null = null;
    let value = '';
    if (format === 'refworks') {
      const m = /^([A-Z][A-Z0-9]|vo)(?:\s+(.*))?$/.exec(line);
      if (m && REFWORKS[m[1].toUpperCase()] !== undefined) [tag, value] = [m[1].toUpperCase(), m[2] ?? ''];
    } else if (format === 'endnote') {
      const m = /^(%[0-9A-Z+@])(?:\s+(.*))?$/.exec(line);
      if (m) [tag, value] = [m[1], m[2] ?? ''];
    } else {
      const m = /^\{([^}]{1,40})\}:\s*(.*)$/.exec(line);
      if (m) [tag, value] = [m[1].toLowerCase(), m[2]];
    }
    const starts = (format === 'refworks' && tag === 'RT') || (format === 'endnote' && tag === '%0') || (format === 'noteexpress' && tag === 'reference type');
    if (starts) {
      flush();
      cur = {};
    }
    if (tag !== null) {
      const field = (format === 'refworks' ? REFWORKS : format === 'endnote' ? ENDNOTE : NOTEEXPRESS)[tag];
      last = field ?? '';
      if (cur && field) (cur[field] ??= []).push(value);
    } else if (cur && last && line.trim()) {
      const vs = cur[last];
      if (vs?.length) vs[vs.length - 1] += (last === 'abstract' ? '' : ' ') + line.trim();
    } else if (!line.trim()) {
      last = '';
    }
  }
  flush();
  return out;
}

/**
 * The rows of a workbook's first sheet: row 1 holds the headings, each heading matched (trimmed,
 * case-insensitive) against `columns` (heading → field: the resource's field names and titles in both
 * languages); later rows become records of the matched columns' text (empty rows dropped). Answers the
 * records and whether any heading matched. Throws on a file exceljs cannot read.
 */
export async function readWorkbook(buf: Buffer, columns: Map<string, string>, maxRows: number): Promise<{ records: Bib[]; matched: boolean; tooMany: boolean }> {
  const ExcelJS = await loadExcelJS();
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  if (!ws) return { records: [], matched: false, tooMany: false };
  const byCol = new Map<number, string>();
  ws.getRow(1).eachCell((cell, col) => {
    const f = columns.get(cell.text.trim().toLowerCase());
    if (f) byCol.set(col, f);
  });
  const records: Bib[] = [];
  let tooMany = false;
  ws.eachRow((row, n) => {
    if (n === 1 || !byCol.size) return;
    const rec: Bib = {};
    for (const [col, f] of byCol) {
      const v = row.getCell(col).text.trim();
      if (v) rec[f] = v;
    }
    if (!Object.keys(rec).length) return;
    if (records.length >= maxRows) tooMany = true;
    else records.push(rec);
  });
  return { records, matched: byCol.size > 0, tooMany };
}
