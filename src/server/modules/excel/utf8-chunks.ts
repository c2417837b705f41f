/**
 * A fix for exceljs 4.4's streaming reader: its SAX step turns every inflated chunk into text on its own
 * (`utils/parse-sax.js`: `bufferToString(chunk)`), so a multi-byte UTF-8 character that straddles two chunks
 * becomes two replacement characters (found by the Excel benchmark: 集团科技信息部 read as ��团科技信息部 at a
 * chunk boundary — any Chinese text can be hit). The worksheet and shared-string readers are given their XML
 * through `utf8Chunks`, which cuts the byte stream only between characters (an incomplete sequence at a
 * chunk's end waits for the next chunk), one state per stream. Installed once, on import of this module, on
 * exceljs's own reader classes (the same module instances `ExcelJS.stream.xlsx.WorkbookReader` uses).
 */
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';

/** The bytes of `source` re-chunked so that no chunk ends inside a UTF-8 character. */
export async function* utf8Chunks(source: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  let rest: Buffer = Buffer.alloc(0);
  for await (const raw of source) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    const buf = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    // walk back over continuation bytes (10xxxxxx) to the last lead byte; keep it back if its sequence is cut
    let cut = buf.length;
    let i = buf.length - 1;
    let back = 0;
    while (i >= 0 && back < 4 && (buf[i] & 0xc0) === 0x80) {
      i--;
      back++;
    }
    if (i >= 0) {
      const lead = buf[i];
      const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
      if (need > 1 && buf.length - i < need) cut = i;
    }
    rest = buf.subarray(cut);
    if (cut > 0) yield buf.subarray(0, cut);
  }
  if (rest.length) yield rest;
}

const require = createRequire(import.meta.url);
type Reader = { prototype: Record<string, unknown> };
const PATCHED = Symbol.for('kc.exceljs.utf8');

function install(): void {
  const sheet = require('exceljs/lib/stream/xlsx/worksheet-reader.js') as Reader;
  const book = require('exceljs/lib/stream/xlsx/workbook-reader.js') as Reader;
  if (sheet.prototype[PATCHED as unknown as string]) return;
  const parse = sheet.prototype.parse as (this: { iterator: AsyncIterable<Buffer> }) => AsyncGenerator<unknown>;
  sheet.prototype.parse = function (this: { iterator: AsyncIterable<Buffer> }) {
    this.iterator = utf8Chunks(this.iterator);
    return parse.call(this);
  };
  const shared = book.prototype._parseSharedStrings as (this: unknown, entry: Readable) => AsyncGenerator<unknown>;
  book.prototype._parseSharedStrings = function (this: unknown, entry: Readable) {
    return shared.call(this, Readable.from(utf8Chunks(entry)));
  };
  sheet.prototype[PATCHED as unknown as string] = true;
}

install();
