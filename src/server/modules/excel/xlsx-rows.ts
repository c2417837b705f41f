/**
 * The rows of an .xlsx file's FIRST worksheet, streamed (issue 13: import 100,000 rows in under 30 s with the
 * server under 300 MB RSS; spec 002 §4 import). Used by the Excel import (import.ts) instead of exceljs's
 * streaming `WorkbookReader`.
 *
 * Why not exceljs: its reader allocates a `Row`, a `Cell` with its address string and style model, and a value
 * object per cell. Under `npm start`'s memory settings (2 MB semi-spaces, `--optimize-for-size`) every such
 * object feeds the garbage collector: reading the 100,000-row benchmark file alone took 2.8 CPU s with V8's
 * defaults and 14.6 CPU s under those settings (the collector ≈ 40 % of the import's CPU), and the import took
 * 35–37 s, over the budget. This reader turns the XML events straight into one plain array of values per row,
 * no per-cell object beyond the value itself: the same file read in 1.9 CPU s with V8's defaults and 2.1 CPU s
 * under those settings (peak RSS 86 MB, the reader alone).
 *
 * How:
 * - the zip is read with random access (unzipper's `Open.file`: its central directory), so the workbook
 *   (`xl/workbook.xml`, the first `<sheet>` and its relationship), `sharedStrings.xml` and `styles.xml` are read
 *   first whatever the order of the zip's entries; then the sheet's part is inflated as a stream;
 * - the XML goes through saxes, fed text decoded by a `TextDecoder` in stream mode, so a multi-byte UTF-8
 *   character cut between two inflated chunks is decoded whole (exceljs's reader decoded each chunk on its own
 *   and read 集 as two replacement characters when it straddled one);
 * - cells (ECMA-376 Part 1 §18.3.1.4 `c`): the `r` reference gives the column (cells may skip columns; a
 *   missing `r` is the next column), `row r` the row number (rows may skip numbers; a missing `r` is the next
 *   one). `t="s"` a shared string, `inlineStr` the `<is>` text, `str` a formula's text, `b` a boolean, `e` an
 *   error (→ null), `d` an ISO date; otherwise a number — a Date when the cell's style (`s` → `cellXfs` →
 *   `numFmtId`) is a date format (§18.8.30: built-in 14–22, 45–47 and the East Asian 27–36, 50–58; a custom
 *   format with y m d h s outside quotes and brackets), from the Excel serial in the 1900 system or, with
 *   `workbookPr date1904`, the 1904 one — the Date exceljs gave (UTC: Excel dates carry no zone);
 * - strings: rich-text runs (`<r><t>`) joined, phonetic runs (`<rPh>`) left out, the `_xHHHH_` escapes of
 *   §22.9.2.19 decoded.
 *
 * Errors: whatever makes the file unreadable (not a zip, a zip cut short, no workbook or no first sheet,
 * XML that is not well formed or whose root is not a worksheet) rejects with `XlsxError`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { SaxesParser, SaxesTagPlain } from 'saxes';
import type { UnzipperEntry } from 'unzipper';
import { loadSaxes, loadUnzipper } from '../../core/lazy-libs.js';
import type { CellValue } from '../../resources/translate.js';

/** A cell's value: the plain values resources/translate.ts `Translator.fromCell` reads. */
export type XlsxCell = CellValue;

/** One row: its number in the sheet (1 = the first) and its cells by column (0 = A; a skipped column is null). */
export interface XlsxRow {
  number: number;
  cells: XlsxCell[];
}

/** The file is not a readable workbook; `message` says why (for the log, not for the user). */
export class XlsxError extends Error {}

type ZipEntry = UnzipperEntry;
/** The parser class, loaded at first use (core/lazy-libs.ts). */
type Sax = Awaited<ReturnType<typeof loadSaxes>>['SaxesParser'];
type XmlOptions = { xmlns: false; position: boolean };
type Xml = SaxesParser<XmlOptions>;

/** The local name of an element (`x:c` → `c`: some writers prefix SpreadsheetML). */
const local = (name: string) => {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
};

