// @vitest-environment jsdom
/** The notice popover (spec 000 §2.5; issue 18): a badge of open to-dos, tabs 待办 and 已办 with the items. */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { NoticePopover } from './NoticePopover.js';
import { FakeServer, ok, renderApp, setLang } from '../runtime/test-utils.js';
import { signInAs } from '../runtime/fixtures.js';

let server: FakeServer;
beforeEach(() => {
  setLang('zh');
  signInAs('kygl');
  server = new FakeServer().install();
  server.on('GET', '/api/basic/todo/list', (r: { query: Record<string, string> }) =>
    r.query.state === '0'
      ? ok({ records: [{ id: '1', title: '专利审核', businessName: '一种粮仓监测装置', path: '/basic/patent', createTime: '2026-11-20 10:00:00' }], total: 3 })
      : ok({ records: [{ id: '2', title: '论文审核', businessName: '储粮论文', path: '/basic/thesis', createTime: '2026-11-19 10:00:00' }], total: 1 }),
  );
});

describe('NoticePopover', () => {
  it('counts the open to-dos and lists open and done ones in tabs', async () => {
    renderApp(
      <MemoryRouter>
        <NoticePopover />
      </MemoryRouter>,
    );
    const bell = screen.getByRole('button', { name: '通知' });
    expect(await within(bell).findByText('3')).toBeTruthy();
    fireEvent.click(bell);
    expect(await screen.findByText('专利审核')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: '已办' }));
    expect(await screen.findByText('论文审核')).toBeTruthy();
    expect(server.calls('/api/basic/todo/list').some((c) => c.query.state === '1')).toBe(true);
  });
});
