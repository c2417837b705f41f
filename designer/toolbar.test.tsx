// @vitest-environment jsdom
/**
 * The toolbar and the settings panel on the real studio (spec 002 §2–§5): import (an invalid text is an error
 * and the form stays as it was; a form or a whole resource schema replaces the canvas as one step), generate
 * (the designed form as JSON, indent 1–4), preview (the runtime's form with a working submit; 'no content to
 * show' when empty), clear (asks first; 'no content to clear' when empty), save and publish (the schema
 * lifecycle endpoints), and field and form properties written into the schema.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import fs from 'node:fs';
import path from 'node:path';
import type { TreeNode } from '@pind/designable-core';
import { FakeServer, ok, setLang, type FakeRequest } from '../src/client/runtime/test-utils.js';
import { treeToForm } from './transform.js';
import { renderStudio, waitForHistory } from './test-utils.js';

let server: FakeServer;
beforeEach(() => {
  setLang('zh');
  server = new FakeServer().install();
});

const FORM = {
  type: 'object' as const,
  'x-component-props': { labelWidth: 120 },
  properties: {
    name: { type: 'string' as const, title: '名称', 'x-decorator': 'FormItem', 'x-component': 'Input', 'x-validator': [{ required: true, message: '名称必须填写' }] },
  },
};
const EMPTY = { type: 'object' as const, properties: {} };
const patent = () => JSON.parse(fs.readFileSync(path.resolve(__dirname, '../schemas/basic/patent.json'), 'utf8'));
const button = (name: RegExp) => screen.getByRole('button', { name });
const drawer = async (title: string) => (await screen.findByText(title, { selector: '.ant-drawer-title' })).closest('.ant-drawer-content') as HTMLElement;

describe('import', () => {
  it('refuses an invalid text with an error and keeps the form', async () => {
    const { ws, tree } = renderStudio(FORM);
    await waitForHistory(ws(), 1);
    fireEvent.click(button(/导入JSON/));
    const d = await drawer('导入JSON');
    expect((d.closest('.ant-drawer-content-wrapper') as HTMLElement).style.width).toBe('50%');
    fireEvent.change(within(d).getByRole('textbox'), { target: { value: '{"type": "object", ' } });
    fireEvent.click(within(d).getByRole('button', { name: /确\s*定/ }));
    expect((await within(d).findByRole('alert')).textContent).toContain('配置不合法');
    fireEvent.change(within(d).getByRole('textbox'), { target: { value: '[1, 2]' } });
    fireEvent.click(within(d).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(within(d).getByRole('alert').textContent).toContain('不是表单配置'));
    expect(treeToForm(tree())).toEqual(FORM);
    expect(ws().history.list()).toHaveLength(1);
  });

  it('takes a resource schema and makes it one step', async () => {
    const { ws, tree } = renderStudio(FORM);
    await waitForHistory(ws(), 1);
    fireEvent.click(button(/导入JSON/));
    const d = await drawer('导入JSON');
    fireEvent.change(within(d).getByRole('textbox'), { target: { value: JSON.stringify(patent()) } });
    fireEvent.click(within(d).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(treeToForm(tree())).toEqual(patent().form));
    await waitForHistory(ws(), 2);
  });
});

describe('generate', () => {
  it('shows the designed form as JSON with the chosen indent', async () => {
    const { ws } = renderStudio(FORM);
    await waitForHistory(ws(), 1);
    fireEvent.click(button(/生成JSON/));
    const d = await drawer('生成JSON');
    const text = () => (within(d).getByRole('textbox', { name: '生成JSON' }) as HTMLTextAreaElement).value;
    await waitFor(() => expect(JSON.parse(text())).toEqual(FORM));
    expect(text()).toBe(JSON.stringify(FORM, null, 2));
    fireEvent.change(within(d).getByRole('spinbutton', { name: '缩进' }), { target: { value: '4' } });
    await waitFor(() => expect(text()).toBe(JSON.stringify(FORM, null, 4)));
    fireEvent.change(within(d).getByRole('spinbutton', { name: '缩进' }), { target: { value: '9' } });
    fireEvent.blur(within(d).getByRole('spinbutton', { name: '缩进' }));
    await waitFor(() => expect(text()).toBe(JSON.stringify(FORM, null, 4)));
  });
});

describe('preview', () => {
  it('says there is nothing to show for an empty form', async () => {
    const { ws } = renderStudio(EMPTY);
    await waitForHistory(ws(), 1);
    fireEvent.click(button(/预\s*览/));
    const d = await drawer('预览');
    expect(within(d).getByText('没有需要展示的内容')).toBeTruthy();
    expect((d.closest('.ant-drawer-content-wrapper') as HTMLElement).style.width).toBe('60%');
  });

  it('renders the form as the runtime does, with a submit that validates', async () => {
    const { ws } = renderStudio(FORM);
    await waitForHistory(ws(), 1);
    fireEvent.click(button(/预\s*览/));
    const d = await drawer('预览');
    fireEvent.click(within(d).getByRole('button', { name: /提\s*交/ }));
    expect(await within(d).findByText('名称必须填写')).toBeTruthy();
    fireEvent.change(within(d).getByRole('textbox'), { target: { value: '稻谷' } });
    fireEvent.click(within(d).getByRole('button', { name: /提\s*交/ }));
    expect(await within(d).findByText('提交的数据')).toBeTruthy();
    expect(within(d).getByText(/"name": "稻谷"/)).toBeTruthy();
  });
});

describe('clear', () => {
  it('says there is nothing to clear on an empty form', async () => {
    const { ws } = renderStudio(EMPTY);
    await waitForHistory(ws(), 1);
    fireEvent.click(button(/清\s*空/));
    expect(await screen.findByText('没有需要清空的内容')).toBeTruthy();
  });

  it('asks first, then clears as one step', async () => {
    const { ws, tree } = renderStudio(FORM);
    await waitForHistory(ws(), 1);
    fireEvent.click(button(/清\s*空/));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getAllByText('确定要清空吗？').length).toBeGreaterThan(0);
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(tree().children).toHaveLength(0));
    await waitForHistory(ws(), 2);
  });
});

describe('save and publish', () => {
  it('posts the resource with the designed form, then publishes that version', async () => {
    server.on('POST', '/api/system/schema/submit', (req: FakeRequest) => ok({ name: (req.body as { schema: { name: string } }).schema.name, version: 3, state: 'draft' }));
    server.on('POST', '/api/system/schema/publish', ok(null));
    const resource = patent();
    const { ws, tree } = renderStudio(resource.form, resource);
    await waitForHistory(ws(), 1);
    act(() => {
      tree().find((n) => n.props.name === 'openCode')!.setProps({ title: '公开号码' });
    });
    expect((button(/发\s*布/) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(button(/保\s*存/));
    expect(await screen.findByText('保存成功，版本 3')).toBeTruthy();
    const [call] = server.calls('/api/system/schema/submit', 'POST');
    const { schema: body, name } = call.body as { schema: typeof resource; name: string };
    expect(name).toBe('basic/patent');
    expect(body.name).toBe('basic/patent');
    expect(body.list).toEqual(resource.list);
    expect(body.form.properties.grid.properties.openCode.title).toBe('公开号码');
    expect({ ...body.form, properties: { ...body.form.properties, grid: undefined } }).toEqual({ ...resource.form, properties: { ...resource.form.properties, grid: undefined } });

    await waitFor(() => expect((button(/发\s*布/) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(button(/发\s*布/));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('发布成功，版本 3')).toBeTruthy();
    const [pub] = server.calls('/api/system/schema/publish', 'POST');
    expect(pub.query).toEqual({ name: 'basic/patent', version: '3' });
  });
});

describe('properties', () => {
  it('writes field properties: required and pattern rules with the spec’s messages, width, label', async () => {
    const { ws, tree } = renderStudio({ type: 'object', properties: { zip: { type: 'string', title: '邮编', 'x-decorator': 'FormItem', 'x-component': 'Input' } } });
    await waitForHistory(ws(), 1);
    const node = tree().children[0] as TreeNode;
    act(() => ws().operation.selection.select(node));
    const settings = (await screen.findByRole('textbox', { name: '属性值' })).closest('form') as HTMLElement;
    fireEvent.click(within(settings).getByRole('switch', { name: '是否必填' }));
    await waitFor(() => expect(node.props['x-validator']).toEqual([{ required: true, message: '邮编必须填写', messageEn: '邮编 is required' }]));
    fireEvent.change(within(settings).getByRole('textbox', { name: '正则校验' }), { target: { value: '^\\d{6}$' } });
    await waitFor(() => expect(node.props['x-validator'][1]).toEqual({ pattern: '^\\d{6}$', message: '邮编格式不匹配', messageEn: '邮编 does not match the format' }));
    fireEvent.change(within(settings).getByRole('textbox', { name: '标题' }), { target: { value: '邮政编码' } });
    await waitFor(() => expect(node.props['x-validator'][0].message).toBe('邮政编码必须填写'));
    fireEvent.change(within(settings).getByRole('spinbutton', { name: '宽度' }), { target: { value: '240' } });
    await waitFor(() => expect(node.props['x-component-props']).toEqual({ style: { width: 240 } }));
    fireEvent.change(within(settings).getByRole('textbox', { name: '属性值' }), { target: { value: '1zip' } });
    expect(await within(settings).findByText(/属性值须以字母或下划线开头/)).toBeTruthy();
    expect(node.props.name).toBe('zip');
    fireEvent.change(within(settings).getByRole('textbox', { name: '属性值' }), { target: { value: 'postcode' } });
    await waitFor(() => expect(node.props.name).toBe('postcode'));
    expect(Object.keys(treeToForm(tree()).properties)).toEqual(['postcode']);
  });

  it('writes form properties into the form: label position, detail mode', async () => {
    const { ws, tree } = renderStudio(FORM);
    await waitForHistory(ws(), 1);
    fireEvent.click(screen.getByRole('tab', { name: '表单属性' }));
    fireEvent.click(await screen.findByRole('radio', { name: '顶部' }));
    await waitFor(() => expect(tree().props['x-component-props']).toEqual({ labelWidth: 120, layout: 'vertical' }));
    fireEvent.click(screen.getByRole('radio', { name: '左对齐' }));
    await waitFor(() => expect(tree().props['x-component-props']).toEqual({ labelWidth: 120, labelAlign: 'left' }));
    fireEvent.click(screen.getByRole('switch', { name: '详情模式' }));
    await waitFor(() => expect(treeToForm(tree())['x-pattern']).toBe('readPretty'));
  });
});
