/**
 * To-do badges and push messages of the shell (spec 000 §3.2 `todoNumber`, §4 "Polling"; issue 11):
 *
 * - `useTodoCounts()`: `GET /api/basic/todo/countNumber` (`{path: count}` of the signed-in user's open to-dos)
 *   polled every 3 s while signed in; `todoNumber(menu, counts)` is a menu's own path count plus its
 *   children's, summed down the tree (spec 000 §3.2 'count of pending to-dos matching the path, summed over
 *   children'), which the application tabs and the sidebar show as badges.
 * - `PushNotifier`: `GET /api/basic/todo/myPush` polled every 15 s (the server answers at most 10 messages not
 *   pushed before and marks them pushed); each is shown bottom right for 10 s, 3 s after the previous one, with
 *   a 立即前往 / Go now link where it leads (`todoHref`: a task's handling page, else its path). Failed polls are
 *   ignored (spec 000 §8).
 */
import React, { useEffect, useRef } from 'react';
import { App, Button } from 'antd';
import useSWR from 'swr';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { get } from '../runtime/api.js';
import { useSession } from '../runtime/session.js';
import { todoHref } from '../components/TodoCard.js';

export const COUNT_URL = '/api/basic/todo/countNumber';
export const PUSH_URL = '/api/basic/todo/myPush';
/** Spec 000 §4 "Polling": counts every 3 s, pushes every 15 s, shown 3 s apart, each open 10 s. */
export const COUNT_INTERVAL_MS = 3_000;
export const PUSH_INTERVAL_MS = 15_000;
export const PUSH_GAP_MS = 3_000;
export const PUSH_SECONDS = 10;

export type TodoCounts = Record<string, number>;

/** The open to-do counts per menu path, polled every 3 s (empty when signed out or when the call fails). */
export function useTodoCounts(): TodoCounts {
  const s = useSession();
  const { data } = useSWR(s.token && s.currentRoleId ? ['todo/countNumber', s.currentRoleId] : null, () => get<TodoCounts>(COUNT_URL, undefined, { silent: true }), {
    refreshInterval: COUNT_INTERVAL_MS,
    shouldRetryOnError: false,
  });
  return data && typeof data === 'object' ? data : {};
}

/** What a badge is counted over: a menu's path and its children (MenuItem has both). */
export interface TodoNode {
  path?: string | null;
  children?: TodoNode[];
}

/** A menu's badge: its own path's count plus its children's (summed over the whole subtree). */
export function todoNumber(menu: TodoNode, counts: TodoCounts): number {
  const own = menu.path ? Number(counts[menu.path] ?? 0) : 0;
  return (menu.children ?? []).reduce((n, c) => n + todoNumber(c, counts), own);
}

interface PushMessage {
  id: string;
  title?: string | null;
  description?: string | null;
  path?: string | null;
  taskId?: string | null;
}

/** Shows the pushed messages (see the module comment); renders nothing itself. */
export function PushNotifier() {
  const s = useSession();
  const { notification } = App.useApp();
  const { t } = useTranslation();
  const navigate = useNavigate();
  // the latest navigate, read when a message's button is clicked: under the declarative router navigate changes
  // with every path, and the poll below must not restart (and drop its queued messages) on each navigation
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  const queue = useRef<number[]>([]);
  const signedIn = !!(s.token && s.currentRoleId);

  useEffect(() => {
    if (!signedIn) return;
    let gone = false;
    const show = (messages: PushMessage[]) => {
      messages.forEach((m, i) => {
        const timer = window.setTimeout(() => {
          if (gone) return;
          const path = todoHref(m);
          notification.info({
            key: `push-${m.id}`,
            placement: 'bottomRight',
            duration: PUSH_SECONDS,
            message: m.title || t('push.title'),
            description: m.description ?? undefined,
            btn: path ? (
              <Button type="primary" size="small" onClick={() => (notification.destroy(`push-${m.id}`), navigateRef.current(path))}>
                {t('push.go')}
              </Button>
            ) : undefined,
          });
        }, i * PUSH_GAP_MS);
        queue.current.push(timer);
      });
    };
    const poll = () =>
      get<PushMessage[]>(PUSH_URL, undefined, { silent: true })
        .then((rows) => !gone && Array.isArray(rows) && show(rows))
        .catch(() => undefined);
    void poll();
    const interval = window.setInterval(poll, PUSH_INTERVAL_MS);
    return () => {
      gone = true;
      window.clearInterval(interval);
      queue.current.forEach((id) => window.clearTimeout(id));
      queue.current = [];
    };
  }, [signedIn, s.currentRoleId, notification, t]);
  return null;
}
