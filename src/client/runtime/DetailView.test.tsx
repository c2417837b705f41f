// @vitest-environment jsdom
/**
 * The detail view: the patent from `detail?id=` in readPretty — dictionary and department names, enum labels,
 * sub-form rows and attachment names instead of inputs — opened from the list's 查看.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ResourcePage } from './ResourcePage.js';
import { ok, renderApp, setLang, type FakeServer } from './test-utils.js';
import { baseServer, patentRecord } from './fixtures.js';

let server: FakeServer;
beforeEach(() => {
  setLang('zh');
  server = baseServer();
  server.on('GET', '/api/basic/patent/list', ok({ records: [patentRecord()], total: 1, size: 10, current: 1, pages: 1 }));
  server.on('GET', '/api/basic/patent/detail', ok(patentRecord()));
});

describe('DetailView', () => {
  it('shows the record read-only with names instead of keys', async () => {
    const user = userEvent.setup();
    renderApp(<ResourcePage name="basic/patent" />);
    const row = (await screen.findByText('一种粮仓温湿度监测装置')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: /查\s*看/ }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('集团科技信息部')).toBeTruthy();
    expect(within(dialog).getByText('发明专利')).toBeTruthy();
    expect(within(dialog).getByText('国家级项目')).toBeTruthy();
    expect(within(dialog).getByText('无')).toBeTruthy();
    expect(within(dialog).getByText('甲公司')).toBeTruthy();
    expect(within(dialog).getByText('证书.pdf')).toBeTruthy();
    // the transfer switch reads 是; the empty publication number reads -; sub-forms have no add button
    expect(within(dialog).getByText('是')).toBeTruthy();
    expect(within(dialog).getAllByText('-').length).toBeGreaterThan(0);
    expect(within(dialog).queryByRole('button', { name: /添\s*加/ })).toBeNull();
    expect(within(dialog).queryAllByRole('textbox')).toHaveLength(0);
    expect(within(dialog).queryByRole('button', { name: /保\s*存/ })).toBeNull();
    expect(server.calls('/api/basic/patent/detail')[0].query).toEqual({ id: '9001' });
  });
});
