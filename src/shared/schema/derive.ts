/**
 * What is derived from a resource's Formily `form` (DESIGN §4), used by the server and the client alike:
 *
 * - `dataFields(form)`: the data fields, with layout (`type: void`) nodes flattened away;
 * - `recordJsonSchema(resource)`: the JSON Schema of a record for ajv (types, lengths, ranges, patterns,
 *   formats; `required` is checked by `checkRequired` because it depends on reactions and on emptiness);
 * - `fieldStates(resource, record)`: each field's visible/required state after evaluating `x-reactions`;
 * - `ruleMessage(...)`: the schema's own message for a failed rule (zh and en), else a generic one;
 * - `columnsOf(resource)`: the table columns (see `columnFor` for the type mapping).
 *
 * Date formats (DESIGN §6, spec 001 §5): `date` = yyyy-MM-dd, `date-time` = yyyy-MM-dd HH:mm:ss,
 * `year` = yyyy, `month` = yyyy-MM; only real calendar days and times pass (no 2024-02-30, 24:61:61, year 0).
 *
 * Input the database would refuse never reaches it (DESIGN §11): the record schema bounds every number by its
 * column (`columnRange`: integer ±2147483647, bigint ±(2^53 − 1) — the exact range of a JSON number —,
 * numeric(p,s) by its precision, any number finite), ids and bigint-stored strings by the bigint range
 * (`ID_PATTERN`), and a bound that is the column's rather than the schema's reads "<label>超出允许范围".
 */
import { DATE_PATTERNS } from '../contract/query.js';
import { messages, format as fill } from '../i18n/messages.js';
import { ID_PATTERN } from '../contract/ids.js';
import { resolveTemplate } from './expression.js';
import type { FieldRule, FormNode, ResourceSchema } from './types.js';

export interface DataField {
  name: string;
  node: FormNode;
}

/** The data fields directly under `node` (an object), looking through void layout nodes. */
export function dataFields(node: FormNode): DataField[] {
  const out: DataField[] = [];
  const props = Object.entries(node.properties ?? {}).sort(
    ([, a], [, b]) => (a['x-index'] ?? 0) - (b['x-index'] ?? 0),
  );
  for (const [name, child] of props) {
    if (child.type === 'void') out.push(...dataFields(child));
    else out.push({ name, node: child });
  }
  return out;
}

export function rulesOf(node: FormNode): FieldRule[] {
  const v = node['x-validator'];
  if (!v) return [];
  return Array.isArray(v) ? v : [v];
}

export function labelOf(node: FormNode, name: string, lang: 'zh' | 'en'): string {
  return (lang === 'en' ? node.titleEn : node.title) ?? node.title ?? name;
}

const SELECT_COMPONENTS = /Select|Cascader|Radio|Checkbox|DatePicker|TimePicker|Upload|Picker|Switch|Transfer/;

/** True when a field is statically required (`required: true` or a required rule). */
export function isRequiredStatic(node: FormNode): boolean {
  return node.required === true || rulesOf(node).some((r) => r.required);
}

/**
 * The message for a failed `keyword` on field `name`: the schema's rule message when it has one, else the
 * generic catalogue text with the field's label. Generic required texts follow spec 002 §5 (label + 必须填写;
 * 请选择 + label for choice components).
 */
export function ruleMessage(node: FormNode, name: string, keyword: string, params: Record<string, unknown> = {}): { zh: string; en: string } {
  const rules = rulesOf(node);
  if ((keyword === 'maximum' || keyword === 'minimum') && typeof params.limit === 'number' && !declaredLimits(node, keyword).includes(params.limit)) {
    // the column's bound (columnRange), not one the schema states: the schema's message would name a wrong limit
    return { zh: fill(messages.outOfRange.zh, { label: labelOf(node, name, 'zh') }), en: fill(messages.outOfRange.en, { label: labelOf(node, name, 'en') }) };
  }
  const matchKey: Record<string, string[]> = {
    required: ['required'],
    maxLength: ['maxLength', 'max'],
    minLength: ['minLength', 'min'],
    maximum: ['maximum', 'max'],
    minimum: ['minimum', 'min'],
    pattern: ['pattern'],
    format: ['format'],
    maxItems: ['max', 'maxItems'],
  };
  const rule = rules.find((r) => (matchKey[keyword] ?? [keyword]).some((k) => k in r) && r.message);
  if (rule?.message) return { zh: rule.message, en: rule.messageEn ?? rule.message };
  const zhLabel = labelOf(node, name, 'zh');
  const enLabel = labelOf(node, name, 'en');
  if (keyword === 'required') {
    if (SELECT_COMPONENTS.test(node['x-component'] ?? '')) return { zh: `请选择${zhLabel}`, en: `Please select ${enLabel}` };
    return { zh: fill(messages.required.zh, { label: zhLabel }), en: fill(messages.required.en, { label: enLabel }) };
  }
  const key = (({ maxLength: 'maxLength', minLength: 'minLength', maximum: 'maximum', minimum: 'minimum', pattern: 'pattern', format: 'format', enum: 'enum', type: 'type', maxItems: 'tooManyItems' }) as Record<string, keyof typeof messages>)[keyword] ?? 'pattern';
  return {
    zh: fill(messages[key].zh, { label: zhLabel, ...params }),
    en: fill(messages[key].en, { label: enLabel, ...params }),
  };
}

