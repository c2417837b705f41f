/**
 * Which files may be uploaded (DESIGN §11 'uploads checked (type, size, path)'): an extension whitelist, and
 * for each extension a cheap check of the first bytes (the magic number) so that a renamed executable or
 * script is refused even when its name ends in .pdf.
 *
 * The list covers what the platform's forms ask for (documents of projects and achievements, the spec's image
 * extensions png jpg jpeg bmp gif webp psd svg tiff — spec 000 §9 — and archives of supporting material).
 * Office Open XML (docx, xlsx, pptx) and OFD are zip containers; the legacy Office formats and WPS are OLE2
 * compound files; text formats are checked for the absence of NUL bytes (binary content) instead.
 *
 * `inline` says whether a download may be shown in the browser; everything else (svg included: it can carry
 * script) is sent as an attachment.
 */

export interface FileKind {
  mime: string;
  inline: boolean;
  /** True when the first bytes of the file fit the extension. */
  sniff(head: Buffer): boolean;
}

const startsWith = (head: Buffer, ...bytes: number[]) => head.length >= bytes.length && bytes.every((b, i) => head[i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

const pdf = (h: Buffer) => startsWith(h, ...ascii('%PDF-'));
const png = (h: Buffer) => startsWith(h, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const jpeg = (h: Buffer) => startsWith(h, 0xff, 0xd8, 0xff);
const gif = (h: Buffer) => startsWith(h, ...ascii('GIF87a')) || startsWith(h, ...ascii('GIF89a'));
const bmp = (h: Buffer) => startsWith(h, ...ascii('BM'));
const webp = (h: Buffer) => startsWith(h, ...ascii('RIFF')) && h.subarray(8, 12).toString('latin1') === 'WEBP';
const tiff = (h: Buffer) => startsWith(h, 0x49, 0x49, 0x2a, 0x00) || startsWith(h, 0x4d, 0x4d, 0x00, 0x2a);
const psd = (h: Buffer) => startsWith(h, ...ascii('8BPS'));
/** zip: a local file header, or the end record of an empty archive, or a spanned-archive marker. */
const zip = (h: Buffer) => startsWith(h, 0x50, 0x4b, 0x03, 0x04) || startsWith(h, 0x50, 0x4b, 0x05, 0x06) || startsWith(h, 0x50, 0x4b, 0x07, 0x08);
const ole2 = (h: Buffer) => startsWith(h, 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1);
const rar = (h: Buffer) => startsWith(h, ...ascii('Rar!'), 0x1a, 0x07);
const sevenZip = (h: Buffer) => startsWith(h, 0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c);
const rtf = (h: Buffer) => startsWith(h, ...ascii('{\\rtf'));
/** Text: no NUL byte in the head (UTF-16 text, which has them, starts with its byte-order mark). */
const text = (h: Buffer) => startsWith(h, 0xff, 0xfe) || startsWith(h, 0xfe, 0xff) || !h.includes(0);
/** SVG: text whose first non-blank character (after a UTF-8 BOM) opens a tag. */
const svg = (h: Buffer) => text(h) && /^(\uFEFF)?\s*</.test(h.toString('utf8'));

export const FILE_KINDS: Readonly<Record<string, FileKind>> = {
  pdf: { mime: 'application/pdf', inline: true, sniff: pdf },
  doc: { mime: 'application/msword', inline: false, sniff: ole2 },
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', inline: false, sniff: zip },
  xls: { mime: 'application/vnd.ms-excel', inline: false, sniff: ole2 },
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', inline: false, sniff: zip },
  ppt: { mime: 'application/vnd.ms-powerpoint', inline: false, sniff: ole2 },
  pptx: { mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', inline: false, sniff: zip },
  wps: { mime: 'application/vnd.ms-works', inline: false, sniff: ole2 },
  ofd: { mime: 'application/ofd', inline: false, sniff: zip },
  rtf: { mime: 'application/rtf', inline: false, sniff: rtf },
  txt: { mime: 'text/plain; charset=utf-8', inline: true, sniff: text },
  csv: { mime: 'text/csv; charset=utf-8', inline: false, sniff: text },
  png: { mime: 'image/png', inline: true, sniff: png },
  jpg: { mime: 'image/jpeg', inline: true, sniff: jpeg },
  jpeg: { mime: 'image/jpeg', inline: true, sniff: jpeg },
  gif: { mime: 'image/gif', inline: true, sniff: gif },
  bmp: { mime: 'image/bmp', inline: true, sniff: bmp },
  webp: { mime: 'image/webp', inline: true, sniff: webp },
  tif: { mime: 'image/tiff', inline: false, sniff: tiff },
  tiff: { mime: 'image/tiff', inline: false, sniff: tiff },
  psd: { mime: 'image/vnd.adobe.photoshop', inline: false, sniff: psd },
  svg: { mime: 'image/svg+xml', inline: false, sniff: svg },
  zip: { mime: 'application/zip', inline: false, sniff: zip },
  rar: { mime: 'application/vnd.rar', inline: false, sniff: rar },
  '7z': { mime: 'application/x-7z-compressed', inline: false, sniff: sevenZip },
};

/** How many leading bytes `sniff` looks at. */
export const SNIFF_BYTES = 4096;

/** The lower-case extension of a file name without the dot ('' when it has none). */
export function extensionOf(fileName: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 && dot < base.length - 1 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The kind of an extension when it is on the whitelist (own keys only: 'constructor' is not a file type). */
export function kindOf(ext: string): FileKind | undefined {
  return Object.hasOwn(FILE_KINDS, ext) ? FILE_KINDS[ext] : undefined;
}
