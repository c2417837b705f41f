/**
 * Fixture data of the Storybook stories, generated from the schemas — deterministic (no clock, no random):
 * the same schemas always give the same records, so the snapshot of a story changes only when a schema (or
 * the runtime) does.
 *
 * `createFixtures(schemas)` answers:
 * - `rows(resource)`: the resource's records. A flat resource has `ROWS` records with ids `1001`, `1002` ...;
 *   a tree resource (`tree` in the schema) has `ROWS` roots, the first root `ROWS` children and the first
 *   child `ROWS` grandchildren, keyed so a child's key extends its parent's (ids `1001` → `10011`, digit
 *   codes `11` → `1101`), with `hasChildren` as lazy-tree answers it.
 * - `dict(code)`: `ROWS` entries of a dictionary, labelled after the first field naming the code
 *   (专利类型1 / Patent type 1 ...).
 * - `DEPTS`: a small department tree (DeptTreeSelect).
 *
 * A field's value follows its node (`valueOf`): dictionary fields cycle through the dictionary's keys, enum
 * fields through the enum, department fields through the departments, project pickers through the
 * project/baseinfo records (and write the project's name into their `nameField`), uploads get one file,
 * array sub-forms two rows, booleans alternate, numbers respect minimum / maximum / precision, dates
 * (`format` date, date-time, year, month) advance per row and per field from 2024-01-08, `format` email, phone
 * idcard and creditCode give valid addresses, mobile numbers, ID numbers and credit codes (src/shared/validators), and strings are
 * the field's title with the row's number (区划名称1, 区划名称1-2 for a child), cut to `maxLength`, or digits
 * (1001 …) for a string stored as a bigint (an id); a field
 * with a `pattern` takes the first candidate that matches: the example of its placeholder (`e.g. …`), that
 * text, digits, or else a string generated from the pattern itself (randexp, its choices drawn from a
 * generator seeded by the row and the field, so still deterministic).
 */
import RandExp from 'randexp';
import { dataFields, rulesOf } from '../src/shared/schema/derive.js';
import { creditCodeCheckChar, idCardCheckChar } from '../src/shared/validators/index.js';
import type { FormNode, ResourceSchema } from '../src/shared/schema/types.js';

export type Row = Record<string, unknown>;

export interface DictEntry {
  id: string;
  parentId: string;
  code: string;
  dictKey: string;
  dictValue: string;
  dictValueEn: string;
  sort: number;
}

export interface DeptNode {
  id: string;
  title: string;
  value: string;
  children: DeptNode[];
}

export interface TreeNode {
  id: string;
  key: string;
  value: string;
  title: string;
  children?: TreeNode[];
}

/** Records per list, per tree level and entries per dictionary. */
export const ROWS = 3;

export const DEPTS: DeptNode[] = [
  {
    id: '100',
    title: '粮储集团有限公司',
    value: '100',
    children: [
      { id: '101', title: '集团科技信息部', value: '101', children: [] },
      { id: '102', title: '粮食储备研究院', value: '102', children: [] },
    ],
  },
];
const DEPT_IDS = ['101', '102', '100'];

const PROJECT_RESOURCE = 'project/baseinfo';
const DAY = 86_400_000;
const BASE_DAY = Date.UTC(2024, 0, 8);

const pad2 = (n: number) => String(n).padStart(2, '0');
const isoDay = (days: number) => new Date(BASE_DAY + days * DAY).toISOString().slice(0, 10);

/** One row's place: `i` its index among its siblings (choices cycle by it), `tag` its text suffix, `level` its depth. */
interface Place {
  i: number;
  tag: string;
  level: number;
}

/** How the keys of a resource's records look: snowflake-like ids, or digit codes (regions). */
type KeyStyle = 'id' | 'code';

function patternsOf(node: FormNode): RegExp[] {
  const sources = [node.pattern, ...rulesOf(node).map((r) => r.pattern)].filter((p): p is string => typeof p === 'string');
  return sources.map((p) => new RegExp(p));
}

/**
 * A string matching `pattern`, the same for the same `seed`: randexp with its random choices taken from a
 * linear congruential generator (Numerical Recipes constants) seeded by `seed`; repetitions capped at 4.
 */
