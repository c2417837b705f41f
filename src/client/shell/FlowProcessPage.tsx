/**
 * The process pages of a resource that names a flow (spec 000 §2.3 routes, for the leave request:
 * `/work/process/leave/form/{processDefinitionId}`, `/work/process/leave/handle/{taskId}/{processInstanceId}/
 * {businessId}`, `/work/process/leave/detail/{processInstanceId}/{businessId}`; issue 11). Generic: the route
 * `/work/process/<name>/...` belongs to the resource of the current role's menu item at `/work/process/<name>`
 * (the leave requests: flow/leave), whose schema gives everything:
 * - `form`: the resource's form, empty; 提交 posts it to `<api>/start-process` (the server validates it and starts
 *   the process), then the request's detail page opens;
 * - `handle`: the record read-only (the `detail` schema, its diagram included) and the handling form — 办理结果
 *   (同意 / 驳回 / 退回 / 提交), with 退回 the step to return to (退回到: one of the instance's finished user tasks
 *   from GET /api/blade-flow/process/steps, sent as `returnTo`; empty = the file's own way back) and 办理意见 —
 *   posted to `<api>/complete-task` with the task id; then 办理成功 and
 *   back to the previous page (the toasts are the app's: they stay after the page is left);
 * - `detail`: the record read-only with the instance's diagram and steps.
 * A path no menu item of the role knows, or an unknown mode, is /404; the server checks every call again.
 */
