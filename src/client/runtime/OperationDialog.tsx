/**
 * OperationDialog: runs one list operation (`schema.list.operations[]`, runtime/operations.ts) on the chosen
 * rows — the toolbar's checked rows or one row.
 *
 * - With `initial.endpoint`, that endpoint is read first (e.g. a role's granted menus) and its answer fills the
 *   dialog through `initial.map`; `initial.values` fill it from the row.
 * - With a `dialog`, that Formily form is shown (localized; its own rules); OK posts the resolved `body` plus the
 *   form's values, with the resolved `params` as the query. Without one, the `confirm` question is asked.
 * - `result: 'view'` only shows the dialog (its components — a table of a crawl's rows, a dashboard's charts —
 *   read their own endpoints; `$row.<field>` in their props is the row's field: operations.ts `withRowRefs`)
 *   with a Close button; nothing is sent.
 * - `result: 'download'` fetches the endpoint with the API headers and saves the file (`downloadName`);
 *   `result: 'reveal'` shows the answered rows (or the one answered object) once (generated passwords) in a table with the operation's note
 *   — closing it is the only way back; `result: 'open'` opens the answer's `link` (a same-origin path: a
 *   document's signed preview page, `<api>/generateReportFile`) in a new window, or in this one when the
 *   browser blocks it (`openLink`); otherwise the `success` text (default 操作成功) is shown.
 * - Afterwards every cached GET of the resource revalidates and `onDone` is called. A failure keeps the dialog
 *   open: the api client has toasted the server's message, and a 400's field errors go on the dialog's fields.
 */
import React, { useEffect, useMemo, useState } from 'react';
import { Button, Modal, Spin, message } from 'antd';
import { createForm, onFieldInputValueChange, type Field, type Form } from '@formily/core';
import { useTranslation } from 'react-i18next';
import type { ListOperation, ResourceSchema } from '../../shared/schema/types.js';
import { ApiError, get, post, withParams, type FieldError } from './api.js';
import { downloadFile } from './download.js';
import { RevealDialog } from './RevealDialog.js';
import { useLang, useRevalidate } from './hooks.js';
import { applyServerErrors, clearServerErrors, FormBody, formSchemaOf, recordOf, UnmatchedErrors } from './FormBody.js';
import { downloadName, initialValues, operationLabel, resolveRefs, withRowRefs, type OperationContext } from './operations.js';

/**
 * Opens the `link` of an operation's answer (`{link}`, or the link itself) in a new window, or in this one when
 * the browser blocks new windows. Only a same-origin path ('/previewTaskBook?token=…') is followed: anything
 * else (another origin, `//host`, `javascript:`) is ignored. Answers whether a link was followed.
 */
export function openLink(answer: unknown): boolean {
  const link = typeof answer === 'string' ? answer : answer && typeof answer === 'object' ? (answer as Row).link : undefined;
  if (typeof link !== 'string' || !link.startsWith('/') || link.startsWith('//')) return false;
  const w = window.open(link, '_blank');
  if (w) w.opener = null;
  else window.location.assign(link);
  return true;
}

export interface OperationDialogProps {
  resource: ResourceSchema;
  /** The operation to run; null = closed. */
  op: ListOperation | null;
  ctx: OperationContext;
  onClose: () => void;
  onDone?: (answer: unknown) => void;
}

type Row = Record<string, unknown>;