/** The `maximum` (or `minimum`) values the schema itself states for a number field: its own and its rules'. */
function declaredLimits(node: FormNode, keyword: 'maximum' | 'minimum'): number[] {
  const short = keyword === 'maximum' ? 'max' : 'min';
  const out = [node[keyword]];
  for (const r of rulesOf(node)) out.push(r[keyword], r[short]);
  return out.filter((v): v is number => typeof v === 'number');
}

/**
 * The values a JSON number may take in a column of `sqlType` (PostgreSQL manual, "Numeric Types"):
 * `smallint` −32768…32767, `integer` −2147483648…2147483647, `bigint` ±(2^53 − 1) (the column holds
 * ±9223372036854775807, but a JSON number beyond `Number.MAX_SAFE_INTEGER` has already lost digits),
 * `numeric(p,s)` ±(10^(p−s) − 10^−s), `numeric`, `real`, `double precision` any finite number. `integer` says
 * whether the column refuses a fraction (the integer types: `'1.5'::integer` is an error). Undefined for a type
 * that is not numeric.
 */
export function columnRange(sqlType: string): { min: number; max: number; integer: boolean } | undefined {
  const t = sqlType.trim().toLowerCase();
  if (t === 'smallint' || t === 'int2') return { min: -32768, max: 32767, integer: true };
  if (t === 'integer' || t === 'int' || t === 'int4') return { min: -2147483648, max: 2147483647, integer: true };
  if (t === 'bigint' || t === 'int8') return { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, integer: true };
  const m = /^(?:numeric|decimal)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)$/.exec(t);
  if (m) {
    const p = Number(m[1]);
    const sc = Number(m[2] ?? 0);
    const max = Math.min(10 ** (p - sc) - 10 ** -sc, Number.MAX_VALUE);
    return { min: -max, max, integer: false }; // PostgreSQL rounds to the scale: 1.5 in numeric(3) is 2
  }
  if (/^(numeric|decimal|real|float4|float8|double precision)$/.test(t)) return { min: -Number.MAX_VALUE, max: Number.MAX_VALUE, integer: false };
  return undefined;
}

/** Narrows the `minimum`/`maximum` of JSON Schema `s` to `min`…`max` (keeping a narrower bound of its own). */
function bound(s: Record<string, unknown>, min: number, max: number): void {
  s.maximum = typeof s.maximum === 'number' ? Math.min(s.maximum, max) : max;
  s.minimum = typeof s.minimum === 'number' ? Math.max(s.minimum, min) : min;
}

export { DATE_FORMAT_TEXT } from '../contract/query.js';

function enumValues(node: FormNode): unknown[] | undefined {
  if (!node.enum) return undefined;
  return node.enum.map((e) => (typeof e === 'object' && e !== null ? e.value : e));
}

