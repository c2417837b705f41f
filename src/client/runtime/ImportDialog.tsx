/**
 * The Excel import dialog (spec 002 §2, §4, §5, §8, §9): titled 'user data import' (用户数据导入), 555 px wide,
 * with one file picker (.xls or .xlsx only — another name says 'wrong file format' / 文件格式错误 and is not
 * taken; a second file replaces the first), the required 'data overwrite' switch (0 no, the default; 1 yes,
 * overwrite by the template's key fields) and 'start import'.
 *
 * 'start import' posts `multipart` `file`, `isCovered` and `templateId` to
 * `/api/system/exceltemplate/importData`. The answer is handed to `onResult`: `{ ok: true, message, jobId?,
 * queued }` (the dialog closes: queued = the server runs it as a job) or `{ ok: false, message, errorFile }`
 * (the dialog stays open). The toolbar shows the message (ImportMessage) for 60 s.
 */
import React, { useState } from 'react';
import { Button, Form, Modal, Switch, Upload, message } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ApiError, request } from './api.js';

export const IMPORT_URL = '/api/system/exceltemplate/importData';
export const IMPORT_DIALOG_WIDTH = 555;

export type ImportResult = { ok: true; message: string; jobId?: string; queued: boolean } | { ok: false; message: string; errorFile: string | null };

export interface ImportDialogProps {
  open: boolean;
  templateId: string;
  onClose(): void;
  onResult(r: ImportResult): void;
}

/** True for a name the import takes (spec 002 §5: .xls or .xlsx). */
export const isExcelName = (name: string) => /\.xlsx?$/i.test(name);

/**
 * A server message as the import shows it (spec 002 §8): '、' starts a new line, and text in braces (the
 * column of a fault, `第3行{专利名称}：…`) is shown in red; an error workbook link under it.
 */
export function ImportMessage({ text, errorFile, errorLabel, onDownload }: { text: string; errorFile?: string | null; errorLabel?: string; onDownload?: () => void }) {
  return (
    <div className="kc-import-message" style={{ textAlign: 'left', display: 'inline-block', maxHeight: 360, overflow: 'auto' }}>
      {text.split('、').map((line, i) => (
        <div key={i}>
          {line.split(/(\{[^}]*\})/).map((part, j) =>
            part.startsWith('{') && part.endsWith('}') ? (
              <span key={j} style={{ color: '#f5222d' }}>
                {part}
              </span>
            ) : (
              <React.Fragment key={j}>{part}</React.Fragment>
            ),
          )}
        </div>
      ))}
      {errorFile && onDownload && (
        <Button type="link" size="small" onClick={onDownload} style={{ padding: 0 }}>
          {errorLabel}
        </Button>
      )}
    </div>
  );
}

export function ImportDialog({ open, templateId, onClose, onResult }: ImportDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ isCovered: 0 | 1 }>();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [msg, holder] = message.useMessage();

  const close = () => {
    setFile(null);
    setFileError(null);
    form.resetFields();
    onClose();
  };

  const start = async () => {
    const values = await form.validateFields();
    if (!file) {
      setFileError(t('rt.excel.fileRequired'));
      return;
    }
    const fd = new FormData();
    fd.append('isCovered', String(values.isCovered));
    fd.append('templateId', templateId);
    fd.append('file', file, file.name);
    setBusy(true);
    try {
      const data = await request<Record<string, unknown>>('POST', IMPORT_URL, { formData: fd, silent: true, raw: true });
      const body = data as { data?: Record<string, unknown>; msg?: string };
      const jobId = body.data?.jobId as string | undefined;
      onResult({ ok: true, message: body.msg ?? '', jobId, queued: !!jobId && body.data?.read === undefined });
      close();
    } catch (e) {
      const err = e as ApiError;
      const data = ((err.body as { data?: Record<string, unknown> } | null)?.data ?? null) as Record<string, unknown> | null;
      onResult({ ok: false, message: err.message, errorFile: (data?.errorFile as string | undefined) ?? null });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('rt.excel.dialogTitle')}
      width={IMPORT_DIALOG_WIDTH}
      onCancel={close}
      destroyOnHidden
      footer={
        <Button type="primary" loading={busy} onClick={() => void start()}>
          {t('rt.excel.start')}
        </Button>
      }
    >
      {holder}
      <Form form={form} layout="horizontal" labelCol={{ span: 6 }} initialValues={{ isCovered: 0 }}>
        <Form.Item label={t('rt.excel.file')} required validateStatus={fileError ? 'error' : undefined} help={fileError ?? t('rt.excel.fileHint')}>
          <Upload
            accept=".xls,.xlsx"
            maxCount={1}
            fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
            beforeUpload={(f) => {
              if (!isExcelName(f.name)) {
                void msg.error(t('rt.excel.wrongFormat'));
                setFileError(t('rt.excel.wrongFormat'));
                return Upload.LIST_IGNORE;
              }
              setFile(f);
              setFileError(null);
              return false; // uploaded with the form, not on pick
            }}
            onRemove={() => setFile(null)}
          >
            <Button icon={<UploadOutlined />}>{t('rt.excel.file')}</Button>
          </Upload>
        </Form.Item>
        <Form.Item
          name="isCovered"
          label={t('rt.excel.overwrite')}
          rules={[{ required: true, message: t('rt.excel.overwriteRequired') }]}
          valuePropName="checked"
          getValueProps={(v: 0 | 1) => ({ checked: v === 1 })}
          normalize={(checked: boolean) => (checked ? 1 : 0)}
        >
          <Switch aria-label={t('rt.excel.overwrite')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
