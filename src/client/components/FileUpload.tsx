/**
 * FileUpload: attachments uploaded to `POST /api/blade-resource/oss/endpoint/put-file` (multipart field `file`,
 * through the renderer environment's API client, so the request carries its headers; spec 000 §7). The envelope's data
 * `{link, name, originalName}` is the stored item; the value is an array of those items.
 *
 * Props: `accept` (`.pdf,.docx,image/*`), `maxSize` (bytes), `maxCount`, `multiple`, `disabled`, `valueType`
 * (`'items'`, the default: the value is the array of items; `'link'`: the value is one file's `link` string —
 * a string field such as a cover image or banner, spec 001 §3 coverImage / banner —, at most one file). Type, size
 * and count are checked here before the upload (the server checks again). While a file uploads the field
 * shows 附件上传中，请稍等 (spec 000 §9). readPretty lists the files as links; a click (here and in the edit
 * list) downloads through the environment's `download`, since file links need the api headers; a file the
 * browser can show (docx, pdf, images, text: file-preview.ts) also gets 预览, /previewFile in a new window.
 */
import React, { useRef, useState } from 'react';
import { Button, Spin, Typography, Upload, message } from 'antd';
import type { UploadFile, UploadProps } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { connect, mapReadPretty } from '@formily/react';
import { PreviewText } from '@formily/antd-v5';
import { useTranslation } from 'react-i18next';
import { acceptsFile, formatSize } from './format.js';
import { useEnv } from './env.js';
import { previewHref } from './file-preview.js';

export const UPLOAD_URL = '/api/blade-resource/oss/endpoint/put-file';

export interface FileItem {
  name: string;
  link: string;
  originalName?: string;
}

export interface FileUploadProps {
  value?: FileItem[] | string | null;
  onChange?: (value: FileItem[] | string) => void;
  accept?: string;
  maxSize?: number;
  maxCount?: number;
  multiple?: boolean;
  disabled?: boolean;
  valueType?: 'items' | 'link';
}

/** The items of a value: the array itself, or for a link the one item it names (its name is the link's last part). */
const asList = (v: FileUploadProps['value']): FileItem[] => {
  if (typeof v === 'string') {
    const name = v.slice(v.lastIndexOf('/') + 1);
    return v ? [{ link: v, name, originalName: decodeURIComponent(name) }] : [];
  }
  return Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : [];
};

function FileUploadInput({ value, onChange, accept, maxSize, maxCount: count, multiple: many = true, disabled, valueType }: FileUploadProps) {
  const asLink = valueType === 'link';
  const maxCount = asLink ? 1 : count;
  const multiple = asLink ? false : many;
  const { t } = useTranslation();
  const [msg, holder] = message.useMessage();
  const env = useEnv();
  const [uploading, setUploading] = useState(0);
  /** The user's names of the files uploaded here (a link value keeps none). */
  const names = useRef(new Map<string, string>());
  const itemsOf = (v: FileUploadProps['value']) => asList(v).map((f) => (names.current.has(f.link) ? { ...f, originalName: names.current.get(f.link) } : f));
  const latest = useRef<FileItem[]>(itemsOf(value));
  /** Files accepted by beforeUpload and not finished yet (several may be chosen at once). */
  const pending = useRef(0);
  latest.current = itemsOf(value);

  const change = (next: FileItem[]) => {
    latest.current = next;
    onChange?.(asLink ? (next[0]?.link ?? '') : next);
  };

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    if (!acceptsFile(accept, file.name, file.type)) {
      void msg.error(t('cmp.upload.badType', { accept }));
      return Upload.LIST_IGNORE;
    }
    if (maxSize && file.size > maxSize) {
      void msg.error(t('cmp.upload.tooLarge', { size: formatSize(maxSize) }));
      return Upload.LIST_IGNORE;
    }
    if (maxCount && latest.current.length + pending.current >= maxCount) {
      void msg.error(t('cmp.upload.tooMany', { count: maxCount }));
      return Upload.LIST_IGNORE;
    }
    pending.current++;
    return true;
  };

  const customRequest: UploadProps['customRequest'] = async ({ file, onSuccess, onError }) => {
    setUploading((n) => n + 1);
    try {
      const fd = new FormData();
      fd.append('file', file as Blob);
      const saved = await env.request<FileItem>('POST', UPLOAD_URL, { formData: fd });
      const originalName = saved.originalName ?? (file as File).name;
      names.current.set(saved.link, originalName);
      change([...latest.current, { name: saved.name, link: saved.link, originalName }]);
      onSuccess?.(saved);
    } catch (e) {
      onError?.(e as Error);
    } finally {
      pending.current = Math.max(0, pending.current - 1);
      setUploading((n) => n - 1);
    }
  };

  // no `url`: links need the api headers, so a click downloads through the environment (onPreview)
  const fileList: UploadFile[] = latest.current.map((f) => ({ uid: f.link, name: f.originalName || f.name, status: 'done' }));
  const hint = accept || maxSize ? t('cmp.upload.hint', { accept: accept ?? '*', size: maxSize ? formatSize(maxSize) : '-' }) : '';
  return (
    <div className="kc-file-upload">
      {holder}
      <Upload
        accept={accept}
        multiple={multiple}
        disabled={disabled}
        fileList={fileList}
        beforeUpload={beforeUpload}
        customRequest={customRequest}
        onRemove={(f) => change(latest.current.filter((x) => x.link !== f.uid))}
        onPreview={(f) => void env.download(f.uid, f.name)}
      >
        <Button icon={<UploadOutlined />} disabled={disabled || (!!maxCount && latest.current.length >= maxCount)}>
          {t('cmp.upload.button')}
        </Button>
      </Upload>
      {uploading > 0 && (
        <div className="kc-file-upload-busy" role="status">
          <Spin size="small" /> <Typography.Text type="secondary">{t('cmp.upload.uploading')}</Typography.Text>
        </div>
      )}
      {hint && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{hint}</Typography.Text>}
    </div>
  );
}

function FileList({ value }: FileUploadProps) {
  const env = useEnv();
  const { t } = useTranslation();
  const placeholder = PreviewText.usePlaceholder();
  const files = asList(value);
  if (!files.length) return <span>{placeholder}</span>;
  return (
    <ul className="kc-file-list" style={{ margin: 0, paddingLeft: 16 }}>
      {files.map((f) => (
        <li key={f.link}>
          <a
            href={f.link}
            onClick={(e) => {
              e.preventDefault();
              void env.download(f.link, f.originalName || f.name);
            }}
          >
            {f.originalName || f.name}
          </a>
          {previewHref(f.link, f.originalName || f.name) && (
            <a className="kc-file-preview-link" href={previewHref(f.link, f.originalName || f.name)} target="_blank" rel="noopener noreferrer" style={{ marginLeft: 8 }}>
              {t('cmp.upload.preview')}
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}

export const FileUpload = connect(FileUploadInput, mapReadPretty(FileList));
