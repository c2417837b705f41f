/**
 * `/work/todo/:id` — the handling page of one process task's to-do (issue 11 'To-dos': a to-do with a go-now link
 * leads to the work itself, not to a list to search it in). Generic over every resource that names a flow:
 * `GET /api/basic/todo/detail?id=` (the caller's own to-do, marked read; server flow/todo.ts) names the task, the
 * record (`businessType` = the resource, `businessId`) and the instance; the resource's schema gives the record's
 * read-only view and the handling form (FlowProcessPage's `RecordView`, completing through `<api>/complete-task`).
 * A task already handled (by this user or, for candidates, another) shows the record with 该任务已办理; a to-do
 * that is not a task goes to its screen `path`; an unknown or someone else's to-do is /404 (the server answers
 * 404 for it).
 */
import React from 'react';
import { Alert, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router-dom';
import { useGet } from '../components/env.js';
import { useResourceSchema } from '../runtime/schema.js';
import { RecordView } from './FlowProcessPage.js';

interface TodoDetail {
  id: string;
  taskId?: string | null;
  businessType?: string | null;
  businessId?: string | null;
  processInstanceId?: string | null;
  taskOpen?: boolean;
  path?: string | null;
}

export const TODO_DETAIL_URL = '/api/basic/todo/detail';

export function TodoTaskPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const { data: todo, error } = useGet<TodoDetail>(/^\d{1,19}$/.test(id) ? TODO_DETAIL_URL : null, { id }, { silent: true });
  const isTask = !!(todo?.taskId && todo.businessType && todo.businessId && todo.processInstanceId);
  const { data: resource } = useResourceSchema(isTask ? todo!.businessType! : undefined);
  if (!/^\d{1,19}$/.test(id) || error) return <Navigate to="/404" replace />;
  if (!todo) return <Spin />;
  if (!isTask) return <Navigate to={todo.path || '/wel/index'} replace />;
  if (!resource) return <Spin />;
  return (
    <Space direction="vertical" style={{ width: '100%' }} className="kc-todo-task">
      {!todo.taskOpen && <Alert type="info" showIcon message={t('rt.flow.taskClosed')} />}
      <RecordView resource={resource} processInstanceId={todo.processInstanceId!} businessId={todo.businessId!} taskId={todo.taskOpen ? todo.taskId! : undefined} />
    </Space>
  );
}