/** The JSON Schema (for ajv) of the value of one field; every value may also be null (= empty). */
export function valueJsonSchema(node: FormNode): Record<string, unknown> {
  const s: Record<string, unknown> = {};
  const type = node.type ?? 'string';
  switch (type) {
    case 'string': {
      s.type = ['string', 'null'];
      if (node.maxLength !== undefined) s.maxLength = node.maxLength;
      if (node.minLength !== undefined) s.minLength = node.minLength;
      if (node.pattern) s.pattern = node.pattern;
      if (node.format && DATE_PATTERNS[node.format]) s.format = `kc-${node.format}`;
      else if (node.format) s.format = node.format;
      break;
    }
    case 'number':
    case 'integer':
      s.type = [type, 'null'];
      if (node.maximum !== undefined) s.maximum = node.maximum;
      if (node.minimum !== undefined) s.minimum = node.minimum;
      for (const r of rulesOf(node)) {
        const max = r.maximum ?? r.max;
        const min = r.minimum ?? r.min;
        if (max !== undefined) s.maximum = Math.min(max, (s.maximum as number) ?? Infinity);
        if (min !== undefined) s.minimum = Math.max(min, (s.minimum as number) ?? -Infinity);
      }
      // JSON.parse reads 1e400 as Infinity, which ajv takes for a number (and an integer); integers beyond 2^53
      // have lost digits already. Every number, nested ones too, stays finite and every integer exact.
      if (type === 'integer') bound(s, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
      else bound(s, -Number.MAX_VALUE, Number.MAX_VALUE);
      break;
    case 'boolean':
      s.type = ['boolean', 'null'];
      break;
    case 'array':
      s.type = ['array', 'null'];
      if (node.maxItems !== undefined) s.maxItems = node.maxItems;
      if (node.items) s.items = valueJsonSchema(node.items);
      break;
    case 'object':
      s.type = ['object', 'null'];
      if (node.properties) {
        const props: Record<string, unknown> = {};
        for (const f of dataFields(node)) props[f.name] = valueJsonSchema(f.node);
        s.properties = props;
        // uploads and free objects keep extra keys; sub-form objects (with x-component-less fields) are closed
        s.additionalProperties = false;
      }
      break;
    default:
      break;
  }
  // rule-level limits (Formily x-validator) become keywords too
  for (const r of rulesOf(node)) {
    if (r.maxLength !== undefined && type === 'string') s.maxLength = Math.min(r.maxLength, (s.maxLength as number) ?? Infinity);
    if (r.max !== undefined && type === 'string') s.maxLength = Math.min(r.max, (s.maxLength as number) ?? Infinity);
    if (r.pattern && type === 'string') s.pattern = r.pattern;
  }
  const ev = enumValues(node);
  // on an array (Checkbox.Group, a multiple Select) the options are what each item may be
  if (ev && type === 'array') s.items = { ...((s.items as object) ?? {}), enum: ev };
  else if (ev) s.enum = [...ev, null];
  return s;
}

/** Fields the server fills and the client may send back unchanged (they are dropped before validation). */
export { SYSTEM_FIELDS } from '../contract/records.js';

/**
 * The record JSON Schema of a resource: closed (unknown fields are refused), key field optional. Besides the
 * field's own rules (`valueJsonSchema`), each field is held to what its column can store: numbers to
 * `columnRange` of the column's type, strings stored as bigint (`x-column: {type: 'bigint'}`) and the `id` to
 * `ID_PATTERN` (digits within PostgreSQL's bigint range).
 */
export function recordJsonSchema(resource: ResourceSchema): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const key = resource.key ?? 'id';
  if (key === 'id') properties.id = { type: ['string', 'null'], pattern: ID_PATTERN };
  for (const f of dataFields(resource.form)) {
    const s = valueJsonSchema(f.node);
    const col = columnFor(f.name, f.node);
    const range = f.node.type === 'number' || f.node.type === 'integer' ? columnRange(col.sqlType) : undefined;
    if (range) {
      bound(s, range.min, range.max);
      if (range.integer) s.type = ['integer', 'null']; // a number field stored in an integer column
    }
    if (col.idText) {
      if (s.pattern === undefined) s.pattern = ID_PATTERN;
      else s.allOf = [{ pattern: ID_PATTERN }];
    }
    properties[f.name] = s;
  }
  return { type: 'object', properties, additionalProperties: false };
}

/** True when year-month-day is a day of the Gregorian calendar (2024-02-29 yes, 2023-02-29 and 0000-01-01 no). */
export function isRealDate(y: number, m: number, d: number): boolean {
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d); // not Date.UTC, which reads years 0–99 as 1900–1999
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

const DATE_TEXT_RE = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * True for the date texts a list filter accepts (DESIGN §5, §6): `yyyy-MM-dd`, `yyyy-MM-dd HH:mm` or
 * `yyyy-MM-dd HH:mm:ss`, naming a real day (years 0001–9999) and a real time (00:00:00–23:59:59).
 * 2024-02-30, 2023-02-29, 2024-13-01, 0000-01-01 and 2024-01-01 24:61:61 are not.
 */
