/**
 * List query conventions of the API contract (DESIGN §5, §6; spec 000 §9), one copy for server and client.
 *
 * - `FILTER_SUFFIXES`: a filter parameter is a field name, optionally with one of these suffixes
 *   (`name_like`, `applyDate_datege`); no suffix means contains for text and equal for other types;
 * - `CREATE_TIME_FROM` / `CREATE_TIME_TO`: the list search's creation-date range parameters;
 * - `DATE_PATTERNS` / `DATE_FORMAT_TEXT`: the value formats of date fields (`format` of a schema field) as
 *   regular-expression sources and as the text the messages show (yyyy-MM-dd …); the patterns check the
 *   ranges of month, day, hour, minute and second, not the calendar (2024-02-30 needs a calendar check).
 */
export const FILTER_SUFFIXES = ['equal', 'notequal', 'like', 'ge', 'le', 'gt', 'lt', 'dategt', 'datelt', 'datege', 'datele', 'null', 'notnull'] as const;
export type FilterSuffix = (typeof FILTER_SUFFIXES)[number];

/** The filter parameter of `field` with `suffix` (`createTime`, `dategt` → `createTime_dategt`). */
export const filterParam = (field: string, suffix?: FilterSuffix) => (suffix ? `${field}_${suffix}` : field);

export const CREATE_TIME_FROM = filterParam('createTime', 'dategt');
export const CREATE_TIME_TO = filterParam('createTime', 'datelt');

export const DATE_PATTERNS: Record<string, string> = {
  date: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$',
  'date-time': '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01]) ([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d$',
  year: '^\\d{4}$',
  month: '^\\d{4}-(0[1-9]|1[0-2])$',
};

export const DATE_FORMAT_TEXT: Record<string, string> = {
  date: 'yyyy-MM-dd',
  'date-time': 'yyyy-MM-dd HH:mm:ss',
  year: 'yyyy',
  month: 'yyyy-MM',
};
