/**
 * ExamineTimeline: the history of a record's examination (spec 001 §7 `GET /basic/examinerecord/list`), as a
 * timeline of its steps, oldest first: the action (its label in the session language, from the schema's
 * `actions` when given, else the server's `actionName`), who took it, when, the status it moved the record
 * to (a label of the status dictionary, default examine_status) and the opinion.
 *
 * Registered in the component registry, so a detail schema may place it (`x-component: ExamineTimeline`,
 * inside a record's form it reads the record's `id`); DetailView shows it under the form of every resource
 * whose `actions.flow` keeps a history.
 *
 * Props: `businessId` (default: the surrounding form's `id`), `businessType` (the resource name; narrows the
 * list), `endpoint` (default the examine flow's `/api/basic/examinerecord/list`), `actions` (the schema's
 * action items, for labels and colours), `statusDict` (default `examine_status`), `title` (false hides the
 * heading).
 */
import React from 'react';
import { Empty, Spin, Tag, Timeline, Typography } from 'antd';
import { useForm } from '@formily/react';
import { useTranslation } from 'react-i18next';
import type { WorkflowAction } from '../../shared/schema/types.js';
import { useGet, useLang } from './env.js';
import { dictLabel, useDict } from './DictSelect.js';

/**
 * The GET endpoint listing a flow's steps (`?businessId=&businessType=`), per `actions.flow`: the timeline's
 * default and, re-exported by runtime/actions.ts, what the runtime revalidates after a flow action.
 */
export const FLOW_HISTORY: Record<string, string> = {
  examine: '/api/basic/examinerecord/list',
};

export interface ExamineStep {
  id: string;
  action: string;
  actionName?: string | null;
  fromStatus?: string | null;
  toStatus?: string | null;
  opinion?: string | null;
  operatorName?: string | null;
  operatorRole?: string | null;
  createTime?: string | null;
}

export interface ExamineTimelineProps {
  businessId?: string;
  businessType?: string;
  endpoint?: string;
  actions?: WorkflowAction[];
  statusDict?: string;
  title?: boolean;
}

/** The steps oldest first (the server's order, kept for equal times). */
export function stepsInOrder(steps: ExamineStep[]): ExamineStep[] {
  return steps
    .map((s, i) => ({ s, i }))
    .sort((a, b) => String(a.s.createTime ?? '').localeCompare(String(b.s.createTime ?? '')) || a.i - b.i)
    .map((x) => x.s);
}

function colorOf(action: WorkflowAction | undefined): string {
  if (!action) return 'gray';
  if (action.danger) return 'red';
  return action.kind === 'decide' ? 'green' : 'blue';
}

export function ExamineTimeline({ businessId, businessType, endpoint = FLOW_HISTORY.examine, actions, statusDict = 'examine_status', title = true }: ExamineTimelineProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const form = useForm() as { values?: Record<string, unknown> } | undefined;
  const formId = form?.values?.id;
  const id = businessId ?? (formId === undefined || formId === null || formId === '' ? undefined : String(formId));
  const { data, isLoading, error } = useGet<{ records: ExamineStep[] }>(id ? endpoint : null, { businessId: id, businessType, size: 200 }, { silent: true });
  const { data: dict } = useDict(statusDict);
  const steps = stepsInOrder(data?.records ?? []);
  const byKey = new Map((actions ?? []).map((a) => [a.key, a]));

  let body: React.ReactNode;
  if (!id) body = null;
  else if (isLoading) body = <Spin size="small" />;
  else if (error) body = <Typography.Text type="danger">{(error as Error).message}</Typography.Text>;
  else if (steps.length === 0) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('rt.timeline.empty')} />;
  else
    body = (
      <Timeline
        items={steps.map((s) => {
          const a = byKey.get(s.action);
          const label = a ? (lang === 'en' ? a.labelEn : a.label) : (s.actionName ?? s.action);
          return {
            key: s.id,
            color: colorOf(a),
            children: (
              <div className="kc-examine-step" data-testid="examine-step">
                <Typography.Text strong>{label}</Typography.Text>
                {s.toStatus ? (
                  <Tag style={{ marginInlineStart: 8 }} color={colorOf(a)}>
                    {dictLabel(dict, s.toStatus, lang)}
                  </Tag>
                ) : null}
                <div>
                  <Typography.Text type="secondary">
                    {s.operatorName ?? ''} {s.createTime ?? ''}
                  </Typography.Text>
                </div>
                {s.opinion ? (
                  <div className="kc-examine-opinion">
                    {t('rt.timeline.opinion')}
                    {s.opinion}
                  </div>
                ) : null}
              </div>
            ),
          };
        })}
      />
    );

  return (
    <div className="kc-examine-timeline" data-testid="examine-timeline">
      {title && <Typography.Title level={5}>{t('rt.timeline.title')}</Typography.Title>}
      {body}
    </div>
  );
}
