/**
 * ActionDialog: takes one workflow action (`schema.actions.items[]`, DESIGN §4, §8) on one record.
 *
 * - An action with a `dialog` shows that Formily form (localized; its own rules and messages, e.g. the
 *   reject's 请输入审核意见) in a modal titled with the action's label; an action without one asks its
 *   `confirm` question (or 确定执行「…」吗？).
 * - OK posts `actionBody(...)` — `{businessId, businessType, action, ...dialog values}` — to the action's
 *   endpoint (src/server/modules/flow/actions.ts checks role, actor, status and the dialog again). On success
 *   it says the action's `success` text (default 操作成功), revalidates every cached GET of the resource (lists
 *   and details) and the flow's history (the timeline), calls `onDone` and closes. On failure the api client
 *   has toasted the server's message; a 400's field errors go on the dialog's fields, and the OK button is
 *   usable again.
 */
import React, { useEffect, useMemo, useState } from 'react';
import { Modal, message } from 'antd';
import { createForm, onFieldInputValueChange, type Field } from '@formily/core';
import { useTranslation } from 'react-i18next';
import type { ResourceSchema, WorkflowAction } from '../../shared/schema/types.js';
import { ApiError, post, type FieldError } from './api.js';
import { useLang, useRevalidate } from './hooks.js';
import { applyServerErrors, clearServerErrors, FormBody, formSchemaOf, recordOf, UnmatchedErrors } from './FormBody.js';
import { actionBody, actionLabel, FLOW_HISTORY } from './actions.js';

export interface ActionDialogProps {
  resource: ResourceSchema;
  /** The action to take; null = closed. */
  action: WorkflowAction | null;
  /** The record it is taken on (a list row or the detail answer). */
  record: Record<string, unknown> | null;
  onClose: () => void;
  /** After a successful action (the caches are already revalidated). */
  onDone?: (answer: unknown) => void;
}

export function ActionDialog({ resource, action, record, onClose, onDone }: ActionDialogProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [msg, holder] = message.useMessage();
  const revalidate = useRevalidate();
  const open = !!action && !!record;
  const [busy, setBusy] = useState(false);
  const [unmatched, setUnmatched] = useState<FieldError[]>([]);

  const prepared = useMemo(() => {
    if (!action?.dialog) return null;
    const p = formSchemaOf(resource, lang, action.dialog);
    const width = (action.dialog['x-component-props'] as Record<string, unknown> | undefined)?.dialogWidth;
    return { ...p, width: typeof width === 'number' ? width : 600 };
  }, [resource, action, lang]);

  // a fresh form per opening
  const form = useMemo(
    () =>
      open && action?.dialog
        ? createForm({
            effects() {
              onFieldInputValueChange('*', (field) => {
                if ('setSelfErrors' in field && field.selfErrors.length) (field as Field).setSelfErrors([]);
              });
            },
          })
        : null,
    [open, action, record],
  );
  useEffect(() => {
    if (open) setUnmatched([]);
  }, [open, action, record]);

  if (!action) return holder;
  const label = actionLabel(action, lang);

  const run = async () => {
    if (!record) return;
    setBusy(true);
    setUnmatched([]);
    if (form) clearServerErrors(form);
    const send = (values: Record<string, unknown> = {}) => post<unknown>(action.endpoint, actionBody(resource, action, record, values));
    try {
      const answer = form ? await form.submit((values) => send(recordOf(values))) : await send();
      void msg.success((lang === 'en' ? action.successEn : action.success) ?? t('rt.action.done'));
      void revalidate(resource.api);
      const history = resource.actions?.flow ? FLOW_HISTORY[resource.actions.flow] : undefined;
      if (history) void revalidate(history);
      onDone?.(answer);
      onClose();
    } catch (e) {
      // invalid input: Formily shows the messages on the fields; a server 400 names its fields
      if (form && e instanceof ApiError && e.fields.length) setUnmatched(applyServerErrors(form, e.fields));
    } finally {
      setBusy(false);
    }
  };

  const question = (lang === 'en' ? action.confirmEn : action.confirm) ?? t('rt.action.confirm', { label });
  return (
    <>
      {holder}
      <Modal
        open={open}
        title={label}
        width={prepared?.width ?? 420}
        maskClosable={false}
        destroyOnHidden
        onCancel={onClose}
        onOk={() => void run()}
        okText={t('rt.ok')}
        cancelText={t('rt.cancel')}
        okButtonProps={{ danger: action.danger, loading: busy }}
      >
        <UnmatchedErrors errors={unmatched} />
        {form && prepared ? <FormBody form={form} prepared={prepared} lang={lang} /> : <p className="kc-action-confirm">{question}</p>}
      </Modal>
    </>
  );
}
