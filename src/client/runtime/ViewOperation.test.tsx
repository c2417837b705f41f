// @vitest-environment jsdom
/**
 * View operations (`list.operations[].result: 'view'`) through the real crawl task schema
 * (schemas/spider/task.json) against a fake server: 查看数据 shows the task's collected rows in a RemoteTable
 * whose columns come with the rows, 任务看板 its execution status (getExecuteStatus) and per-minute chart
 * (ECharts mocked: the chart's data-series is checked), 采集日志 its log with the schema's columns — each
 * reading the clicked row's id (`$row.id`), none calling an endpoint of the operation itself; the task list's
 * other dialogs — 移动分组 (moveGroup of the checked rows), 通知用户 (saveMessageUser), 导出数据 (exportData
 * with a column mapping into platform records), 导出状态 (getExportStatus figures); 测试连接 of a stored export
 * connection (schemas/spider/exportconfig.json); 执行记录 of a schedule (getJobsBySpriderTask); and the pure
 * helpers (withRowRefs, RemoteTable's columns and cells).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import taskJson from '../../../schemas/spider/task.json';
import exportConfigJson from '../../../schemas/spider/exportconfig.json';
import scheduleJson from '../../../schemas/spider/schedule.json';
import type { ListOperation, ResourceSchema } from '../../shared/schema/types.js';
import { ResourcePage } from './ResourcePage.js';
import { ok, renderApp, setLang, type FakeServer } from './test-utils.js';
import { baseServer } from './fixtures.js';
import { withRowRefs } from './operations.js';
import { cellText, columnsOf } from '../components/RemoteTable.js';

vi.mock('../components/EChartsView.js', async () => {
  const R = await import('react');
  return { default: () => R.createElement('div', { 'data-testid': 'echarts' }) };
});

const schema = taskJson as unknown as ResourceSchema;
const TASKS = [
  { id: '71', name: '政策通知', taskStatus: 4, progress: 100, pagesCount: 13, rowsCount: 2, errorCount: 1 },
  { id: '72', name: '期刊目录', taskStatus: 0, progress: 0, pagesCount: 0, rowsCount: 0, errorCount: 0 },
];

let server: FakeServer;

beforeEach(() => {
  setLang('zh');
  server = baseServer([schema, exportConfigJson as unknown as ResourceSchema, scheduleJson as unknown as ResourceSchema]);
  server.on('GET', '/api/cron/schedule/list', ok({ records: [{ id: '65', spiderTaskId: '71', cronExpression: '0 2 * * *', scheduleStatus: 1 }], total: 1, size: 10, current: 1, pages: 1 }));
  server.on('GET', '/api/cron/schedule/getJobsBySpriderTask', ok({ records: [{ id: '9', status: 'done', progress: 100, readCount: 13, writtenCount: 19, failedCount: 1, error: null, createTime: '2026-11-25 02:00:00', finishTime: '2026-11-25 02:00:41' }], total: 1, size: 10, current: 1, pages: 1 }));
  server.on('GET', '/api/spider/exportconfig/list', ok({ records: [{ id: '61', name: '成果库', url: 'postgresql://kc@127.0.0.1:5432/kc' }], total: 1, size: 10, current: 1, pages: 1 }));
  server.on('POST', '/api/spider/task/testConnection', ok({ ok: true, database: 'kc', version: '16.4' }));
  server.on('GET', '/api/spider/task/list', ok({ records: TASKS, total: 2, size: 10, current: 1, pages: 1 }));
  server.on('GET', '/api/spider/task/viewData', (r: { query: Record<string, string> }) =>
    ok(r.query.id === '71'
      ? { records: [{ id: '1', url: 'http://127.0.0.1/list', title: '通知 1', price: 1201.5 }, { id: '2', url: 'http://127.0.0.1/d/1', title: '通知 2', body: '正文' }], total: 2, size: 10, current: 1, pages: 1 }
      : { records: [], total: 0, size: 10, current: 1, pages: 0 }),
  );
  server.on('GET', '/api/spider/task/getExecuteStatus', ok({ taskStatus: 4, progress: 100, pagesCount: 13, rowsCount: 2, errorCount: 1, pending: 0, jobId: '9', finishTime: '2026-11-25 10:01:30' }));
  server.on('GET', '/api/spider/task/dashboard', ok({ taskStatus: 4, pagesCount: 13, rowsCount: 2, errorCount: 1, jobId: '9', perMinute: [
    { minute: '2026-11-25 10:00:00', time: '10:00', pages: 8, rows: 2, errors: 0 }, { minute: '2026-11-25 10:01:00', time: '10:01', pages: 5, rows: 0, errors: 1 },
  ] }));
  server.on('GET', '/api/spider/taskgroup/select', ok([{ id: '81', name: '政策' }]));
  server.on('GET', '/api/blade-user/select', ok([{ id: '91', realName: '张三' }, { id: '92', realName: '李四' }]));
  server.on('GET', '/api/spider/exportconfig/select', ok([]));
  server.on('POST', '/api/spider/task/saveMessageUser', ok({ messageUser: ['91'] }));
  server.on('POST', '/api/spider/task/moveGroup', ok({ moved: 2 }));
  server.on('POST', '/api/spider/task/exportData', ok({ jobId: '5', table: 'portal/journal' }));
  server.on('GET', '/api/spider/task/getExportStatus', ok({ jobId: '5', status: 'done', progress: 100, readCount: 9, writtenCount: 9 }));
  server.on('GET', '/api/spider/task/viewLogData', ok({ records: [{ id: '5', level: 'error', url: 'http://127.0.0.1/error500', message: 'status 500', statusCode: 500, rowCount: 0, duration: null, createTime: '2026-11-25 10:01:02' }], total: 1, size: 20, current: 1, pages: 1 }));
});

const rowOf = (text: string) => screen.getByText(text).closest('tr')! as HTMLElement;
const dialog = () => screen.getByRole('dialog');

describe('view operations of the crawl task list', () => {
  it('shows the clicked task’s rows with columns that come with them, and closes', async () => {
    renderApp(<ResourcePage name="spider/task" />);
    await screen.findByText('政策通知');
    fireEvent.click(within(rowOf('政策通知')).getByRole('button', { name: '查看数据' }));
    const table = await screen.findByTestId('kc-remote-table');
    expect(await within(table).findByText('1201.5')).toBeTruthy();
    for (const h of ['url', 'title', 'price', 'body']) expect(within(table).getByRole('columnheader', { name: h })).toBeTruthy();
    expect(within(table).getByText('正文')).toBeTruthy();
    expect(server.calls('/api/spider/task/viewData')[0].query).toMatchObject({ id: '71', current: '1', size: '10' });
    fireEvent.click(within(dialog()).getByRole('button', { name: /关\s*闭/ }));
    await waitFor(() => expect(screen.queryByTestId('kc-remote-table')).toBeNull());
  });

  it('shows the dashboard: figures and pages, rows, errors per minute', async () => {
    renderApp(<ResourcePage name="spider/task" />);
    await screen.findByText('政策通知');
    fireEvent.click(within(rowOf('政策通知')).getByRole('button', { name: '任务看板' }));
    await waitFor(() => expect(screen.getAllByTestId('kc-chart')).toHaveLength(2));
    const [stat, line] = screen.getAllByTestId('kc-chart');
    expect(JSON.parse(stat.dataset.series!)).toEqual([{ title: '进度', value: 100 }, { title: '已采页数', value: 13 }, { title: '数据条数', value: 2 }, { title: '错误数', value: 1 }, { title: '待采页数', value: 0 }]);
    expect(server.calls('/api/spider/task/getExecuteStatus').every((c) => c.query.id === '71')).toBe(true);
    expect(line.dataset.chart).toBe('line');
    expect(JSON.parse(line.dataset.series!)).toEqual({ categories: ['10:00', '10:01'], series: [
      { name: '页数/分钟', data: [8, 5] }, { name: '数据/分钟', data: [2, 0] }, { name: '错误/分钟', data: [0, 1] },
    ] });
    expect(server.calls('/api/spider/task/dashboard').every((c) => c.query.id === '71')).toBe(true);
  });

  it('shows the log with the schema’s columns, in English too', async () => {
    setLang('en');
    renderApp(<ResourcePage name="spider/task" />);
    await screen.findByText('期刊目录');
    fireEvent.click(within(rowOf('期刊目录')).getByRole('button', { name: 'Log' }));
    const table = await screen.findByTestId('kc-remote-table');
    expect(await within(table).findByText('http://127.0.0.1/error500')).toBeTruthy();
    expect(within(table).getByRole('columnheader', { name: 'Duration (ms)' })).toBeTruthy();
    expect(server.calls('/api/spider/task/viewLogData')[0].query).toMatchObject({ id: '72', size: '20' });
  });
});

describe('the other operations of the crawl task list', () => {
  it('moves the checked tasks into a group', async () => {
    renderApp(<ResourcePage name="spider/task" />);
    await screen.findByText('政策通知');
    for (const name of ['政策通知', '期刊目录']) fireEvent.click(within(rowOf(name)).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: '移动分组' }));
    const dlg = await screen.findByRole('dialog');
    fireEvent.mouseDown(dlg.querySelector('.ant-select-selector')!);
    fireEvent.click(await screen.findByTitle('政策'));
    fireEvent.click(within(dlg).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(server.calls('/api/spider/task/moveGroup')).toHaveLength(1));
    expect(server.calls('/api/spider/task/moveGroup')[0].body).toEqual({ ids: ['71', '72'], groupId: '81' });
  });

  it('saves the users to notify and exports the rows with a column mapping', async () => {
    renderApp(<ResourcePage name="spider/task" />);
    await screen.findByText('政策通知');
    fireEvent.click(within(rowOf('政策通知')).getByRole('button', { name: '通知用户' }));
    let dlg = await screen.findByRole('dialog');
    fireEvent.mouseDown(dlg.querySelector('.ant-select-selector')!);
    fireEvent.click(await screen.findByTitle('张三'));
    fireEvent.click(within(dlg).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(server.calls('/api/spider/task/saveMessageUser')).toHaveLength(1));
    expect(server.calls('/api/spider/task/saveMessageUser')[0]).toMatchObject({ query: { id: '71' }, body: { userIds: ['91'] } });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(within(rowOf('政策通知')).getByRole('button', { name: '导出数据' }));
    dlg = await screen.findByRole('dialog');
    fireEvent.click(within(dlg).getByLabelText('平台记录（期刊等）'));
    fireEvent.change(within(dlg).getAllByRole('textbox')[0], { target: { value: 'portal/journal' } });
    fireEvent.click(within(dlg).getByRole('button', { name: /添\s*加/ }));
    const [field, column] = within(dlg).getAllByRole('textbox').slice(1);
    fireEvent.change(field, { target: { value: 'title' } });
    fireEvent.change(column, { target: { value: 'journalName' } });
    fireEvent.click(within(dlg).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(server.calls('/api/spider/task/exportData')).toHaveLength(1));
    expect(server.calls('/api/spider/task/exportData')[0]).toMatchObject({ query: { id: '71' }, body: { targetType: 'records', tableName: 'portal/journal', columns: [{ field: 'title', column: 'journalName' }] } });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(within(rowOf('政策通知')).getByRole('button', { name: '导出状态' }));
    const stat = await screen.findByTestId('kc-chart');
    await waitFor(() => expect(JSON.parse(stat.dataset.series!)).toEqual([{ title: '进度', value: 100 }, { title: '已导出', value: 9 }, { title: '已读取', value: 9 }]));
  });
});

describe('export connections', () => {
  it('tests a stored connection from its row', async () => {
    renderApp(<ResourcePage name="spider/exportconfig" />);
    await screen.findByText('成果库');
    fireEvent.click(within(rowOf('成果库')).getByRole('button', { name: '测试连接' }));
    expect(await screen.findByText('连接该数据库并检查可用？')).toBeTruthy();
    fireEvent.click(within(dialog()).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(server.calls('/api/spider/task/testConnection')).toHaveLength(1));
    expect(server.calls('/api/spider/task/testConnection')[0].body).toEqual({ exportConfigId: '61' });
    expect(await screen.findByText('连接成功')).toBeTruthy();
  });
});

describe('schedules', () => {
  it('lists the crawl jobs a schedule’s task has run', async () => {
    renderApp(<ResourcePage name="cron/schedule" />);
    await screen.findByText('0 2 * * *');
    fireEvent.click(within(rowOf('0 2 * * *')).getByRole('button', { name: '执行记录' }));
    const table = await screen.findByTestId('kc-remote-table');
    expect(await within(table).findByText('2026-11-25 02:00:41')).toBeTruthy();
    expect(within(table).getByRole('columnheader', { name: '数据条数' })).toBeTruthy();
    expect(within(table).getByText('19')).toBeTruthy();
    expect(server.calls('/api/cron/schedule/getJobsBySpriderTask')[0].query).toMatchObject({ spiderTaskId: '71' });
  });
});

describe('view helpers', () => {
  it('withRowRefs resolves $row references at any depth of the props and leaves the schema alone', () => {
    const op = (schema.list!.operations as ListOperation[]).find((o) => o.key === 'dashboard')!;
    const out = withRowRefs(op.dialog!, { keys: ['71'], row: { id: '71' } });
    expect((out.properties.perMinute['x-component-props'] as Record<string, any>).params).toEqual({ id: '71' });
    expect((op.dialog!.properties.perMinute['x-component-props'] as Record<string, any>).params).toEqual({ id: '$row.id' });
  });

  it('RemoteTable derives columns in the order first seen without id, and prints cells', () => {
    expect(columnsOf([{ id: '1', a: 1 }, { b: 2, a: 3 }]).map((c) => c.field)).toEqual(['a', 'b']);
    expect(columnsOf([{ a: 1 }], [{ field: 'z' }]).map((c) => c.field)).toEqual(['z']);
    expect([cellText(null), cellText(undefined), cellText(1.5), cellText(true), cellText({ x: 1 })]).toEqual(['', '', '1.5', 'true', '{"x":1}']);
  });
});
