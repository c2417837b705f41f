// @vitest-environment jsdom
/**
 * Our registry components inside real Formily forms, against a fake server: DictSelect (labels by language,
 * one request per code, readPretty label, numeric keys), FileUpload (附件上传中，请稍等 while uploading, the
 * stored items as value, type and size refused before any request), DeptTreeSelect and ResourceTreeSelect
 * (names in readPretty, the root value shown empty and stored on clear), ResourceSelect (a resource's
 * records by name, ids stored as strings; read-only with its options refused: the value, silently), RegionCascader (names of the path,
 * both value types) and UserPicker (the user directory searched by name, the id stored, the name read-only).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { message } from 'antd';
import React from 'react';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createForm, type Form } from '@formily/core';
import { FormProvider } from '@formily/react';
import { SchemaField } from './registry.js';
import { fail, ok, renderApp, setLang, type FakeServer } from '../runtime/test-utils.js';
import { baseServer } from '../runtime/fixtures.js';

let server: FakeServer;
beforeEach(() => {
  setLang('zh');
  server = baseServer();
});

function renderForm(properties: Record<string, unknown>, opts: { values?: Record<string, unknown>; readPretty?: boolean } = {}): Form {
  const form = createForm({ initialValues: opts.values, readPretty: opts.readPretty });
  renderApp(
    <FormProvider form={form}>
      <SchemaField schema={{ type: 'object', properties: properties as never }} />
    </FormProvider>,
  );
  return form;
}

describe('DictSelect', () => {
  it('offers the entries, stores the key, shows the label and asks once per code', async () => {
    const form = renderForm({
      type: { type: 'string', title: '专利类型', 'x-decorator': 'FormItem', 'x-component': 'DictSelect', 'x-component-props': { code: 'patent_type' } },
      again: { type: 'string', 'x-component': 'DictSelect', 'x-component-props': { code: 'patent_type' }, 'x-pattern': 'readPretty' },
      level: { type: 'integer', 'x-component': 'DictSelect', 'x-component-props': { code: 'patent_type' } },
    }, { values: { again: '2' } });
    expect(await screen.findByText('实用新型')).toBeTruthy();
    fireEvent.mouseDown(document.querySelector('.ant-select-selector')!);
    fireEvent.click(await screen.findByText('发明专利', { selector: '.ant-select-item-option-content' }));
    expect(form.values.type).toBe('1');
    const selects = document.querySelectorAll('.ant-select-selector');
    fireEvent.mouseDown(selects[selects.length - 1]);
    const options = await screen.findAllByText('实用新型', { selector: '.ant-select-item-option-content' });
    fireEvent.click(options[options.length - 1]);
    expect(form.values.level).toBe(2);
    expect(server.calls('/api/blade-system/dict/dictionary')).toHaveLength(1);
  });

  it('shows dictValueEn in English', async () => {
    setLang('en');
    renderForm({ type: { type: 'string', 'x-component': 'DictSelect', 'x-component-props': { code: 'patent_type' } } }, { values: { type: '2' }, readPretty: true });
    expect(await screen.findByText('Utility model')).toBeTruthy();
    setLang('zh');
  });
});

describe('FileUpload', () => {
  const annex = { annex: { type: 'array', title: '附件', 'x-decorator': 'FormItem', 'x-component': 'FileUpload', 'x-component-props': { accept: '.pdf,.docx', maxSize: 1024 } } };

  it('says 附件上传中，请稍等 while uploading and stores {name, link, originalName}', async () => {
    let finish: () => void = () => {};
    server.on('POST', '/api/blade-resource/oss/endpoint/put-file', async () => {
      await new Promise<void>((r) => (finish = r));
      return ok({ link: '/api/blade-resource/oss/endpoint/file/upload/20240101/u1.pdf', name: 'upload/20240101/u1.pdf', originalName: '证书.pdf', domain: '/x', attachId: '5' });
    });
    const user = userEvent.setup({ applyAccept: false });
    const form = renderForm(annex);
    await user.upload(document.querySelector('input[type=file]') as HTMLInputElement, new File(['%PDF-1.4'], '证书.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText('附件上传中，请稍等')).toBeTruthy();
    const sent = server.calls('/api/blade-resource/oss/endpoint/put-file')[0];
    expect((sent.body as FormData).get('file')).toBeInstanceOf(File);
    expect(sent.headers['Authorization']).toMatch(/^Basic /);
    await act(async () => finish());
    await waitFor(() => expect(screen.queryByText('附件上传中，请稍等')).toBeNull());
    expect(form.values.annex).toEqual([{ name: 'upload/20240101/u1.pdf', link: '/api/blade-resource/oss/endpoint/file/upload/20240101/u1.pdf', originalName: '证书.pdf' }]);
    expect(screen.getByText('证书.pdf')).toBeTruthy();
  });

  it('refuses a wrong type or a file too large before sending it', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const form = renderForm(annex);
    // rc-upload renders a fresh input after each choice: query it each time
    const input = () => document.querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input(), new File(['MZ'], 'tool.exe', { type: 'application/x-msdownload' }));
    expect(await screen.findByText('文件类型不符合要求，只能上传 .pdf,.docx 格式的文件')).toBeTruthy();
    await user.upload(input(), new File([new Uint8Array(2048)], 'big.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText('文件大小不能超过 1KB')).toBeTruthy();
    expect(server.calls('/api/blade-resource/oss/endpoint/put-file')).toHaveLength(0);
    expect(form.values.annex ?? []).toEqual([]);
  });
});

describe('FileUpload with valueType link', () => {
  const cover = { cover: { type: 'string', title: '封面图', 'x-decorator': 'FormItem', 'x-component': 'FileUpload', 'x-component-props': { accept: '.png,.jpg', valueType: 'link' } } };
  const LINK = '/api/blade-resource/oss/endpoint/file/upload/20240101/c1.png';

  it('stores the one file’s link as a string, shows it, and offers no second upload until it is removed', async () => {
    server.on('POST', '/api/blade-resource/oss/endpoint/put-file', ok({ link: LINK, name: 'upload/20240101/c1.png', originalName: '封面.png', domain: '/x', attachId: '6' }));
    const user = userEvent.setup({ applyAccept: false });
    const form = renderForm(cover);
    await user.upload(document.querySelector('input[type=file]') as HTMLInputElement, new File([new Uint8Array([0x89, 0x50])], '封面.png', { type: 'image/png' }));
    await waitFor(() => expect(form.values.cover).toBe(LINK));
    expect(screen.getByText('封面.png')).toBeTruthy();
    expect((screen.getByRole('button', { name: /上传附件/ }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTitle('Remove file'));
    await waitFor(() => expect(form.values.cover).toBe(''));
  });

  it('shows a stored link in readPretty', async () => {
    renderForm(cover, { values: { cover: LINK }, readPretty: true });
    expect(await screen.findByText('c1.png')).toBeTruthy();
  });
});

describe('tree pickers', () => {
  it('DeptTreeSelect shows the department name in readPretty', async () => {
    renderForm({ deptId: { type: 'string', 'x-component': 'DeptTreeSelect' } }, { values: { deptId: '101' }, readPretty: true });
    expect(await screen.findByText('集团科技信息部')).toBeTruthy();
  });

  it('ResourceTreeSelect shows titles, the root value as empty, and stores the root value on clear', async () => {
    server.on('GET', '/api/blade-system/dict/tree', [{ id: '1', key: '1', value: '1', title: '专利类型', children: [{ id: '2', key: '2', value: '2', title: '发明专利', children: [] }] }]);
    const props = { url: '/api/blade-system/dict/tree', rootValue: '0', allowClear: true };
    renderForm({ parentId: { type: 'string', 'x-component': 'ResourceTreeSelect', 'x-component-props': props } }, { values: { parentId: '2' }, readPretty: true });
    expect(await screen.findByText('发明专利')).toBeTruthy();
    const form = renderForm({ parentId: { type: 'string', 'x-component': 'ResourceTreeSelect', 'x-component-props': props } }, { values: { parentId: '1' } });
    await waitFor(() => expect(document.querySelector('.ant-select-selection-item')?.textContent).toBe('专利类型'));
    fireEvent.mouseDown(document.querySelector('.ant-select-clear')!);
    await waitFor(() => expect(form.values.parentId).toBe('0'));
  });

  it('ResourceTreeSelect with selectable offers only the nodes whose record holds the value (a record without the field too)', async () => {
    server.on('GET', '/api/portal/channel/tree', [{ id: '1', key: '1', value: '1', title: '新闻中心', children: [{ id: '2', key: '2', value: '2', title: '科技动态', children: [] }, { id: '3', key: '3', value: '3', title: '旧栏目', children: [] }] }]);
    server.on('GET', '/api/portal/channel/listNoPage', [{ id: '1', title: '新闻中心', configuration: [1] }, { id: '2', title: '科技动态', configuration: [1, 2] }, { id: '3', title: '旧栏目', configuration: null }]);
    const props = { url: '/api/portal/channel/tree', rootValue: '0', treeDefaultExpandAll: true, selectable: { url: '/api/portal/channel/listNoPage', field: 'configuration', has: 2 } };
    const form = renderForm({ channelId: { type: 'string', 'x-component': 'ResourceTreeSelect', 'x-component-props': props } });
    await waitFor(() => expect(server.calls('/api/portal/channel/listNoPage')).toHaveLength(1));
    fireEvent.mouseDown(document.querySelector('.ant-select-selector')!);
    const node = async (title: string) => (await screen.findByTitle(title)).closest('.ant-select-tree-treenode')!;
    await waitFor(async () => expect((await node('科技动态')).className).not.toContain('ant-select-tree-treenode-disabled'));
    expect((await node('新闻中心')).className).toContain('ant-select-tree-treenode-disabled');
    expect((await node('旧栏目')).className).not.toContain('ant-select-tree-treenode-disabled');
    fireEvent.click(await screen.findByTitle('新闻中心'));
    expect(form.values.channelId).toBeUndefined();
    fireEvent.click(await screen.findByTitle('科技动态'));
    await waitFor(() => expect(form.values.channelId).toBe('2'));
  });

  it('ResourceSelect offers the records of its url, stores their ids as strings and shows their names', async () => {
    server.on('GET', '/api/portal/model/select', [{ id: '11', name: '新闻模型' }, { id: '12', name: '成果模型' }]);
    const props = { url: '/api/portal/model/select', mode: 'multiple' };
    renderForm({ modelIds: { type: 'array', 'x-component': 'ResourceSelect', 'x-component-props': props } }, { values: { modelIds: ['11', '12'] }, readPretty: true });
    expect(await screen.findByText('新闻模型、成果模型')).toBeTruthy();
    const form = renderForm({ modelId: { type: 'string', 'x-component': 'ResourceSelect', 'x-component-props': { url: '/api/portal/model/select' } } });
    fireEvent.mouseDown(document.querySelectorAll('.ant-select-selector')[0]);
    fireEvent.click(await screen.findByText('成果模型', { selector: '.ant-select-item-option-content' }));
    expect(form.values.modelId).toBe('12');
  });

  it('ResourceSelect read-only, when its options are refused: the stored value, no error toast', async () => {
    const toast = vi.spyOn(message, 'error');
    server.on('GET', '/api/project/expert/options', fail(403, '无权访问'));
    renderForm({ expertId: { type: 'string', 'x-component': 'ResourceSelect', 'x-component-props': { url: '/api/project/expert/options' } } }, { values: { expertId: '1001' }, readPretty: true });
    expect(await screen.findByText('1001')).toBeTruthy();
    await waitFor(() => expect(server.calls('/api/project/expert/options')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 600)); // an error toast shows 300 ms after the failure (api.ts)
    expect(toast).not.toHaveBeenCalled();
    toast.mockRestore();
  });

  it('RegionCascader shows the names of the path for both value types', async () => {
    server.on('GET', '/api/blade-system/region/lazy-tree', (r: { query: Record<string, string> }) =>
      ok(
        {
          '00': [{ code: '11', name: '北京市', regionLevel: 1, hasChildren: true }],
          '11': [{ code: '1101', name: '市辖区', regionLevel: 2, hasChildren: true }],
          '1101': [{ code: '110101', name: '东城区', regionLevel: 3, hasChildren: false }],
        }[r.query.parentCode] ?? [],
      ),
    );
    server.on('GET', '/api/blade-system/region/detail', { code: '110101', ancestors: '00,11,1101' });
    renderForm(
      {
        a: { type: 'array', 'x-component': 'RegionCascader' },
        b: { type: 'string', 'x-component': 'RegionCascader', 'x-component-props': { valueType: 'last' } },
      },
      { values: { a: ['11', '1101'], b: '110101' }, readPretty: true },
    );
    expect(await screen.findByText('北京市 / 市辖区')).toBeTruthy();
    expect(await screen.findByText('北京市 / 市辖区 / 东城区')).toBeTruthy();
  });
});

describe('UserPicker', () => {
  it('searches the user directory by name and stores the chosen user’s id; read-only it shows the name', async () => {
    server.on('GET', '/api/blade-user/user-select', (r: { query: Record<string, string> }) =>
      ok(r.query.ids === '77' ? [{ id: '77', realName: '张三', account: 'zs', deptName: '仓储管理部' }] : r.query.keyword === '张' ? [{ id: '77', realName: '张三', account: 'zs', deptName: '仓储管理部' }] : []),
    );
    const form = renderForm({ userId: { type: 'string', 'x-component': 'UserPicker' } });
    const box = screen.getByRole('combobox');
    fireEvent.mouseDown(box);
    fireEvent.change(box, { target: { value: '张' } });
    fireEvent.click(await screen.findByTitle('张三（zs） · 仓储管理部'));
    expect(form.values.userId).toBe('77');
    expect(server.calls('/api/blade-user/user-select').some((c) => c.query.keyword === '张')).toBe(true);
    act(() => form.setPattern('readPretty'));
    expect(await screen.findByText('张三')).toBeTruthy();
  });
});
