// @vitest-environment jsdom
/**
 * The Excel toolbar and its import dialog (spec 002 §2, §4, §5, §8, §9) against a fake server: buttons only
 * when the menu has export / import button entries, the template looked up by the button's path, the export
 * confirmations ('confirm export N records?' / 'confirm export all data?') and what is exported (checked ids,
 * or the list's filters and scope), the dialog (555 px, 'user data import', .xls/.xlsx only, the overwrite
 * switch 0 by default, 'start import'), the server's message with '、' as line breaks and braces in red, the
 * refresh after an import, and job progress bars that come back after a reload. Plus the year-range picker
 * (start year not after end year).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { FormProvider } from '@formily/react';
import { createForm } from '@formily/core';
import { ExcelToolbar } from './ExcelToolbar.js';
import { fail, ok, renderApp, setLang, type FakeServer } from './test-utils.js';
import { baseServer, patentSchema, signInAs } from './fixtures.js';
import { orderedYears, YearRangePicker } from '../components/YearRangePicker.js';

let server: FakeServer;

const menuTree = (children: Array<{ code: string; path: string | null }>) => [
  { code: 'achievement', path: '/basic', category: 1, children: [{ code: 'patent', path: '/basic/patent', category: 1, resource: 'basic/patent', children: children.map((c) => ({ ...c, category: 2, children: [] })) }] },
];

const job = (over: Record<string, unknown>) => ({ id: '77', kind: 'excel-export', title: '专利', status: 'running', progress: 40, readCount: 40, writtenCount: 40, failedCount: 0, error: null, resultName: null, hasFile: false, result: null, ...over });

beforeEach(() => {
  setLang('zh');
  signInAs('kygl');
  server = baseServer();
  server.on('GET', '/api/blade-system/menu/buttons', menuTree([{ code: 'patent_add', path: null }, { code: 'patent_export', path: 'patent' }, { code: 'patent_import', path: 'patent' }]));
  server.on('GET', '/api/system/exceltemplate/detailByCode', (r: { query: Record<string, string> }) => (r.query.code === 'patent' ? ok({ id: '555', code: 'patent' }) : fail(404, '导入导出模板不存在')));
  server.on('GET', '/api/blade-job/job/list', []);
});
afterEach(() => vi.useRealTimers());

function toolbar(props: Partial<React.ComponentProps<typeof ExcelToolbar>> = {}) {
  const onImported = vi.fn();
  renderApp(<ExcelToolbar resource={patentSchema} params={{ name: '粮' }} listEndpoint="myList" selected={[]} onImported={onImported} {...props} />);
  return onImported;
}

const enabled = async (name: RegExp) => {
  const b = await screen.findByRole('button', { name });
  await waitFor(() => expect((b as HTMLButtonElement).disabled).toBe(false));
  return b;
};

describe('ExcelToolbar', () => {
  it('shows nothing without export / import button entries on the menu', async () => {
    server.on('GET', '/api/blade-system/menu/buttons', menuTree([{ code: 'patent_add', path: null }]));
    toolbar();
    await waitFor(() => expect(server.calls('/api/blade-system/menu/buttons')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull();
    expect(server.calls('/api/system/exceltemplate/detailByCode')).toHaveLength(0);
  });

  it('shows export, import and template download, with the template the button path names', async () => {
    toolbar();
    await enabled(/导\s*出/);
    expect(screen.getByRole('button', { name: /导\s*入/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /下载模板/ })).toBeTruthy();
    expect(server.calls('/api/system/exceltemplate/detailByCode')[0].query).toEqual({ code: 'patent' });
  });

  it("leaves the export to the list's own operation of the same code (the user list's export-user), keeping import and template", async () => {
    const own = { key: 'export', label: '导出', labelEn: 'Export', code: 'patent_export', placement: ['toolbar'], selection: 'none', method: 'GET', endpoint: '/api/blade-user/export-user' };
    const withOwn = { ...patentSchema, list: { ...patentSchema.list, operations: [...(patentSchema.list?.operations ?? []), own] } } as typeof patentSchema;
    toolbar({ resource: withOwn });
    await enabled(/导\s*入/);
    expect(screen.getByRole('button', { name: /下载模板/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull();
  });

  it("asks 'confirm export N records?' for checked rows and exports their ids; a job shows its progress and file", async () => {
    let polls = 0;
    server.on('GET', '/api/system/exceltemplate/exportData', ok({ jobId: '77' }));
    server.on('GET', '/api/blade-job/job/detail', () => ok(++polls < 2 ? job({}) : job({ status: 'done', progress: 100, hasFile: true, resultName: '专利数据.xlsx' })));
    toolbar({ selected: ['11', '12'] });
    fireEvent.click(await enabled(/导\s*出/));
    expect(await screen.findByText('确认导出2条数据?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(server.calls('/api/system/exceltemplate/exportData')).toHaveLength(1));
    expect(server.calls('/api/system/exceltemplate/exportData')[0].query).toEqual({ templateId: '555', ids: '11,12' });
    expect(await screen.findByText('已读取 40 行，写入 40 行，失败 0 行')).toBeTruthy();
    expect(await screen.findByRole('button', { name: '下载文件' }, { timeout: 5000 })).toBeTruthy();
  });

  it("asks 'confirm export all data?' without checked rows and exports the list's filters and scope", async () => {
    server.on('GET', '/api/system/exceltemplate/exportData', ok({ jobId: '78' }));
    server.on('GET', '/api/blade-job/job/detail', ok(job({ id: '78', status: 'queued', progress: 0 })));
    toolbar();
    fireEvent.click(await enabled(/导\s*出/));
    expect(await screen.findByText('确认导出全部数据?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(server.calls('/api/system/exceltemplate/exportData')).toHaveLength(1));
    expect(server.calls('/api/system/exceltemplate/exportData')[0].query).toEqual({ templateId: '555', name: '粮', scope: 'myList' });
  });

  it('brings back the progress of an unfinished job after a reload', async () => {
    server.on('GET', '/api/blade-job/job/list', [job({ id: '90', kind: 'excel-import', status: 'running', progress: 55, readCount: 550, writtenCount: 500, failedCount: 50 })]);
    server.on('GET', '/api/blade-job/job/detail', ok(job({ id: '90', kind: 'excel-import', status: 'running', progress: 55, readCount: 550, writtenCount: 500, failedCount: 50 })));
    toolbar();
    expect(await screen.findByText('已读取 550 行，写入 500 行，失败 50 行')).toBeTruthy();
    expect(server.calls('/api/blade-job/job/list')[0].query).toEqual({ ref: '555' });
    expect(document.querySelector('.ant-progress-text')?.textContent).toBe('55%');
  });
});

describe('ImportDialog', () => {
  async function openDialog() {
    const onImported = toolbar();
    fireEvent.click(await enabled(/导\s*入/));
    const dialog = await screen.findByRole('dialog');
    return { onImported, dialog };
  }

  const pick = (dialog: HTMLElement, name: string) => {
    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], name)] } });
  };

  it("is 555 px wide, titled 'user data import', takes only .xls/.xlsx, and the overwrite switch is 0 by default", async () => {
    const { dialog } = await openDialog();
    expect(within(dialog).getByText('用户数据导入')).toBeTruthy();
    expect((document.querySelector('.ant-modal') as HTMLElement).style.width).toBe('555px');
    pick(dialog, 'notes.txt');
    expect(await within(dialog).findByText('文件格式错误')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /开始导入/ }));
    await waitFor(() => expect(within(dialog).getByText('请选择要上传的文件')).toBeTruthy());
    expect(server.calls('/api/system/exceltemplate/importData')).toHaveLength(0);
    expect(within(dialog).getByRole('switch').getAttribute('aria-checked')).toBe('false');
  });

  it('posts the file with isCovered and templateId; success closes, shows the message and refreshes the list', async () => {
    let sent: FormData | null = null;
    server.on('POST', '/api/system/exceltemplate/importData', (r: { body: unknown }) => {
      sent = r.body as FormData;
      return { status: 200, json: { code: 200, success: true, data: { jobId: '5', read: 2, inserted: 2, updated: 0 }, msg: '导入成功：新增 2 条，更新 0 条' } };
    });
    const { onImported, dialog } = await openDialog();
    pick(dialog, '专利.xlsx');
    fireEvent.click(within(dialog).getByRole('switch'));
    fireEvent.click(within(dialog).getByRole('button', { name: /开始导入/ }));
    await waitFor(() => expect(onImported).toHaveBeenCalledTimes(1));
    expect(sent!.get('isCovered')).toBe('1');
    expect(sent!.get('templateId')).toBe('555');
    expect((sent!.get('file') as File).name).toBe('专利.xlsx');
    expect(await screen.findByText('导入成功：新增 2 条，更新 0 条')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("shows the server's faults one a line with the braces in red, and keeps the dialog open", async () => {
    server.on('POST', '/api/system/exceltemplate/importData', fail(400, '导入失败，共 2 处错误、第3行{专利名称}：请输入专利名称、第4行{专利类型}：值「x」不在可选范围内', { jobId: '6', errorFile: '/api/blade-job/job/file?id=6' }));
    const { onImported, dialog } = await openDialog();
    pick(dialog, 'a.xls');
    fireEvent.click(within(dialog).getByRole('button', { name: /开始导入/ }));
    const box = await waitFor(() => {
      const el = document.querySelector('.kc-import-message') as HTMLElement;
      expect(el).toBeTruthy();
      return el;
    });
    expect([...box.children].slice(0, 3).map((d) => d.textContent)).toEqual(['导入失败，共 2 处错误', '第3行{专利名称}：请输入专利名称', '第4行{专利类型}：值「x」不在可选范围内']);
    expect((within(box).getByText('{专利名称}') as HTMLElement).style.color).toBe('rgb(245, 34, 45)');
    expect(within(box).getByRole('button', { name: '下载错误文件' })).toBeTruthy();
    expect(onImported).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});

describe('YearRangePicker', () => {
  it('keeps the start year not after the end year', () => {
    expect(orderedYears('2025', '2020')).toEqual(['2020', '2025']);
    expect(orderedYears('2020', null)).toEqual(['2020', null]);
    expect(orderedYears('2020', '2020')).toEqual(['2020', '2020']);
  });

  it('shows both pickers, and the years after the end year cannot be picked as the start', async () => {
    const onChange = vi.fn();
    render(
      <FormProvider form={createForm()}>
        <YearRangePicker value={['2020', '2022']} onChange={onChange} />
      </FormProvider>,
    );
    const [start, end] = screen.getAllByRole('textbox') as HTMLInputElement[];
    expect(start.value).toBe('2020');
    expect(end.value).toBe('2022');
    fireEvent.mouseDown(start);
    fireEvent.click(start);
    const cell2023 = await screen.findByTitle('2023');
    expect(cell2023.className).toContain('ant-picker-cell-disabled');
    expect(screen.getByTitle('2021').className).not.toContain('ant-picker-cell-disabled');
  });
});
