/**
 * Turns list query parameters into SQL (DESIGN §5 conventions; spec 000 §7, §9):
 *
 * - paging: `current` (≥ 1, default 1) and `size` (1–500, default 10; the UI offers 10, 30, 50, 100, 200, and
 *   the spec's tip and import lists ask for 500);
 * - sorting: `ascs` / `descs`, comma lists of field names (camelCase or snake_case); default from the schema's
 *   `list.defaultSort`, else newest first; the key is always the last tie-breaker (in the direction of the last
 *   sort key) so pages are stable;
 * - filters by field name: no suffix = contains for text (ILIKE, wildcards in the value escaped) and equal for
 *   other types; suffixes `_equal _notequal _like _ge _le _gt _lt _dategt _datelt _datege _datele _null
 *   _notnull` (e.g. `createTime_dategt` / `createTime_datelt` for the date range).
 *
 * Identifiers only ever come from the resource's column list (quoted); values are always bind parameters.
 * Unknown fields, unknown sort fields, repeated parameters and values of the wrong shape throw a 400
 * `ApiError` naming the parameter. Parameters starting with `_` (cache busters) are ignored.
 *
 * A value the database would refuse never reaches it (DESIGN §11, §13; a PostgreSQL error would be a 500):
 * - ids (the key, `createUser`, `createDept`, `updateUser`, bigint-stored strings such as `parentId`) must be
 *   `isId` texts: digits within PostgreSQL's bigint range (else 参数 x 超出允许范围 / 参数 x 的值无效);
 * - numbers must be decimal (no NaN, Infinity, hex), within the column's range (`columnRange`: 1e400, or
 *   3000000000 for an `integer` column, is 参数 x 超出允许范围), whole for integer columns;
 * - dates must be real days and times (`isDateFilterText`: 2024-02-30, 24:61:61, 0000-01-01 are
 *   参数 x 不是有效的日期…);
 * - text must not hold NUL characters (the input guard refuses them for every route first).
 */
import { ApiError } from '../core/envelope.js';
import { FILTER_SUFFIXES, type FilterSuffix } from '../../shared/contract/query.js';
import { isId } from '../../shared/contract/ids.js';
import { columnRange, isDateFilterText, type ColumnDef } from '../../shared/schema/derive.js';
import type { Resource } from './registry.js';

export const MAX_PAGE_SIZE = 500;
const RESERVED = new Set(['current', 'size', 'ascs', 'descs']);
const SUFFIXES = FILTER_SUFFIXES;
type Suffix = FilterSuffix;
const OPS: Record<string, string> = { equal: '=', notequal: '<>', ge: '>=', le: '<=', gt: '>', lt: '<', dategt: '>', datelt: '<', datege: '>=', datele: '<=' };

/** A decimal number as a filter may spell it: 12, -3, 1.5, .5, 2e3 (no NaN, Infinity, hex or spaces). */
const DECIMAL_RE = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