export function isDateFilterText(s: string): boolean {
  const m = DATE_TEXT_RE.exec(s);
  if (!m) return false;
  if (!isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  if (m[4] === undefined) return true;
  return Number(m[4]) <= 23 && Number(m[5]) <= 59 && (m[6] === undefined || Number(m[6]) <= 59);
}

/**
 * ajv formats for the date texts of DESIGN §6 (registered as `kc-date`, `kc-date-time`, `kc-year`,
 * `kc-month`): the shape, and for days a real calendar day, so the database never meets 2024-02-30.
 */
export const dateFormats: Record<string, (s: string) => boolean> = Object.fromEntries(
  Object.entries(DATE_PATTERNS).map(([k, v]) => {
    const re = new RegExp(v);
    return [
      `kc-${k}`,
      (s: string) => {
        if (!re.test(s)) return false;
        const [y, m, d] = s.slice(0, 10).split('-').map(Number);
        if (k === 'date' || k === 'date-time') return isRealDate(y, m, d);
        return y >= 1;
      },
    ];
  }),
);

export interface FieldState {
  visible: boolean;
  required: boolean;
}

/** True for values a person would call empty: undefined, null, '', whitespace, [] and {}. */
export function isEmptyValue(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v as object).length === 0;
  return false;
}

function depValue(dep: string, values: Record<string, unknown>, record: Record<string, unknown>): unknown {
  // Formily relative paths: ".name" is a sibling within the same object (array item)
  if (dep.startsWith('.')) return record[dep.replace(/^\.+/, '')];
  return dep.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as any)[k] : undefined), values);
}

/**
 * The state of `node` for the current values: static `required`, `x-display`, then each reaction's
 * `fulfill.state` (`visible`, `display`, `required`), evaluated with the safe expression evaluator.
 */
export function fieldState(node: FormNode, values: Record<string, unknown>, record: Record<string, unknown>, self: unknown): FieldState {
  const state: FieldState = { visible: node['x-display'] !== 'none', required: isRequiredStatic(node) };
  const reactions = node['x-reactions'];
  if (!reactions) return state;
  for (const r of Array.isArray(reactions) ? reactions : [reactions]) {
    if (typeof r !== 'object' || r === null) continue;
    const $deps = (r.dependencies ?? []).map((d) => depValue(d, values, record));
    const scope = { $deps, $self: self, $values: values, $record: record };
    const branch = r.when === undefined || resolveTemplate(r.when, scope) ? r.fulfill : r.otherwise;
    const st = branch?.state;
    if (!st) continue;
    if ('visible' in st) state.visible = Boolean(resolveTemplate(st.visible, scope));
    if ('display' in st) state.visible = resolveTemplate(st.display, scope) !== 'none';
    if ('required' in st) state.required = Boolean(resolveTemplate(st.required, scope));
  }
  return state;
}

export interface RequiredFailure {
  path: string;
  node: FormNode;
  name: string;
}

/**
 * Applies reactions to `values` (in place): a field that is not visible loses its value (as Formily drops
 * the value of an invisible field), then reports every required field that is empty, depth first, in form
 * order, including the fields of array sub-forms (`authors.0.name`).
 */
export function checkRequired(node: FormNode, values: Record<string, unknown>, root: Record<string, unknown> = values, prefix = ''): RequiredFailure[] {
  const failures: RequiredFailure[] = [];
  for (const f of dataFields(node)) {
    const path = prefix ? `${prefix}.${f.name}` : f.name;
    const st = fieldState(f.node, root, values, values[f.name]);
    if (!st.visible) {
      delete values[f.name];
      continue;
    }
    const v = values[f.name];
    if (st.required && isEmptyValue(v)) {
      failures.push({ path, node: f.node, name: f.name });
      continue;
    }
    if (f.node.type === 'array' && f.node.items?.properties && Array.isArray(v)) {
      v.forEach((item, i) => {
        if (item && typeof item === 'object') failures.push(...checkRequired(f.node.items!, item as Record<string, unknown>, root, `${path}.${i}`));
      });
    } else if (f.node.type === 'object' && f.node.properties && v && typeof v === 'object' && !Array.isArray(v)) {
      failures.push(...checkRequired(f.node, v as Record<string, unknown>, root, path));
    }
  }
  return failures;
}

/** Finds the form node at a dotted data path (`authors.0.name`; numeric segments step into array items). */
export function nodeAtPath(form: FormNode, path: string): { node: FormNode; name: string } | null {
  let cur: FormNode | undefined = form;
  let name = '';
  for (const seg of path.split('.')) {
    if (!cur) return null;
    if (/^\d+$/.test(seg)) {
      cur = cur.items;
      continue;
    }
    const f: DataField | undefined = dataFields(cur).find((d) => d.name === seg);
    if (!f) return null;
    cur = f.node;
    name = seg;
  }
  return cur ? { node: cur, name } : null;
}

