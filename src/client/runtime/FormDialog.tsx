/**
 * FormDialog: add or edit one record of a resource in a modal (spec 000 §8, 002 §2). The form is the
 * schema's `form`, localized to the session language; width from `form['x-component-props'].dialogWidth`
 * (default 900). An edit loads `GET ${api}/detail?id=` first.
 *
 * Save validates (the schema's messages, 请输入专利名称 ...), then posts the values to `${api}/submit`. On
 * success the dialog closes, says 新增成功 or 更新成功, and `onSaved` lets the list revalidate. On failure the
 * button's loading state resets; a 400's field errors (`ApiError.fields`, e.g. `assignee.0.name`) are shown on
 * their fields, and errors no field takes are listed above the form. (The form is submitted with
 * `form.submit`, whose rejection on invalid input is caught here — DESIGN §13's Submit pitfall.)
 */
import React, { useMemo, useRef, useState } from 'react';
import { Alert, Button, Modal, Spin, message } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ResourceSchema } from '../../shared/schema/types.js';
import { ApiError, post, type FieldError } from './api.js';
import { useLang } from './hooks.js';
import { applyServerErrors, clearServerErrors, FormBody, recordOf, formSchemaOf, useRecordForm, UnmatchedErrors } from './FormBody.js';
import { invalidCount, revealFirstInvalid } from './reveal-invalid.js';

export interface FormDialogProps {
  resource: ResourceSchema;
  open: boolean;
  /** The record to edit; absent for an add. */
  recordKey?: string;
  /** Values of a new record (e.g. the parent of a tree child). Keep the object stable while open. */
  initialValues?: Record<string, unknown>;
  onClose: () => void;
  onSaved?: (record: Record<string, unknown>, isNew: boolean) => void;
}

export function FormDialog({ resource, open, recordKey, initialValues, onClose, onSaved }: FormDialogProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [msg, holder] = message.useMessage();
  const prepared = useMemo(() => formSchemaOf(resource, lang), [resource, lang]);
  const { form, error } = useRecordForm(resource, { open, recordKey, initialValues });
  const [saving, setSaving] = useState(false);
  const [unmatched, setUnmatched] = useState<FieldError[]>([]);
  const body = useRef<HTMLDivElement>(null);
  const isNew = recordKey === undefined;

  const save = async () => {
    if (!form) return;
    setSaving(true);
    setUnmatched([]);
    clearServerErrors(form);
    try {
      const saved = await form.submit((values) => post<Record<string, unknown>>(`${resource.api}/submit`, recordOf(values)));
      void msg.success(t(isNew ? 'rt.added' : 'rt.updated'));
      onSaved?.(saved, isNew);
      onClose();
    } catch (e) {
      // invalid input: Formily already shows the messages on the fields; a server 400 names its fields
      if (e instanceof ApiError && e.fields.length) setUnmatched(applyServerErrors(form, e.fields));
      // either way: say how many fields need attention and bring the first one into view (issue 18 defect 6)
      const count = invalidCount(form);
      if (count > 0) {
        void msg.warning(t('rt.invalidFields', { count }));
        setTimeout(() => revealFirstInvalid(body.current), 0);
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      {holder}
      <Modal
        open={open}
        title={t(isNew ? 'rt.add' : 'rt.edit')}
        width={prepared.width}
        maskClosable={false}
        destroyOnHidden
        onCancel={onClose}
        footer={[
          <Button key="cancel" onClick={onClose}>
            {t('rt.cancel')}
          </Button>,
          <Button key="save" type="primary" loading={saving} disabled={!form} onClick={() => void save()}>
            {t('rt.save')}
          </Button>,
        ]}
      >
        <UnmatchedErrors errors={unmatched} />
        {error && <Alert type="error" showIcon message={error} />}
        <div ref={body}>{form ? <FormBody form={form} prepared={prepared} lang={lang} /> : !error && <Spin style={{ display: 'block', margin: '40px auto' }} />}</div>
      </Modal>
    </>
  );
}
