// @vitest-environment jsdom
/**
 * Pure schema helpers of the runtime: localizeSchema (en from the …En companions, zh unchanged), the
 * Formily preparation (date formats, ArrayTable columns), search parameters (operators, empty values dropped,
 * the creation date range) and list cells (-1 empty, enum labels, booleans, dates as text).
 */
import { describe, expect, it } from 'vitest';
import i18n from '../shell/i18n.js';
import type { FormNode } from '../../shared/schema/types.js';
import { fieldLabel, localizeSchema, prepareFormSchema } from './schema.js';
import { searchParams, searchSchemaOf } from './SearchBar.js';
import { isBlankCell, renderCell } from './cells.js';
import { patentSchema, regionSchema } from './fixtures.js';
import thesisJson from '../../../schemas/basic/thesis.json';
import bookJson from '../../../schemas/basic/book.json';

const ALL_SCHEMAS = import.meta.glob('../../../schemas/*/*.json', { eager: true, import: 'default' });

const props = (n: any) => n.properties;

describe('localizeSchema', () => {
  it('answers English titles, descriptions, enum labels and messages in en', () => {
    const en = localizeSchema(patentSchema.form, 'en') as any;
    const grid = props(en).grid;
    expect(props(grid).name.title).toBe('Patent name');
    expect(props(grid).name['x-validator'][0].message).toBe('Please enter the patent name');
    expect(props(grid).projectSource.enum.map((e: any) => e.label)).toEqual(['A project declared on the platform', 'A project on the platform not yet declared', 'None']);
    expect(props(props(en).assignee.items).name.title).toBe('Assignee');
    const region = localizeSchema(regionSchema.form, 'en') as any;
    expect(props(props(region).grid).regionLevel.description).toBe('Derived from the parent region');
    expect(JSON.stringify(en)).not.toMatch(/"(titleEn|messageEn|labelEn|descriptionEn)"/);
  });

  it('localizes fields named title or description like any other, and drops the maintainers\' $comment (issue 18 defects 7, 13)', () => {
    const thesis = localizeSchema(thesisJson.form, 'en') as any;
    expect(props(props(thesis).grid).title.title).toBe('Thesis title');
    expect(props(props(thesis).grid).title['x-validator'][0].message).toMatch(/^Please enter/);
    const book = localizeSchema(bookJson.form, 'en') as any;
    const bookGrid = JSON.stringify(book);
    expect(bookGrid).toContain('"title":"Description"');
    expect(bookGrid).not.toContain('著作简介');
    for (const json of [patentSchema, thesisJson, bookJson]) {
      for (const lang of ['zh', 'en'] as const) {
        const text = JSON.stringify(localizeSchema(json.form, lang));
        expect(text).not.toContain('$comment');
        expect(text).not.toContain('由审核操作写入');
        expect(text).not.toContain('Written by the review actions');
      }
    }
  });

  it('every user-facing description of every schema exists in zh and en', () => {
    const missing: string[] = [];
    const walk = (n: any, at: string) => {
      if (!n || typeof n !== 'object') return;
      if (typeof n.description === 'string' && typeof n.descriptionEn !== 'string') missing.push(at);
      for (const [k, v] of Object.entries(n.properties ?? {})) walk(v, `${at}.${k}`);
      if (n.items) walk(n.items, `${at}[]`);
    };
    for (const [file, json] of Object.entries(ALL_SCHEMAS)) walk((json as any).form, file);
    expect(missing).toEqual([]);
  });

  it('keeps the zh texts in zh, and leaves reactions and defaults alone', () => {
    const zh = localizeSchema(patentSchema.form, 'zh') as any;
    const grid = props(zh).grid;
    expect(props(grid).name.title).toBe('专利名称');
    expect(props(grid).name['x-validator'][0].message).toBe('请输入专利名称');
    expect(props(grid).projectSource.enum[2]).toEqual({ label: '无', value: 3 });
    expect(props(grid).projectId['x-reactions']).toEqual((patentSchema.form.properties.grid.properties as any).projectId['x-reactions']);
    expect(props(grid).isTransfer.default).toBe(true);
  });

  it('localizes …En keys of component props and the whole resource', () => {
    const node: FormNode = { type: 'string', title: '名称', 'x-component-props': { placeholder: '请输入', placeholderEn: 'Enter' } };
    expect((localizeSchema(node, 'en') as any)['x-component-props']).toEqual({ placeholder: 'Enter' });
    expect((localizeSchema(node, 'zh') as any)['x-component-props']).toEqual({ placeholder: '请输入' });
    expect(localizeSchema(patentSchema, 'en').title).toBe('Patent');
    expect(fieldLabel(patentSchema, 'applyDate', 'en')).toBe('Application date');
    expect(fieldLabel(patentSchema, 'createTime', 'zh')).toBe('创建时间');
  });
});

