/**
 * Texts of the Excel toolbar and its import dialog (runtime/ExcelToolbar.tsx, ImportDialog.tsx; spec 002 §2,
 * §5, §8): key → zh and en, keys `rt.excel.*`, merged into the runtime's texts (runtime/texts.ts). The spec
 * gives these in English ('wrong file format', 'confirm export N records?' …): the en texts keep its words, the
 * zh texts say the same; 请选择是否覆盖数据 matches the server's message for a missing switch.
 */
import type { Texts } from '../components/texts.js';

export const excelTexts: Texts = {
  'rt.excel.export': { zh: '导出', en: 'Export' },
  'rt.excel.import': { zh: '导入', en: 'Import' },
  'rt.excel.template': { zh: '下载模板', en: 'Download template' },
  'rt.excel.confirmCount': { zh: '确认导出{{count}}条数据?', en: 'confirm export {{count}} records?' },
  'rt.excel.confirmAll': { zh: '确认导出全部数据?', en: 'confirm export all data?' },
  'rt.excel.dialogTitle': { zh: '用户数据导入', en: 'user data import' },
  'rt.excel.file': { zh: '选择文件', en: 'Choose a file' },
  'rt.excel.fileHint': { zh: '只能上传一个 .xls 或 .xlsx 文件', en: 'One .xls or .xlsx file' },
  'rt.excel.fileRequired': { zh: '请选择要上传的文件', en: 'Please choose a file to upload' },
  'rt.excel.wrongFormat': { zh: '文件格式错误', en: 'wrong file format' },
  'rt.excel.overwrite': { zh: '数据覆盖', en: 'data overwrite' },
  'rt.excel.overwriteRequired': { zh: '请选择是否覆盖数据', en: 'please choose whether to overwrite' },
  'rt.excel.start': { zh: '开始导入', en: 'start import' },
  'rt.excel.jobExport': { zh: '导出', en: 'Export' },
  'rt.excel.jobImport': { zh: '导入', en: 'Import' },
  'rt.excel.counts': { zh: '已读取 {{read}} 行，写入 {{written}} 行，失败 {{failed}} 行', en: '{{read}} rows read, {{written}} written, {{failed}} failed' },
  'rt.excel.download': { zh: '下载文件', en: 'Download' },
  'rt.excel.errorFile': { zh: '下载错误文件', en: 'Download the error workbook' },
  'rt.excel.queued': { zh: '排队中', en: 'Queued' },
  'rt.excel.done': { zh: '已完成', en: 'Done' },
  'rt.excel.failed': { zh: '失败', en: 'Failed' },
  'rt.excel.dismiss': { zh: '关闭', en: 'Dismiss' },
};
