/**
 * What is derived from a resource's Formily form (DESIGN §4), exercised on the shipped patent schema
 * (spec 001 §3, §5) and on small hand-made forms: the data fields behind layout nodes, the required check
 * with x-reactions (what the server refuses and what it drops), and the messages a user reads.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import { checkRequired, columnFor, columnRange, dataFields, dateFormats, fieldState, isDateFilterText, isEmptyValue, nodeAtPath, recordJsonSchema, ruleMessage } from './derive.js';
import type { FormNode, ResourceSchema } from './types.js';

const patent: ResourceSchema = JSON.parse(fs.readFileSync(fileURLToPath(new URL('../../../schemas/basic/patent.json', import.meta.url)), 'utf8'));
const form = patent.form;

/** A patent that passes every required rule (projectSource 3: no platform project). */
function complete(): Record<string, unknown> {
  return {
    name: '一种低温储粮控制方法',
    deptId: '1',
    projectSource: 3,
    projectName: '智能粮库关键技术研究',
    projectType: '3',
    type: '1',
    region: '中国',
    address: '北京市西城区',
    postcode: '100032',
    applyDate: '2024-03-15',
    authorizationDate: '2025-06-20',
    authorizationCode: 'ZL202410000000.1',
    code: '第123456号',
    isTransfer: true,
    assignee: [{ name: '某粮油公司', transferType: '2' }],
    ownershipDetailForm: [{ name: '粮储集团有限公司', rank: 1 }],
    userNamesDetailForm: [{ userName: '刘研', rank: 1 }],
    annex: [{ name: '证书.pdf', link: '/upload/20250101/a.pdf' }],
  };
}

const paths = (values: Record<string, unknown>) => checkRequired(form, values).map((f) => f.path);

describe('dataFields', () => {
  it('flattens the void layout nodes of the patent form, keeping form order', () => {
    const names = dataFields(form).map((f) => f.name);
    expect(names).not.toContain('grid');
    expect(names.slice(0, 5)).toEqual(['name', 'deptId', 'projectSource', 'projectId', 'projectName']);
    expect(names).toEqual(expect.arrayContaining(['isTransfer', 'assignee', 'ownershipDetailForm', 'userNamesDetailForm', 'examineStatus', 'annex']));
    expect(names).toHaveLength(22);
  });

  it('looks through nested voids (cards, tabs, grids) and orders by x-index', () => {
    const node: FormNode = {
      type: 'object',
      properties: {
        tabs: {
          type: 'void',
          'x-component': 'FormTab',
          properties: {
            tab1: {
              type: 'void',
              'x-index': 2,
              properties: { later: { type: 'string', 'x-index': 5 }, first: { type: 'string', 'x-index': 1 } },
            },
            middle: { type: 'number', 'x-index': 3 },
          },
        },
        sub: { type: 'object', properties: { inner: { type: 'string' } } },
      },
    };
    expect(dataFields(node).map((f) => f.name)).toEqual(['first', 'later', 'middle', 'sub']);
    // an object field is a data field: its own children are not pulled up
    expect(dataFields(node).find((f) => f.name === 'sub')!.node.properties).toHaveProperty('inner');
  });

  it('answers nothing for a form without properties', () => {
    expect(dataFields({ type: 'object' })).toEqual([]);
  });
});

describe('checkRequired on the patent form', () => {
  it('accepts a complete patent', () => {
    expect(paths(complete())).toEqual([]);
  });

  it('reports every missing required field of an empty record, in form order', () => {
    expect(paths({})).toEqual([
      'name', 'deptId', 'projectSource', 'projectType', 'type', 'region', 'address', 'postcode',
      'applyDate', 'authorizationDate', 'authorizationCode', 'code', 'annex',
    ]);
  });

  it('treats blank strings and empty lists as missing', () => {
    const v = { ...complete(), name: '   ', annex: [] };
    expect(paths(v)).toEqual(['name', 'annex']);
  });

  it('projectSource 3 requires projectName and drops a projectId (not visible)', () => {
    const v = { ...complete(), projectName: '', projectId: '123456' };
    expect(paths(v)).toEqual(['projectName']);
    expect(v).not.toHaveProperty('projectId');
  });

  it('projectSource 1 requires projectId and does not require projectName', () => {
    const v = { ...complete(), projectSource: 1, projectName: undefined };
    expect(paths(v)).toEqual(['projectId']);
    const ok = { ...complete(), projectSource: 1, projectId: '123456', projectName: undefined };
    expect(paths(ok)).toEqual([]);
    expect(ok.projectId).toBe('123456');
  });

  it('projectSource 2 also shows and requires the project picker', () => {
    expect(paths({ ...complete(), projectSource: 2 })).toEqual(['projectId']);
  });

  it('requires the name of every assignee item (path assignee.<i>.name)', () => {
    const v = { ...complete(), assignee: [{ name: '甲公司', transferType: '1' }, { transferType: '2' }, { name: '', transferType: '' }] };
    expect(paths(v)).toEqual(['assignee.1.name', 'assignee.2.name', 'assignee.2.transferType']);
  });

  it('requires the patentee and inventor names inside their sub-forms', () => {
    const v = { ...complete(), ownershipDetailForm: [{ rank: 1 }], userNamesDetailForm: [{ userName: '刘研' }, { rank: 2 }] };
    expect(paths(v)).toEqual(['ownershipDetailForm.0.name', 'userNamesDetailForm.1.userName']);
  });

  it('isTransfer false hides the assignees: their value is removed and not checked', () => {
    const v = { ...complete(), isTransfer: false, assignee: [{ transferType: '2' }] };
    expect(paths(v)).toEqual([]);
    expect(v).not.toHaveProperty('assignee');
  });

  it('isTransfer true keeps the assignees', () => {
    const v = complete();
    checkRequired(form, v);
    expect(v.assignee).toEqual([{ name: '某粮油公司', transferType: '2' }]);
  });
});

