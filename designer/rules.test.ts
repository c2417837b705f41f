/**
 * The designer's rules as functions (spec 002 §5): drops into sub-forms and groups, the messages of the rules
 * the required switch and a pattern add, and duplicate option values.
 */
import { describe, expect, it } from 'vitest';
import { paletteItem } from './palette.js';
import { dropRefusal, duplicateOptionValue, freshName, optionProblem, patternRule, relabel, requiredRule, withPattern, withRequired } from './rules.js';

const schema = (key: string) => paletteItem(key)!.schema as Record<string, any>;
const root = { type: 'object', 'x-component-props': {} };
const subform = schema('subform');
const row = { type: 'object' };
const card = schema('card');

describe('drop rules', () => {
  it('refuses a sub-form, rich text, map or group in a sub-form (its row or deeper)', () => {
    for (const k of ['subform', 'richtext', 'map', 'card']) {
      expect(dropRefusal(schema(k), [row, subform, root]), k).toEqual({ key: 'dz.rule.notInSubform', kind: k });
    }
    expect(dropRefusal(schema('input'), [row, subform, root])).toBeNull();
    expect(dropRefusal(schema('select'), [row, subform, card, root])).toBeNull();
  });

  it('refuses a group in a group, at any depth, and allows it elsewhere', () => {
    expect(dropRefusal(card, [card, root])).toEqual({ key: 'dz.rule.nested', kind: 'card' });
    expect(dropRefusal(card, [schema('grid'), card, root])).toEqual({ key: 'dz.rule.nested', kind: 'card' });
    expect(dropRefusal(card, [root])).toBeNull();
    expect(dropRefusal(schema('subform'), [card, root])).toBeNull();
    expect(dropRefusal(schema('richtext'), [card, root])).toBeNull();
  });
});

describe('generated rules', () => {
  it('required: label + 必须填写, 请选择 + label for choices, 请输入 + label for arrays', () => {
    expect(requiredRule({ type: 'string', title: '名称', titleEn: 'Name', 'x-component': 'Input' }, 'name')).toEqual({ required: true, message: '名称必须填写', messageEn: 'Name is required' });
    expect(requiredRule({ ...schema('select'), title: '类型', titleEn: 'Type' }, 'type')).toEqual({ required: true, message: '请选择类型', messageEn: 'Please select Type' });
    expect(requiredRule({ ...schema('dict'), title: '类型' }, 'type').message).toBe('请选择类型');
    expect(requiredRule({ ...schema('array'), title: '关键词' }, 'kw').message).toBe('请输入关键词');
    expect(requiredRule({ type: 'string', 'x-component': 'Input' }, 'code').message).toBe('code必须填写');
  });

  it('the required switch adds and removes only its rule', () => {
    const node = { type: 'string', title: '邮编', 'x-component': 'Input', 'x-validator': [{ maxLength: 6, message: '太长' }] };
    const on = withRequired(node, 'zip', true)!;
    expect(on).toEqual([{ required: true, message: '邮编必须填写', messageEn: '邮编 is required' }, { maxLength: 6, message: '太长' }]);
    expect(withRequired({ ...node, 'x-validator': on }, 'zip', false)).toEqual([{ maxLength: 6, message: '太长' }]);
    expect(withRequired({ type: 'string' }, 'zip', false)).toBeUndefined();
  });

  it('a pattern adds label + 格式不匹配, replacing the previous pattern', () => {
    expect(patternRule({ title: '邮编', titleEn: 'Postcode' }, 'zip', '^\\d{6}$')).toEqual({ pattern: '^\\d{6}$', message: '邮编格式不匹配', messageEn: 'Postcode does not match the format' });
    const once = withPattern({ title: '邮编' }, 'zip', '^\\d+$')!;
    expect(withPattern({ title: '邮编', 'x-validator': once }, 'zip', '^\\d{6}$')).toEqual([{ pattern: '^\\d{6}$', message: '邮编格式不匹配', messageEn: '邮编 does not match the format' }]);
    expect(withPattern({ title: '邮编', 'x-validator': once }, 'zip', undefined)).toBeUndefined();
  });

  it('a new label renames the generated messages and keeps hand-written ones', () => {
    const before = { type: 'string', title: '名称', 'x-component': 'Input', 'x-validator': [{ required: true, message: '名称必须填写' }, { maxLength: 5, message: '不能超过5个字' }] };
    const after = { ...before, title: '标题' };
    expect(relabel(after, 'name', before)).toEqual([{ required: true, message: '标题必须填写', messageEn: '标题 is required' }, { maxLength: 5, message: '不能超过5个字' }]);
    const custom = { ...before, 'x-validator': [{ required: true, message: '请输入名称' }] };
    expect(relabel({ ...custom, title: '标题' }, 'name', custom)).toEqual([{ required: true, message: '请输入名称' }]);
  });
});

describe('options', () => {
  it('finds a value used twice, in a list or a tree', () => {
    expect(duplicateOptionValue([{ label: 'a', value: '1' }, { label: 'b', value: '2' }])).toBeUndefined();
    expect(duplicateOptionValue([{ label: 'a', value: '1' }, { label: 'b', value: '1' }])).toBe('1');
    expect(duplicateOptionValue([{ label: 'a', value: '1', children: [{ label: 'a1', value: '2' }] }, { label: 'b', value: '2' }])).toBe('2');
  });

  it('checks an entry: 请输入label, 请输入value, value重复', () => {
    const list = [{ label: '一', value: '1' }];
    expect(optionProblem({ label: '', value: '2' }, list)).toBe('dz.opt.labelRequired');
    expect(optionProblem({ label: '二', value: ' ' }, list)).toBe('dz.opt.valueRequired');
    expect(optionProblem({ label: '二', value: '1' }, list)).toBe('dz.opt.duplicate');
    expect(optionProblem({ label: '二', value: '2' }, list)).toBeNull();
  });

  it('makes fresh property keys', () => {
    expect(freshName('input', new Set(['input1', 'input2']))).toBe('input3');
    expect(freshName('items', new Set())).toBe('items1');
  });
});
