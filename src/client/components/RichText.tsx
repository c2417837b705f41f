/**
 * RichText: an HTML editor for the palette's rich-text field (spec 002 §2), written on the browser's own
 * editing (contentEditable + editing commands) so that it needs no editor assets from anywhere: bold, italic,
 * underline, strike-through, heading, paragraph, bulleted and numbered lists, link, clear formatting.
 * The value is an HTML string.
 *
 * What is kept is an allow-list (`sanitizeHtml`): the tags the toolbar can make plus tables and images, with
 * `href` (http, https, mailto, relative), `src` (http, https, relative, data:image), `colspan`, `rowspan`,
 * `alt`, `title`; every other tag is unwrapped, every other attribute and all scripts and styles dropped. The
 * editor cleans what is pasted and what it reports; readPretty shows the cleaned HTML. The server sanitises again
 * (DESIGN §11) — the client never trusts itself.
 *
 * Props: `height` (min height of the editing area, default 200: spec 002 §9 editor height), `placeholder`,
 * `disabled`, `readOnly`.
 */
import React, { useEffect, useRef } from 'react';
import { Button, Space, Tooltip } from 'antd';
import {
  BoldOutlined,
  ClearOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { connect, mapReadPretty } from '@formily/react';
import { PreviewText } from '@formily/antd-v5';
import { useTranslation } from 'react-i18next';

const ALLOWED_TAGS = new Set([
  'p', 'br', 'div', 'span', 'b', 'strong', 'i', 'em', 'u', 's', 'strike', 'del', 'sub', 'sup', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'ul', 'ol', 'li', 'blockquote', 'pre', 'code', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'hr',
]);
const DROP_WITH_CONTENT = new Set(['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'svg', 'math', 'link', 'meta']);
const ALLOWED_ATTRS: Record<string, string[]> = { a: ['href', 'title'], img: ['src', 'alt', 'title'], td: ['colspan', 'rowspan'], th: ['colspan', 'rowspan'] };

function safeUrl(attr: string, v: string): boolean {
  const s = v.trim().toLowerCase();
  if (attr === 'src' && s.startsWith('data:image/') && !s.startsWith('data:image/svg')) return true;
  if (/^[a-z][a-z0-9+.-]*:/.test(s)) return s.startsWith('http:') || s.startsWith('https:') || (attr === 'href' && s.startsWith('mailto:'));
  return true;
}

function cleanNode(node: Node, doc: Document): Node[] {
  if (node.nodeType === Node.TEXT_NODE) return [doc.createTextNode(node.textContent ?? '')];
  if (node.nodeType !== Node.ELEMENT_NODE) return [];
  const el = node as Element;
  const tag = el.tagName.toLowerCase();
  if (DROP_WITH_CONTENT.has(tag)) return [];
  const kids = Array.from(el.childNodes).flatMap((c) => cleanNode(c, doc));
  if (!ALLOWED_TAGS.has(tag)) return kids;
  const out = doc.createElement(tag);
  for (const attr of ALLOWED_ATTRS[tag] ?? []) {
    const v = el.getAttribute(attr);
    if (v === null) continue;
    if ((attr === 'href' || attr === 'src') && !safeUrl(attr, v)) continue;
    out.setAttribute(attr, v);
  }
  if (tag === 'a') out.setAttribute('rel', 'noopener noreferrer');
  kids.forEach((k) => out.appendChild(k));
  return [out];
}

/** `html` with only the allowed tags and attributes (see the module comment). */
export function sanitizeHtml(html: string): string {
  if (!html) return '';
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const box = doc.createElement('div');
  Array.from(doc.body.childNodes).flatMap((c) => cleanNode(c, doc)).forEach((n) => box.appendChild(n));
  return box.innerHTML;
}

/** True when the HTML holds no text and no image (an empty editor reports `<br>` or `<p></p>`). */
export function isBlankHtml(html: string | undefined | null): boolean {
  if (!html) return true;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return !(doc.body.textContent ?? '').trim() && !doc.body.querySelector('img');
}

export interface RichTextProps {
  value?: string | null;
  onChange?: (value: string) => void;
  height?: number;
  placeholder?: string;
  disabled?: boolean;
  readOnly?: boolean;
}

function RichTextEditor({ value, onChange, height = 200, placeholder, disabled, readOnly }: RichTextProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const last = useRef<string>('');
  const editable = !disabled && !readOnly;

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const next = sanitizeHtml(value ?? '');
    if (next !== last.current && next !== el.innerHTML) el.innerHTML = next;
    last.current = next;
  }, [value]);

  const report = () => {
    const el = ref.current;
    if (!el) return;
    const html = isBlankHtml(el.innerHTML) ? '' : sanitizeHtml(el.innerHTML);
    last.current = html;
    onChange?.(html);
  };

  const exec = (command: string, arg?: string) => {
    if (!editable) return;
    ref.current?.focus();
    document.execCommand(command, false, arg);
    report();
  };

  const link = () => {
    const url = window.prompt(t('cmp.rich.linkPrompt'), 'https://');
    if (url && safeUrl('href', url)) exec('createLink', url);
  };

  const tool = (key: string, icon: React.ReactNode, onClick: () => void, label = t(`cmp.rich.${key}`)) => (
    <Tooltip title={label} key={key}>
      <Button size="small" type="text" icon={icon} aria-label={label} disabled={!editable} onMouseDown={(e) => e.preventDefault()} onClick={onClick} />
    </Tooltip>
  );

  return (
    <div className="kc-rich-text" style={{ border: '1px solid #d9d9d9', borderRadius: 4, background: editable ? '#fff' : '#f5f5f5' }}>
      <Space size={0} wrap style={{ borderBottom: '1px solid #f0f0f0', padding: '2px 4px', width: '100%' }}>
        {tool('bold', <BoldOutlined />, () => exec('bold'))}
        {tool('italic', <ItalicOutlined />, () => exec('italic'))}
        {tool('underline', <UnderlineOutlined />, () => exec('underline'))}
        {tool('strike', <StrikethroughOutlined />, () => exec('strikeThrough'))}
        {tool('heading', <b>H</b>, () => exec('formatBlock', '<h3>'))}
        {tool('paragraph', <b>P</b>, () => exec('formatBlock', '<p>'))}
        {tool('ul', <UnorderedListOutlined />, () => exec('insertUnorderedList'))}
        {tool('ol', <OrderedListOutlined />, () => exec('insertOrderedList'))}
        {tool('link', <LinkOutlined />, link)}
        {tool('clear', <ClearOutlined />, () => exec('removeFormat'))}
      </Space>
      <div
        ref={ref}
        role="textbox"
        aria-multiline="true"
        aria-label={placeholder ?? t('cmp.rich.label')}
        data-placeholder={placeholder ?? t('cmp.input')}
        className="kc-rich-text-area"
        contentEditable={editable}
        suppressContentEditableWarning
        style={{ minHeight: height, padding: '6px 11px', outline: 'none', overflowY: 'auto' }}
        onInput={report}
        onBlur={report}
        onPaste={(e) => {
          if (!editable) return;
          e.preventDefault();
          const html = e.clipboardData.getData('text/html');
          if (html) document.execCommand('insertHTML', false, sanitizeHtml(html));
          else document.execCommand('insertText', false, e.clipboardData.getData('text/plain'));
          report();
        }}
      />
    </div>
  );
}

function RichTextView({ value }: RichTextProps) {
  const placeholder = PreviewText.usePlaceholder();
  if (isBlankHtml(value)) return <span>{placeholder}</span>;
  return <div className="kc-rich-text-view" dangerouslySetInnerHTML={{ __html: sanitizeHtml(value ?? '') }} />;
}

export const RichText = connect(RichTextEditor, mapReadPretty(RichTextView));
