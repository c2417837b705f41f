/**
 * DictSelect: a Select over a dictionary (spec 000 §7: `GET /api/blade-system/dict/dictionary?code=`, or the
 * business dictionaries `dict-biz/dictionary` with `biz`). Option value = `dictKey` (a number when the
 * field's schema type is number or integer), label = `dictValue`, or `dictValueEn` in English when the entry
 * has one. Each code is fetched once and cached (swr, keyed by url and code) and shared with list columns
 * (`useDict`, `dictLabel`). In readPretty it shows the label(s).
 *
 * Props: `code` (required), `biz`, `mode` ('multiple' stores an array), and any antd Select prop.
 */
import React from 'react';
import { Select, type SelectProps } from 'antd';
import { connect, mapReadPretty, useFieldSchema } from '@formily/react';
import { PreviewText } from '@formily/antd-v5';
import { useTranslation } from 'react-i18next';
import { useGet, useLang } from './env.js';

export const DICT_URL = '/api/blade-system/dict/dictionary';
export const DICT_BIZ_URL = '/api/blade-system/dict-biz/dictionary';

export interface DictEntry {
  id: string;
  dictKey: string;
  dictValue: string;
  dictValueEn?: string | null;
  sort?: number;
}

/** The entries of dictionary `code` (swr, cached per code for the session). */
export function useDict(code: string | undefined, biz = false) {
  return useGet<DictEntry[]>(code ? (biz ? DICT_BIZ_URL : DICT_URL) : null, { code }, { revalidateIfStale: false, dedupingInterval: 60_000 });
}

export function entryLabel(e: DictEntry, lang: 'zh' | 'en'): string {
  return lang === 'en' && e.dictValueEn ? e.dictValueEn : e.dictValue;
}

/** The label of `value` (one key, an array of keys, or a comma list) in `entries`; unknown keys show as is. */
export function dictLabel(entries: DictEntry[] | undefined, value: unknown, lang: 'zh' | 'en'): string {
  if (value === null || value === undefined || value === '') return '';
  const keys = Array.isArray(value) ? value : typeof value === 'string' && value.includes(',') ? value.split(',') : [value];
  return keys
    .map((k) => {
      const e = (Array.isArray(entries) ? entries : []).find((x) => String(x.dictKey) === String(k));
      return e ? entryLabel(e, lang) : String(k);
    })
    .join(', ');
}

export interface DictSelectProps extends Omit<SelectProps, 'options'> {
  code?: string;
  biz?: boolean;
}

/** True inside a number or integer field: options then carry numeric values. */
function useNumeric(): boolean {
  const schema = useFieldSchema();
  return schema?.type === 'number' || schema?.type === 'integer';
}

function DictSelectInput({ code, biz, ...props }: DictSelectProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const numeric = useNumeric();
  const { data, isLoading } = useDict(code, biz);
  const options = (Array.isArray(data) ? data : []).map((e) => ({ label: entryLabel(e, lang), value: numeric ? Number(e.dictKey) : e.dictKey }));
  return <Select allowClear showSearch optionFilterProp="label" placeholder={t('cmp.select')} loading={isLoading} {...props} options={options} />;
}

function DictText({ code, biz, value }: DictSelectProps) {
  const lang = useLang();
  const { data } = useDict(code, biz);
  const placeholder = PreviewText.usePlaceholder();
  const text = dictLabel(data, value, lang);
  return <span className="kc-dict-text">{text || placeholder}</span>;
}

export const DictSelect = connect(DictSelectInput, mapReadPretty(DictText));

/** A dictionary label outside a form (list cells). */
export function DictLabel({ code, biz, value }: { code: string; biz?: boolean; value: unknown }) {
  const lang = useLang();
  const { data } = useDict(code, biz);
  return <>{dictLabel(data, value, lang)}</>;
}
