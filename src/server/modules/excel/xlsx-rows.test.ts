/**
 * xlsx-rows.ts: the rows of an .xlsx's first worksheet — shared strings (rich text, phonetic runs, _xHHHH_,
 * spaces), inline strings, formula strings, booleans, errors, skipped columns and rows, dates (built-in and
 * custom formats, 1904), the first sheet by the workbook's order whatever the zip's, Chinese text across the
 * inflated chunks, the same values as exceljs's reader gave, and damaged files (XlsxError).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import type { CellValue } from '../../resources/translate.js';
import { columnOf, isDateFormat, XlsxError, xlsxRows, type XlsxRow } from './xlsx-rows.js';

/** The plain value of an exceljs cell value (rich text, hyperlinks, formulas and errors flattened), as the import read them. */
function plainCell(v: unknown): CellValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date) return v;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (Array.isArray(o.richText)) return (o.richText as Array<{ text: string }>).map((r) => r.text).join('');
    if ('result' in o) return plainCell(o.result);
    if ('text' in o) return plainCell(o.text);
    if ('error' in o) return null;
  }
  return String(v);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kc-xlsx-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const sheetXml = (rows: string) => `<?xml version="1.0" encoding="UTF-8"?><worksheet ${NS}><sheetData>${rows}</sheetData></worksheet>`;

