// @vitest-environment jsdom
/**
 * The two dictionary layouts (spec 000 §2.3; issue 18): /dict-horizontal/index puts the dictionary tree left
 * of the chosen dictionary's entries, /dict-vertical/index above them (page schemas dict-horizontal.json,
 * dict-vertical.json → TreeList → TreeListView). The entries come from the generic list filtered by
 * parentId_equal; a new entry starts under the chosen dictionary with its code; 新增 only with the grant;
 * English labels from dictValueEn.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { PathPage } from '../shell/PathPage.js';
import { ok, renderApp, setLang, type FakeServer } from './test-utils.js';
import { baseServer, signInAs } from './fixtures.js';
import dictJson from '../../../schemas/system/dict.json';
import type { ResourceSchema } from '../../shared/schema/types.js';

const dictSchema = dictJson as unknown as ResourceSchema;
const DICTS = [
  { id: '10', value: '10', key: '10', title: '专利类型', parentId: '0', code: 'patent_type', dictKey: '-1', dictValue: '专利类型', dictValueEn: 'Patent type', hasChildren: true },
  { id: '20', value: '20', key: '20', title: '性别', parentId: '0', code: 'sex', dictKey: '-1', dictValue: '性别', dictValueEn: 'Sex', hasChildren: true },
];
const ENTRIES: Record<string, Array<Record<string, unknown>>> = {
  '10': [
    { id: '11', parentId: '10', code: 'patent_type', dictKey: '1', dictValue: '发明专利', dictValueEn: 'Invention', sort: 1, isSealed: 0 },
    { id: '12', parentId: '10', code: 'patent_type', dictKey: '2', dictValue: '实用新型', dictValueEn: 'Utility model', sort: 2, isSealed: 0 },
  ],
  '20': [{ id: '21', parentId: '20', code: 'sex', dictKey: '1', dictValue: '男', dictValueEn: 'Male', sort: 1, isSealed: 0 }],
};

let server: FakeServer;
let grants: string[];
beforeEach(() => {
  setLang('zh');
  signInAs('administrator');
  grants = [];
  server = baseServer([dictSchema]);
  server.on('GET', '/api/blade-system/dict/lazy-tree', (r: { query: Record<string, string> }) => ok(r.query.parentId === '0' ? DICTS : []));
  server.on('GET', '/api/blade-system/dict/tree', ok([]));
  server.on('GET', '/api/blade-system/dict/list', (r: { query: Record<string, string> }) => {
    const rows = ENTRIES[r.query.parentId_equal] ?? [];
    return ok({ records: rows, total: rows.length, size: 10, current: 1, pages: 1 });
  });
  server.on('GET', '/api/blade-system/menu/buttons', () => ok([{ code: 'dict', category: 1, children: grants.map((code) => ({ code, category: 2, children: [] })) }]));
});

const render = (path: string) =>
  renderApp(
    <MemoryRouter initialEntries={[path]}>
      <PathPage path={path} />
    </MemoryRouter>,
  );

describe('dictionary layouts', () => {
  it('horizontal: the dictionaries left, the chosen one’s entries right (list filtered by parentId_equal)', async () => {
    render('/dict-horizontal/index');
    const tree = await screen.findByText('专利类型', { selector: '.ant-tree-title' });
    const layout = document.querySelector('[data-layout]') as HTMLElement;
    expect(layout.dataset.layout).toBe('horizontal');
    expect(layout.style.display).toBe('flex');
    expect(screen.getByText('请在左侧选择字典')).toBeTruthy();
    expect(screen.getByText('性别', { selector: '.ant-tree-title' })).toBeTruthy();
    expect(server.calls('/api/blade-system/dict/list')).toHaveLength(0);
    fireEvent.click(tree);
    expect(await screen.findByText('发明专利')).toBeTruthy();
    expect(screen.getByText('实用新型')).toBeTruthy();
    expect(screen.getByText('「专利类型」的字典项')).toBeTruthy();
    expect(server.calls('/api/blade-system/dict/list').at(-1)!.query).toMatchObject({ parentId_equal: '10', current: '1', size: '10' });
    // the tree's cell and the list's cell sit side by side: the tree first, in its own column
    const [treeCol, listCol] = [...layout.children] as HTMLElement[];
    expect(within(treeCol).getByText('专利类型', { selector: '.ant-tree-title' })).toBeTruthy();
    expect(within(listCol).getByText('发明专利')).toBeTruthy();
    // without the grant there is no 新增
    expect(screen.queryByRole('button', { name: /新\s*增/ })).toBeNull();
    fireEvent.click(screen.getByText('性别', { selector: '.ant-tree-title' }));
    expect(await screen.findByText('男')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('发明专利')).toBeNull());
  });

  it('a new entry starts under the chosen dictionary with its code (with the grant dict_add)', async () => {
    grants = ['dict_add'];
    let body: Record<string, unknown> = {};
    server.on('POST', '/api/blade-system/dict/submit', (r: { body: unknown }) => {
      body = r.body as Record<string, unknown>;
      return ok({ ...body, id: '13' });
    });
    const user = userEvent.setup();
    render('/dict-horizontal/index');
    fireEvent.click(await screen.findByText('专利类型', { selector: '.ant-tree-title' }));
    await screen.findByText('发明专利');
    await user.click(await screen.findByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByDisplayValue('patent_type')).toBeTruthy();
    const inputs = (label: string) => within(dialog).getByText(label).closest('.ant-formily-item')!.querySelector('input') as HTMLInputElement;
    await user.type(inputs('字典键值'), '3');
    await user.type(inputs('字典名称'), '外观设计');
    await user.type(inputs('字典排序'), '3');
    await user.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('新增成功')).toBeTruthy();
    expect(body).toMatchObject({ parentId: '10', code: 'patent_type', dictKey: '3', dictValue: '外观设计', sort: 3 });
  });

  it('vertical: the tree above the entries; English labels and prompts', async () => {
    setLang('en');
    render('/dict-vertical/index');
    const node = await screen.findByText('Patent type', { selector: '.ant-tree-title' });
    const layout = document.querySelector('[data-layout]') as HTMLElement;
    expect(layout.dataset.layout).toBe('vertical');
    expect(layout.style.display).not.toBe('flex');
    expect(screen.getByText('Choose a dictionary above')).toBeTruthy();
    fireEvent.click(node);
    expect(await screen.findByText('Entries of “Patent type”')).toBeTruthy();
    const [treePart, listPart] = [...layout.children] as HTMLElement[];
    expect(within(treePart).getByText('Sex', { selector: '.ant-tree-title' })).toBeTruthy();
    expect(await within(listPart).findByText('发明专利')).toBeTruthy();
    expect(within(listPart).getAllByText('Dictionary key').length).toBeGreaterThan(0);
    setLang('zh');
  });
});
