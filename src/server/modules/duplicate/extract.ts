/**
 * Text extraction of a checked file (DESIGN §8 Duplicate checking, issue 15): .docx through mammoth
 * (`extractRawText`: the paragraphs' text, tables included), .pdf through unpdf (pdf.js: the text of every
 * page, pages joined by line breaks), .txt decoded as UTF-8 (with or without BOM), UTF-16 (by its BOM) or else
 * GB 18030 (Chinese text files saved by older editors). The legacy binary .doc (OLE2) is refused with a message
 * asking for .docx: no library on the npm registry converts it faithfully without an office suite.
 *
 * Errors are `ApiError(400)` with zh and en texts (the user sees them; nothing is stored): unsupported type,
 * .doc, a damaged file (the parser failed or the content does not fit the extension), no text at all (a
 * scanned PDF), more than `MAX_CHARS` characters.
 */
import { loadMammoth, loadUnpdf } from '../../core/lazy-libs.js';
import { ApiError } from '../../core/envelope.js';
import { normaliseText } from './text.js';

/** Longest text checked (characters after normalisation): half a million, a long thesis several times over. */
export const MAX_CHARS = 500_000;

export const EXTRACT_MESSAGES = {
  doc: { zh: '不支持 .doc 格式（旧版 Word 文档），请在 Word 中另存为 .docx 后重新上传', en: 'The .doc format (legacy Word) is not supported: save the file as .docx in Word and upload it again' },
  type: (ext: string) => ({ zh: `查重文件只支持 .docx、.pdf、.txt 格式，不支持 ${ext}`, en: `Files to check must be .docx, .pdf or .txt, not ${ext}` }),
  damaged: (name: string) => ({ zh: `文件「${name}」已损坏或无法读取，请检查后重新上传`, en: `The file "${name}" is damaged or cannot be read: check it and upload it again` }),
  noText: (name: string) => ({ zh: `文件「${name}」中没有可查重的文字（扫描件请先识别文字）`, en: `The file "${name}" contains no text to check (run text recognition on a scan first)` }),
  tooLong: { zh: `文件文字超过 ${MAX_CHARS} 字，无法查重`, en: `The file has more than ${MAX_CHARS} characters and cannot be checked` },
};

/** The extensions a checked file may have. */
export const CHECKED_EXTENSIONS = ['docx', 'pdf', 'txt'] as const;

const startsWith = (b: Buffer, ...bytes: number[]) => b.length >= bytes.length && bytes.every((x, i) => b[i] === x);

function decodeTxt(buf: Buffer): string {
  if (startsWith(buf, 0xef, 0xbb, 0xbf)) return buf.subarray(3).toString('utf8');
  if (startsWith(buf, 0xff, 0xfe)) return new TextDecoder('utf-16le').decode(buf.subarray(2));
  if (startsWith(buf, 0xfe, 0xff)) return new TextDecoder('utf-16be').decode(buf.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return new TextDecoder('gb18030').decode(buf);
  }
}

/**
 * The normalised text of file `buf` named `name` with extension `ext` (lower case, no dot); throws the
 * ApiErrors of the module comment.
 */
export async function extractFileText(buf: Buffer, ext: string, name: string): Promise<string> {
  if (ext === 'doc' || startsWith(buf, 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) throw new ApiError(400, EXTRACT_MESSAGES.doc);
  if (!(CHECKED_EXTENSIONS as readonly string[]).includes(ext)) throw new ApiError(400, EXTRACT_MESSAGES.type(ext ? `.${ext}` : name));
  // the readers are loaded before the try: a failure to load one is the server's, never the user's file
  const mammoth = ext === 'docx' ? await loadMammoth() : null;
  const unpdf = ext === 'pdf' ? await loadUnpdf() : null;
  let raw: string;
  try {
    if (mammoth) {
      if (!startsWith(buf, 0x50, 0x4b, 0x03, 0x04)) throw new Error('not a zip');
      raw = (await mammoth.extractRawText({ buffer: buf })).value;
    } else if (unpdf) {
      if (!startsWith(buf, 0x25, 0x50, 0x44, 0x46, 0x2d)) throw new Error('not a pdf');
      const pdf = await unpdf.getDocumentProxy(new Uint8Array(buf));
      const { text } = await unpdf.extractText(pdf, { mergePages: false });
      raw = (Array.isArray(text) ? text : [text]).join('\n');
    } else {
      if (buf.subarray(0, 4096).includes(0) && !startsWith(buf, 0xff, 0xfe) && !startsWith(buf, 0xfe, 0xff)) throw new Error('binary');
      raw = decodeTxt(buf);
    }
  } catch {
    throw new ApiError(400, EXTRACT_MESSAGES.damaged(name));
  }
  const text = normaliseText(raw);
  if (!/[\p{L}\p{N}]/u.test(text)) throw new ApiError(400, EXTRACT_MESSAGES.noText(name));
  if (text.length > MAX_CHARS) throw new ApiError(400, EXTRACT_MESSAGES.tooLong);
  return text;
}