/** Writes a zip of `parts` (in that order) to a file of the test folder; answers its path. */
async function zipFile(parts: Record<string, string | Buffer>): Promise<string> {
  const zip = new JSZip();
  for (const [name, body] of Object.entries(parts)) zip.file(name, body);
  const file = path.join(dir, `t${n++}.xlsx`);
  fs.writeFileSync(file, await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
  return file;
}

/** A workbook of one sheet (`sheet1.xml`, written first in the zip) with optional shared strings and styles. */
function book(sheet: string, o: { strings?: string; styles?: string; workbookPr?: string } = {}): Promise<string> {
  const rels = [`<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>`];
  if (o.strings) rels.push(`<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`);
  if (o.styles) rels.push(`<Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/>`);
  const parts: Record<string, string> = {
    'xl/worksheets/sheet1.xml': sheet,
    '_rels/.rels': `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<workbook ${NS}>${o.workbookPr ?? ''}<sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`,
  };
  if (o.strings) parts['xl/sharedStrings.xml'] = `<sst ${NS}>${o.strings}</sst>`;
  if (o.styles) parts['xl/styles.xml'] = `<styleSheet ${NS}>${o.styles}</styleSheet>`;
  return zipFile(parts);
}

async function rows(file: string, onProgress?: (read: number, total: number) => void): Promise<XlsxRow[]> {
  const out: XlsxRow[] = [];
  for await (const r of xlsxRows(file, onProgress)) out.push(r);
  return out;
}

describe('xlsxRows', () => {
  it('shared strings: plain, rich-text runs joined, phonetic runs left out, _xHHHH_ decoded, spaces and entities kept', async () => {
    const strings = [
      '<si><t>专利名称</t></si>',
      '<si><r><rPr><b/></rPr><t>低温</t></r><r><t xml:space="preserve"> 储粮 </t></r></si>',
      '<si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh></si>',
      '<si><t>a_x000D_b_x005F_x000D_</t></si>',
      '<si><t xml:space="preserve">  A &amp; B &lt;c&gt;  </t></si>',
    ].join('');
    const file = await book(sheetXml('<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>4</v></c></row>'), { strings });
    expect(await rows(file)).toEqual([{ number: 1, cells: ['专利名称', '低温 储粮 ', '東京', 'a\rb_x000D_', '  A & B <c>  '] }]);
  });

  it('inline strings (rich too), formula strings, booleans, errors, numbers; skipped columns and rows keep their places', async () => {
    const file = await book(
      sheetXml(
        '<row r="2"><c r="B2" t="inlineStr"><is><t>行内</t></is></c><c r="D2" t="inlineStr"><is><r><t>富</t></r><r><t>文本_x005F_x0041_</t></r></is></c></row>' +
          '<row r="5"><c r="A5" t="str"><f>A1&amp;"x"</f><v>结果</v></c><c r="B5" t="b"><v>1</v></c><c r="C5" t="b"><v>0</v></c><c r="E5" t="e"><v>#DIV/0!</v></c></row>' +
          '<row r="6"><c r="A6"><v>42</v></c><c r="B6" t="n"><v>-1.5E3</v></c><c r="C6"><f>1+1</f><v>2</v></c><c r="D6"/><c r="E6"><f>NOW()</f></c></row>' +
          '<row><c><v>7</v></c><c><v>8</v></c></row>',
      ),
    );
    expect(await rows(file)).toEqual([
      { number: 2, cells: [null, '行内', null, '富文本_x0041_'] },
      { number: 5, cells: ['结果', true, false, null, null] },
      { number: 6, cells: [42, -1500, 2, null, null] },
      { number: 7, cells: [7, 8] },
    ]);
  });

  it('dates: built-in and custom date formats give Dates (UTC), other formats numbers; the 1904 system', async () => {
    const styles =
      '<numFmts count="3"><numFmt numFmtId="164" formatCode="yyyy/m/d"/><numFmt numFmtId="165" formatCode="0.00&quot;d&quot;"/><numFmt numFmtId="166" formatCode="[Red]0.00;\\-0.00"/></numFmts>' +
      '<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>' +
      '<cellXfs count="6"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="22"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="166"/></cellXfs>';
    const sheet = sheetXml('<row r="1"><c r="A1"><v>45366</v></c><c r="B1" s="1"><v>45366</v></c><c r="C1" s="2"><v>45366.5</v></c><c r="D1" s="3"><v>45366</v></c><c r="E1" s="4"><v>3</v></c><c r="F1" s="5"><v>4</v></c></row>');
    const d = (iso: string) => new Date(iso);
    expect((await rows(await book(sheet, { styles })))[0].cells).toEqual([45366, d('2024-03-15T00:00:00Z'), d('2024-03-15T12:00:00Z'), d('2024-03-15T00:00:00Z'), 3, 4]);
    const in1904 = await rows(await book(sheet, { styles, workbookPr: '<workbookPr date1904="1"/>' }));
    expect(in1904[0].cells[1]).toEqual(d('2028-03-16T00:00:00Z'));
  });

  it('reads the first sheet of the workbook (its tab order), not the first in the zip; prefixed SpreadsheetML', async () => {
    const x = 'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
    const file = await zipFile({
      'xl/worksheets/sheet1.xml': sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>第二个</t></is></c></row>'),
      'xl/worksheets/sheet2.xml': `<x:worksheet ${x}><x:sheetData><x:row r="3"><x:c r="C3" t="inlineStr"><x:is><x:t>第一个</x:t></x:is></x:c></x:row></x:sheetData></x:worksheet>`,
      'xl/workbook.xml': `<workbook ${NS}><sheets><sheet name="A" sheetId="2" r:id="rId9"/><sheet name="B" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      'xl/_rels/workbook.xml.rels': `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId9" Type="${REL}/worksheet" Target="/xl/worksheets/sheet2.xml"/></Relationships>`,
    });
    expect(await rows(file)).toEqual([{ number: 3, cells: [null, null, '第一个'] }]);
  });

  it('Chinese text whole across the inflated chunks of a long sheet; progress by the sheet entry bytes, up to the total', async () => {
    const text = (i: number) => `低温储粮智能通风控制装置${'集团科技信息部'.repeat(1 + (i % 5))}${i}`;
    const body = Array.from({ length: 4000 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>${text(i)}</t></is></c><c r="B${i + 1}" t="str"><v>粮${i}</v></c></row>`).join('');
    const seen: number[] = [];
    let total = 0;
    const got = await rows(await book(sheetXml(body)), (read, t) => {
      seen.push(read);
      total = t;
    });
    expect(got).toHaveLength(4000);
    got.forEach((r, i) => expect(r.cells).toEqual([text(i), `粮${i}`]));
    expect(seen.length).toBeGreaterThan(10); // several chunks, so boundaries fell inside characters
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(total);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(Buffer.byteLength(sheetXml(body)) / 10); // the compressed entry
  });

  it('stopping early (an import refused at its header) closes the file', async () => {
    let x = 1;
    const random = () => (x = (x * 48271) % 2147483647); // a sheet that does not compress to less than a read
    const file = await book(sheetXml(Array.from({ length: 40000 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${random()}</v></c></row>`).join('')));
    const fds = () => fs.readdirSync('/proc/self/fd').map((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    });
    const open = () => fds().filter((f) => f === file).length;
    for await (const r of xlsxRows(file)) {
      expect(r.number).toBe(1);
      expect(open()).toBe(1);
      break;
    }
    for (let i = 0; i < 50 && open() > 0; i++) await new Promise((res) => setTimeout(res, 10));
    expect(open()).toBe(0);
  });

  it('gives the values exceljs gave for a workbook exceljs wrote (shared strings, rich text, dates, formulas, booleans)', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('S');
    ws.addRow(['名称', '日期', '时间', '数', '是否', '公式', '富文本']);
    ws.addRow(['甲', new Date(Date.UTC(2024, 2, 15)), new Date(Date.UTC(2024, 2, 15, 8, 30)), 12.5, true, { formula: 'D2*2', result: 25 }, { richText: [{ text: '红', font: { bold: true } }, { text: '色' }] }]);
    ws.getCell('C2').numFmt = 'yyyy-mm-dd hh:mm';
    ws.addRow([]);
    ws.getCell('B4').value = '跳过 A 列';
    ws.getCell('G4').value = { formula: 'A2&"!"', result: '甲!' };
    const file = path.join(dir, `exceljs${n++}.xlsx`);
    await wb.xlsx.writeFile(file);
    const theirs: XlsxRow[] = [];
    for await (const s of new ExcelJS.stream.xlsx.WorkbookReader(file, { sharedStrings: 'cache', styles: 'cache', worksheets: 'emit' })) {
      for await (const r of s as AsyncIterable<ExcelJS.Row>) {
        const values = r.values as unknown[];
        theirs.push({ number: r.number, cells: Array.from({ length: Math.max(0, values.length - 1) }, (_, i) => plainCell(values[i + 1])) });
      }
      break;
    }
    const ours = await rows(file);
    expect(ours.filter((r) => r.cells.length)).toEqual(theirs.filter((r) => r.cells.length));
    expect(ours[1].cells.slice(0, 5)).toEqual(['甲', new Date(Date.UTC(2024, 2, 15)), new Date(Date.UTC(2024, 2, 15, 8, 30)), 12.5, true]);
  });

  it('a damaged file rejects with XlsxError: not a zip, an empty file, a zip cut short, no workbook, broken XML, a root that is no sheet', async () => {
    const good = await book(sheetXml('<row r="1"><c r="A1"><v>1</v></c></row>'));
    const plain = path.join(dir, 'plain.xlsx');
    fs.writeFileSync(plain, 'this is plain text, not a workbook');
    const empty = path.join(dir, 'empty.xlsx');
    fs.writeFileSync(empty, '');
    const cut = path.join(dir, 'cut.xlsx');
    fs.writeFileSync(cut, fs.readFileSync(good).subarray(0, 200));
    const files = [
      plain,
      empty,
      cut,
      await zipFile({ 'a.txt': 'no workbook here' }),
      await book('<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></row></sheetData></worksheet>'),
      await book('<html><body>no sheet</body></html>'),
      await book(''),
    ];
    for (const f of files) await expect(rows(f), f).rejects.toBeInstanceOf(XlsxError);
  });
});

describe('the helpers', () => {
  it('columnOf: letters to a 0-based column', () => {
    expect([columnOf('A1'), columnOf('Z9'), columnOf('AA10'), columnOf('ab3'), columnOf('XFD1048576'), columnOf('12')]).toEqual([0, 25, 26, 27, 16383, -1]);
  });

  it('isDateFormat: y m d h s outside quotes, brackets and escapes', () => {
    expect(['yyyy/m/d', 'h:mm AM/PM', 'YYYY"年"M"月"', '[$-804]yyyy"年"m"月"d"日"', 'mm:ss.0'].map(isDateFormat)).toEqual([true, true, true, true, true]);
    expect(['0.00', '#,##0"元"', '[Red]0.00', '0.0\\d', '0_)', '@', 'General'].map(isDateFormat)).toEqual([false, false, false, false, false, false, false]);
  });
});
