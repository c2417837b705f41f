/**
 * Registrations of the palette's group 上传 (upload): files and images — one `registerComponent` call each (the API:
 * components/registration.ts). The catalogue's entry, components/catalog.tsx, calls `registerUpload()` after the
 * groups before it, in the palette's order of groups (spec 002 §2).
 */
import { PictureOutlined, UploadOutlined } from '@ant-design/icons';
import { Upload } from '@formily/antd-v5';
import { registerComponent } from '../registration.js';
import { cp, is, fileSettings } from './helpers.js';
import { FileUpload } from '../FileUpload.js';

/** Registers the components of this group (see the module comment). */
export function registerUpload(): void {
  registerComponent({ name: 'Upload', component: Upload, title: { zh: '上传', en: 'Upload' }, group: 'upload' });
  registerComponent({
    name: 'FileUpload',
    component: FileUpload,
    title: { zh: '附件上传', en: 'Attachments' },
    group: 'upload',
    palette: [
      {
        key: 'image',
        group: 'input',
        order: 70,
        title: { zh: '图片', en: 'Image' },
        icon: PictureOutlined,
        schema: { type: 'array', maxItems: 10, items: { type: 'object' }, 'x-component-props': { accept: 'image/*', maxSize: 10485760 } },
        match: (n) => is(n, 'FileUpload') && String(cp(n).accept ?? '').startsWith('image'),
      },
      {
        key: 'upload',
        order: 10,
        title: { zh: '上传', en: 'Upload' },
        icon: UploadOutlined,
        schema: { type: 'array', maxItems: 10, items: { type: 'object' }, 'x-component-props': { maxSize: 52428800 } },
        match: (n) => is(n, 'FileUpload') || is(n, 'Upload'),
      },
    ],
    settings: fileSettings,
    designer: { choice: true },
    texts: {
      'cmp.upload.button': { zh: '上传附件', en: 'Upload' },
      'cmp.upload.uploading': { zh: '附件上传中，请稍等', en: 'Uploading the attachment, please wait' },
      'cmp.upload.preview': { zh: '预览', en: 'Preview' },
      'cmp.upload.badType': { zh: '文件类型不符合要求，只能上传 {{accept}} 格式的文件', en: 'Only {{accept}} files can be uploaded' },
      'cmp.upload.tooLarge': { zh: '文件大小不能超过 {{size}}', en: 'The file must not be larger than {{size}}' },
      'cmp.upload.tooMany': { zh: '最多只能上传 {{count}} 个文件', en: 'At most {{count}} files can be uploaded' },
      'cmp.upload.hint': { zh: '支持 {{accept}}，单个文件不超过 {{size}}', en: '{{accept}}; at most {{size}} per file' },
    },
  });
}
