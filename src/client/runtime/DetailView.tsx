/**
 * DetailView: one record read-only — the resource's `detail` schema when it has one, else its `form` — in
 * readPretty (labels, dictionary labels, file links) inside a modal of the form's width. The record comes
 * from `GET ${api}/detail?id=`.
 *
 * For a resource with workflow actions (`schema.actions`): the footer carries the buttons of the actions the
 * record's status and the current role allow (placement 'detail'), each opening an ActionDialog; after an
 * action the record is loaded again (its new status shows) and `onChanged` tells the list. When the actions
 * keep a history (`actions.flow`, e.g. examine), the ExamineTimeline of the record's steps shows under the
 * form.
 */
import React, { useMemo, useState } from 'react';
import { Alert, Button, Divider, Modal, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ResourceSchema, WorkflowAction } from '../../shared/schema/types.js';
import { currentRole, useSession } from './session.js';
import { ExamineTimeline } from '../components/ExamineTimeline.js';
import { useLang } from './hooks.js';
import { FormBody, formSchemaOf, useRecordForm } from './FormBody.js';
import { ActionDialog } from './ActionDialog.js';
import { actionLabel, actionsFor, FLOW_HISTORY } from './actions.js';

export interface DetailViewProps {
  resource: ResourceSchema;
  open: boolean;
  recordKey?: string;
  onClose: () => void;
  /** After a workflow action changed the record. */
  onChanged?: () => void;
}

export function DetailView({ resource, open, recordKey, onClose, onChanged }: DetailViewProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const session = useSession();
  const [version, setVersion] = useState(0);
  const [acting, setActing] = useState<WorkflowAction | null>(null);
  const prepared = useMemo(() => formSchemaOf(resource, lang, (resource.detail as ResourceSchema['form'] | undefined) ?? resource.form, true), [resource, lang]);
  const { form, record, error } = useRecordForm(resource, { open: open && recordKey !== undefined, recordKey, readPretty: true, version });
  const flow = record ? actionsFor(resource, record, { roleAlias: currentRole(session)?.roleAlias, userId: session.user?.userId }, 'detail') : [];
  const history = resource.actions?.flow ? FLOW_HISTORY[resource.actions.flow] : undefined;
  return (
    <>
      <Modal
        open={open}
        title={t('rt.detail')}
        width={prepared.width}
        destroyOnHidden
        onCancel={onClose}
        footer={[
          ...flow.map((a) => (
            <Button key={a.key} type={a.danger ? 'default' : 'primary'} danger={a.danger} onClick={() => setActing(a)}>
              {actionLabel(a, lang)}
            </Button>
          )),
          <Button key="close" onClick={onClose}>
            {t('rt.close')}
          </Button>,
        ]}
      >
        {error && <Alert type="error" showIcon message={error} />}
        {form ? <FormBody form={form} prepared={prepared} lang={lang} /> : !error && <Spin style={{ display: 'block', margin: '40px auto' }} />}
        {history && recordKey !== undefined && form && (
          <>
            <Divider style={{ margin: '8px 0 16px' }} />
            <ExamineTimeline businessId={recordKey} businessType={resource.name} endpoint={history} actions={resource.actions?.items} statusDict={resource.actions?.statusDict} />
          </>
        )}
      </Modal>
      <ActionDialog
        resource={resource}
        action={acting}
        record={acting ? record : null}
        onClose={() => setActing(null)}
        onDone={() => {
          setVersion((v) => v + 1);
          onChanged?.();
        }}
      />
    </>
  );
}
