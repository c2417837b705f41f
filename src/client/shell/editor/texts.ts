/**
 * The online editor page's texts (DocxEditorPage, VersionDrawer), zh and en side by side (DESIGN §7: no screen
 * half in one language). `{name}`-style parameters are filled by `fill`.
 */
type Text = { zh: string; en: string };

export const ET = {
  title: { zh: '在线编辑', en: 'Online editor' },
  back: { zh: '返回', en: 'Back' },
  save: { zh: '保存', en: 'Save' },
  saveTip: { zh: '保存为新版本（Ctrl+S）', en: 'Save as a new version (Ctrl+S)' },
  history: { zh: '历史版本', en: 'Versions' },
  version: { zh: '版本 {n}', en: 'Version {n}' },
  editing: { zh: '编辑中', en: 'Editing' },
  readOnly: { zh: '只读', en: 'Read-only' },
  unsaved: { zh: '未保存', en: 'Unsaved changes' },
  lockedBy: { zh: '{name} 正在编辑此文档（{since} 起），您当前只能查看', en: '{name} is editing this document (since {since}); you can only view it' },
  noEdit: { zh: '您没有编辑该文档的权限，当前只能查看', en: 'You may not edit this document; it is open read-only' },
  lockFree: { zh: '现在无人编辑此文档', en: 'Nobody is editing this document now' },
  lockLost: { zh: '编辑锁已失效，文档已转为只读', en: 'Your edit lock has lapsed; the document is read-only now' },
  startEdit: { zh: '开始编辑', en: 'Start editing' },
  noFile: { zh: '缺少要编辑的文档（fileId）', en: 'No document to edit (fileId)' },
  loadFailed: { zh: '文档无法打开', en: 'The document cannot be opened' },
  saveFailed: { zh: '文档保存失败', en: 'The document could not be saved' },
  colVersion: { zh: '版本', en: 'Version' },
  colUser: { zh: '修改人', en: 'Changed by' },
  colTime: { zh: '时间', en: 'Time' },
  colSize: { zh: '大小', en: 'Size' },
  current: { zh: '当前版本', en: 'Current' },
  restored: { zh: '已恢复到版本 {n}', en: 'Restored version {n}' },
  restoredFrom: { zh: '恢复自版本 {n}', en: 'Restored from version {n}' },
  preview: { zh: '预览', en: 'Preview' },
  restore: { zh: '恢复', en: 'Restore' },
  restoreConfirm: { zh: '以版本 {n} 的内容保存为新版本？', en: 'Save version {n}’s content as a new version?' },
  restoreUnsaved: { zh: '未保存的修改将丢失。', en: 'Unsaved changes will be lost.' },
  previewTitle: { zh: '版本 {n} 预览', en: 'Version {n} preview' },
  previewFailed: { zh: '该版本无法在浏览器中显示', en: 'This version cannot be shown in the browser' },
  ok: { zh: '确定', en: 'OK' },
  cancel: { zh: '取消', en: 'Cancel' },
} satisfies Record<string, Text>;

export type EditorTextKey = keyof typeof ET;

/** The text `key` in `lang` with `{param}` placeholders filled. */
export function fill(key: EditorTextKey, lang: 'zh' | 'en', params: Record<string, string | number> = {}): string {
  return ET[key][lang].replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? ''));
}
