// @vitest-environment jsdom
/**
 * TodoCard, the home page's 待办 / 已办 cards (issue 11 'Home'): asks the caller's to-do list for its state and
 * size, shows the total and the newest items (subject under the title; an unread open one marked), links an
 * item with a screen to its path inside a router and shows plain text outside one, speaks English (and asks
 * again when the language changes: the server answers the titles in the caller's language), and says
 * so when there is nothing or the list is refused; the registry knows it and the home dashboard places both.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { act, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { fail, ok, renderApp, setLang, type FakeServer } from '../runtime/test-utils.js';
import { baseServer } from '../runtime/fixtures.js';
import { updateSession } from '../runtime/session.js';
import './catalog.js';
import { components } from './registry.js';
import { TodoCard, TODO_LIST_ENDPOINT } from './TodoCard.js';
import dashboard from '../../../schemas/_pages/dashboard.json';

const OPEN = {
  records: [
    { id: '1', title: '请假流程：领导审批', businessName: '家中有事', path: '/work/process/leave', createTime: '2026-11-20 09:00:00', isRead: 0 },
    { id: '2', title: '论文审核', businessName: '稻谷低温储藏', path: null, createTime: '2026-11-19 09:00:00', isRead: 1 },
  ],
  total: 7,
};
const DONE = { records: [{ id: '3', title: '请假流程：人事备案', businessName: '年假', path: '/work/process/leave', createTime: '2026-11-18 09:00:00', isRead: 1 }], total: 1 };

let server: FakeServer;
beforeEach(() => {
  setLang('zh');
  server = baseServer();
  server.on('GET', TODO_LIST_ENDPOINT, (r: { query: Record<string, string> }) => ok(r.query.state === '1' ? DONE : OPEN));
});

describe('TodoCard', () => {
  it('shows the number of open to-dos and the newest, linked to their screens', async () => {
    renderApp(
      <MemoryRouter>
        <TodoCard state={0} size={5} />
      </MemoryRouter>,
    );
    const card = await screen.findByTestId('todo-card-0');
    expect(card.getAttribute('data-total')).toBe('7');
    expect(within(card).getByText('待办')).toBeTruthy();
    expect(within(card).getByText('7')).toBeTruthy();
    expect(server.calls(TODO_LIST_ENDPOINT)[0].query).toEqual({ state: '0', current: '1', size: '5' });
    const link = within(card).getByText('请假流程：领导审批').closest('a');
    expect(link?.getAttribute('href')).toBe('/work/process/leave');
    expect(within(card).getByText('家中有事')).toBeTruthy();
    expect(within(card).getByText('论文审核').closest('a')).toBeNull(); // no screen: no link
    expect(card.querySelectorAll('.ant-badge-status-processing')).toHaveLength(1); // the unread one
  });

  it('shows the done to-dos in English; outside a router the items are plain text', async () => {
    setLang('en');
    renderApp(<TodoCard state={1} size={50} />);
    const card = await screen.findByTestId('todo-card-1');
    expect(within(card).getByText('Done')).toBeTruthy();
    expect(within(card).getByText('请假流程：人事备案').closest('a')).toBeNull();
    expect(server.calls(TODO_LIST_ENDPOINT)[0].query).toEqual({ state: '1', current: '1', size: '20' }); // at most 20
  });

  it('asks again when the language changes: the server answers the titles in the caller’s language', async () => {
    server.on('GET', TODO_LIST_ENDPOINT, (r: { headers: Record<string, string> }) =>
      ok({ records: [{ ...DONE.records[0], title: r.headers['Accept-Language'] === 'en' ? 'Leave request: HR filing' : '请假流程：人事备案' }], total: 1 }));
    renderApp(<TodoCard state={1} />);
    const card = await screen.findByTestId('todo-card-1');
    expect(within(card).getByText('请假流程：人事备案')).toBeTruthy();
    // the session's language alone (the environment's `lang`), as the shell's switch changes it before i18next
    act(() => updateSession({ lang: 'en' }));
    await waitFor(() => expect(within(screen.getByTestId('todo-card-1')).getByText('Leave request: HR filing')).toBeTruthy());
    expect(server.calls(TODO_LIST_ENDPOINT)).toHaveLength(2);
  });

  it('says there is nothing when the list is empty or refused', async () => {
    server.on('GET', TODO_LIST_ENDPOINT, ok({ records: [], total: 0 }));
    renderApp(<TodoCard />);
    const card = await screen.findByTestId('todo-card-0');
    expect(within(card).getByText('暂无事项')).toBeTruthy();
    server.on('GET', TODO_LIST_ENDPOINT, fail(403, '无权访问'));
    renderApp(<TodoCard state={1} />);
    await waitFor(() => expect(screen.getAllByText('暂无事项')).toHaveLength(2));
  });

  it('is registered, and the home dashboard has a 待办 and a 已办 card', () => {
    expect(components.TodoCard).toBeDefined();
    const todos = (dashboard.schema.properties as Record<string, any>).todos.properties;
    expect([todos.open.title, todos.open.properties.list['x-component'], todos.open.properties.list['x-component-props'].state]).toEqual(['待办', 'TodoCard', 0]);
    expect([todos.done.title, todos.done.properties.list['x-component'], todos.done.properties.list['x-component-props'].state]).toEqual(['已办', 'TodoCard', 1]);
  });
});