/** A parser for one part: `open` / `text` / `close` get the local names; an XML fault throws. */
function parser(Parser: Sax, open: (name: string, attrs: Record<string, string>) => void, text: ((t: string) => void) | null, close: (name: string) => void): Xml {
  const p = new Parser<XmlOptions>({ xmlns: false, position: false });
  p.on('opentag', (tag: SaxesTagPlain) => open(local(tag.name), tag.attributes));
  if (text) p.on('text', text);
  p.on('closetag', (tag: SaxesTagPlain) => close(local(tag.name)));
  p.on('error', (e: Error) => {
    throw new XlsxError(e.message);
  });
  return p;
}

/** Feeds the UTF-8 bytes of `source` to `p`, decoded in stream mode (a character cut between chunks stays whole). */
async function feed(source: AsyncIterable<Buffer>, p: Xml): Promise<void> {
  const dec = new TextDecoder('utf-8');
  for await (const chunk of source) p.write(dec.decode(chunk, { stream: true }));
  p.write(dec.decode());
  p.close();
}

/** `_xHHHH_` (ECMA-376 §22.9.2.19: a character XML cannot carry, e.g. _x000D_; `_x005F_` escapes an underscore). */
export function unescapeX(s: string): string {
  return s.includes('_x') ? s.replace(/_x([0-9A-Fa-f]{4})_/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))) : s;
}

/** Built-in number formats that are dates or times (ECMA-376 Part 1 §18.8.30, with the East Asian ones). */
const DATE_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/** Whether a custom format code shows a date or time: y m d h s outside quotes, brackets and escapes. */
export function isDateFormat(code: string): boolean {
  const bare = code.replace(/"[^"]*"/g, '').replace(/\[[^\]]*]/g, '').replace(/\\./g, '').replace(/[_*]./g, '');
  return /[ymdhs]/i.test(bare);
}

/** The Date of Excel serial `v` (days since 1899-12-30, or since 1904-01-01 with `date1904`), as exceljs. */
export function excelDate(v: number, date1904: boolean): Date {
  return new Date(Math.round((v - 25569 + (date1904 ? 1462 : 0)) * 86_400_000));
}

/** The 0-based column of a cell reference (`A1` → 0, `AB12` → 27), or -1 when it has no letters. */
export function columnOf(ref: string): number {
  let n = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20; // lower case
    if (c < 97 || c > 122) break;
    n = n * 26 + (c - 96);
  }
  return i === 0 ? -1 : n - 1;
}

/** An entry being read: its bytes inflated (`out`); `read()` answers how many of its compressed bytes were read. */
interface EntryStream {
  read(): number;
  out: Readable;
}

/**
 * Streams entry `e` of the zip `file`: its compressed bytes (after the local header, APPNOTE §4.3.7) from the
 * file, inflated. Our own rather than unzipper's `entry.stream()`, whose file stream stays open when the
 * reading stops early (an import refused at its header): destroying `out` here closes the file.
 */
async function openEntry(file: string, e: ZipEntry): Promise<EntryStream> {
  if (e.flags & 1) throw new XlsxError(`${e.path} is encrypted`);
  if (e.compressionMethod !== 0 && e.compressionMethod !== 8) throw new XlsxError(`${e.path}: compression method ${e.compressionMethod}`);
  const head = Buffer.alloc(30);
  const fh = await fs.promises.open(file);
  try {
    await fh.read(head, 0, 30, e.offsetToLocalFileHeader);
  } finally {
    await fh.close();
  }
  if (head.readUInt32LE(0) !== 0x04034b50) throw new XlsxError(`${e.path}: no local header`);
  const start = e.offsetToLocalFileHeader + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
  if (e.compressedSize === 0) return { read: () => 0, out: Readable.from([]) }; // (`end` below is inclusive)
  const raw = fs.createReadStream(file, { start, end: start + e.compressedSize - 1 });
  const out = e.compressionMethod === 8 ? pipeline(raw, zlib.createInflateRaw(), () => undefined) : raw;
  return { read: () => raw.bytesRead, out };
}

/** Parses a small part (workbook, relationships, styles), read whole. */
async function parseWhole(Parser: Sax, file: string, e: ZipEntry, open: (name: string, attrs: Record<string, string>) => void): Promise<void> {
  const { out } = await openEntry(file, e);
  await feed(out, parser(Parser, open, null, () => undefined));
}

interface Book {
  sheet: ZipEntry;
  strings: string[];
  /** By style index (`c s=`): whether its number format is a date. */
  dateStyle: boolean[];
  date1904: boolean;
}

