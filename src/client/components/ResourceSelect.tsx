/**
 * ResourceSelect: a Select over another resource's records, read from its generic `GET <url>` (the `select`
 * endpoint: `[record]`, at most 1000, DESIGN §5), e.g. the content models of a portal channel
 * (`/api/portal/model/select`).
 *
 * Props: `url` (required), `labelField` (the record field shown, default `name`), `valueField` (the field
 * stored, default `id`; ids are kept as strings — they are bigints, shared/contract/ids.ts), and any antd
 * Select prop (`mode: 'multiple'` for an array field). readPretty shows the chosen records' labels, joined by
 * '、', or the stored value when the record is gone or the options cannot be read (silently).
 */
import React from 'react';
import { Select, type SelectProps } from 'antd';
import { connect, mapReadPretty } from '@formily/react';
import { PreviewText } from '@formily/antd-v5';
import { useTranslation } from 'react-i18next';
import { useGet } from './env.js';

type Value = string | string[] | undefined | null;

export interface ResourceSelectProps extends Omit<SelectProps, 'options' | 'onChange' | 'value'> {
  url?: string;
  labelField?: string;
  valueField?: string;
  value?: Value;
  onChange?: (value: Value) => void;
}

interface Option {
  label: string;
  value: string;
}

/** The options of `url`; `silent`: a refusal is not toasted (a read-only view falls back to the stored values). */
function useOptions({ url, labelField = 'name', valueField = 'id' }: ResourceSelectProps, silent = false) {
  const { data, isLoading } = useGet<Record<string, unknown>[]>(url ?? null, undefined, { revalidateIfStale: false, silent });
  const options: Option[] = (Array.isArray(data) ? data : []).map((r) => ({ value: String(r[valueField]), label: String(r[labelField] ?? r[valueField]) }));
  return { options, isLoading };
}

function SelectInput({ url, labelField, valueField, value, onChange, ...props }: ResourceSelectProps) {
  const { t } = useTranslation();
  const { options, isLoading } = useOptions({ url, labelField, valueField });
  const multiple = props.mode === 'multiple' || props.mode === 'tags';
  const shown = value === null || value === undefined ? undefined : multiple ? (Array.isArray(value) ? value.map(String) : [String(value)]) : String(value);
  return (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder={t('cmp.select')}
      loading={isLoading}
      {...props}
      value={shown}
      options={options}
      onChange={(v: unknown) => onChange?.(v === undefined || v === null ? (multiple ? [] : undefined) : (v as Value))}
    />
  );
}

function SelectText({ url, labelField, valueField, value }: ResourceSelectProps) {
  // a reader who may not list the options (the expert reading their own pick: the expert list is research
  // management's) sees the stored value, without an error toast for a list they never asked for
  const { options } = useOptions({ url, labelField, valueField }, true);
  const placeholder = PreviewText.usePlaceholder();
  const values = value === null || value === undefined || value === '' ? [] : Array.isArray(value) ? value.map(String) : [String(value)];
  if (!values.length) return <span>{placeholder}</span>;
  return <span>{values.map((v) => options.find((o) => o.value === v)?.label ?? v).join('、')}</span>;
}

export const ResourceSelect = connect(SelectInput, mapReadPretty(SelectText));
