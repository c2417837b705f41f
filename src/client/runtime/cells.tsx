/**
 * How a list cell shows a value of a field (spec 000 §9, 002 §2), from the field's (localized) form node:
 * -1 shows empty; dictionary fields (DictSelect) show the entry's label; department fields the department's
 * name; enum fields their option label; booleans 是 / 否; dates as text in the field's format (date
 * yyyy-MM-dd, year yyyy, month yyyy-MM, date-time as stored); uploads the file names; other arrays joined.
 */
import React from 'react';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import type { FormNode } from '../../shared/schema/types.js';
import { DictLabel } from '../components/DictSelect.js';
import { DeptLabel } from '../components/DeptTreeSelect.js';

const DATE_LEN: Record<string, number> = { date: 10, year: 4, month: 7 };

/** True for the values a cell shows as empty: null, undefined, '' and -1. */
export function isBlankCell(value: unknown): boolean {
  return value === null || value === undefined || value === '' || value === -1 || value === '-1';
}

function dateText(node: FormNode | undefined, value: unknown): string {
  const s = value instanceof Date ? dayjs(value).format('YYYY-MM-DD HH:mm:ss') : String(value);
  const len = node?.format ? DATE_LEN[node.format] : undefined;
  return len ? s.slice(0, len) : s;
}

/** The cell content of `value` for the field `node` (undefined for system fields such as createTime). */
export function renderCell(node: FormNode | undefined, value: unknown, t: TFunction): React.ReactNode {
  if (isBlankCell(value)) return '';
  const comp = node?.['x-component'] ?? '';
  const props = (node?.['x-component-props'] ?? {}) as Record<string, unknown>;
  if (comp === 'DictSelect' && typeof props.code === 'string') return <DictLabel code={props.code} biz={props.biz === true} value={value} />;
  if (comp === 'DeptTreeSelect') return <DeptLabel value={value} />;
  if (node?.enum) {
    const values = Array.isArray(value) ? value : [value];
    return values
      .map((v) => {
        const opt = node.enum!.find((e) => (typeof e === 'object' && e !== null ? e.value : e) === v);
        return opt === undefined ? String(v) : typeof opt === 'object' ? opt.label : String(opt);
      })
      .join(', ');
  }
  if (typeof value === 'boolean') return value ? t('rt.yes') : t('rt.no');
  if (node?.format || value instanceof Date) return dateText(node, value);
  if (Array.isArray(value)) {
    return value
      .map((v) => (v && typeof v === 'object' ? String((v as Record<string, unknown>).originalName ?? (v as Record<string, unknown>).name ?? '') : String(v)))
      .filter(Boolean)
      .join(', ');
  }
  if (typeof value === 'object') return '';
  return String(value);
}