/** The text of `<si>` / `<is>` items: `<t>` runs joined, phonetic `<rPh>` runs left out. */
class TextItems {
  private depth = 0;
  private inT = false;
  private inPh = false;
  private buf = '';
  constructor(private readonly item: string) {}
  open(name: string): void {
    if (name === this.item) {
      this.depth = 1;
      this.buf = '';
    } else if (this.depth && name === 'rPh') this.inPh = true;
    else if (this.depth && name === 't' && !this.inPh) this.inT = true;
  }
  text(t: string): void {
    if (this.inT) this.buf += t;
  }
  /** Answers the item's text when `name` closes it, else undefined. */
  close(name: string): string | undefined {
    if (name === 't') this.inT = false;
    else if (name === 'rPh') this.inPh = false;
    else if (name === this.item && this.depth) {
      this.depth = 0;
      return unescapeX(this.buf);
    }
    return undefined;
  }
}

/** Reads the workbook, its shared strings and styles; finds the first sheet's entry. */
async function openBook(Parser: Sax, file: string): Promise<Book> {
  const { Open } = await loadUnzipper();
  const dir = await Open.file(file);
  const byPath = new Map<string, ZipEntry>();
  for (const e of dir.files) if (e.type === 'File') byPath.set(e.path.replace(/\\/g, '/').replace(/^\//, '').toLowerCase(), e);
  const entry = (p: string) => byPath.get(p.toLowerCase());
  const rels = async (part: string) => {
    const out = new Map<string, { type: string; target: string }>();
    const e = entry(path.posix.join(path.posix.dirname(part), '_rels', `${path.posix.basename(part)}.rels`));
    if (!e) return out;
    const base = path.posix.dirname(part);
    await parseWhole(Parser, file, e, (n, a) => {
      if (n === 'Relationship' && a.Id && a.Target && a.TargetMode !== 'External') {
        out.set(a.Id, { type: a.Type ?? '', target: a.Target.startsWith('/') ? a.Target.slice(1) : path.posix.normalize(path.posix.join(base, a.Target)) });
      }
    });
    return out;
  };
  const root = [...(await rels('')).values()].find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml';
  const wb = entry(root);
  if (!wb) throw new XlsxError(`no workbook part (${root})`);
  let firstSheet: string | undefined;
  let date1904 = false;
  await parseWhole(Parser, file, wb, (n, a) => {
    if (n === 'workbookPr') date1904 = a.date1904 === '1' || a.date1904 === 'true';
    else if (n === 'sheet' && firstSheet === undefined) firstSheet = Object.entries(a).find(([k]) => k === 'id' || k.endsWith(':id'))?.[1] ?? '';
  });
  const wbRels = await rels(root);
  const sheetPath = firstSheet ? wbRels.get(firstSheet)?.target : undefined;
  const sheet = sheetPath ? entry(sheetPath) : undefined;
  if (!sheet) throw new XlsxError('no first worksheet');
  const partOf = (kind: string, fallback: string) => entry([...wbRels.values()].find((r) => r.type.endsWith(`/${kind}`))?.target ?? fallback);

  const dateStyle: boolean[] = [];
  const styles = partOf('styles', path.posix.join(path.posix.dirname(root), 'styles.xml'));
  if (styles) {
    const custom = new Map<number, boolean>();
    let inXfs = false;
    await parseWhole(Parser, file, styles, (n, a) => {
      if (n === 'numFmt') custom.set(Number(a.numFmtId), isDateFormat(a.formatCode ?? ''));
      else if (n === 'cellXfs') inXfs = true;
      else if (n === 'cellStyles') inXfs = false;
      else if (n === 'xf' && inXfs) {
        const id = Number(a.numFmtId ?? 0);
        dateStyle.push(custom.get(id) ?? DATE_IDS.has(id));
      }
    });
  }

  const strings: string[] = [];
  const sst = partOf('sharedStrings', path.posix.join(path.posix.dirname(root), 'sharedStrings.xml'));
  if (sst) {
    const items = new TextItems('si');
    const p = parser(
      Parser,
      (n) => items.open(n),
      (t) => items.text(t),
      (n) => {
        const s = items.close(n);
        if (s !== undefined) strings.push(s);
      },
    );
    await feed((await openEntry(file, sst)).out, p);
  }
  return { sheet, strings, dateStyle, date1904 };
}

/**
 * The rows of the first worksheet of the .xlsx at `file`, in the sheet's order, each once all its cells are
 * read (an empty `<row/>` has no cells). `onProgress(read, total)` after each inflated chunk of the sheet's XML:
 * the compressed bytes of the sheet's entry read from the file so far, of all of them. Rejects with `XlsxError`
 * when the file cannot be read.
 */
export async function* xlsxRows(file: string, onProgress?: (read: number, total: number) => void): AsyncGenerator<XlsxRow> {
  const { SaxesParser: Parser } = await loadSaxes();
  let book: Book;
  try {
    book = await openBook(Parser, file);
  } catch (e) {
    throw e instanceof XlsxError ? e : new XlsxError(e instanceof Error ? e.message : String(e));
  }
  const { strings, dateStyle, date1904, sheet } = book;
  const total = sheet.compressedSize || 1;
  let ready: XlsxRow[] = [];
  let rootSeen = false;
  // the row and cell being read
  let rowNo = 0;
  let cells: XlsxCell[] | null = null;
  let col = -1;
  let type = '';
  let style = 0;
  let capture = false;
  let buf = '';
  const inline = new TextItems('is');
  let inlineText: string | undefined;

  const p = parser(
    Parser,
    (n, a) => {
      if (!rootSeen) {
        if (n !== 'worksheet') throw new XlsxError(`the first sheet's root is <${n}>, not <worksheet>`);
        rootSeen = true;
      }
      if (cells) {
        if (n === 'c') {
          const at = a.r ? columnOf(a.r) : -1;
          col = at >= 0 ? at : col + 1;
          type = a.t ?? '';
          style = a.s ? Number(a.s) : 0;
          buf = '';
          inlineText = undefined;
        } else if (n === 'v') {
          capture = true;
          buf = '';
        } else inline.open(n);
      } else if (n === 'row') {
        rowNo = a.r ? Number(a.r) : rowNo + 1;
        cells = [];
        col = -1;
      }
    },
    (t) => {
      if (capture) buf += t;
      else inline.text(t);
    },
    (n) => {
      if (!cells) return;
      if (n === 'v') capture = false;
      else if (n === 'c') {
        while (cells.length < col) cells.push(null);
        cells[col] = inlineText ?? value(type, buf, style); // (the inline text is unescaped already)
      } else if (n === 'row') {
        ready.push({ number: rowNo, cells });
        cells = null;
      } else {
        const s = inline.close(n);
        if (s !== undefined) inlineText = s;
      }
    },
  );

  const value = (t: string, v: string, s: number): XlsxCell => {
    switch (t) {
      case 's':
        return v === '' ? null : (strings[Number(v)] ?? null);
      case 'inlineStr':
      case 'str':
        return unescapeX(v);
      case 'b':
        return v === '' ? null : Number(v) !== 0;
      case 'e':
        return null;
      case 'd': {
        const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(v) || !v.includes('T') ? v : `${v}Z`);
        return Number.isNaN(d.getTime()) ? v : d;
      }
      default: {
        if (v === '') return null;
        const x = Number(v);
        if (Number.isNaN(x)) return v;
        return dateStyle[s] ? excelDate(x, date1904) : x;
      }
    }
  };

  let stream: Readable | undefined;
  try {
    const entry = await openEntry(file, sheet);
    stream = entry.out;
    const dec = new TextDecoder('utf-8');
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      try {
        p.write(dec.decode(chunk, { stream: true }));
      } catch (e) {
        throw e instanceof XlsxError ? e : new XlsxError(e instanceof Error ? e.message : String(e));
      }
      onProgress?.(Math.min(entry.read(), total), total);
      if (ready.length) {
        const rows = ready;
        ready = [];
        for (const r of rows) yield r;
      }
    }
    p.write(dec.decode());
    p.close();
    if (!rootSeen) throw new XlsxError('the first sheet is empty');
    for (const r of ready) yield r;
  } catch (e) {
    throw e instanceof XlsxError ? e : new XlsxError(e instanceof Error ? e.message : String(e));
  } finally {
    stream?.destroy();
  }
}