export const quote = (ident: string) => '"' + ident.replace(/"/g, '""') + '"';

/** A SQL condition builder with positional parameters ($1, $2 ...). */
export class Conditions {
  readonly parts: string[] = [];
  constructor(readonly params: unknown[] = []) {}
  /** Adds `value` as a parameter and answers its placeholder. */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
  add(part: string): void {
    this.parts.push(part);
  }
  sql(): string {
    return this.parts.length ? this.parts.join(' AND ') : 'TRUE';
  }
}

function findColumn(r: Resource, name: string): ColumnDef | undefined {
  const c = r.byField.get(name) ?? r.byColumn.get(name);
  // the system tenant_id is the scope's, never a filter; a platform resource's own tenantId field (tenants) is
  if (!c || c.column === 'is_deleted' || (c.column === 'tenant_id' && c.system) || writeOnlyFields(r).has(c.field)) return undefined;
  return c;
}

const writeOnly = new WeakMap<Resource, Set<string>>();

/** The fields of `r` marked `x-write-only`: never answered by reads, never a filter (computed once per Resource). */
export function writeOnlyFields(r: Resource): Set<string> {
  let set = writeOnly.get(r);
  if (!set) {
    set = new Set(r.fields.filter((f) => f.node['x-write-only'] === true).map((f) => f.name));
    writeOnly.set(r, set);
  }
  return set;
}

/**
 * The bind value of filter `param` on column `col` from its text `raw` (trimmed, not empty). Throws a 400
 * `ApiError` naming `param`: badParam for a wrong shape, paramOutOfRange for a number or id the column cannot
 * hold, badDateParam for a date that is not a real day and time, nulInParam for text with NUL characters.
 */
function parseValue(col: ColumnDef, raw: string, param: string, asDate: boolean): unknown {
  const bad = () => new ApiError(400, 'badParam', { param });
  const outOfRange = () => new ApiError(400, 'paramOutOfRange', { param });
  if (asDate || col.kind === 'date' || col.kind === 'timestamp') {
    if (!isDateFilterText(raw)) throw new ApiError(400, 'badDateParam', { param });
    return raw;
  }
  switch (col.kind) {
    case 'integer': {
      if (col.sqlType === 'bigint' && (col.system || col.idText)) {
        if (isId(raw)) return raw;
        throw /^\d+$/.test(raw) ? outOfRange() : bad();
      }
      if (!/^-?\d+$/.test(raw)) throw bad();
      const n = Number(raw);
      const range = columnRange(col.sqlType);
      if (!Number.isFinite(n) || (range && (n < range.min || n > range.max))) throw outOfRange();
      return n;
    }
    case 'number': {
      if (!DECIMAL_RE.test(raw)) throw bad();
      const n = Number(raw);
      const range = columnRange(col.sqlType);
      if (!Number.isFinite(n) || (range && (n < range.min || n > range.max))) throw outOfRange();
      if (range?.integer && !Number.isInteger(n)) throw bad();
      return n;
    }
    case 'boolean':
      if (raw === 'true' || raw === '1') return true;
      if (raw === 'false' || raw === '0') return false;
      throw bad();
    default:
      if (raw.length > 200) throw bad();
      if (raw.includes('\u0000')) throw new ApiError(400, 'nulInParam', { param });
      return raw;
  }
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);

/** Adds the filters of `query` to `cond`. Empty values are dropped (spec 000 §9). */
export function addFilters(r: Resource, query: Record<string, unknown>, cond: Conditions, skip: Set<string> = new Set()): void {
  for (const [param, rawValue] of Object.entries(query)) {
    if (RESERVED.has(param) || param.startsWith('_') || skip.has(param)) continue;
    if (Array.isArray(rawValue)) throw new ApiError(400, 'badParam', { param });
    const raw = rawValue === undefined || rawValue === null ? '' : String(rawValue);
    let field = param;
    let suffix: Suffix | undefined;
    const us = param.lastIndexOf('_');
    if (us > 0) {
      const sfx = param.slice(us + 1) as Suffix;
      if ((SUFFIXES as readonly string[]).includes(sfx) && findColumn(r, param.slice(0, us))) {
        field = param.slice(0, us);
        suffix = sfx;
      }
    }
    const col = findColumn(r, field);
    if (!col) throw new ApiError(400, 'unknownFilter', { field: param });
    const c = quote(col.column);
    if (suffix === 'null') {
      cond.add(`${c} IS NULL`);
      continue;
    }
    if (suffix === 'notnull') {
      cond.add(`${c} IS NOT NULL`);
      continue;
    }
    if (raw.trim() === '' || raw === '-1') continue; // dropped (spec: empty values; -1 means none)
    const contains = suffix === 'like' || (suffix === undefined && col.kind === 'text');
    if (contains) {
      if (col.kind !== 'text' && col.kind !== 'json') throw new ApiError(400, 'badParam', { param });
      if (raw.includes('\u0000')) throw new ApiError(400, 'nulInParam', { param });
      const target = col.kind === 'json' ? `${c}::text` : c;
      cond.add(`${target} ILIKE ${cond.param('%' + escapeLike(raw.trim().slice(0, 200)) + '%')}`);
      continue;
    }
    if (col.kind === 'json') throw new ApiError(400, 'badParam', { param });
    const isDateOp = suffix !== undefined && suffix.startsWith('date');
    if (isDateOp && col.kind !== 'date' && col.kind !== 'timestamp') throw new ApiError(400, 'badParam', { param });
    const value = parseValue(col, raw.trim(), param, isDateOp);
    const op = OPS[suffix ?? 'equal'];
    const cast = col.kind === 'timestamp' ? '::timestamptz' : col.kind === 'date' ? '::date' : col.sqlType === 'bigint' && (col.system || col.idText) ? '::bigint' : '';
    cond.add(`${c} ${op} ${cond.param(value)}${cast}`);
  }
}

/** The ORDER BY of a list (without the keyword). */
export function orderBy(r: Resource, query: Record<string, unknown>): string {
  const parts: string[] = [];
  const used = new Set<string>();
  for (const [param, dir] of [['ascs', 'ASC'], ['descs', 'DESC']] as const) {
    const v = query[param];
    if (v === undefined || v === '') continue;
    if (typeof v !== 'string') throw new ApiError(400, 'badParam', { param });
    for (const name of v.split(',').map((s) => s.trim()).filter(Boolean)) {
      const col = r.byField.get(name) ?? r.byColumn.get(name);
      if (!col || col.kind === 'json' || col.column === 'tenant_id' || col.column === 'is_deleted') throw new ApiError(400, 'unknownSortField', { field: name });
      if (used.has(col.column)) continue;
      used.add(col.column);
      parts.push(`${quote(col.column)} ${dir}`);
    }
  }
  if (parts.length === 0) {
    const d = r.schema.list?.defaultSort ?? '-createTime';
    const desc = d.startsWith('-');
    const col = r.byField.get(desc ? d.slice(1) : d);
    if (col) {
      parts.push(`${quote(col.column)} ${desc ? 'DESC' : 'ASC'}`);
      used.add(col.column);
    }
  }
  // the key breaks ties in the direction of the last sort key, so one (tenant_id, column, key) index serves a
  // column sorted either way (scanned forwards or backwards; sync.ts creates it for sortable list columns)
  if (!used.has(r.keyColumn)) parts.push(`${quote(r.keyColumn)} ${parts.at(-1)?.endsWith(' ASC') ? 'ASC' : 'DESC'}`);
  return parts.join(', ');
}

/** Reads `current` and `size`. */
export function paging(query: Record<string, unknown>): { current: number; size: number } {
  const num = (param: string, def: number, max: number) => {
    const v = query[param];
    if (v === undefined || v === '') return def;
    if (typeof v !== 'string' || !/^\d{1,7}$/.test(v)) throw new ApiError(400, 'badParam', { param });
    const n = Number(v);
    if (n < 1 || n > max) throw new ApiError(400, 'badParam', { param });
    return n;
  };
  return { current: num('current', 1, 1_000_000), size: num('size', 10, MAX_PAGE_SIZE) };
}