describe('prepareFormSchema', () => {
  it('gives date pickers the format of the field and sub-form tables their columns', () => {
    const out = prepareFormSchema(localizeSchema(patentSchema.form, 'zh'), 'zh') as any;
    expect(props(props(out).grid).applyDate['x-component-props']).toMatchObject({ format: 'YYYY-MM-DD' });
    const assignee = props(out).assignee;
    const cols = Object.values(props(assignee.items)) as any[];
    expect(cols.every((c) => c['x-component'] === 'ArrayTable.Column')).toBe(true);
    expect(cols.map((c) => c['x-component-props'].title)).toEqual(['序号', '受让方名称', '转化方式', '转让日期', '合同金额（万元）', '操作']);
    expect(props(cols[1]).name['x-validator'][0].message).toBe('请输入受让方名称');
    expect(props(cols[1]).name.title).toBeUndefined();
    expect(Object.values(props(assignee)).map((p: any) => p['x-component'])).toEqual(['ArrayTable.Addition']);
    expect(assignee['x-component-props']).toEqual({ pagination: false });
    expect(props(out).annex['x-component-props']).toMatchObject({ maxCount: 20, maxSize: 52428800 });
    const view = props(prepareFormSchema(localizeSchema(patentSchema.form, 'zh'), 'zh', { readPretty: true }) as any).assignee;
    expect(Object.keys(props(view.items))).not.toContain('__operations');
    expect(view.properties).toBeUndefined();
    const dt = prepareFormSchema({ type: 'string', format: 'date-time', 'x-component': 'DatePicker' } as FormNode, 'zh') as any;
    expect(dt['x-component-props']).toMatchObject({ showTime: true, format: 'YYYY-MM-DD HH:mm:ss' });
    const year = prepareFormSchema({ type: 'string', format: 'year', 'x-component': 'DatePicker' } as FormNode, 'zh') as any;
    expect(year['x-component-props']).toMatchObject({ picker: 'year', format: 'YYYY' });
  });
});

describe('search', () => {
  it('builds the search form from list.search with the creation date range', () => {
    const s = searchSchemaOf(patentSchema, 'zh').properties.grid;
    expect(Object.keys(s.properties)).toEqual(['name', 'type', 'authorizationCode', 'createTime']);
    expect(s.properties.type['x-component']).toBe('DictSelect');
    expect(s.properties.type['x-validator']).toBeUndefined();
    expect(s.properties.createTime['x-component']).toBe('DatePicker.RangePicker');
  });

  it('turns values into parameters by operator and drops empty values', () => {
    expect(searchParams(patentSchema, { name: ' 粮仓 ', type: '1', authorizationCode: '', createTime: ['2024-01-01', '2024-01-31'] })).toEqual({
      name: '粮仓',
      type_equal: '1',
      createTime_dategt: '2024-01-01 00:00:00',
      createTime_datelt: '2024-01-31 23:59:59',
    });
    expect(searchParams(patentSchema, { name: '   ', type: null, authorizationCode: undefined, createTime: [] })).toEqual({});
  });
});

describe('cells', () => {
  const t = i18n.getFixedT('zh');
  it('shows -1 and empty values as empty, enum labels, booleans and dates as text', () => {
    expect(isBlankCell(-1)).toBe(true);
    expect(isBlankCell('-1')).toBe(true);
    expect(renderCell({ type: 'string' }, -1, t)).toBe('');
    expect(renderCell({ type: 'integer' }, '-1', t)).toBe('');
    expect(renderCell({ type: 'integer' }, 0, t)).toBe('0');
    const source = (patentSchema.form.properties.grid.properties as any).projectSource as FormNode;
    expect(renderCell(source, 3, t)).toBe('无');
    expect(renderCell({ type: 'boolean' }, true, t)).toBe('是');
    expect(renderCell({ type: 'string', format: 'date' }, '2024-01-02 00:00:00', t)).toBe('2024-01-02');
    expect(renderCell({ type: 'string', format: 'year' }, '2024', t)).toBe('2024');
    expect(renderCell({ type: 'array', 'x-component': 'FileUpload' }, [{ name: 'a', link: '/a', originalName: '证书.pdf' }], t)).toBe('证书.pdf');
  });
});
