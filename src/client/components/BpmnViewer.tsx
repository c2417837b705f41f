/**
 * BpmnViewer: the diagram of a process instance (DESIGN §8 Workflow: bpmn-js, viewer only, in its own lazy
 * chunk), with the node the process waits on marked as current and the nodes it passed marked as finished,
 * and the steps taken under it (who, outcome, comment, when).
 *
 * Data: `GET /api/blade-flow/process/steps` — by `processInstanceId`, or by `businessType` + `businessId` (the
 * record's newest instance; inside a record's form `businessId` defaults to the form's `id`), or by
 * `processDefinitionId` (a deployed version, nothing marked); `businessTypeField` / `businessIdField` read them
 * from other fields of the form (a to-do's `businessType` and `businessId`), `instanceIdField` / `definitionIdField`
 * the instance or definition id (the rows of the running-instances and deployments lists). The answer carries the BPMN XML, `currentNodes`,
 * `finishedNodes` and `history`.
 *
 * bpmn-js is loaded only when a diagram is shown (BpmnCanvas.tsx, a lazy import), so neither the login route
 * nor the schema runtime carries it. The root carries `data-current` and `data-finished` (JSON of the node ids)
 * for tests and journeys.
 *
 * Registered in the component registry (`x-component: BpmnViewer`), so a detail schema or an operation's
 * dialog places it.
 */
import React, { lazy, Suspense } from 'react';
import { Empty, Space, Spin, Table, Tag, Typography } from 'antd';
import { useForm } from '@formily/react';
import { useTranslation } from 'react-i18next';
import { useGet } from './env.js';
import { addComponentTexts } from './texts.js';

const BpmnCanvas = lazy(() => import('./BpmnCanvas.js'));

export const STEPS_ENDPOINT = '/api/blade-flow/process/steps';

export interface FlowStep {
  id: string;
  historyActivityId: string;
  historyActivityName?: string | null;
  historyActivityType: string;
  assigneeName?: string | null;
  outcome?: string | null;
  comment?: string | null;
  createTime?: string | null;
  endTime?: string | null;
}

export interface FlowSteps {
  processInstanceId?: string;
  name?: string;
  version?: number;
  status?: 'running' | 'completed' | 'deleted';
  xml: string;
  currentNodes: string[];
  finishedNodes: string[];
  history: FlowStep[];
}

export interface BpmnViewerProps {
  processInstanceId?: string;
  processDefinitionId?: string;
  businessType?: string;
  businessId?: string;
  /** Inside a form: the fields holding the business type and id (a to-do's `businessType` / `businessId`). */
  businessTypeField?: string;
  businessIdField?: string;
  /** Inside a form: the field holding the instance id (a running instance's row) or the definition id (a deployed version's row). */
  instanceIdField?: string;
  definitionIdField?: string;
  /** Height of the diagram in pixels (default 360). */
  height?: number;
  /** false hides the steps under the diagram. */
  history?: boolean;
}

/** The markers to draw: the current nodes, and the finished ones that are not current again. */
export function markersOf(steps: Pick<FlowSteps, 'currentNodes' | 'finishedNodes'>): { current: string[]; finished: string[] } {
  const current = [...new Set(steps.currentNodes ?? [])];
  return { current, finished: [...new Set(steps.finishedNodes ?? [])].filter((n) => !current.includes(n)) };
}

const OUTCOME_COLOR: Record<string, string> = { approve: 'green', reject: 'red', return: 'orange', submit: 'blue' };

