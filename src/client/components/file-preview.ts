/**
 * Which stored files the browser can show (spec 000 §2.2 /previewFile; issue 18), by the file name's extension
 * (case-insensitive): .docx through docx-preview, .pdf in the browser's PDF viewer, the displayable image kinds
 * of spec 000 §9 (png jpg jpeg bmp gif webp svg — not psd or tiff), and plain-text kinds. Shared by the preview
 * page (shell/FilePreviewPage.tsx) and the attachment lists that link to it (FileUpload's readPretty list).
 */
export type PreviewKind = 'docx' | 'pdf' | 'image' | 'text' | 'other';

const IMAGE = new Set(['png', 'jpg', 'jpeg', 'bmp', 'gif', 'webp', 'svg']);
const TEXT = new Set(['txt', 'csv', 'log', 'md', 'json', 'xml']);

/** The lower-case extension of `name` (query and fragment ignored), or ''. */
export function extensionOf(name: string): string {
  return (/\.([a-z0-9]+)$/i.exec(name.split(/[?#]/)[0])?.[1] ?? '').toLowerCase();
}

/** How a file named `name` is shown. */
export function previewKind(name: string): PreviewKind {
  const ext = extensionOf(name);
  if (ext === 'docx') return 'docx';
  if (ext === 'pdf') return 'pdf';
  if (IMAGE.has(ext)) return 'image';
  if (TEXT.has(ext)) return 'text';
  return 'other';
}

/** The /previewFile address of a stored file (`link`), titled `name`; undefined when the browser cannot show it. */
export function previewHref(link: string, name: string): string | undefined {
  if (previewKind(name) === 'other' && previewKind(link) === 'other') return undefined;
  return `/previewFile?url=${encodeURIComponent(link)}&name=${encodeURIComponent(name)}`;
}
