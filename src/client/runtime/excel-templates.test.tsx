// @vitest-environment jsdom
/**
 * The Excel template screens (issue 13: 'an administrator defines a template for any resource: its table, the
 * columns (picked from the resource's fields with getTableColumn), their order (move)'; spec 002 §2 'Excel
 * template and its detail entries (with move)'), from their schemas alone against a fake server: the
 * template's table is chosen among getAllTable's tables; a column's template among the templates and its field
 * among getTableColumn's fields of that template (asked again when the template changes); each column row
 * moves up or down through POST exceltemplatedetail/move (after the operation's question).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { FormDialog } from './FormDialog.js';
import { ListPage } from './ListPage.js';
import { ok, renderApp, setLang, type FakeServer } from './test-utils.js';
import { baseServer } from './fixtures.js';
import type { ResourceSchema } from '../../shared/schema/types.js';
import templateJson from '../../../schemas/system/exceltemplate.json';
import detailJson from '../../../schemas/system/exceltemplatedetail.json';

const templateSchema = templateJson as unknown as ResourceSchema;
const detailSchema = detailJson as unknown as ResourceSchema;
let server: FakeServer;

beforeEach(() => {
  setLang('zh');
  server = baseServer([templateSchema, detailSchema]);
  server.on('GET', '/api/system/exceltemplate/getAllTable', [
    { tableName: 'basic_patent', name: 'basic/patent', title: '专利', titleEn: 'Patents' },
    { tableName: 'blade_user', name: 'system/user', title: '用户', titleEn: 'Users' },
  ]);
  server.on('GET', '/api/system/exceltemplate/select', [
    { id: '31', fileName: '专利' },
    { id: '32', fileName: '用户' },
  ]);
  server.on('GET', '/api/system/exceltemplate/getTableColumn', (r: { query: Record<string, string> }) =>
    ok(r.query.templateId === '31' ? [{ field: 'name', title: '专利名称' }, { field: 'type', title: '专利类型' }] : [{ field: 'account', title: '登录账号' }]),
  );
});

/** Opens the Select of the form item labelled `label` in `dialog`. */
async function openSelect(dialog: HTMLElement, label: string) {
  const item = (await within(dialog).findByText(label)).closest('.ant-formily-item') as HTMLElement;
  fireEvent.mouseDown(item.querySelector('.ant-select-selector')!);
}
/** Answers the operation's question (an operation without a dialog asks before it posts). */
async function confirm() {
  const dialog = await screen.findByRole('dialog');
  fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}
const option = (text: string) => screen.findByText(text, { selector: '.ant-select-item-option-content' });

describe('Excel template screens', () => {
  it("the template's table is one of getAllTable's tables", async () => {
    renderApp(<FormDialog resource={templateSchema} open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    await openSelect(dialog, '数据表');
    expect(await option('用户')).toBeTruthy();
    fireEvent.click(await option('专利'));
    await waitFor(() => expect(within(dialog).getByTitle('专利')).toBeTruthy());
  });

  it("a column's field is one of getTableColumn's fields of the chosen template, asked again when it changes", async () => {
    renderApp(<FormDialog resource={detailSchema} open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    expect(server.calls('/api/system/exceltemplate/getTableColumn')).toHaveLength(0); // no template yet
    await openSelect(dialog, '模板');
    fireEvent.click(await option('专利'));
    await waitFor(() => expect(server.calls('/api/system/exceltemplate/getTableColumn').map((c) => c.query.templateId)).toEqual(['31']));
    await openSelect(dialog, '字段');
    expect(await option('专利类型')).toBeTruthy();
    fireEvent.click(await option('专利名称'));
    await waitFor(() => expect(within(dialog).getByTitle('专利名称')).toBeTruthy());
    await openSelect(dialog, '模板');
    fireEvent.click(await option('用户'));
    await waitFor(() => expect(server.calls('/api/system/exceltemplate/getTableColumn').map((c) => c.query.templateId)).toEqual(['31', '32']));
  });

  it('moves a column up or down from its row', async () => {
    server.on('GET', '/api/system/exceltemplatedetail/list', {
      records: [
        { id: '41', templateId: '31', field: 'name', title: '专利名称', sort: 0 },
        { id: '42', templateId: '31', field: 'type', title: '专利类型', sort: 1 },
      ],
      total: 2,
      size: 10,
      current: 1,
      pages: 1,
    });
    server.on('POST', '/api/system/exceltemplatedetail/move', ok(null));
    renderApp(<ListPage resource={detailSchema} />);
    const row = (await screen.findByText('专利类型')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: /上\s*移/ }));
    await confirm();
    await waitFor(() => expect(server.calls('/api/system/exceltemplatedetail/move', 'POST')).toHaveLength(1));
    expect(server.calls('/api/system/exceltemplatedetail/move')[0].query).toEqual({ id: '42', direction: 'up' });
    const first = (await screen.findByText('专利名称')).closest('tr') as HTMLElement;
    fireEvent.click(within(first).getByRole('button', { name: /下\s*移/ }));
    await confirm();
    await waitFor(() => expect(server.calls('/api/system/exceltemplatedetail/move', 'POST')).toHaveLength(2));
    expect(server.calls('/api/system/exceltemplatedetail/move')[1].query).toEqual({ id: '41', direction: 'down' });
  });
});