function fromPattern(pattern: RegExp, seed: number): string {
  const r = new RandExp(pattern);
  r.max = 4;
  let state = seed >>> 0;
  r.randInt = (a: number, b: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return a + (state % (b - a + 1));
  };
  return r.gen();
}

/** The example a placeholder gives (`e.g. 978-7-…`, `如 12-18`), if any. */
function placeholderExample(node: FormNode): string | undefined {
  const props = node['x-component-props'] ?? {};
  for (const p of [props.placeholderEn, props.placeholder]) {
    const m = typeof p === 'string' ? /^(?:e\.g\.|如)\s*(.+)$/.exec(p.trim()) : null;
    if (m) return m[1];
  }
  return undefined;
}

export function createFixtures(schemas: ResourceSchema[]) {
  const byName = new Map(schemas.map((s) => [s.name, s]));
  const rowCache = new Map<string, Row[]>();

  /** The first field (over all schemas, sub-forms included) naming dictionary `code`: its titles label the entries. */
  const dictTitles = new Map<string, { zh: string; en: string }>();
  const scan = (node: FormNode | undefined) => {
    if (!node || typeof node !== 'object') return;
    const code = node['x-component'] === 'DictSelect' ? node['x-component-props']?.code : undefined;
    if (typeof code === 'string' && !dictTitles.has(code)) dictTitles.set(code, { zh: node.title ?? code, en: node.titleEn ?? node.title ?? code });
    for (const child of Object.values(node.properties ?? {})) scan(child);
    if (node.items) scan(node.items);
  };
  for (const s of schemas) {
    scan(s.form);
    scan(s.detail);
  }

  function dict(code: string): DictEntry[] {
    const t = dictTitles.get(code) ?? { zh: code, en: code };
    return Array.from({ length: ROWS }, (_, k) => ({
      id: String(9001 + k),
      parentId: '9000',
      code,
      dictKey: String(k + 1),
      dictValue: `${t.zh}${k + 1}`,
      dictValueEn: `${t.en} ${k + 1}`,
      sort: k + 1,
    }));
  }

  function text(node: FormNode, name: string, tag: string): string {
    const base = `${node.title ?? name}${tag}`;
    return node.maxLength ? base.slice(0, node.maxLength) : base;
  }

  function stringValue(node: FormNode, name: string, at: Place, fieldIndex: number): string {
    const days = at.i * 41 + fieldIndex * 9;
    switch (node.format) {
      case 'date':
        return isoDay(days);
      case 'date-time':
        return `${isoDay(days)} ${pad2(9 + at.i)}:30:00`;
      case 'year':
        return String(2021 + at.i);
      case 'month':
        return `${2021 + at.i}-${pad2(((fieldIndex + at.i * 5) % 12) + 1)}`;
      case 'email':
        return `user${at.i + 1}@example.com`;
      case 'phone':
        return `1380013${String(1000 + at.i).slice(-4)}`;
      case 'idcard': {
        // a valid GB 11643-1999 number: address 110102 (Beijing Xicheng), born on the 15th of a month of 198x, check character computed
        const first17 = `110102198${at.i % 10}${pad2((at.i % 12) + 1)}15${String(101 + at.i).slice(-3)}`;
        return first17 + idCardCheckChar(first17);
      }
      case 'creditCode': {
        // a valid GB 32100-2015 unified social credit code: 91 (enterprise), division 350100, organisation code, check character computed
        const first17 = `91350100M${String(100001 + at.i * 7).padStart(8, '0')}`;
        return first17 + creditCodeCheckChar(first17);
      }
    }
    // a string stored as a bigint (an id, often an `x-ref`) is an id: digits
    if ((node['x-column'] as { type?: string } | undefined)?.type === 'bigint') return String(1001 + at.i);
    const own = text(node, name, at.tag);
    const patterns = patternsOf(node);
    if (!patterns.length) return own;
    const candidates = [placeholderExample(node), own, String(11 + at.i)].filter((c): c is string => !!c);
    return candidates.find((c) => patterns.every((p) => p.test(c))) ?? fromPattern(patterns[0], at.i * 31 + fieldIndex + 1);
  }

  function numberValue(node: FormNode, at: Place): number {
    const props = node['x-component-props'] ?? {};
    const min = typeof node.minimum === 'number' ? node.minimum : typeof props.min === 'number' ? props.min : undefined;
    const max = typeof node.maximum === 'number' ? node.maximum : typeof props.max === 'number' ? props.max : undefined;
    const precision = typeof props.precision === 'number' ? props.precision : node.type === 'integer' ? 0 : 2;
    let v = node.type === 'integer' || precision === 0 ? at.i + 1 : Number(((at.i + 1) * 12.5).toFixed(precision));
    if (min !== undefined && v < min) v = min;
    if (max !== undefined && v > max) v = max;
    return v;
  }

  /** The value of field `name` (node `node`) in the row at `at`; undefined leaves the field empty. */
  function valueOf(node: FormNode, name: string, at: Place, fieldIndex: number): unknown {
    const comp = node['x-component'] ?? '';
    const props = (node['x-component-props'] ?? {}) as Record<string, unknown>;
    const numeric = node.type === 'number' || node.type === 'integer';
    if (comp === 'DictSelect' && typeof props.code === 'string') {
      const entries = dict(props.code);
      const key = entries[at.i % entries.length].dictKey;
      const v = numeric ? Number(key) : key;
      return node.type === 'array' || props.mode === 'multiple' ? [v] : v;
    }
    if (node.enum?.length) {
      const e = node.enum[at.i % node.enum.length];
      const v = typeof e === 'object' && e !== null ? e.value : e;
      return node.type === 'array' ? [v] : v;
    }
    if (comp === 'DeptTreeSelect') return DEPT_IDS[at.i % DEPT_IDS.length];
    if (comp === 'ResourceTreeSelect') {
      // a parent picker may stay at the root; a field that must name a node names the referenced resource's first
      const root = typeof props.rootValue === 'string' ? props.rootValue : undefined;
      if (root !== undefined && patternsOf(node).every((p) => p.test(root))) return root;
      const ref = typeof node['x-ref'] === 'string' ? byName.get(node['x-ref']) : undefined;
      return ref ? rows(ref)[0]?.id : root;
    }
    if (comp === 'ProjectPicker') {
      const projects = byName.get(PROJECT_RESOURCE);
      return projects ? String(rows(projects)[at.i % ROWS].id) : undefined;
    }
    if (comp === 'RegionCascader') {
      const chain = ['11', '1101', '110101'].slice(0, typeof props.maxLevel === 'number' ? props.maxLevel : 3);
      return props.valueType === 'last' ? chain[chain.length - 1] : chain;
    }
    if (comp === 'FileUpload' || comp === 'Upload') {
      const stem = `${name}-${at.tag}`;
      if (props.valueType === 'link') return `/api/blade-resource/oss/endpoint/file/upload/20240108/${stem}.png`;
      return [{ name: `${stem}.pdf`, link: `/upload/20240108/${stem}.pdf`, originalName: `${node.title ?? name}${at.tag}.pdf` }];
    }
    if (node.type === 'array') {
      const item = node.items;
      if (!item?.properties) return [];
      return [0, 1].map((j) => objectOf(item, { i: at.i + j, tag: `${at.tag}-${j + 1}`, level: at.level }));
    }
    if (node.type === 'object') return node.properties ? objectOf(node, at) : {};
    if (node.type === 'boolean') return at.i % 2 === 0;
    if (numeric) return numberValue(node, at);
    return stringValue(node, name, at, fieldIndex);
  }

  /** An object of the fields under `node` (layout nodes flattened away). */
  function objectOf(node: FormNode, at: Place): Row {
    const out: Row = {};
    const fields = dataFields(node);
    fields.forEach(({ name, node: child }, k) => {
      const v = valueOf(child, name, at, k);
      if (v !== undefined) out[name] = v;
    });
    // a project picker names its project in a sibling field (the list and the detail show that name)
    for (const { name, node: child } of fields) {
      const nameField = child['x-component'] === 'ProjectPicker' ? child['x-component-props']?.nameField : undefined;
      const projects = byName.get(PROJECT_RESOURCE);
      if (typeof nameField === 'string' && projects && out[name] !== undefined) {
        const p = rows(projects).find((r) => r.id === out[name]);
        const label = p?.[projects.labelField ?? 'name'];
        if (label !== undefined) out[nameField] = label;
      }
    }
    return out;
  }

  function keyStyle(resource: ResourceSchema): KeyStyle {
    const keyField = resource.key ?? 'id';
    const node = dataFields(resource.form).find((f) => f.name === keyField)?.node;
    return keyField !== 'id' && node && patternsOf(node).some((p) => p.test('11')) ? 'code' : 'id';
  }

  function keyOf(style: KeyStyle, parent: string | undefined, i: number): string {
    if (style === 'code') return parent === undefined ? String(11 + i) : `${parent}${pad2(i + 1)}`;
    return parent === undefined ? String(1001 + i) : `${parent}${i + 1}`;
  }

  function record(resource: ResourceSchema, at: Place, key: string): Row {
    const keyField = resource.key ?? 'id';
    const row: Row = {
      id: keyField === 'id' ? key : String(1001 + at.level * 10 + at.i),
      ...objectOf(resource.form, at),
      tenantId: '000000',
      createUser: '1123598821738675201',
      createDept: '101',
      createTime: `${isoDay(at.level * 10 + at.i)} 09:30:00`,
      updateTime: `${isoDay(at.level * 10 + at.i + 1)} 16:45:00`,
      status: 1,
    };
    row[keyField] = key;
    return row;
  }

  /** The records of `resource` (see the module comment). */
  function rows(resource: ResourceSchema): Row[] {
    const cached = rowCache.get(resource.name);
    if (cached) return cached;
    const out: Row[] = [];
    rowCache.set(resource.name, out);
    const tree = resource.tree;
    const style = keyStyle(resource);
    if (!tree) {
      for (let i = 0; i < ROWS; i++) out.push(record(resource, { i, tag: String(i + 1), level: 0 }, keyOf(style, undefined, i)));
      return out;
    }
    const level = (parent: string | undefined, parentTag: string, depth: number) => {
      for (let i = 0; i < ROWS; i++) {
        const key = keyOf(style, parent, i);
        const tag = parentTag ? `${parentTag}-${i + 1}` : String(i + 1);
        const row = record(resource, { i, tag, level: depth }, key);
        row[tree.parentField] = parent ?? tree.rootValue;
        const deeper = i === 0 && depth < 2;
        row.hasChildren = deeper;
        out.push(row);
        if (deeper) level(key, tag, depth + 1);
      }
    };
    level(undefined, '', 0);
    return out;
  }

  /** The record of `resource` whose key is `key`. */
  function find(resource: ResourceSchema, key: string): Row | undefined {
    const keyField = resource.key ?? 'id';
    return rows(resource).find((r) => String(r[keyField]) === key);
  }

  /** The children of `parent` in a tree resource (lazy-tree). */
  function children(resource: ResourceSchema, parent: string): Row[] {
    const field = resource.tree?.parentField ?? 'parentId';
    return rows(resource).filter((r) => String(r[field]) === parent);
  }

  /** The whole tree of a tree resource as the `tree` endpoint answers it. */
  function tree(resource: ResourceSchema): TreeNode[] {
    const keyField = resource.key ?? 'id';
    const label = resource.tree?.labelField ?? resource.labelField ?? keyField;
    const build = (parent: string): TreeNode[] =>
      children(resource, parent).map((r) => {
        const key = String(r[keyField]);
        const below = build(key);
        return { id: String(r.id), key, value: key, title: String(r[label] ?? key), ...(below.length ? { children: below } : {}) };
      });
    return build(resource.tree?.rootValue ?? '0');
  }

  /** The key of the first record (the one the Detail story shows). */
  function firstKey(resource: ResourceSchema): string {
    return String(rows(resource)[0][resource.key ?? 'id']);
  }

  return { byName, rows, find, children, tree, dict, firstKey };
}

export type Fixtures = ReturnType<typeof createFixtures>;
