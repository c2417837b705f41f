/**
 * Heavy libraries loaded at their first use, not when the server starts (issue 13's budget: the server under
 * 300 MB RSS while it imports 100,000 rows; DESIGN §10). A static `import` of one of these in a module the
 * server imports at start keeps its code resident for the life of the process whether the feature is used or
 * not; each loader here answers the library's module on first call (`await import()`, then the same promise:
 * Node caches the module) so that only the features in use pay for theirs.
 *
 * Measured alone (node 20, RSS after a forced GC, each imported into an empty process): exceljs +27 MB,
 * docxtemplater +17, bpmn-engine +16, cheerio +15, mammoth +14, jszip +10, qrcode +9, pizzip +9,
 * openid-client +8, bpmn-moddle +3, unpdf +2 (overlapping). Not here: what the server uses at once anyway
 * (cron-parser, which pg-boss loads; jieba, warmed at start for the first search; sanitize-html and svg-captcha). Only types may be imported statically from them (`import type`).
 *
 * A loader that fails (the package missing) rejects every later call with the same error.
 */

/** `load` run once, on the first call; every call answers its promise. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= load());
}

/** exceljs (Excel import/export, users export, CNKI workbooks). */
export const loadExcelJS = once(async () => (await import('exceljs')).default);
/** pizzip (the zip of .docx files: filled documents, Word reading, duplicate-check reports, portal downloads). */
export const loadPizZip = once(async () => (await import('pizzip')).default);
/** docxtemplater (filling .docx templates). */
export const loadDocxtemplater = once(async () => (await import('docxtemplater')).default);
/** mammoth (the text of .docx files for the duplicate check). */
export const loadMammoth = once(async () => (await import('mammoth')).default);
/** unpdf (the text of PDF files for the duplicate check). */
export const loadUnpdf = once(() => import('unpdf'));
/** bpmn-engine (running workflow instances). */
export const loadBpmnEngine = once(() => import('bpmn-engine'));
/** bpmn-moddle (parsing BPMN files when they are deployed). */
export const loadBpmnModdle = once(async () => (await import('bpmn-moddle')).default);
/** cheerio (the spider's HTML pages and its selector checks). */
export const loadCheerio = once(() => import('cheerio'));
/** jszip (zipped downloads of several files). */
export const loadJSZip = once(async () => (await import('jszip')).default);
/** qrcode (QR code images: portal links, social login). */
export const loadQRCode = once(async () => (await import('qrcode')).default);
/** saxes (the XML of the sheets the Excel import reads: excel/xlsx-rows.ts). */
export const loadSaxes = once(() => import('saxes'));
/** unzipper (the zip directory of the workbooks the Excel import reads: excel/xlsx-rows.ts). */
export const loadUnzipper = once(async () => (await import('unzipper')).default);
/** openid-client (social login over OpenID Connect). */
export const loadOidc = once(() => import('openid-client'));
