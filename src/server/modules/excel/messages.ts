/**
 * The Excel module's user-facing texts, zh (the spec's words where it gives them: spec 002 §5, §8) and en.
 * Functions take the values a message names (row numbers are the sheet's, header row = 1).
 */
type Text = { zh: string; en: string };

export const M = {
  wrongFormat: { zh: '文件格式错误', en: 'wrong file format' },
  xlsUnsupported: { zh: '暂不支持 Excel 97-2003（.xls）文件的内容，请另存为 .xlsx 后导入', en: 'Excel 97-2003 (.xls) content cannot be read: save the file as .xlsx and import it again' },
  oneFile: { zh: '只能上传一个文件', en: 'Upload one file only' },
  fileRequired: { zh: '请选择要上传的文件', en: 'Please choose a file to upload' },
  fileEmpty: { zh: '上传的文件是空的', en: 'The uploaded file is empty' },
  coverRequired: { zh: '请选择是否覆盖数据', en: 'please choose whether to overwrite' },
  noData: { zh: '文件中没有数据', en: 'The file holds no data rows' },
  headerMismatch: { zh: '文件的表头与模板不符，请先下载模板', en: 'The header row does not match the template: download the template first' },
  templateMissing: { zh: '导入导出模板不存在', en: 'The import/export template does not exist' },
  tableUnknown: { zh: '数据表不存在', en: 'There is no such table' },
  templateForbidden: { zh: '该数据表不能导入或导出', en: 'This table cannot be imported or exported' },
  moveDirection: { zh: '移动方向只能是 up 或 down', en: 'The direction must be up or down' },
  queued: { zh: '数据较多，已转为后台任务，请稍候查看进度', en: 'Many rows: the work runs in the background, watch its progress' },
  exists: { zh: '数据已存在，如需更新请选择覆盖', en: 'The record already exists: choose overwrite to update it' },
  locked: { zh: '当前状态的数据不能修改', en: 'The record cannot be changed in its current status' },
  duplicateInFile: (row: number): Text => ({ zh: `与第 ${row} 行重复`, en: `Duplicates row ${row}` }),
  fieldUnknown: (f: string): Text => ({ zh: `字段 ${f} 不存在`, en: `There is no field ${f}` }),
  rowFault: (row: number, col: string, msg: string): Text => ({ zh: `第${row}行{${col}}：${msg}`, en: `Row ${row} {${col}}: ${msg}` }),
  failedSummary: (n: number): Text => ({ zh: `导入失败，共 ${n} 处错误，未导入任何数据`, en: `Import failed: ${n} error${n === 1 ? '' : 's'}, nothing was imported` }),
  more: (n: number): Text => ({ zh: `等 ${n} 处错误，详见错误文件`, en: `and ${n} more: see the error workbook` }),
  imported: (inserted: number, updated: number): Text => ({ zh: `导入成功：新增 ${inserted} 条，更新 ${updated} 条`, en: `Imported: ${inserted} added, ${updated} updated` }),
  partial: (written: number, failed: number): Text => ({ zh: `导入完成：成功 ${written} 条，失败 ${failed} 条，失败的行见错误文件`, en: `Import done: ${written} rows written, ${failed} failed (see the error workbook)` }),
  errorSheet: { zh: '错误信息', en: 'Errors' },
  errorHeaders: { zh: ['行号', '列', '错误信息'], en: ['Row', 'Column', 'Message'] },
  errorFileName: (name: string): Text => ({ zh: `${name}导入错误`, en: `${name} import errors` }),
};
