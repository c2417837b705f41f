/**
 * The faults of an Excel import as the user reads them (spec 002 §8; issue 13 'an error workbook lists row,
 * column and message'): the error workbook (`writeErrors`, streamed: one fault a line) and the answer's
 * message (`faultText`: the first 20 joined with '、', which the client shows one a line).
 */
import { loadExcelJS } from '../../core/lazy-libs.js';
import type { Lang } from '../../../shared/i18n/messages.js';
import type { RowFault } from './import.js';
import { M } from './messages.js';
import { drained } from './export.js';

/** Writes the error workbook: row, column, message (in `lang`), one fault a line, streamed. */
export async function writeErrors(faults: RowFault[], lang: Lang, file: string): Promise<void> {
  const ExcelJS = await loadExcelJS();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true });
  const ws = wb.addWorksheet(M.errorSheet[lang]);
  const [a, b, c] = M.errorHeaders[lang];
  ws.columns = [
    { header: a, key: 'row', width: 8 },
    { header: b, key: 'column', width: 24 },
    { header: c, key: 'message', width: 60 },
  ];
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  let n = 0;
  for (const f of faults) {
    ws.addRow({ row: f.row, column: lang === 'en' ? f.columnEn : f.column, message: lang === 'en' ? f.messageEn : f.message }).commit();
    if (++n % 1000 === 0) await drained(ws);
  }
  ws.commit();
  await wb.commit();
}

/** The answer's message for faults: the first 20 as 第N行{列}：消息, joined with '、' (spec 002 §8). */
export function faultText(faults: RowFault[], lang: Lang): string {
  const shown = faults.slice(0, 20).map((f) => M.rowFault(f.row, lang === 'en' ? f.columnEn : f.column, lang === 'en' ? f.messageEn : f.message)[lang]);
  if (faults.length > 20) shown.push(M.more(faults.length - 20)[lang]);
  return shown.join('、');
}
