/**
 * UI texts of the shell's client error log (spec 000 §3 error log entry, §8, §9 'log badge max 99';
 * error-log.ts, ErrorLogButton.tsx): key → zh and en, merged into the app's texts by shell/i18n.ts.
 */
import type { Texts } from '../components/texts.js';

export const errorLogTexts: Texts = {
  'errorLog.button': { zh: '错误日志', en: 'Error log' },
  'errorLog.title': { zh: '错误日志', en: 'Error log' },
  'errorLog.hint': { zh: '页面出错时记录在本机，登录后自动上传到服务器的错误日志', en: 'Errors of the pages are kept on this computer and uploaded to the server\'s error log while you are signed in' },
  'errorLog.type': { zh: '类型', en: 'Type' },
  'errorLog.url': { zh: '页面地址', en: 'Page' },
  'errorLog.message': { zh: '错误信息', en: 'Message' },
  'errorLog.stack': { zh: '错误堆栈', en: 'Stack' },
  'errorLog.time': { zh: '时间', en: 'Time' },
  'errorLog.upload': { zh: '上传服务器', en: 'Upload to the server' },
  'errorLog.uploaded': { zh: '上传成功', en: 'Uploaded' },
  'errorLog.uploadFailed': { zh: '上传失败，稍后自动重试', en: 'Upload failed; it will be retried' },
  'errorLog.clear': { zh: '清空本地日志', en: 'Clear the local log' },
  'errorLog.clearConfirm': { zh: '确定清空本地日志吗?', en: 'Clear the local log?' },
};