export function BpmnViewer({ processInstanceId, processDefinitionId, businessType, businessId, businessTypeField, businessIdField, instanceIdField, definitionIdField, height = 360, history = true }: BpmnViewerProps) {
  const { t } = useTranslation();
  const form = useForm() as { values?: Record<string, unknown> } | undefined;
  const field = (name: string) => {
    const v = form?.values?.[name];
    return v === undefined || v === null || v === '' ? undefined : String(v);
  };
  const bid = businessId ?? field(businessIdField ?? 'id');
  const btype = businessType ?? (businessTypeField ? field(businessTypeField) : undefined);
  const instance = processInstanceId ?? (instanceIdField ? field(instanceIdField) : undefined);
  const definition = processDefinitionId ?? (definitionIdField ? field(definitionIdField) : undefined);
  const params = instance ? { processInstanceId: instance } : definition ? { processDefinitionId: definition } : bid && btype ? { businessType: btype, businessId: bid } : null;
  const { data, isLoading, error } = useGet<FlowSteps>(params ? STEPS_ENDPOINT : null, params ?? undefined, { silent: true });

  if (!params) return null;
  if (isLoading) return <Spin size="small" />;
  if (error || !data) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('cmp.bpmn.none')} />;
  const { current, finished } = markersOf(data);
  const statusText = data.status ? t(`cmp.bpmn.status.${data.status}`) : null;
  return (
    <div className="kc-bpmn-viewer" data-testid="bpmn-viewer" data-current={JSON.stringify(current)} data-finished={JSON.stringify(finished)}>
      <Space wrap style={{ marginBottom: 8 }}>
        {data.name ? <Typography.Text strong>{data.name}{data.version ? ` v${data.version}` : ''}</Typography.Text> : null}
        {statusText ? <Tag color={data.status === 'running' ? 'processing' : 'default'}>{statusText}</Tag> : null}
        <Tag color="green">{t('cmp.bpmn.current')}</Tag>
        <Tag color="blue">{t('cmp.bpmn.finished')}</Tag>
      </Space>
      <div style={{ height, border: '1px solid #f0f0f0', borderRadius: 6 }}>
        <Suspense fallback={<Spin style={{ display: 'block', margin: '40px auto' }} />}>
          <BpmnCanvas xml={data.xml} current={current} finished={finished} />
        </Suspense>
      </div>
      {history && data.history?.length ? (
        <Table<FlowStep>
          size="small"
          rowKey="id"
          style={{ marginTop: 12 }}
          pagination={false}
          dataSource={data.history.filter((h) => h.historyActivityType === 'UserTask')}
          columns={[
            { title: t('cmp.bpmn.step'), dataIndex: 'historyActivityName', render: (v: string | null, r) => v ?? r.historyActivityId },
            { title: t('cmp.bpmn.assignee'), dataIndex: 'assigneeName' },
            { title: t('cmp.bpmn.outcome'), dataIndex: 'outcome', render: (v: string | null) => (v ? <Tag color={OUTCOME_COLOR[v] ?? 'default'}>{t(`cmp.bpmn.outcomes.${v}`, { defaultValue: v })}</Tag> : null) },
            { title: t('cmp.bpmn.comment'), dataIndex: 'comment' },
            { title: t('cmp.bpmn.time'), dataIndex: 'endTime' },
          ]}
        />
      ) : null}
    </div>
  );
}

/** The component's UI texts (registered with it in catalog.tsx). */
export const BPMN_TEXTS = {
  'cmp.bpmn.none': { zh: '暂无流程', en: 'No process' },
  'cmp.bpmn.current': { zh: '当前节点', en: 'Current step' },
  'cmp.bpmn.finished': { zh: '已完成节点', en: 'Finished steps' },
  'cmp.bpmn.status.running': { zh: '进行中', en: 'Running' },
  'cmp.bpmn.status.completed': { zh: '已结束', en: 'Ended' },
  'cmp.bpmn.status.deleted': { zh: '已删除', en: 'Deleted' },
  'cmp.bpmn.step': { zh: '环节', en: 'Step' },
  'cmp.bpmn.assignee': { zh: '办理人', en: 'Handled by' },
  'cmp.bpmn.outcome': { zh: '结果', en: 'Outcome' },
  'cmp.bpmn.comment': { zh: '意见', en: 'Comment' },
  'cmp.bpmn.time': { zh: '办理时间', en: 'Time' },
  'cmp.bpmn.outcomes.approve': { zh: '同意', en: 'Approved' },
  'cmp.bpmn.outcomes.reject': { zh: '驳回', en: 'Rejected' },
  'cmp.bpmn.outcomes.return': { zh: '退回', en: 'Returned' },
  'cmp.bpmn.outcomes.submit': { zh: '提交', en: 'Submitted' },
  'cmp.bpmn.failed': { zh: '流程图无法显示：{{reason}}', en: 'The diagram cannot be shown: {{reason}}' },
};
// the shell renders this component directly, before the registry (which registers the same texts) has loaded
addComponentTexts(BPMN_TEXTS);
