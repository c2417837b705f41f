/**
 * Registrations of the palette's group 日期时间 (date and time): dates, date ranges, years, months, times and the year
 * range of statistics — one `registerComponent` call each (the API: components/registration.ts). The catalogue's
 * entry, components/catalog.tsx, calls `registerDateTime()` after the groups before it, in the palette's order of
 * groups (spec 002 §2).
 */
import { CalendarOutlined, ClockCircleOutlined, FieldTimeOutlined, ScheduleOutlined } from '@ant-design/icons';
import { DatePicker, TimePicker } from '@formily/antd-v5';
import { registerComponent } from '../registration.js';
import { cp, is } from './helpers.js';
import { YearRangePicker } from '../YearRangePicker.js';

/** Registers the components of this group (see the module comment). */
export function registerDateTime(): void {
  registerComponent({
    name: 'DatePicker',
    component: DatePicker,
    title: { zh: '日期', en: 'Date' },
    group: 'date',
    parts: { RangePicker: { title: { zh: '日期范围', en: 'Date range' } } },
    palette: [
      {
        key: 'year',
        order: 10,
        title: { zh: '年', en: 'Year' },
        icon: CalendarOutlined,
        schema: { format: 'year', 'x-component-props': { picker: 'year', format: 'YYYY' } },
        match: (n) => is(n, 'DatePicker') && (cp(n).picker === 'year' || n.format === 'year'),
      },
      {
        key: 'month',
        order: 20,
        title: { zh: '月', en: 'Month' },
        icon: CalendarOutlined,
        schema: { format: 'month', 'x-component-props': { picker: 'month', format: 'YYYY-MM' } },
        match: (n) => is(n, 'DatePicker') && (cp(n).picker === 'month' || n.format === 'month'),
      },
      {
        key: 'week',
        order: 30,
        title: { zh: '周', en: 'Week' },
        icon: CalendarOutlined,
        schema: { maxLength: 10, 'x-component-props': { picker: 'week', format: 'YYYY-wo' } },
        match: (n) => is(n, 'DatePicker') && cp(n).picker === 'week',
      },
      {
        key: 'datetime',
        order: 40,
        title: { zh: '日期时间', en: 'Date and time' },
        icon: FieldTimeOutlined,
        schema: { format: 'date-time', 'x-component-props': { showTime: true, format: 'YYYY-MM-DD HH:mm:ss' } },
        match: (n) => is(n, 'DatePicker') && (!!cp(n).showTime || n.format === 'date-time'),
      },
      { key: 'date', order: 50, icon: CalendarOutlined, schema: { format: 'date', 'x-component-props': { format: 'YYYY-MM-DD' } } },
      {
        key: 'datetimerange',
        order: 70,
        title: { zh: '日期时间范围', en: 'Date-time range' },
        icon: ScheduleOutlined,
        component: 'DatePicker.RangePicker',
        schema: { type: 'array', items: { type: 'string', format: 'date-time' }, 'x-component-props': { showTime: true, format: 'YYYY-MM-DD HH:mm:ss' } },
        match: (n) => is(n, 'DatePicker.RangePicker') && !!cp(n).showTime,
      },
      {
        key: 'daterange',
        order: 80,
        title: { zh: '日期范围', en: 'Date range' },
        icon: ScheduleOutlined,
        component: 'DatePicker.RangePicker',
        schema: { type: 'array', items: { type: 'string', format: 'date' }, 'x-component-props': { format: 'YYYY-MM-DD' } },
      },
    ],
    designer: { choice: true },
  });
  registerComponent({
    name: 'TimePicker',
    component: TimePicker,
    title: { zh: '时间', en: 'Time' },
    group: 'date',
    parts: { RangePicker: { title: { zh: '时间范围', en: 'Time range' } } },
    palette: [
      { key: 'time', order: 60, icon: ClockCircleOutlined, schema: { maxLength: 8, 'x-component-props': { format: 'HH:mm:ss' } } },
      {
        key: 'timerange',
        order: 90,
        title: { zh: '时间范围', en: 'Time range' },
        icon: ClockCircleOutlined,
        component: 'TimePicker.RangePicker',
        schema: { type: 'array', items: { type: 'string' }, 'x-component-props': { format: 'HH:mm:ss' } },
      },
    ],
    designer: { choice: true },
  });

  // the year range of statistics and list filters (spec 002 §2, §5: start year not after end year)
  registerComponent({
    name: 'YearRangePicker',
    component: YearRangePicker,
    title: { zh: '年份范围', en: 'Year range' },
    group: 'date',
    texts: {
      'cmp.yearRange.start': { zh: '开始年份', en: 'Start year' },
      'cmp.yearRange.end': { zh: '结束年份', en: 'End year' },
    },
  });
}
