/**
 * YearRangePicker (spec 002 §2 'Year range picker: start and end year pickers'; §5 'start year not after end
 * year; end year not before start year'): two year pickers side by side. Value `[start, end]`, each a `yyyy`
 * text or null (an array field, e.g. a statistics filter of years). A start year after the chosen end year
 * (and an end year before the chosen start year) cannot be picked: those years are disabled in the panels, and
 * a value that breaks the order anyway (typed in, or given) is swapped into order before it is reported.
 * readPretty shows `2020 - 2024` (an open end shows as empty).
 */
import React from 'react';
import { DatePicker, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { connect, mapReadPretty } from '@formily/react';
import { PreviewText } from '@formily/antd-v5';
import { useTranslation } from 'react-i18next';

export type YearRange = [string | null, string | null];

export interface YearRangePickerProps {
  value?: YearRange | null;
  onChange?: (value: YearRange) => void;
  disabled?: boolean;
  readOnly?: boolean;
  allowClear?: boolean;
}

const YEAR = 'YYYY';
const toDay = (y: string | null | undefined) => (y && /^\d{4}$/.test(y) ? dayjs(`${y}-01-01`) : null);

/** `[start, end]` in order: a start after the end is swapped with it (spec 002 §5). */
export function orderedYears(start: string | null, end: string | null): YearRange {
  if (start && end && start > end) return [end, start];
  return [start, end];
}

function YearRangeEditor({ value, onChange, disabled, readOnly, allowClear = true }: YearRangePickerProps) {
  const { t } = useTranslation();
  const [start, end] = value ?? [null, null];
  const set = (s: string | null, e: string | null) => onChange?.(orderedYears(s, e));
  const endDay = toDay(end);
  const startDay = toDay(start);
  return (
    <Space.Compact className="kc-year-range" style={{ width: '100%' }}>
      <DatePicker
        picker="year"
        format={YEAR}
        style={{ width: '50%' }}
        placeholder={t('cmp.yearRange.start')}
        aria-label={t('cmp.yearRange.start')}
        value={startDay}
        disabled={disabled}
        inputReadOnly={readOnly}
        allowClear={allowClear}
        disabledDate={(d: Dayjs) => !!endDay && d.year() > endDay.year()}
        onChange={(d) => set(d ? d.format(YEAR) : null, end)}
      />
      <DatePicker
        picker="year"
        format={YEAR}
        style={{ width: '50%' }}
        placeholder={t('cmp.yearRange.end')}
        aria-label={t('cmp.yearRange.end')}
        value={endDay}
        disabled={disabled}
        inputReadOnly={readOnly}
        allowClear={allowClear}
        disabledDate={(d: Dayjs) => !!startDay && d.year() < startDay.year()}
        onChange={(d) => set(start, d ? d.format(YEAR) : null)}
      />
    </Space.Compact>
  );
}

function YearRangeText({ value }: YearRangePickerProps) {
  const placeholder = PreviewText.usePlaceholder();
  const [start, end] = value ?? [null, null];
  if (!start && !end) return <span>{placeholder}</span>;
  return <span>{`${start ?? ''} - ${end ?? ''}`}</span>;
}

export const YearRangePicker = connect(YearRangeEditor, mapReadPretty(YearRangeText));
