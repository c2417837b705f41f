// @vitest-environment jsdom
/**
 * The crawl task's 配置 dialog (schemas/spider/task.json, issue 16 "a task's configuration … edited in a form"):
 * a list operation whose Formily form (tabs 基本设置 / 采集限制 / 页面规则, page rules as cards with a table of
 * fields) is filled from getConfigData's `config` through dotted `initial.map` paths, and posts the edited
 * configuration as the body of saveConfigData; the server's refusal keeps the dialog open with its message.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import taskJson from '../../../schemas/spider/task.json';
import type { ListOperation, ResourceSchema } from '../../shared/schema/types.js';
import { ResourcePage } from './ResourcePage.js';
import { fail, ok, renderApp, setLang, type FakeServer } from './test-utils.js';
import { baseServer } from './fixtures.js';
import { initialValues } from './operations.js';

const schema = taskJson as unknown as ResourceSchema;
const CONFIG = {
  startUrls: ['http://127.0.0.1:8080/list?page=1'],
  linkPatterns: [],
  linkSelector: 'a[href]',
  nextPageSelector: 'a.next',
  rules: [{ name: 'list', urlPattern: '/list\\?', rowSelector: 'li.item', fields: [
    { name: 'title', selector: 'a', process: ['trim'], required: true },
    { name: 'price', xpath: './span[@class="price"]', process: ['number'] },
  ] }],
  maxPages: 10, maxDepth: 3, concurrency: 2, delayMs: 0, timeoutSecs: 30, respectRobotsTxt: true, useBrowser: false,
};

let server: FakeServer;
let refuse = false;

beforeEach(() => {
  setLang('zh');
  refuse = false;
  server = baseServer([schema]);
  server.on('GET', '/api/spider/task/list', ok({ records: [{ id: '71', name: '政策通知', taskStatus: 0 }], total: 1, size: 10, current: 1, pages: 1 }));
  server.on('GET', '/api/spider/task/getConfigData', ok({ config: CONFIG, configJson: JSON.stringify(CONFIG, null, 2) }));
  server.on('GET', '/api/spider/browser/select', ok([]));
  server.on('GET', '/api/spider/taskgroup/select', ok([]));
  server.on('POST', '/api/spider/task/saveConfigData', () => (refuse ? fail(400, '正则表达式不正确：(x') : ok(null)));
});

const rowOf = (text: string) => screen.getByText(text).closest('tr')! as HTMLElement;

describe('the crawl configuration dialog', () => {
  it('maps getConfigData’s config onto the fields through dotted paths', () => {
    const op = (schema.list!.operations as ListOperation[]).find((o) => o.key === 'config')!;
    const values = initialValues(op, { keys: ['71'], row: { id: '71' } }, { config: CONFIG, configJson: '' });
    expect(values).toEqual(CONFIG);
    expect(initialValues(op, { keys: ['71'], row: { id: '71' } }, { config: null, configJson: '' })).toEqual({});
  });

  it('shows the stored configuration in tabs, rule cards and a field table, and posts it back as edited', async () => {
    renderApp(<ResourcePage name="spider/task" />);
    await screen.findByText('政策通知');
    fireEvent.click(within(rowOf('政策通知')).getByRole('button', { name: /配\s*置/ }));
    const dlg = await screen.findByRole('dialog');
    expect(await within(dlg).findByText('http://127.0.0.1:8080/list?page=1')).toBeTruthy();
    expect(within(dlg).getByRole('tab', { name: '采集限制' })).toBeTruthy();
    fireEvent.click(within(dlg).getByRole('tab', { name: '页面规则' }));
    expect(await within(dlg).findByDisplayValue('li.item')).toBeTruthy();
    expect(within(dlg).getByDisplayValue('./span[@class="price"]')).toBeTruthy();
    fireEvent.change(within(dlg).getByDisplayValue('li.item'), { target: { value: 'ul > li.item' } });
    fireEvent.click(within(dlg).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(server.calls('/api/spider/task/saveConfigData')).toHaveLength(1));
    const call = server.calls('/api/spider/task/saveConfigData')[0];
    expect(call.query.id).toBe('71');
    expect(call.body).toMatchObject({ ...CONFIG, rules: [{ ...CONFIG.rules[0], rowSelector: 'ul > li.item' }] });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('keeps the dialog open with the server’s message when the configuration is refused', async () => {
    refuse = true;
    renderApp(<ResourcePage name="spider/task" />);
    await screen.findByText('政策通知');
    fireEvent.click(within(rowOf('政策通知')).getByRole('button', { name: /配\s*置/ }));
    const dlg = await screen.findByRole('dialog');
    await within(dlg).findByText('http://127.0.0.1:8080/list?page=1');
    fireEvent.click(within(dlg).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(server.calls('/api/spider/task/saveConfigData')).toHaveLength(1));
    expect(await screen.findByText('正则表达式不正确：(x')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
