/**
 * MyRecordForm: the caller's own record of a resource edited in place — one row per user that is not a list
 * (the message settings of `system/usermsgsetting`: getMySetting / saveMySetting). The form is the resource's
 * schema (`name`), localized; `load` answers the record (the server's defaults when none is stored), `save`
 * receives the form's values as the body and answers the saved record. Validation messages are the schema's;
 * a 400's field errors go on the fields (the rest above the form); success says 保存成功.
 */
import React, { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Spin, message } from 'antd';
import { createForm, type Form } from '@formily/core';
import { useTranslation } from 'react-i18next';
import { ApiError, get, post, type FieldError } from './api.js';
import { useLang } from './hooks.js';
import { useResourceSchema } from './schema.js';
import { applyServerErrors, clearServerErrors, FormBody, formSchemaOf, recordOf, UnmatchedErrors } from './FormBody.js';
import { invalidCount, revealFirstInvalid } from './reveal-invalid.js';

export interface MyRecordFormProps {
  /** The resource whose form is shown (`system/usermsgsetting`). */
  name: string;
  /** GET answering the caller's record. */
  load: string;
  /** POST saving it (body = the form's values). */
  save: string;
}

export function MyRecordForm({ name, load, save }: MyRecordFormProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [msg, holder] = message.useMessage();
  const { data: resource } = useResourceSchema(name);
  const [form, setForm] = useState<Form | null>(null);
  const [busy, setBusy] = useState(false);
  const [unmatched, setUnmatched] = useState<FieldError[]>([]);
  const prepared = useMemo(() => (resource ? formSchemaOf(resource, lang) : null), [resource, lang]);

  useEffect(() => {
    let gone = false;
    get<Record<string, unknown>>(load)
      .then((record) => !gone && setForm(createForm({ initialValues: record ?? {} })))
      .catch(() => undefined);
    return () => {
      gone = true;
    };
  }, [load]);

  const body = useRef<HTMLDivElement>(null);
  const submit = async () => {
    if (!form) return;
    setBusy(true);
    setUnmatched([]);
    clearServerErrors(form);
    try {
      const saved = await form.submit((values) => post<Record<string, unknown>>(save, recordOf(values)));
      if (saved && typeof saved === 'object') form.setValues(saved, 'overwrite');
      void msg.success(t('rt.saved'));
    } catch (e) {
      if (e instanceof ApiError && e.fields.length) setUnmatched(applyServerErrors(form, e.fields));
      // how many fields need attention, and the first of them in view with the focus (issue 18 defect 6)
      const count = invalidCount(form);
      if (count > 0) {
        void msg.warning(t('rt.invalidFields', { count }));
        setTimeout(() => revealFirstInvalid(body.current), 0);
      }
    } finally {
      setBusy(false);
    }
  };

  if (!form || !prepared) return <Spin aria-label={t('rt.loading')} />;
  return (
    <div className="kc-my-record" ref={body}>
      {holder}
      <UnmatchedErrors errors={unmatched} />
      <FormBody form={form} prepared={prepared} lang={lang} />
      <Button type="primary" loading={busy} onClick={() => void submit()}>
        {t('rt.save')}
      </Button>
    </div>
  );
}
