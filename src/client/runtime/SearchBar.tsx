/**
 * The search form of a list (spec 000 §9, 002 §2), built from `list.search`: each entry's field appears with
 * its own form component (DictSelect, DeptTreeSelect, Input ...; radios and switches as a Select, text areas
 * as an Input) in a responsive FormGrid, with the creation date range last, then the Search / Reset buttons.
 *
 * Parameters (`searchParams`): operator `like` (default) → `<field>` (contains for text, equal otherwise),
 * `equal` → `<field>_equal`, `daterange` → `<field>_datege` / `<field>_datele`; the creation date range →
 * `createTime_dategt` (start 00:00:00) and `createTime_datelt` (end 23:59:59). Empty values (undefined, null,
 * blank text, empty arrays) are dropped. Search, Reset and any change of the creation date call `onSearch`,
 * and the list goes back to page 1.
 */
import React, { useMemo } from 'react';
import { Button, Space } from 'antd';
import { SearchOutlined, ReloadOutlined } from '@ant-design/icons';
import { createForm, onFieldValueChange } from '@formily/core';
import { FormProvider } from '@formily/react';
import { FormLayout } from '@formily/antd-v5';
import { useTranslation } from 'react-i18next';
import i18n from 'i18next';
import type { FormNode, ResourceSchema } from '../../shared/schema/types.js';
import { SchemaField } from '../components/registry.js';
import { fieldNodes, localizeSchema } from './schema.js';
import { formItemTitles, labelLayout } from './label-width.js';
import type { Lang } from '../../shared/contract/lang.js';
import { CREATE_TIME_FROM, CREATE_TIME_TO } from '../../shared/contract/query.js';

export const CREATE_TIME = 'createTime';

const SKIP = /^(FileUpload|Upload|Array|Card|FormGrid|Text)/;

/** The search field for one form node, or null when a field cannot be searched. */
function searchNode(node: FormNode, operator: string | undefined): Record<string, unknown> | null {
  const comp = node['x-component'] ?? 'Input';
  if (SKIP.test(comp) || node.type === 'object' || (node.type === 'array' && !comp.includes('Select'))) return null;
  const props: Record<string, unknown> = { ...(node['x-component-props'] ?? {}) };
  delete props.nameField;
  const out: Record<string, unknown> = { type: node.type, title: node.title, enum: node.enum, 'x-decorator': 'FormItem', 'x-component': comp, 'x-component-props': props };
  if (operator === 'daterange' || comp.startsWith('DatePicker')) {
    out.type = 'array';
    out['x-component'] = 'DatePicker.RangePicker';
    out['x-component-props'] = { format: 'YYYY-MM-DD' };
  } else if (comp === 'Radio.Group' || comp === 'Checkbox.Group') {
    out['x-component'] = 'Select';
    out['x-component-props'] = { allowClear: true, style: { minWidth: 160 } };
  } else if (comp === 'Switch' || node.type === 'boolean') {
    out['x-component'] = 'Select';
    out.enum = [
      { label: i18n.t('rt.yes'), value: true },
      { label: i18n.t('rt.no'), value: false },
    ];
    out['x-component-props'] = { allowClear: true, style: { minWidth: 100 } };
  } else if (comp === 'Input.TextArea' || comp === 'Password') {
    out['x-component'] = 'Input';
    out['x-component-props'] = { allowClear: true };
  } else if (comp.includes('Select') || comp.includes('Picker') || comp.includes('Cascader')) {
    props.allowClear = true;
    props.style = { minWidth: 180, ...((props.style as object) ?? {}) };
  } else props.allowClear = true;
  return out;
}

/** The filter bar's label width: 110 px in Chinese, what its longest label needs in English (label-width.ts). */
const SEARCH_LABEL_WIDTH = 110;
function searchLabelLayout(properties: Record<string, unknown>, lang: Lang) {
  return labelLayout(formItemTitles({ properties }), lang, SEARCH_LABEL_WIDTH);
}

