/**
 * The client side of the resource schema (DESIGN §4):
 *
 * - `useResourceSchema(name)`: swr of `GET /api/system/schema/detail?name=` (the published schema, else the
 *   folder's), cached for the session.
 * - `localizeSchema(node, lang)`: a copy in one language, without the maintainers' notes (`$comment`, never
 *   shown to users: issue 18 defect 7). In English `title` ← `titleEn`, `description` ←
 *   `descriptionEn`, enum `label` ← `labelEn`, x-validator `message` ← `messageEn`, and `fooEn` ← `foo` inside
 *   `x-component-props` / `x-decorator-props` (placeholders, tooltips); zh keeps the zh texts. Either way the
 *   `…En` companions are consumed (removed), so Formily sees plain Formily. Recursive through properties and
 *   items.
 * - `prepareFormSchema(node, lang)`: what a schema may leave implicit, made explicit for Formily: date pickers
 *   get the picker and value format of the field's `format` (date, date-time, year, month: the server's
 *   formats), uploads take their `maxItems` as the file count limit, and array sub-forms written as plain fields (`ArrayTable` items with FormItem fields) get their
 *   columns, index, remove and add controls (not in a read-only view), on one page.
 * - `fieldNodes(resource)`: data field name → node (layout nodes flattened away), for columns and search.
 * - `fieldLabel(resource, field, lang)`: a column's label (system fields such as createTime included).
 */
import i18n from 'i18next';
import { dataFields } from '../../shared/schema/derive.js';
import type { FormNode, ResourceSchema } from '../../shared/schema/types.js';
import { useGet } from './hooks.js';
import type { Lang } from '../../shared/contract/lang.js';

export const SCHEMA_DETAIL_URL = '/api/system/schema/detail';

/** The resource schema `name` (e.g. `basic/patent`). */
export function useResourceSchema(name: string | undefined) {
  return useGet<ResourceSchema>(name ? SCHEMA_DETAIL_URL : null, { name }, { revalidateIfStale: false, dedupingInterval: 60_000 });
}

type AnyNode = Record<string, any>;

function localizeProps(props: unknown, lang: Lang): unknown {
  if (!props || typeof props !== 'object' || Array.isArray(props)) return props;
  const out: AnyNode = {};
  for (const [k, v] of Object.entries(props as AnyNode)) {
    if (/[a-z]En$/.test(k) && k.slice(0, -2) in (props as AnyNode)) continue;
    const en = (props as AnyNode)[`${k}En`];
    out[k] = lang === 'en' && en !== undefined ? en : v;
  }
  return out;
}

function localizeRule(rule: unknown, lang: Lang): unknown {
  if (!rule || typeof rule !== 'object') return rule;
  const { messageEn, ...rest } = rule as AnyNode;
  if (lang === 'en' && messageEn !== undefined) rest.message = messageEn;
  return rest;
}

/** A copy of `node` (a form node, a whole resource schema, or any object holding nodes) in `lang`. */
export function localizeSchema<T>(node: T, lang: Lang): T {
  if (Array.isArray(node)) return node.map((n) => localizeSchema(n, lang)) as T;
  if (!node || typeof node !== 'object') return node;
  const src = node as AnyNode;
  const out: AnyNode = {};
  for (const [k, v] of Object.entries(src)) {
    // a note to the schema's maintainers is never shown (issue 18 defect 7)
    if (k === '$comment') continue;
    // `title` / `description` are texts only when they are strings: inside a properties map they are the
    // names of fields (a thesis's `title`, a book's `description`) whose nodes are localized like any other
    // (issue 18 defect 13: those labels stayed Chinese on English screens)
    if ((k === 'titleEn' || k === 'descriptionEn') && typeof v === 'string') continue;
    const text = typeof v === 'string';
    switch ((k === 'title' || k === 'description') && !text ? '' : k) {
      case 'title':
      case 'description':
        out[k] = lang === 'en' && typeof src[`${k}En`] === 'string' ? src[`${k}En`] : v;
        break;
      case 'enum':
        out.enum = Array.isArray(v)
          ? v.map((e) => {
              if (!e || typeof e !== 'object') return e;
              const { labelEn, ...rest } = e as AnyNode;
              return lang === 'en' && labelEn !== undefined ? { ...rest, label: labelEn } : rest;
            })
          : v;
        break;
      case 'x-validator':
        out[k] = Array.isArray(v) ? v.map((r) => localizeRule(r, lang)) : localizeRule(v, lang);
        break;
      case 'x-component-props':
      case 'x-decorator-props':
        out[k] = localizeProps(v, lang);
        break;
      case 'x-reactions':
      case 'default':
        out[k] = v;
        break;
      default:
        out[k] = v && typeof v === 'object' ? localizeSchema(v, lang) : v;
    }
  }
  if (!('title' in src) && typeof src.titleEn === 'string' && lang === 'en') out.title = src.titleEn;
  return out as T;
}

const DATE_PROPS: Record<string, { picker?: string; format: string; showTime?: boolean }> = {
  date: { format: 'YYYY-MM-DD' },
  'date-time': { format: 'YYYY-MM-DD HH:mm:ss', showTime: true },
  year: { picker: 'year', format: 'YYYY' },
  month: { picker: 'month', format: 'YYYY-MM' },
};

