/**
 * DetailView: one record read-only — the resource's `detail` schema when it has one, else its `form` — in
 * readPretty (labels, dictionary labels, file links) inside a modal of the form's width. The record comes
 * from `GET ${api}/detail?id=`.
 */
import React, { useMemo } from 'react';
import { Alert, Button, Modal, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ResourceSchema } from '../../shared/schema/types.js';
import { useLang } from './hooks.js';
import { FormBody, formSchemaOf, useRecordForm } from './FormBody.js';

export interface DetailViewProps {
  resource: ResourceSchema;
  open: boolean;
  recordKey?: string;
  onClose: () => void;
}

export function DetailView({ resource, open, recordKey, onClose }: DetailViewProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const prepared = useMemo(() => formSchemaOf(resource, lang, (resource.detail as ResourceSchema['form'] | undefined) ?? resource.form, true), [resource, lang]);
  const { form, error } = useRecordForm(resource, { open: open && recordKey !== undefined, recordKey, readPretty: true });
  return (
    <Modal
      open={open}
      title={t('rt.detail')}
      width={prepared.width}
      destroyOnHidden
      onCancel={onClose}
      footer={[
        <Button key="close" onClick={onClose}>
          {t('rt.close')}
        </Button>,
      ]}
    >
      {error && <Alert type="error" showIcon message={error} />}
      {form ? <FormBody form={form} prepared={prepared} lang={lang} /> : !error && <Spin style={{ display: 'block', margin: '40px auto' }} />}
    </Modal>
  );
}
