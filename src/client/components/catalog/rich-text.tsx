/**
 * Registrations of the palette's group 富文本 (rich text) — one `registerComponent` call each (the API:
 * components/registration.ts). The catalogue's entry, components/catalog.tsx, calls `registerRichText()` after the
 * groups before it, in the palette's order of groups (spec 002 §2).
 */
import { FileTextOutlined } from '@ant-design/icons';
import { registerComponent } from '../registration.js';
import { number } from './helpers.js';
import { RichText } from '../RichText.js';

/** Registers the components of this group (see the module comment). */
export function registerRichText(): void {
  registerComponent({
    name: 'RichText',
    component: RichText,
    title: { zh: '富文本', en: 'Rich text' },
    group: 'richtext',
    palette: {
      key: 'richtext',
      order: 10,
      icon: FileTextOutlined,
      schema: { 'x-component-props': { height: 200 } },
      settings: { placeholder: false, pattern: false, fields: [number('x-component-props.height', 'dz.prop.height', 100, 1000, 0)] },
      designer: { inSubform: false },
    },
    texts: {
      'cmp.rich.label': { zh: '富文本', en: 'Rich text' },
      'cmp.rich.bold': { zh: '加粗', en: 'Bold' },
      'cmp.rich.italic': { zh: '斜体', en: 'Italic' },
      'cmp.rich.underline': { zh: '下划线', en: 'Underline' },
      'cmp.rich.strike': { zh: '删除线', en: 'Strike-through' },
      'cmp.rich.heading': { zh: '标题', en: 'Heading' },
      'cmp.rich.paragraph': { zh: '正文', en: 'Paragraph' },
      'cmp.rich.ul': { zh: '无序列表', en: 'Bulleted list' },
      'cmp.rich.ol': { zh: '有序列表', en: 'Numbered list' },
      'cmp.rich.link': { zh: '链接', en: 'Link' },
      'cmp.rich.linkPrompt': { zh: '请输入链接地址', en: 'Enter the link address' },
      'cmp.rich.clear': { zh: '清除格式', en: 'Clear formatting' },
    },
  });
}
