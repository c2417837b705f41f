// @vitest-environment jsdom
/**
 * The notice popover (spec 000 §2.5; issue 18): a badge of open to-dos; tabs 消息 (the user's newest notices
 * from myMessage: opened one shows its text and is marked read, 全部已读), 待办 and 已办 with the items.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { MY_MESSAGE_ENDPOINT, NoticePopover } from './NoticePopover.js';
import { FakeServer, ok, renderApp, setLang } from '../runtime/test-utils.js';
import { signInAs } from '../runtime/fixtures.js';

let server: FakeServer;
let read: Set<string>;
beforeEach(() => {
  setLang('zh');
  signInAs('kygl');
  read = new Set(['12']);
  server = new FakeServer().install();
  server.on('GET', '/api/basic/todo/list', (r: { query: Record<string, string> }) =>
    r.query.state === '0'
      ? ok({ records: [{ id: '1', title: '专利审核', businessName: '一种粮仓监测装置', path: '/basic/patent', createTime: '2026-11-20 10:00:00' }], total: 3 - read.size + 1 })
      : ok({ records: [{ id: '2', title: '论文审核', businessName: '储粮论文', path: '/basic/thesis', createTime: '2026-11-19 10:00:00' }], total: 1 }),
  );
  const messages = () => [
    { id: '11', title: '系统维护通知', description: '本周六 22:00 起系统维护两小时。', path: null, createTime: '2026-11-21 09:00:00', isRead: read.has('11') ? 1 : 0 },
    { id: '12', title: '您的专利已审核通过', description: '专利「一种粮仓监测装置」已审核通过。', path: '/basic/patent', createTime: '2026-11-20 09:00:00', isRead: read.has('12') ? 1 : 0 },
  ];
  server.on('GET', MY_MESSAGE_ENDPOINT, () => ok({ records: messages(), total: 2 }));
  server.on('GET', '/api/basic/todo/detail', (r: { query: Record<string, string> }) => (read.add(r.query.id), ok({ id: r.query.id })));
  server.on('GET', '/api/basic/todo/allRead', () => (read.add('11'), read.add('12'), ok(1)));
});

const render = () =>
  renderApp(
    <MemoryRouter>
      <NoticePopover />
    </MemoryRouter>,
  );

describe('NoticePopover', () => {
  it('counts the open to-dos and lists open and done ones in tabs', async () => {
    render();
    const bell = screen.getByRole('button', { name: '通知' });
    expect(await within(bell).findByText('3')).toBeTruthy();
    fireEvent.click(bell);
    fireEvent.click(await screen.findByRole('tab', { name: '待办' }));
    expect(await screen.findByText('专利审核')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: '已办' }));
    expect(await screen.findByText('论文审核')).toBeTruthy();
    expect(server.calls('/api/basic/todo/list').some((c) => c.query.state === '1')).toBe(true);
  });

  it('the messages tab: the newest notices, unread marked; opening one shows its text and marks it read', async () => {
    render();
    fireEvent.click(screen.getByRole('button', { name: '通知' }));
    const box = await screen.findByTestId('notice-messages');
    expect(screen.getByRole('tab', { name: '消息', selected: true })).toBeTruthy();
    expect(server.calls(MY_MESSAGE_ENDPOINT)[0].query).toEqual({ size: '6' });
    const unread = within(box).getByText('系统维护通知').closest('li')!;
    expect(unread.getAttribute('data-read')).toBe('false');
    expect(within(box).getByText('您的专利已审核通过').closest('li')!.getAttribute('data-read')).toBe('true');
    fireEvent.click(within(box).getByText('系统维护通知'));
    expect(await within(box).findByText('本周六 22:00 起系统维护两小时。')).toBeTruthy();
    await waitFor(() => expect(server.calls('/api/basic/todo/detail')[0]?.query).toEqual({ id: '11' }));
    await waitFor(() => expect(within(box).getByText('系统维护通知').closest('li')!.getAttribute('data-read')).toBe('true'));
    // a message with a screen offers 立即前往
    fireEvent.click(within(box).getByText('您的专利已审核通过'));
    expect((await within(box).findByText('立即前往')).closest('a')?.getAttribute('href')).toBe('/basic/patent');
    expect(server.calls('/api/basic/todo/detail')).toHaveLength(1); // already read: not asked again
  });

  it('全部已读 marks every message read (English texts)', async () => {
    setLang('en');
    read.clear();
    render();
    fireEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    const box = await screen.findByTestId('notice-messages');
    expect(screen.getByRole('tab', { name: 'Messages' })).toBeTruthy();
    expect(box.querySelectorAll('[data-read="false"]')).toHaveLength(2);
    fireEvent.click(within(box).getByText('Mark all read'));
    await waitFor(() => expect(server.calls('/api/basic/todo/allRead')).toHaveLength(1));
    await waitFor(() => expect(box.querySelectorAll('[data-read="false"]')).toHaveLength(0));
  });
});