describe('fieldState', () => {
  const projectName = nodeAtPath(form, 'projectName')!.node;
  it('keeps a display:hidden field visible (its value stays) but not required', () => {
    expect(fieldState(projectName, { projectSource: 1 }, {}, undefined)).toEqual({ visible: true, required: false });
    expect(fieldState(projectName, { projectSource: 3 }, {}, undefined)).toEqual({ visible: true, required: true });
  });

  it('x-display none hides a field', () => {
    expect(fieldState({ type: 'string', 'x-display': 'none' }, {}, {}, undefined).visible).toBe(false);
  });

  it('reads sibling values of an array item through relative dependencies (.field)', () => {
    const node: FormNode = {
      type: 'string',
      'x-reactions': { dependencies: ['.kind'], fulfill: { state: { required: '{{$deps[0] === "other"}}' } } },
    };
    expect(fieldState(node, {}, { kind: 'other' }, undefined).required).toBe(true);
    expect(fieldState(node, {}, { kind: 'x' }, undefined).required).toBe(false);
  });
});

describe('ruleMessage', () => {
  it("gives the schema's own message (zh and en)", () => {
    expect(ruleMessage(nodeAtPath(form, 'name')!.node, 'name', 'required')).toEqual({ zh: '请输入专利名称', en: 'Please enter the patent name' });
    expect(ruleMessage(nodeAtPath(form, 'assignee.0.name')!.node, 'name', 'required')).toEqual({ zh: '请输入受让方名称', en: 'Please enter the assignee' });
    expect(ruleMessage(nodeAtPath(form, 'projectName')!.node, 'projectName', 'maxLength', { limit: 50 })).toEqual({
      zh: '项目名称不能超过50个字符',
      en: 'The project name must be at most 50 characters',
    });
  });

  it('falls back to {label}必须填写 for an input without a message', () => {
    const node: FormNode = { type: 'string', title: '备注', titleEn: 'Remark', 'x-component': 'Input', required: true };
    expect(ruleMessage(node, 'remark', 'required')).toEqual({ zh: '备注必须填写', en: 'Remark is required' });
  });

  it('falls back to 请选择{label} for choice components', () => {
    for (const c of ['Select', 'DictSelect', 'DatePicker', 'Radio.Group', 'Cascader', 'Upload']) {
      const node: FormNode = { type: 'string', title: '类别', titleEn: 'Category', 'x-component': c, required: true };
      expect(ruleMessage(node, 'category', 'required')).toEqual({ zh: '请选择类别', en: 'Please select Category' });
    }
  });

  it('uses the field name when there is no title, and fills limits into generic texts', () => {
    expect(ruleMessage({ type: 'string', 'x-component': 'Input' }, 'code', 'required').zh).toBe('code必须填写');
    const node: FormNode = { type: 'string', title: '邮编', titleEn: 'Postcode', maxLength: 6 };
    expect(ruleMessage(node, 'postcode', 'maxLength', { limit: 6 })).toEqual({ zh: '邮编长度不能超过 6 个字符', en: 'Postcode must be at most 6 characters' });
  });

  it("does not borrow another rule's message for a different keyword", () => {
    // patent name has only a required message: a maxLength failure gets the generic text
    expect(ruleMessage(nodeAtPath(form, 'name')!.node, 'name', 'maxLength', { limit: 100 }).zh).toBe('专利名称长度不能超过 100 个字符');
  });
});