export function OperationDialog({ resource, op, ctx, onClose, onDone }: OperationDialogProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [msg, holder] = message.useMessage();
  const revalidate = useRevalidate();
  const [busy, setBusy] = useState(false);
  const [form, setForm] = useState<Form | null>(null);
  const [loading, setLoading] = useState(false);
  const [unmatched, setUnmatched] = useState<FieldError[]>([]);
  const [revealed, setRevealed] = useState<Row[] | null>(null);

  // the row of the opening: ctx is rebuilt by the list on every render
  const prepared = useMemo(() => (op?.dialog ? formSchemaOf(resource, lang, op.result === 'view' ? withRowRefs(op.dialog, ctx) : op.dialog) : null), [resource, op, lang]);

  // a fresh form per opening, filled from the row and the `initial` endpoint
  useEffect(() => {
    setUnmatched([]);
    setForm(null);
    if (!op?.dialog) return;
    let gone = false;
    const make = (values: Row) =>
      createForm({
        initialValues: values,
        effects() {
          onFieldInputValueChange('*', (field) => {
            if ('setSelfErrors' in field && field.selfErrors.length) (field as Field).setSelfErrors([]);
          });
        },
      });
    if (op.initial?.endpoint) {
      setLoading(true);
      get<unknown>(op.initial.endpoint, resolveRefs(op.initial.params, ctx, 'params') as Record<string, string>)
        .then((answer) => !gone && setForm(make(initialValues(op, ctx, answer))))
        .catch(() => !gone && onClose())
        .finally(() => !gone && setLoading(false));
    } else setForm(make(initialValues(op, ctx)));
    return () => {
      gone = true;
    };
    // ctx is rebuilt by the list on every render; the opening is what matters
  }, [op]);

  if (!op) return holder;
  const label = operationLabel(op, lang);

  const send = async (values: Row = {}): Promise<unknown> => {
    const params = resolveRefs(op.params, ctx, 'params') as Record<string, string>;
    if (op.result === 'download') {
      const ok = await downloadFile(withParams(op.endpoint!, params), downloadName(op, lang));
      if (!ok) throw new Error('download failed');
      return null;
    }
    const body = { ...resolveRefs(op.body, ctx, 'body'), ...values };
    if ((op.method ?? 'POST') === 'GET') return get<unknown>(op.endpoint!, params);
    return post<unknown>(op.endpoint!, Object.keys(body).length ? body : undefined, { params });
  };

  const run = async () => {
    setBusy(true);
    setUnmatched([]);
    if (form) clearServerErrors(form);
    try {
      const answer = form ? await form.submit((values) => send(recordOf(values))) : await send();
      void revalidate(resource.api);
      if (op.result === 'reveal' && answer && typeof answer === 'object') setRevealed(Array.isArray(answer) ? (answer as Row[]) : [answer as Row]);
      else if (op.result === 'open') {
        openLink(answer);
        onClose();
      } else {
        if (op.result !== 'download') void msg.success((lang === 'en' ? op.successEn : op.success) ?? t('rt.action.done'));
        onClose();
      }
      onDone?.(answer);
    } catch (e) {
      if (form && e instanceof ApiError && e.fields.length) setUnmatched(applyServerErrors(form, e.fields));
    } finally {
      setBusy(false);
    }
  };

  if (revealed && op.reveal) {
    return (
      <>
        {holder}
        <RevealDialog
          title={label}
          spec={op.reveal}
          rows={revealed}
          onClose={() => {
            setRevealed(null);
            onClose();
          }}
        />
      </>
    );
  }

  if (op.result === 'view') {
    return (
      <Modal key="view" open title={label} width={op.dialogWidth ?? 900} destroyOnHidden onCancel={onClose} footer={<Button onClick={onClose}>{t('rt.close')}</Button>}>
        {form && prepared ? <FormBody form={form} prepared={prepared} lang={lang} /> : <Spin aria-label={t('rt.loading')} style={{ display: 'block', margin: '24px auto' }} />}
      </Modal>
    );
  }

  const question = (lang === 'en' ? op.confirmEn : op.confirm) ?? t('rt.action.confirm', { label });
  return (
    <>
      {holder}
      <Modal
        key="run"
        open
        title={label}
        width={op.dialog ? (op.dialogWidth ?? 600) : 420}
        maskClosable={false}
        destroyOnHidden
        onCancel={onClose}
        onOk={() => void run()}
        okText={t('rt.ok')}
        cancelText={t('rt.cancel')}
        okButtonProps={{ danger: op.danger, loading: busy, disabled: loading }}
      >
        <UnmatchedErrors errors={unmatched} />
        {op.dialog ? (
          form && prepared ? <FormBody form={form} prepared={prepared} lang={lang} /> : <Spin aria-label={t('rt.loading')} style={{ display: 'block', margin: '24px auto' }} />
        ) : (
          <p className="kc-action-confirm">{question}</p>
        )}
      </Modal>
    </>
  );
}