/** Kind of a column, which decides how filters parse their values. */
export type ColumnKind = 'text' | 'number' | 'integer' | 'boolean' | 'date' | 'timestamp' | 'json';

export interface ColumnDef {
  /** camelCase field name in JSON. */
  field: string;
  /** snake_case column name. */
  column: string;
  /** SQL type as PostgreSQL spells it in information_schema terms, e.g. `character varying(100)`. */
  sqlType: string;
  kind: ColumnKind;
  system?: boolean;
  /**
   * A string field stored in a bigint column (`x-column: {type: 'bigint'}`), e.g. a `parentId` that refers to
   * a snowflake id: JSON carries it as a decimal string (ids exceed 2^53), filters compare it for equality as
   * a bigint, as they do the system id columns.
   */
  idText?: boolean;
}

export function snakeCase(s: string): string {
  return s.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase()).replace(/-/g, '_');
}

/**
 * The column of a data field (DESIGN §4): string → varchar(maxLength) or text; `format` date → date,
 * date-time → timestamptz, year → varchar(4), month → varchar(7); number → numeric; integer → bigint;
 * boolean → boolean; arrays, objects and uploads → jsonb. `x-column.type` overrides the type.
 */
export function columnFor(name: string, node: FormNode): ColumnDef {
  const column = node['x-column']?.name ?? snakeCase(name);
  const type = node.type ?? 'string';
  let sqlType: string;
  let kind: ColumnKind;
  if (type === 'string') {
    if (node.format === 'date') [sqlType, kind] = ['date', 'date'];
    else if (node.format === 'date-time') [sqlType, kind] = ['timestamp with time zone', 'timestamp'];
    else if (node.format === 'year') [sqlType, kind] = ['character varying(4)', 'text'];
    else if (node.format === 'month') [sqlType, kind] = ['character varying(7)', 'text'];
    else {
      const max = valueJsonSchema(node).maxLength as number | undefined;
      [sqlType, kind] = max !== undefined && Number.isFinite(max) ? [`character varying(${max})`, 'text'] : ['text', 'text'];
    }
  } else if (type === 'number') [sqlType, kind] = ['numeric', 'number'];
  else if (type === 'integer') [sqlType, kind] = ['bigint', 'integer'];
  else if (type === 'boolean') [sqlType, kind] = ['boolean', 'boolean'];
  else [sqlType, kind] = ['jsonb', 'json'];
  if (node['x-column']?.type) sqlType = node['x-column'].type;
  if (type === 'string' && /^(bigint|int8)$/i.test(sqlType.trim())) return { field: name, column, sqlType: 'bigint', kind: 'integer', idText: true };
  return { field: name, column, sqlType, kind };
}

/** Every column of a resource's table: the key, the tenant, the data fields and the audit columns. */
export function columnsOf(resource: ResourceSchema): ColumnDef[] {
  const cols: ColumnDef[] = [];
  const key = resource.key ?? 'id';
  if (key === 'id') cols.push({ field: 'id', column: 'id', sqlType: 'bigint', kind: 'integer', system: true });
  if (resource.scope?.tenant !== false && resource.scope?.platform !== true) cols.push({ field: 'tenantId', column: 'tenant_id', sqlType: 'character varying(12)', kind: 'text', system: true });
  for (const f of dataFields(resource.form)) cols.push(columnFor(f.name, f.node));
  cols.push(
    { field: 'createUser', column: 'create_user', sqlType: 'bigint', kind: 'integer', system: true },
    { field: 'createDept', column: 'create_dept', sqlType: 'bigint', kind: 'integer', system: true },
    { field: 'createTime', column: 'create_time', sqlType: 'timestamp with time zone', kind: 'timestamp', system: true },
    { field: 'updateUser', column: 'update_user', sqlType: 'bigint', kind: 'integer', system: true },
    { field: 'updateTime', column: 'update_time', sqlType: 'timestamp with time zone', kind: 'timestamp', system: true },
    { field: 'status', column: 'status', sqlType: 'integer', kind: 'integer', system: true },
    { field: 'isDeleted', column: 'is_deleted', sqlType: 'integer', kind: 'integer', system: true },
  );
  return cols;
}