describe('helpers', () => {
  it('isEmptyValue: what a person calls empty', () => {
    for (const v of [undefined, null, '', '  ', [], {}]) expect(isEmptyValue(v)).toBe(true);
    for (const v of [0, false, 'a', [0], { a: 1 }]) expect(isEmptyValue(v)).toBe(false);
  });

  it('nodeAtPath steps into array items', () => {
    expect(nodeAtPath(form, 'assignee.3.transferType')?.node.title).toBe('转化方式');
    expect(nodeAtPath(form, 'nope')).toBeNull();
  });

  it('columnFor maps types as DESIGN §4 says', () => {
    expect(columnFor('applyDate', { type: 'string', format: 'date' }).sqlType).toBe('date');
    expect(columnFor('at', { type: 'string', format: 'date-time' }).sqlType).toBe('timestamp with time zone');
    expect(columnFor('year', { type: 'string', format: 'year' }).sqlType).toBe('character varying(4)');
    expect(columnFor('t', { type: 'string' }).sqlType).toBe('text');
    expect(columnFor('t', { type: 'string', maxLength: 30 })).toMatchObject({ column: 't', sqlType: 'character varying(30)' });
    expect(columnFor('amount', { type: 'number' }).sqlType).toBe('numeric');
    expect(columnFor('projectSource', { type: 'integer' })).toMatchObject({ column: 'project_source', sqlType: 'bigint' });
    expect(columnFor('flag', { type: 'boolean' }).sqlType).toBe('boolean');
    expect(columnFor('list', { type: 'array' }).sqlType).toBe('jsonb');
    expect(columnFor('obj', { type: 'object' }).sqlType).toBe('jsonb');
    expect(columnFor('x', { type: 'string', 'x-column': { name: 'legacy_x', type: 'text' } })).toMatchObject({ column: 'legacy_x', sqlType: 'text' });
  });
});

