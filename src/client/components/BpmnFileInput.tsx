/**
 * BpmnFileInput: picks BPMN 2.0 files (.bpmn, .xml, at most 2 MB each) and keeps their text as the field's
 * value `[{name, xml}]` — nothing is uploaded until the form is sent. The process models screen's upload dialog
 * (schemas/flow/model.json) sends it to `POST /api/blade-flow/manager/deploy-upload`, which checks and deploys
 * each file (a refused file, with its reason, stores nothing).
 *
 * Registered in the component registry (`x-component: BpmnFileInput`). Props: `value`, `onChange`, `disabled`,
 * `maxCount` (default 10).
 */
import React from 'react';
import { Button, message, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

export interface BpmnFile {
  name: string;
  xml: string;
}

export interface BpmnFileInputProps {
  value?: BpmnFile[];
  onChange?: (files: BpmnFile[]) => void;
  disabled?: boolean;
  maxCount?: number;
}

export const BPMN_FILE_MAX_BYTES = 2 * 1024 * 1024;

/** The text of `file`, or the i18n key (with params) of why it is refused. */
export async function readBpmnFile(file: Pick<File, 'name' | 'size' | 'text'>): Promise<BpmnFile | { error: string; params: Record<string, string> }> {
  if (!/\.(bpmn|xml)$/i.test(file.name)) return { error: 'cmp.bpmnFile.badType', params: { name: file.name } };
  if (file.size > BPMN_FILE_MAX_BYTES) return { error: 'cmp.bpmnFile.tooLarge', params: { name: file.name } };
  return { name: file.name, xml: await file.text() };
}

export function BpmnFileInput({ value, onChange, disabled, maxCount = 10 }: BpmnFileInputProps) {
  const { t } = useTranslation();
  const files = value ?? [];
  return (
    <Upload
      accept=".bpmn,.xml"
      multiple
      disabled={disabled}
      fileList={files.map((f) => ({ uid: f.name, name: f.name, status: 'done' as const }))}
      beforeUpload={async (file) => {
        const read = await readBpmnFile(file);
        if ('error' in read) {
          void message.error(t(read.error, read.params));
          return Upload.LIST_IGNORE;
        }
        if (files.length >= maxCount) {
          void message.error(t('cmp.bpmnFile.tooMany', { count: String(maxCount) }));
          return Upload.LIST_IGNORE;
        }
        onChange?.([...files.filter((f) => f.name !== read.name), read]);
        return false;
      }}
      onRemove={(f) => {
        onChange?.(files.filter((x) => x.name !== f.name));
        return true;
      }}
    >
      <Button icon={<UploadOutlined />} disabled={disabled}>
        {t('cmp.bpmnFile.choose')}
      </Button>
    </Upload>
  );
}

/** The component's UI texts (registered with it in catalog.tsx). */
export const BPMN_FILE_TEXTS = {
  'cmp.bpmnFile.choose': { zh: '选择流程文件', en: 'Choose process files' },
  'cmp.bpmnFile.badType': { zh: '只能上传 .bpmn 或 .xml 流程文件：{{name}}', en: 'Only .bpmn or .xml process files can be uploaded: {{name}}' },
  'cmp.bpmnFile.tooLarge': { zh: '文件 {{name}} 超过 2MB', en: 'The file {{name}} is larger than 2 MB' },
  'cmp.bpmnFile.tooMany': { zh: '最多只能上传 {{count}} 个文件', en: 'At most {{count}} files can be uploaded' },
};