import React, { useMemo, useState } from 'react';
import { Alert, App, Button, Card, Form as AntForm, Input, Radio, Select, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { ApiError, post, type FieldError } from '../runtime/api.js';
import { useLang } from '../runtime/hooks.js';
import { useResourceSchema } from '../runtime/schema.js';
import { applyServerErrors, clearServerErrors, FormBody, formSchemaOf, recordOf, UnmatchedErrors, useRecordForm } from '../runtime/FormBody.js';
import { BpmnViewer, STEPS_ENDPOINT, type FlowSteps } from '../components/BpmnViewer.js';
import { useGet } from '../components/env.js';
import type { ResourceSchema } from '../../shared/schema/types.js';
import { currentRole, useSession } from '../runtime/session.js';
import { findByPath, useMenus, visibleFor } from './menu.js';

const OUTCOMES = ['approve', 'reject', 'return', 'submit'] as const;

/** `/work/process/:process/:mode/*` (see the module comment). */
export function FlowProcessPage() {
  const { process = '', mode = '', '*': rest = '' } = useParams();
  const s = useSession();
  const { menus, loading } = useMenus();
  const base = `/work/process/${process}`;
  const item = findByPath(menus, base)?.at(-1);
  const { data: resource } = useResourceSchema(item?.resource ?? undefined);
  if (loading) return <Spin />;
  if (!item || !item.resource || !visibleFor(item, currentRole(s)?.roleAlias)) return <Navigate to="/404" replace />;
  if (!resource) return <Spin />;
  const ids = rest.split('/').filter(Boolean);
  if (mode === 'form' && ids.length <= 1) return <StartForm resource={resource} base={base} />;
  if (mode === 'handle' && ids.length === 3) return <RecordView resource={resource} processInstanceId={ids[1]} businessId={ids[2]} taskId={ids[0]} />;
  if (mode === 'detail' && ids.length === 2) return <RecordView resource={resource} processInstanceId={ids[0]} businessId={ids[1]} />;
  return <Navigate to="/404" replace />;
}

function StartForm({ resource, base }: { resource: ResourceSchema; base: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const { message: msg } = App.useApp(); // the app's, so the toast outlives the page it leaves
  const prepared = useMemo(() => formSchemaOf(resource, lang), [resource, lang]);
  const { form } = useRecordForm(resource, { open: true });
  const [busy, setBusy] = useState(false);
  const [unmatched, setUnmatched] = useState<FieldError[]>([]);
  const submit = async () => {
    if (!form) return;
    setBusy(true);
    setUnmatched([]);
    clearServerErrors(form);
    try {
      const res = await form.submit((values) => post<{ businessId: string; processInstanceId: string }>(`${resource.api}/start-process`, recordOf(values)));
      void msg.success(t('rt.flow.started'));
      navigate(`${base}/detail/${res.processInstanceId}/${res.businessId}`, { replace: true });
    } catch (e) {
      if (e instanceof ApiError && e.fields.length) setUnmatched(applyServerErrors(form, e.fields));
    } finally {
      setBusy(false);
    }
  };
  if (!form) return <Spin />;
  return (
    <Card title={lang === 'en' ? resource.titleEn : resource.title} className="kc-flow-form">
      <UnmatchedErrors errors={unmatched} />
      <FormBody form={form} prepared={prepared} lang={lang} />
      <Space>
        <Button type="primary" loading={busy} onClick={() => void submit()}>
          {t('rt.flow.submit')}
        </Button>
        <Button onClick={() => navigate(-1)}>{t('rt.cancel')}</Button>
      </Space>
    </Card>
  );
}

/** A record of a flow resource read-only with its diagram, and with `taskId` the handling form (module comment). */
export function RecordView({ resource, processInstanceId, businessId, taskId }: { resource: ResourceSchema; processInstanceId: string; businessId: string; taskId?: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const { message: msg } = App.useApp(); // the app's, so the toast outlives the page it leaves
  const node = (resource.detail as ResourceSchema['form'] | undefined) ?? resource.form;
  const prepared = useMemo(() => formSchemaOf(resource, lang, node, true), [resource, lang, node]);
  const { form, error } = useRecordForm(resource, { open: true, recordKey: businessId, readPretty: true });
  const drawsDiagram = JSON.stringify(node).includes('"BpmnViewer"');
  const [handle] = AntForm.useForm<{ outcome?: string; comment?: string; returnTo?: string }>();
  const outcome = AntForm.useWatch('outcome', handle);
  const { data: steps } = useGet<FlowSteps>(taskId ? STEPS_ENDPOINT : null, { processInstanceId }, { silent: true });
  // the user tasks this instance has passed (once each, in order): where a return may go
  const returnSteps = useMemo(() => {
    const seen = new Map<string, string>();
    for (const h of steps?.history ?? []) if (h.historyActivityType === 'UserTask' && !seen.has(h.historyActivityId)) seen.set(h.historyActivityId, h.historyActivityName ?? h.historyActivityId);
    return [...seen].map(([value, label]) => ({ value, label }));
  }, [steps]);
  const [busy, setBusy] = useState(false);
  const complete = async (values: { outcome?: string; comment?: string; returnTo?: string }) => {
    setBusy(true);
    try {
      const back = values.outcome === 'return' && values.returnTo ? { returnTo: values.returnTo } : {};
      await post(`${resource.api}/complete-task`, { taskId, outcome: values.outcome, comment: values.comment ?? '', ...back });
      void msg.success(t('rt.flow.done'));
      navigate(-1);
    } catch {
      // the client's toast shows the server's message
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} className="kc-flow-record">
      <Card title={lang === 'en' ? resource.titleEn : resource.title}>
        {error ? <Alert type="error" showIcon message={error} /> : form ? <FormBody form={form} prepared={prepared} lang={lang} /> : <Spin />}
        {!drawsDiagram && <BpmnViewer processInstanceId={processInstanceId} height={320} />}
      </Card>
      {taskId && (
        <Card title={t('rt.flow.handle')}>
          <AntForm form={handle} layout="vertical" onFinish={(v) => void complete(v)}>
            <AntForm.Item name="outcome" label={t('rt.flow.outcome')} rules={[{ required: true, message: t('rt.flow.outcomeRequired') }]}>
              <Radio.Group options={OUTCOMES.map((o) => ({ value: o, label: t(`rt.flow.outcomes.${o}`) }))} />
            </AntForm.Item>
            {outcome === 'return' && returnSteps.length > 0 && (
              <AntForm.Item name="returnTo" label={t('rt.flow.returnTo')}>
                <Select allowClear options={returnSteps} placeholder={t('rt.flow.returnToDefault')} style={{ maxWidth: 320 }} />
              </AntForm.Item>
            )}
            <AntForm.Item name="comment" label={t('rt.flow.comment')} rules={[{ max: 2000, message: t('rt.flow.commentTooLong') }]}>
              <Input.TextArea rows={4} showCount maxLength={2000} />
            </AntForm.Item>
            <Space>
              <Button type="primary" htmlType="submit" loading={busy}>
                {t('rt.ok')}
              </Button>
              <Button onClick={() => navigate(-1)}>{t('rt.cancel')}</Button>
            </Space>
          </AntForm>
        </Card>
      )}
    </Space>
  );
}