describe('what the database would refuse (DESIGN §11)', () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  for (const [name, check] of Object.entries(dateFormats)) ajv.addFormat(name, check);
  const errorsOf = (resource: ResourceSchema, record: Record<string, unknown>) => {
    const v = ajv.compile(recordJsonSchema(resource));
    v(record);
    return (v.errors ?? []).map((e) => `${e.instancePath} ${e.keyword} ${(e.params as { limit?: unknown }).limit ?? ''}`.trim());
  };
  const demo = (properties: Record<string, FormNode>): ResourceSchema =>
    ({ name: 'demo/x', title: '演示', titleEn: 'Demo', api: '/api/demo/x', table: 'demo_x', endpoints: ['list'], form: { type: 'object', properties } }) as ResourceSchema;

  it('columnRange: the values a JSON number may take in each numeric column type', () => {
    expect(columnRange('integer')).toEqual({ min: -2147483648, max: 2147483647, integer: true });
    expect(columnRange('smallint')).toEqual({ min: -32768, max: 32767, integer: true });
    expect(columnRange('bigint')).toEqual({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, integer: true });
    expect(columnRange('numeric(10,2)')).toEqual({ min: -99999999.99, max: 99999999.99, integer: false });
    expect(columnRange('NUMERIC(5)')).toEqual({ min: -99999, max: 99999, integer: false });
    expect(columnRange('numeric')).toEqual({ min: -Number.MAX_VALUE, max: Number.MAX_VALUE, integer: false });
    expect(columnRange('text')).toBeUndefined();
  });

  it('an integer field (bigint) is bounded to the safe integers; 1e400 (Infinity) and 2^53 are refused', () => {
    expect(errorsOf(patent, { projectSource: 9007199254740992 })).toContain(`/projectSource maximum ${Number.MAX_SAFE_INTEGER}`);
    expect(errorsOf(patent, { projectSource: Infinity })).toContain(`/projectSource maximum ${Number.MAX_SAFE_INTEGER}`);
    expect(errorsOf(patent, { projectSource: -Infinity })).toContain(`/projectSource minimum ${-Number.MAX_SAFE_INTEGER}`);
    // nested integers (jsonb) stay exact too, nested numbers finite
    expect(errorsOf(patent, { ownershipDetailForm: [{ name: 'a', rank: 1e300 }] })).toContain(`/ownershipDetailForm/0/rank maximum ${Number.MAX_SAFE_INTEGER}`);
    expect(errorsOf(patent, { assignee: [{ name: 'a', amount: Infinity }] })).toContain(`/assignee/0/amount maximum ${Number.MAX_VALUE}`);
  });

  it("the schema's own smaller bound stays; an integer or numeric(p,s) column bounds a number field", () => {
    const r = demo({
      small: { type: 'integer', maximum: 10, minimum: 1 },
      int4: { type: 'integer', 'x-column': { type: 'integer' } },
      money: { type: 'number', 'x-column': { type: 'numeric(6,2)' } },
      count: { type: 'number', 'x-column': { type: 'integer' } },
      ruled: { type: 'integer', 'x-validator': [{ maximum: 5, message: '不能大于5' }] },
    });
    expect(errorsOf(r, { small: 11 })).toEqual(['/small maximum 10']);
    expect(errorsOf(r, { int4: 2147483648 })).toEqual(['/int4 maximum 2147483647']);
    expect(errorsOf(r, { int4: -2147483648 })).toEqual([]);
    expect(errorsOf(r, { money: 10000 })).toEqual(['/money maximum 9999.99']);
    expect(errorsOf(r, { money: 9999.99 })).toEqual([]);
    expect(errorsOf(r, { count: 1.5 })).toEqual(['/count type']);
    expect(errorsOf(r, { ruled: 6 })).toEqual(['/ruled maximum 5']);
  });

  it("ruleMessage: a column's bound reads <label>超出允许范围, the schema's own keeps its text", () => {
    const node: FormNode = { type: 'integer', title: '排序', titleEn: 'Sort order', maximum: 100 };
    expect(ruleMessage(node, 'sort', 'maximum', { limit: Number.MAX_SAFE_INTEGER })).toEqual({ zh: '排序超出允许范围', en: 'Sort order is out of range' });
    expect(ruleMessage(node, 'sort', 'minimum', { limit: -Number.MAX_SAFE_INTEGER })).toEqual({ zh: '排序超出允许范围', en: 'Sort order is out of range' });
    expect(ruleMessage(node, 'sort', 'maximum', { limit: 100 })).toEqual({ zh: '排序不能大于 100', en: 'Sort order must be at most 100' });
    const ruled: FormNode = { type: 'integer', title: '排序', 'x-validator': [{ max: 5, message: '排序最大为5', messageEn: 'At most 5' }] };
    expect(ruleMessage(ruled, 'sort', 'maximum', { limit: 5 })).toEqual({ zh: '排序最大为5', en: 'At most 5' });
  });

  it('the id and strings stored as bigint must be ids within the bigint range', () => {
    const r = demo({ parentId: { type: 'string', 'x-column': { type: 'bigint' } }, refId: { type: 'string', pattern: '^\\d+$', 'x-column': { type: 'bigint' } } });
    expect(errorsOf(r, { id: '9223372036854775807', parentId: '9223372036854775807', refId: '1' })).toEqual([]);
    expect(errorsOf(r, { id: '9999999999999999999' })).toEqual(['/id pattern']);
    expect(errorsOf(r, { parentId: '9223372036854775808' })).toEqual(['/parentId pattern']);
    expect(errorsOf(r, { refId: '9999999999999999999' })).toEqual(['/refId pattern']);
  });

  it('date formats accept only real days, times, years and months', () => {
    const ok = (format: string, s: string) => dateFormats[`kc-${format}`](s);
    for (const s of ['2024-02-29', '2023-12-31', '0001-01-01']) expect(ok('date', s), s).toBe(true);
    for (const s of ['2024-02-30', '2023-02-29', '2024-13-01', '0000-01-01', '2024-00-10', '2024-1-1', '2024-02-29 10:00:00']) expect(ok('date', s), s).toBe(false);
    expect(ok('date-time', '2024-02-29 23:59:59')).toBe(true);
    for (const s of ['2024-02-29 24:00:00', '2024-01-01 24:61:61', '2024-01-01 23:60:00', '2024-01-01 23:59:60', '2024-02-30 10:00:00', '2024-01-01 10:00']) expect(ok('date-time', s), s).toBe(false);
    expect(ok('year', '2024')).toBe(true);
    expect(ok('year', '0000')).toBe(false);
    expect(ok('month', '2024-12')).toBe(true);
    for (const s of ['2024-13', '2024-00', '0000-01']) expect(ok('month', s), s).toBe(false);
  });

  it('isDateFilterText: a day, optionally with HH:mm or HH:mm:ss, all real', () => {
    for (const s of ['2024-02-29', '2024-02-29 00:00', '2024-02-29 23:59:59', '9999-12-31']) expect(isDateFilterText(s), s).toBe(true);
    for (const s of ['2024-02-30', '2023-02-29', '2024-13-01', '0000-01-01', '2024-01-01 24:00', '2024-01-01 24:61:61', '2024-01-01 12:60', '2024-01-01T10:00', 'yesterday', '2024-01-01 10'])
      expect(isDateFilterText(s), s).toBe(false);
  });
});
