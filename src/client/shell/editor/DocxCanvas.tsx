/**
 * The editing surface of the online editor: @eigenpal/docx-editor-react (DESIGN §2 "documents in the browser",
 * §8 "Documents"), in a module of its own that the page loads lazily — the editor, ProseMirror and its styles
 * are their own chunk, never in the login route's JavaScript (DESIGN §10).
 *
 * Under the app's Content-Security-Policy nothing may come from elsewhere: the editor's fallback that fetches
 * missing fonts from Google Fonts is switched off (`setGoogleFontsEnabled(false)`; the browser's own fonts
 * stand in). The toolbar speaks the session's language (the package's zh-CN texts, else its English).
 *
 * `save()` on the ref answers the document as .docx bytes (null when the editor failed to pack it) and calls
 * `onSave` with them — the page uploads from there, so the toolbar's own save goes the same way.
 */
import { forwardRef, useImperativeHandle, useRef } from 'react';
import { DocxEditor, type DocxEditorRef } from '@eigenpal/docx-editor-react';
import { setGoogleFontsEnabled } from '@eigenpal/docx-editor-core';
import zhCN from '@eigenpal/docx-editor-i18n/zh-CN';
import '@eigenpal/docx-editor-react/styles.css';

setGoogleFontsEnabled(false);

export interface DocxCanvasProps {
  /** The .docx to show. */
  buffer: ArrayBuffer;
  readOnly: boolean;
  lang: 'zh' | 'en';
  /** The author name of comments and tracked changes. */
  author?: string;
  documentName: string;
  onSave(bytes: ArrayBuffer): void;
  onChange(): void;
  onError(e: Error): void;
}

export interface DocxCanvasHandle {
  save(): Promise<ArrayBuffer | null>;
}

export const DocxCanvas = forwardRef<DocxCanvasHandle, DocxCanvasProps>(function DocxCanvas(p, ref) {
  const editor = useRef<DocxEditorRef>(null);
  useImperativeHandle(ref, () => ({ save: async () => (await editor.current?.save()) ?? null }), []);
  return (
    <DocxEditor
      ref={editor}
      documentBuffer={p.buffer}
      readOnly={p.readOnly}
      mode={p.readOnly ? 'viewing' : 'editing'}
      i18n={p.lang === 'zh' ? zhCN : undefined}
      author={p.author}
      documentName={p.documentName}
      documentNameEditable={false}
      showFileOpen={false}
      showHelpMenu={false}
      onSave={p.onSave}
      onChange={p.onChange}
      onError={p.onError}
      style={{ height: '100%' }}
    />
  );
});

export default DocxCanvas;