/** The Formily schema of the search form (localized). */
export function searchSchemaOf(resource: ResourceSchema, lang: Lang): Record<string, any> {
  const nodes = fieldNodes(localizeSchema(resource, lang));
  const properties: Record<string, unknown> = {};
  for (const s of resource.list?.search ?? []) {
    const node = nodes.get(s.field);
    const sn = node && searchNode(node, s.operator);
    if (sn) properties[s.field] = sn;
  }
  if (!properties[CREATE_TIME]) {
    properties[CREATE_TIME] = {
      type: 'array',
      title: i18n.t('rt.field.createTime', { lng: lang }),
      'x-decorator': 'FormItem',
      'x-component': 'DatePicker.RangePicker',
      'x-component-props': { format: 'YYYY-MM-DD', placeholder: [i18n.t('rt.startDate', { lng: lang }), i18n.t('rt.endDate', { lng: lang })] },
    };
  }
  // a date range needs room for both placeholders ("Start date" / "End date" were cut): two grid columns
  for (const node of Object.values(properties) as Array<Record<string, any>>) {
    if (node['x-component'] === 'DatePicker.RangePicker') node['x-decorator-props'] = { ...node['x-decorator-props'], gridSpan: 2 };
  }
  // a responsive grid of search fields (one to four columns, each at least the label plus 170px of control)
  const { labelWidth } = searchLabelLayout(properties, lang);
  return {
    type: 'object',
    properties: { grid: { type: 'void', 'x-component': 'FormGrid', 'x-component-props': { minColumns: 1, maxColumns: 4, minWidth: Math.max(260, labelWidth + 170), columnGap: 16 }, properties } },
  };
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.every((x) => x === undefined || x === null || x === ''));

/** The list parameters of the search values; empty values dropped. */
export function searchParams(resource: ResourceSchema, values: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (k: string, v: unknown) => {
    if (!blank(v)) out[k] = typeof v === 'string' ? v.trim() : Array.isArray(v) ? v.join(',') : String(v);
  };
  const ops = new Map((resource.list?.search ?? []).map((s) => [s.field, s.operator]));
  for (const [field, v] of Object.entries(values)) {
    if (blank(v)) continue;
    const op = ops.get(field);
    if (field === CREATE_TIME && !ops.has(CREATE_TIME)) {
      const [a, b] = v as string[];
      if (a) out[CREATE_TIME_FROM] = `${a} 00:00:00`;
      if (b) out[CREATE_TIME_TO] = `${b} 23:59:59`;
    } else if (Array.isArray(v) && (op === 'daterange' || fieldNodes(resource).get(field)?.['x-component']?.startsWith('DatePicker'))) {
      put(`${field}_datege`, v[0]);
      put(`${field}_datele`, v[1]);
    } else if (op === 'equal') put(`${field}_equal`, v);
    else put(field, v);
  }
  return out;
}

export interface SearchBarProps {
  resource: ResourceSchema;
  lang: Lang;
  onSearch: (params: Record<string, string>) => void;
}

export function SearchBar({ resource, lang, onSearch }: SearchBarProps) {
  const { t } = useTranslation();
  const schema = useMemo(() => searchSchemaOf(resource, lang), [resource, lang]);
  const form = useMemo(
    () =>
      createForm({
        effects() {
          // a change of the creation date searches at once (spec 000 §9)
          onFieldValueChange(CREATE_TIME, (field, f) => {
            if (f.mounted) onSearch(searchParams(resource, f.values));
          });
        },
      }),
    // the form lives as long as the resource; onSearch must be stable (it only sets state)
    [resource, onSearch],
  );
  return (
    <div className="kc-search" style={{ marginBottom: 16 }}>
      <FormProvider form={form}>
        <FormLayout {...searchLabelLayout(schema.properties.grid.properties, lang)} feedbackLayout="none">
          <SchemaField schema={schema} />
          <Space style={{ marginTop: 4 }}>
            <Button type="primary" icon={<SearchOutlined />} onClick={() => onSearch(searchParams(resource, form.values))}>
              {t('rt.search')}
            </Button>
            <Button
              icon={<ReloadOutlined />}
              onClick={() => {
                void form.reset('*', { forceClear: true });
                onSearch({});
              }}
            >
              {t('rt.reset')}
            </Button>
          </Space>
        </FormLayout>
      </FormProvider>
    </div>
  );
}