const isArrayControl = (n: AnyNode) => /\.(Column|Addition|Remove|Index|Item|MoveUp|MoveDown|SortHandle)$/.test(n?.['x-component'] ?? '');

export interface PrepareOptions {
  /** A read-only view: sub-forms get no add / remove controls. */
  readPretty?: boolean;
}

/** ArrayTable items written as plain fields → columns (title on the column), index and remove columns. */
function expandArrayTable(node: AnyNode, lang: Lang, opts: PrepareOptions): void {
  const items = node.items as AnyNode | undefined;
  if (!items?.properties || Object.values(items.properties).some((p) => isArrayControl(p as AnyNode))) return;
  const t = (k: string) => i18n.t(k, { lng: lang });
  const cols: AnyNode = {
    __index: { type: 'void', 'x-component': 'ArrayTable.Column', 'x-component-props': { title: t('rt.array.index'), width: 60, align: 'center' }, properties: { index: { type: 'void', 'x-component': 'ArrayTable.Index' } } },
  };
  for (const [name, child] of Object.entries(items.properties as Record<string, AnyNode>)) {
    // the title moves to the column header; the cell's FormItem keeps the validation feedback
    const { title, ...field } = child;
    cols[`__col_${name}`] = {
      type: 'void',
      'x-component': 'ArrayTable.Column',
      'x-component-props': { title: title ?? name },
      properties: { [name]: field },
    };
  }
  // sub-forms are short (maxItems): one page, no pager
  node['x-component-props'] = { pagination: false, ...(node['x-component-props'] ?? {}) };
  if (opts.readPretty) {
    node.items = { ...items, properties: cols };
    return;
  }
  cols.__operations = {
    type: 'void',
    'x-component': 'ArrayTable.Column',
    'x-component-props': { title: t('rt.array.actions'), width: 80, align: 'center' },
    properties: { remove: { type: 'void', 'x-component': 'ArrayTable.Remove' } },
  };
  node.items = { ...items, properties: cols };
  node.properties = { ...(node.properties ?? {}), __add: { type: 'void', title: t('rt.array.add'), 'x-component': 'ArrayTable.Addition' } };
}

/** ArrayItems / ArrayCards items without controls get a remove control, and the array an add button. */
function expandArrayList(node: AnyNode, comp: 'ArrayItems' | 'ArrayCards', lang: Lang, opts: PrepareOptions): void {
  const items = node.items as AnyNode | undefined;
  if (opts.readPretty || !items?.properties || Object.values(items.properties).some((p) => isArrayControl(p as AnyNode))) return;
  const t = (k: string) => i18n.t(k, { lng: lang });
  node.items = { ...items, properties: { ...items.properties, __remove: { type: 'void', 'x-component': `${comp}.Remove` } } };
  node.properties = { ...(node.properties ?? {}), __add: { type: 'void', title: t('rt.array.add'), 'x-component': `${comp}.Addition` } };
}

/** Makes implicit Formily details explicit (see the module comment); answers a new tree. */
export function prepareFormSchema<T>(node: T, lang: Lang, opts: PrepareOptions = {}): T {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
  const out: AnyNode = { ...(node as AnyNode) };
  if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties as AnyNode).map(([k, v]) => [k, prepareFormSchema(v, lang, opts)]));
  if (out.items && !Array.isArray(out.items)) out.items = prepareFormSchema(out.items, lang, opts);
  const comp = out['x-component'];
  if (typeof comp === 'string' && comp.startsWith('DatePicker') && typeof out.format === 'string' && DATE_PROPS[out.format]) {
    const d = DATE_PROPS[out.format];
    out['x-component-props'] = { ...d, style: { width: '100%' }, ...(out['x-component-props'] ?? {}) };
  }
  if (comp === 'FileUpload' && typeof out.maxItems === 'number' && !(out['x-component-props'] ?? {}).maxCount) {
    out['x-component-props'] = { ...(out['x-component-props'] ?? {}), maxCount: out.maxItems };
  }
  if (comp === 'ArrayTable') expandArrayTable(out, lang, opts);
  if (comp === 'ArrayItems' || comp === 'ArrayCards') expandArrayList(out, comp, lang, opts);
  return out as T;
}

/** Data field name → node (layout nodes flattened away). */
export function fieldNodes(resource: ResourceSchema): Map<string, FormNode> {
  return new Map(dataFields(resource.form).map((f) => [f.name, f.node]));
}

const SYSTEM_LABELS: Record<string, string> = {
  createTime: 'rt.field.createTime',
  updateTime: 'rt.field.updateTime',
  createUser: 'rt.field.createUser',
  createDept: 'rt.field.createDept',
  status: 'rt.field.status',
  id: 'rt.field.id',
};

/** The label of column `field`: the field's title in `lang`, a system field's text, else the name. */
export function fieldLabel(resource: ResourceSchema, field: string, lang: Lang): string {
  const node = fieldNodes(resource).get(field);
  if (node) return (lang === 'en' ? (node.titleEn ?? node.title) : node.title) ?? field;
  const key = SYSTEM_LABELS[field];
  return key ? i18n.t(key, { lng: lang }) : field;
}
