/**
 * Label and column widths (issue 18 defects 5 and 12): English labels get the width they need (or wrap), never
 * cut at 130 px; every list column has a width no narrower than its header, and the table scrolls past their
 * sum, so the pinned 操作 column covers nothing.
 */
import { describe, expect, it } from 'vitest';
import thesisJson from '../../../schemas/basic/thesis.json';
import patentJson from '../../../schemas/basic/patent.json';
import { formItemTitles, labelLayout, MAX_LABEL_WIDTH, textWidth } from './label-width.js';
import { DEFAULT_COLUMN_WIDTH, SELECTION_WIDTH, tableWidth, withColumnWidths } from './column-width.js';
import { localizeSchema } from './schema.js';
import { searchSchemaOf } from './SearchBar.js';
import { formSchemaOf } from './FormBody.js';
import type { ResourceSchema } from '../../shared/schema/types.js';

const thesis = thesisJson as unknown as ResourceSchema;
const patent = patentJson as unknown as ResourceSchema;

describe('label widths', () => {
  it('keep the spec 130 px in Chinese and grow to the longest English label, wrapping past the cap', () => {
    expect(textWidth('论文名称')).toBe(56);
    expect(textWidth('Journal / proceedings')).toBeGreaterThan(130);
    const zh = formSchemaOf(thesis, 'zh');
    expect(zh.layout).toMatchObject({ labelWidth: 130, labelWrap: true });
    const en = formSchemaOf(thesis, 'en');
    const need = Math.max(...formItemTitles(en.schema).map(textWidth));
    expect(en.layout.labelWidth).toBeGreaterThan(130);
    expect(en.layout.labelWidth).toBe(Math.min(MAX_LABEL_WIDTH, need + 26));
    expect(en.layout.labelWrap).toBe(true);
    // "Journal / proceedings" and "Achievement source" fit whole
    for (const label of ['Journal / proceedings', 'Achievement source']) expect(textWidth(label) + 26).toBeLessThanOrEqual(en.layout.labelWidth as number);
    expect(labelLayout(['A very long English label that no column could ever hold in one line'], 'en')).toEqual({ labelWidth: MAX_LABEL_WIDTH, labelWrap: true });
  });

  it('the filter bar: English labels fit, the date range spans two columns', () => {
    const en = searchSchemaOf(thesis, 'en');
    const props = en.properties.grid.properties;
    expect(props.title.title).toBe('Thesis title');
    expect(props.createTime['x-decorator-props']).toMatchObject({ gridSpan: 2 });
    expect(en.properties.grid['x-component-props'].minWidth).toBeGreaterThanOrEqual(260);
    expect(JSON.stringify(localizeSchema(thesis.list, 'en'))).not.toMatch(/[\u4e00-\u9fff]/);
  });
});

describe('column widths', () => {
  it('give every column a width no narrower than its header, and the table their sum', () => {
    const cols = withColumnWidths<Record<string, unknown>>([
      { key: 'a', title: '审核状态', width: 40 },
      { key: 'b', title: 'Date of application', sorter: true, width: 100 },
      { key: 'c', title: 'Name' },
      { key: '__actions', title: '操作', width: 200, fixed: 'right' },
    ]);
    expect(cols.map((c) => c.width)).toEqual([textWidth('审核状态') + 34, textWidth('Date of application') + 34 + 22, DEFAULT_COLUMN_WIDTH, 200]);
    expect(tableWidth(cols)).toBe(SELECTION_WIDTH + (cols as Array<{ width: number }>).reduce((w, c) => w + c.width, 0));
    expect(patent.list?.columns?.length).toBeGreaterThan(3);
  });
});
