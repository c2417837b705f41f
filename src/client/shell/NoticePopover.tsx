/**
 * The notice popover of the top bar (spec 000 §2.5 'A notice popover with tabs'; issue 18 'notice popover with
 * tabs (notices, messages, to-dos once they exist)'): a bell whose badge counts the signed-in user's open
 * to-dos and unread messages (`GET /api/basic/todo/list?state=0`, total; polled every 15 s, spec 000 §4),
 * opening three tabs:
 * - 消息 (messages): the newest notices sent to the user — `GET /api/basic/todo/myMessage` (spec 001 §7; the
 *   `type` 2 rows: an administrator's notice, a flow's result, account notices) — each with its text, unread
 *   ones marked; opening one marks it read (`GET detail?id=`) and shows its text, with 立即前往 when it has a
 *   path; 全部已读 marks them all read (`GET allRead`);
 * - 待办 (open) and 已办 (done): the registered TodoCard, newest first, each item opening its screen.
 * Every notice and message reaches a user as a to-do row (DESIGN §8 'every open task and every notice is a
 * basic/todo row'); the codebase and the specs hold no separate announcement resource, so these are the
 * popover's sources.
 */
import { useState } from 'react';
import { Badge, Button, Empty, List, Popover, Spin, Tabs, Typography } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import useSWR from 'swr';
import { get } from '../runtime/api.js';
import { useSession } from '../runtime/session.js';
import { TodoCard, TODO_LIST_ENDPOINT } from '../components/TodoCard.js';

export const NOTICE_POLL_MS = 15_000;
export const MY_MESSAGE_ENDPOINT = '/api/basic/todo/myMessage';

interface Message {
  id: string;
  title: string;
  description?: string | null;
  path?: string | null;
  createTime?: string | null;
  isRead?: number;
}

/** The newest messages; one opened shows its text and is marked read. */
function Messages({ onChanged }: { onChanged: () => void }) {
  const { t } = useTranslation();
  const s = useSession();
  const key = ['notice/messages', s.currentRoleId];
  const { data, isLoading, mutate } = useSWR(key, () => get<{ records: Message[]; total: number }>(MY_MESSAGE_ENDPOINT, { size: 6 }, { silent: true }), { refreshInterval: NOTICE_POLL_MS });
  const [opened, setOpened] = useState<string | null>(null);
  if (isLoading && !data) return <Spin size="small" />;
  const records = data?.records ?? [];
  const open = async (m: Message) => {
    setOpened(opened === m.id ? null : m.id);
    if (m.isRead === 0) {
      await get(`/api/basic/todo/detail`, { id: m.id }, { silent: true }).catch(() => undefined);
      void mutate();
      onChanged();
    }
  };
  const allRead = async () => {
    await get('/api/basic/todo/allRead', undefined, { silent: true }).catch(() => undefined);
    void mutate();
    onChanged();
  };
  if (records.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notice.none')} />;
  return (
    <div data-testid="notice-messages">
      <List<Message>
        size="small"
        dataSource={records}
        renderItem={(m) => (
          <List.Item key={m.id} style={{ cursor: 'pointer', display: 'block' }} onClick={() => void open(m)} data-read={m.isRead !== 0}>
            <Typography.Text strong={m.isRead === 0}>{m.isRead === 0 ? <Badge status="processing" text={m.title} /> : m.title}</Typography.Text>
            <Typography.Text type="secondary" style={{ float: 'right', fontSize: 12 }}>{m.createTime ?? ''}</Typography.Text>
            {opened === m.id && (
              <div className="kc-notice-text" onClick={(e) => e.stopPropagation()}>
                <Typography.Paragraph style={{ margin: '6px 0 0', whiteSpace: 'pre-wrap' }}>{m.description ?? ''}</Typography.Paragraph>
                {m.path && <Link to={m.path}>{t('notice.go')}</Link>}
              </div>
            )}
          </List.Item>
        )}
      />
      <Button type="link" size="small" onClick={() => void allRead()}>{t('notice.allRead')}</Button>
    </div>
  );
}

export function NoticePopover() {
  const { t } = useTranslation();
  const s = useSession();
  const [open, setOpen] = useState(false);
  const { data: total, mutate } = useSWR(s.token && s.currentRoleId ? ['notice/open', s.currentRoleId] : null, () =>
    get<{ total: number }>(TODO_LIST_ENDPOINT, { state: 0, current: 1, size: 1 }, { silent: true }).then((p) => p.total ?? 0),
    { refreshInterval: NOTICE_POLL_MS },
  );
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="bottomRight"
      overlayClassName="kc-notice"
      content={
        <div style={{ width: 360 }} onClick={(e) => (e.target as HTMLElement).closest('a') && setOpen(false)}>
          <Tabs
            size="small"
            items={[
              { key: 'messages', label: t('notice.messages'), children: <Messages onChanged={() => void mutate()} /> },
              { key: 'open', label: t('notice.open'), children: <TodoCard state={0} size={6} /> },
              { key: 'done', label: t('notice.done'), children: <TodoCard state={1} size={6} /> },
            ]}
          />
        </div>
      }
    >
      <Button type="text" aria-label={t('notice.title')} title={t('notice.title')}>
        <Badge count={total ?? 0} size="small" overflowCount={99}>
          <BellOutlined />
        </Badge>
      </Button>
    </Popover>
  );
}
