// @vitest-environment jsdom
/**
 * The drop rules of spec 002 §5 on the real studio: the answer Designable's drag-and-drop asks for
 * (`TreeNode.allowAppend`, which calls our behaviours' `allowDrop`) and a click on the palette obey the same
 * rule — a sub-form, rich text, map or group is refused inside a sub-form, a group inside a group, with the
 * reason shown and the form unchanged; fields go into them. Duplicate option values are refused (value重复).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TreeNode } from '@pind/designable-core';
import { FakeServer, setLang } from '../src/client/runtime/test-utils.js';
import { paletteResources } from './engine.js';
import { clickPalette, renderStudio, waitForHistory } from './test-utils.js';

beforeEach(() => {
  setLang('zh');
  new FakeServer().install();
});

const FORM = {
  type: 'object' as const,
  properties: {
    group: { type: 'void' as const, title: '基本信息', 'x-component': 'Card', properties: { name: { type: 'string' as const, title: '名称', 'x-decorator': 'FormItem', 'x-component': 'Input' } } },
    rows: {
      type: 'array' as const,
      title: '明细',
      'x-decorator': 'FormItem',
      'x-component': 'ArrayTable',
      items: { type: 'object' as const, properties: { item: { type: 'string' as const, title: '项目', 'x-decorator': 'FormItem', 'x-component': 'Input' } } },
    },
    kind: { type: 'string' as const, title: '类型', 'x-decorator': 'FormItem', 'x-component': 'Select', enum: [{ label: '甲', value: 'a' }, { label: '乙', value: 'b' }] },
  },
};

function setup() {
  const studio = renderStudio(FORM);
  const find = (name: string) => studio.tree().find((n) => n.props.name === name) as TreeNode;
  const select = (n: TreeNode) => act(() => studio.ws().operation.selection.select(n));
  return { ...studio, find, select };
}

describe('drop rules', () => {
  it('answers Designable’s drag check with the rules', async () => {
    const { ws, find } = setup();
    await waitForHistory(ws(), 1);
    const sources = paletteResources();
    const source = (k: string) => sources.get(k)!.node.children[0];
    const row = find('rows').children[0];
    for (const k of ['subform', 'richtext', 'map', 'card']) expect(row.allowAppend([source(k)]), k).toBe(false);
    for (const k of ['input', 'select', 'date', 'upload']) expect(row.allowAppend([source(k)]), k).toBe(true);
    expect(find('group').allowAppend([source('card')])).toBe(false);
    expect(find('group').allowAppend([source('subform')])).toBe(true);
    expect(ws().operation.tree.allowAppend([source('card')])).toBe(true);
    // a field never takes children
    expect(find('kind').allowAppend([source('input')])).toBe(false);
  });

  it('refuses a click that breaks a rule, says why and leaves the form as it was', async () => {
    const { ws, find, select, tree } = setup();
    await waitForHistory(ws(), 1);
    select(find('rows'));
    clickPalette('richtext');
    expect(await screen.findByText('富文本不能放入子表单')).toBeTruthy();
    clickPalette('card');
    expect(await screen.findByText('分组不能放入子表单')).toBeTruthy();
    expect(find('rows').children[0].children).toHaveLength(1);

    select(find('group'));
    clickPalette('card');
    expect(await screen.findByText('分组不能放入分组')).toBeTruthy();
    expect(find('group').children).toHaveLength(1);
    expect(ws().history.list()).toHaveLength(1);

    // fields are welcome: into the sub-form's row, into the group, after a selected field
    select(find('rows'));
    clickPalette('input');
    await waitFor(() => expect(find('rows').children[0].children).toHaveLength(2));
    select(find('group'));
    clickPalette('subform');
    await waitFor(() => expect(find('group').children).toHaveLength(2));
    select(find('kind'));
    clickPalette('number');
    await waitFor(() => expect(tree().children.map((c) => c.props.name)).toEqual(['group', 'rows', 'kind', 'number1']));
    // the names are fresh in their scopes
    expect(find('rows').children[0].children.map((c) => c.props.name)).toEqual(['item', 'input1']);
  });

  it('refuses a duplicate option value (value重复) and takes a new one', async () => {
    const { ws, find, select } = setup();
    await waitForHistory(ws(), 1);
    select(find('kind'));
    const panel = await screen.findByText('字典配置');
    const settings = panel.closest('form') as HTMLElement;
    fireEvent.click(within(settings).getByRole('button', { name: /添加选项/ }));
    const label = within(settings).getAllByRole('textbox', { name: 'label' }).at(-1)!;
    const value = within(settings).getAllByRole('textbox', { name: 'value' }).at(-1)!;
    fireEvent.change(label, { target: { value: '丙' } });
    fireEvent.change(value, { target: { value: 'a' } });
    fireEvent.click(within(settings).getByRole('button', { name: /确\s*定/ }));
    expect(await within(settings).findByText('value重复')).toBeTruthy();
    expect(find('kind').props.enum).toHaveLength(2);
    fireEvent.change(value, { target: { value: 'c' } });
    fireEvent.click(within(settings).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(find('kind').props.enum).toEqual([{ label: '甲', value: 'a' }, { label: '乙', value: 'b' }, { label: '丙', value: 'c' }]));
    fireEvent.click(within(settings).getByRole('button', { name: /添加选项/ }));
    fireEvent.click(within(settings).getByRole('button', { name: /确\s*定/ }));
    expect(await within(settings).findByText('请输入label')).toBeTruthy();
  });
});
