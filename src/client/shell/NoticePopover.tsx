/**
 * The notice popover of the top bar (spec 000 §2.5 'A notice popover with tabs'; issue 18 'notice popover with
 * tabs (notices, messages, to-dos once they exist)'): a bell whose badge counts the signed-in user's open
 * to-dos (`GET /api/basic/todo/list?state=0`, total; polled every 15 s, spec 000 §4), opening tabs 待办 (open)
 * and 已办 (done) — the registered TodoCard, newest first, each item opening its screen. Every notice and
 * message reaches a user as a to-do row (DESIGN §8 'every open task and every notice is a basic/todo row'),
 * so these two tabs hold them all.
 */
import { useState } from 'react';
import { Badge, Button, Popover, Tabs } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { get } from '../runtime/api.js';
import { useSession } from '../runtime/session.js';
import { TodoCard, TODO_LIST_ENDPOINT } from '../components/TodoCard.js';

export const NOTICE_POLL_MS = 15_000;

export function NoticePopover() {
  const { t } = useTranslation();
  const s = useSession();
  const [open, setOpen] = useState(false);
  const { data: total } = useSWR(s.token && s.currentRoleId ? ['notice/open', s.currentRoleId] : null, () =>
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
