// @vitest-environment jsdom
/**
 * The generic list screen (spec 000 §9, 002 §2) against a fake server: page sizes and totals, page 1 on
 * search, empty search values dropped, the creation date range, the delete messages and confirmation,
 * -1 shown empty, labels from the schema in both languages, the list endpoint, and the lazy region tree.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ResourcePage } from './ResourcePage.js';
import { ok, renderApp, setLang, type FakeServer } from './test-utils.js';
import { baseServer } from './fixtures.js';

function patents(n: number) {
  return Array.from({ length: n }, (_, i) => ({ id: String(1000 + i), name: `专利${i + 1}`, type: i % 2 ? '2' : '1', authorizationCode: `ZL${i}`, applyDate: '2024-01-02', authorizationDate: '2024-05-06', projectName: i === 0 ? -1 : `项目${i}` }));
}

let server: FakeServer;
const ALL = patents(25);

beforeEach(() => {
  setLang('zh');
  server = baseServer();
  const list = (r: { query: Record<string, string> }) => {
    const size = Number(r.query.size);
    const current = Number(r.query.current);
    const rows = r.query.name ? ALL.filter((p) => p.name.includes(r.query.name)) : ALL;
    return ok({ records: rows.slice((current - 1) * size, current * size), total: rows.length, size, current, pages: Math.ceil(rows.length / size) });
  };
  server.on('GET', '/api/basic/patent/list', list);
  server.on('GET', '/api/basic/patent/myList', list);
});

afterEach(() => setLang('zh'));

const lastList = (path = '/api/basic/patent/list') => server.calls(path).at(-1)!.query;

describe('ListPage', () => {
  it('shows the columns with their schema labels, dictionary labels, the total and -1 as empty', async () => {
    renderApp(<ResourcePage name="basic/patent" />);
    expect(await screen.findByText('专利1')).toBeTruthy();
    for (const label of ['专利名称', '专利类型', '授权号/专利号', '申请日期', '授权公告日', '项目名称']) expect(screen.getByRole('columnheader', { name: label })).toBeTruthy();
    expect(await screen.findAllByText('发明专利')).not.toHaveLength(0);
    expect(screen.getByText('共 25 条')).toBeTruthy();
    expect(lastList()).toEqual({ current: '1', size: '10' });
    // the first patent's project name is -1: its cell is empty
    const row = screen.getByText('专利1').closest('tr')!;
    const cells = within(row).getAllByRole('cell');
    expect(cells.some((c) => c.textContent === '-1')).toBe(false);
    expect(within(row).queryByText('-1')).toBeNull();
    expect(screen.getByText('项目1')).toBeTruthy();
  });

  it('offers page sizes 10, 30, 50, 100, 200 and goes back to page 1 on a new size', async () => {
    renderApp(<ResourcePage name="basic/patent" />);
    await screen.findByText('专利1');
    fireEvent.click(screen.getByTitle('2'));
    await screen.findByText('专利11');
    expect(lastList()).toMatchObject({ current: '2', size: '10' });
    const sizer = document.querySelector('.ant-pagination-options .ant-select-selector')!;
    fireEvent.mouseDown(sizer);
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['10 / page', '30 / page', '50 / page', '100 / page', '200 / page']);
    fireEvent.click(document.querySelector('.ant-select-item-option[title="30 / page"]')!);
    await waitFor(() => expect(lastList()).toMatchObject({ current: '1', size: '30' }));
  });

  it('returns to page 1 on search and drops empty values', async () => {
    const user = userEvent.setup();
    renderApp(<ResourcePage name="basic/patent" />);
    await screen.findByText('专利1');
    fireEvent.click(screen.getByTitle('3'));
    await screen.findByText('专利21');
    expect(lastList().current).toBe('3');
    const search = document.querySelector('.kc-search')!;
    const nameInput = within(search as HTMLElement).getAllByRole('textbox')[0];
    await user.type(nameInput, '   ');
    await user.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(lastList().current).toBe('1'));
    expect(lastList()).toEqual({ current: '1', size: '10' });
    await user.clear(nameInput);
    await user.type(nameInput, '专利2');
    await user.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(lastList()).toEqual({ current: '1', size: '10', name: '专利2' }));
    expect(await screen.findByText('共 7 条')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(lastList()).toEqual({ current: '1', size: '10' }));
  });

  it('searches at once, from page 1, when the creation date range changes', async () => {
    renderApp(<ResourcePage name="basic/patent" />);
    await screen.findByText('专利1');
    fireEvent.click(screen.getByTitle('2'));
    await screen.findByText('专利11');
    const [start] = screen.getAllByPlaceholderText('开始日期');
    fireEvent.mouseDown(start);
    fireEvent.click(start);
    const cells = await waitFor(() => {
      const found = document.querySelectorAll('.ant-picker-cell-in-view');
      expect(found.length).toBeGreaterThan(20);
      return found;
    });
    const first = cells[0] as HTMLElement;
    const last = cells[9] as HTMLElement;
    fireEvent.click(first.querySelector('.ant-picker-cell-inner')!);
    fireEvent.click(last.querySelector('.ant-picker-cell-inner')!);
    await waitFor(() => expect(lastList()).toMatchObject({ current: '1', createTime_dategt: `${first.title} 00:00:00`, createTime_datelt: `${last.title} 23:59:59` }));
  });

  it('asks for a selection, confirms, removes and says 删除成功', async () => {
    let removed = '';
    server.on('POST', '/api/basic/patent/remove', (r: { query: Record<string, string> }) => {
      removed = r.query.ids;
      return ok(null);
    });
    const user = userEvent.setup();
    renderApp(<ResourcePage name="basic/patent" />);
    await screen.findByText('专利1');
    const toolbarDelete = screen.getAllByRole('button', { name: /删\s*除/ })[0];
    await user.click(toolbarDelete);
    expect(await screen.findByText('请选择至少一条数据')).toBeTruthy();
    const before = server.calls('/api/basic/patent/list').length;
    await user.click(within(screen.getByText('专利2').closest('tr')!).getByRole('checkbox'));
    await user.click(within(screen.getByText('专利3').closest('tr')!).getByRole('checkbox'));
    await user.click(toolbarDelete);
    expect(await screen.findByText('确定将选择数据删除?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('删除成功')).toBeTruthy();
    expect(removed).toBe('1001,1002');
    await waitFor(() => expect(server.calls('/api/basic/patent/list').length).toBeGreaterThan(before));
  });

  it('removes one row from its own action after the same confirmation', async () => {
    server.on('POST', '/api/basic/patent/remove', ok(null));
    const user = userEvent.setup();
    renderApp(<ResourcePage name="basic/patent" />);
    await screen.findByText('专利1');
    await user.click(within(screen.getByText('专利4').closest('tr')!).getByRole('button', { name: /删\s*除/ }));
    expect(await screen.findByText('确定将选择数据删除?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /取\s*消/ }));
    expect(server.calls('/api/basic/patent/remove')).toHaveLength(0);
    await user.click(within(screen.getByText('专利4').closest('tr')!).getByRole('button', { name: /删\s*除/ }));
    // the cancelled confirmation may still be closing: take the newest OK button
    await user.click((await screen.findAllByRole('button', { name: /确\s*定/ })).at(-1)!);
    await waitFor(() => expect(server.calls('/api/basic/patent/remove')[0]?.query.ids).toBe('1003'));
  });

  it('uses the list endpoint the menu names and hides buttons the role lacks', async () => {
    renderApp(<ResourcePage name="basic/patent" listEndpoint="myList" can={(code) => code !== 'patent_delete'} />);
    await screen.findByText('专利1');
    expect(server.calls('/api/basic/patent/myList')).toHaveLength(1);
    expect(server.calls('/api/basic/patent/list')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /删\s*除/ })).toBeNull();
    expect(screen.getByRole('button', { name: /新\s*增/ })).toBeTruthy();
  });

  it('speaks English: labels from titleEn, dictionary labels from dictValueEn', async () => {
    setLang('en');
    renderApp(<ResourcePage name="basic/patent" />);
    await screen.findByText('专利1');
    expect(screen.getByRole('columnheader', { name: 'Patent name' })).toBeTruthy();
    expect((await screen.findAllByText('Invention')).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: /Search/ })).toBeTruthy();
    expect(screen.getByText('Total 25')).toBeTruthy();
  });
});

describe('ListPage of a lazy tree (regions)', () => {
  it('lists the root level, loads children on expand and adds a child under its parent', async () => {
    server.on('GET', '/api/blade-system/region/lazy-tree', (r: { query: Record<string, string> }) =>
      ok(
        r.query.parentCode === '00'
          ? [{ code: '11', name: '北京市', regionLevel: 1, sort: 1, hasChildren: true }]
          : r.query.parentCode === '11'
            ? [{ code: '1101', name: '市辖区', regionLevel: 2, sort: 1, hasChildren: false }]
            : [],
      ),
    );
    const user = userEvent.setup();
    renderApp(<ResourcePage name="system/region" />);
    expect(await screen.findByText('北京市')).toBeTruthy();
    expect(screen.getByText('省份')).toBeTruthy();
    expect(server.calls('/api/blade-system/region/lazy-tree')[0].query).toEqual({ parentCode: '00' });
    await user.click(document.querySelector('.ant-table-row-expand-icon')!);
    expect(await screen.findByText('市辖区')).toBeTruthy();
    expect(server.calls('/api/blade-system/region/lazy-tree')[1].query).toEqual({ parentCode: '11' });
    await user.click(within(screen.getByText('北京市').closest('tr')!).getByRole('button', { name: '新增子项' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByDisplayValue('11')).toBeTruthy());
  });
});
