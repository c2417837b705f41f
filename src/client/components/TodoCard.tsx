/**
 * TodoCard (issue 11 'Home': 待办 and 已办 cards with counts and the newest items; spec 000 §2 /wel/index): the
 * signed-in user's open (`state` 0, 待办) or done (`state` 1, 已办) to-dos — how many there are and the newest
 * `size` of them (title, subject, time); a task's item opens its handling page, another with a screen (`path`)
 * opens that (`todoHref`).
 *
 * Data: `GET /api/basic/todo/list?state=&current=1&size=` (flow/todo.ts: the caller's own rows in their tenant,
 * `{records, total}`), refreshed every `refreshMs` (default 15 s, the to-do poll of spec 000 §4).
 * Registered as `TodoCard` (catalog.tsx); the home dashboard (schemas/_pages/dashboard.json) places two.
 * Props: `state` 0 | 1 (default 0), `size` 1–20 (default 5), `refreshMs`.
 * Outside a router (the designer's canvas) the items are plain text.
 */
import React from 'react';
import { Badge, Empty, List, Spin, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useInRouterContext } from 'react-router-dom';
import { useGet } from './env.js';
import { addComponentTexts } from './texts.js';

export const TODO_LIST_ENDPOINT = '/api/basic/todo/list';

export interface TodoItem {
  id: string;
  title: string;
  taskId?: string | null;
  businessName?: string | null;
  path?: string | null;
  createTime?: string | null;
  isRead?: number;
}

export interface TodoCardProps {
  state?: 0 | 1;
  size?: number;
  refreshMs?: number;
}

export function TodoCard({ state = 0, size = 5, refreshMs = 15_000 }: TodoCardProps) {
  const { t } = useTranslation();
  const inRouter = useInRouterContext();
  const n = Math.min(20, Math.max(1, Math.floor(size)));
  const { data, isLoading, error } = useGet<{ records: TodoItem[]; total: number }>(TODO_LIST_ENDPOINT, { state, current: 1, size: n }, { silent: true, refreshInterval: refreshMs });
  if (isLoading && !data) return <Spin size="small" />;
  if (error || !data) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('cmp.todo.none')} />;
  const label = t(state === 1 ? 'cmp.todo.done' : 'cmp.todo.open');
  return (
    <div className="kc-todo-card" data-testid={`todo-card-${state}`} data-total={data.total}>
      <Statistic title={label} value={data.total} />
      {data.records.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('cmp.todo.none')} />
      ) : (
        <List<TodoItem>
          size="small"
          dataSource={data.records}
          renderItem={(item) => {
            const title = state === 0 && item.isRead === 0 ? <Badge status="processing" text={item.title} /> : item.title;
            const href = todoHref(item);
            return (
              <List.Item key={item.id} extra={<Typography.Text type="secondary">{item.createTime ?? ''}</Typography.Text>}>
                <List.Item.Meta
                  title={inRouter && href ? <Link to={href}>{title}</Link> : title}
                  description={item.businessName ?? null}
                />
              </List.Item>
            );
          }}
        />
      )}
    </div>
  );
}

/**
 * Where a to-do leads: a process task's to-do to its own handling page `/work/todo/<id>` (shell/TodoTaskPage:
 * the record, its diagram and the handling form of that task), anything else to its screen `path`; null when it
 * has neither (a text-only notice).
 */
export function todoHref(item: { id: string; taskId?: string | null; path?: string | null }): string | null {
  if (item.taskId) return `/work/todo/${item.id}`;
  return item.path || null;
}

/** The component's UI texts (registered with it in catalog.tsx). */
export const TODO_CARD_TEXTS = {
  'cmp.todo.open': { zh: '待办', en: 'To do' },
  'cmp.todo.done': { zh: '已办', en: 'Done' },
  'cmp.todo.none': { zh: '暂无事项', en: 'Nothing here' },
};
// the shell renders this component directly, before the registry (which registers the same texts) has loaded
addComponentTexts(TODO_CARD_TEXTS);
