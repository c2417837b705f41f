/**
 * Cells ↔ record values of a resource's fields, for Excel templates and filled documents (issue 13 'dictionary
 * translation (values ↔ labels)'; the Excel module's import and export, the documents module's templates).
 *
 * A template column is a field of the resource; how its value is written to and read from a cell follows the
 * field's schema (one schema, every layer — DESIGN §1.1), unless the template detail names a dictionary
 * (`dictCode`):
 *
 * | field                                         | cell (export)                 | cell (import) accepts               |
 * | --------------------------------------------- | ----------------------------- | ----------------------------------- |
 * | `DictSelect` (`code`, `biz`) or `dictCode`     | the entry's label (zh / en)   | a label in either language, or key  |
 * | `enum` options                                | the option's label            | a label in either language, or value|
 * | `x-ref: dept` / `DeptTreeSelect`              | the department's name         | a name of the caller's tenant, or id|
 * | boolean                                       | 是 / 否 (Yes / No)             | 是 否 Yes No true false 1 0          |
 * | date (`format: date`)                         | yyyy-MM-dd text               | that text, or an Excel date cell    |
 * | date-time                                     | yyyy-MM-dd HH:mm:ss text      | that text, or an Excel date cell    |
 * | number / integer                              | a number                      | a number, or its decimal text       |
 * | arrays and objects (sub-tables, attachments)  | JSON text                     | JSON text                           |
 * | anything else                                 | text                          | text (numbers as their digits)      |
 *
 * An empty cell is an absent value (the field's default applies to a new record). A cell the column cannot
 * take gives a fault (`M.notInDict`, `M.badNumber` …) that the import reports with the row and the column.
 * Dictionaries and departments are loaded once per import or export (`prepare`), for the caller's tenant.
 */
import { sql, type Db } from '../core/db/index.js';
import type { ColumnDef } from '../../shared/schema/derive.js';
import type { FormNode } from '../../shared/schema/types.js';
import type { Lang } from '../../shared/i18n/messages.js';

/** The faults and words of a cell, zh and en. */
export const M = {
  notInDict: (v: string): Text => ({ zh: `值「${v}」不在可选范围内`, en: `"${v}" is not one of the allowed values` }),
  badNumber: (v: string): Text => ({ zh: `「${v}」不是数字`, en: `"${v}" is not a number` }),
  badDate: (v: string): Text => ({ zh: `「${v}」不是有效的日期`, en: `"${v}" is not a valid date` }),
  badBool: (v: string): Text => ({ zh: `「${v}」只能填 是 或 否`, en: `"${v}" must be Yes or No` }),
  badJson: { zh: '内容不是有效的 JSON', en: 'The content is not valid JSON' },
  yes: { zh: '是', en: 'Yes' },
  no: { zh: '否', en: 'No' },
};

export type Translation =
  | { kind: 'dict'; code: string; biz: boolean }
  | { kind: 'enum'; options: Array<{ value: unknown; label: string; labelEn: string }> }
  | { kind: 'dept' }
  | { kind: 'none' };

/** One column of a template, resolved against the resource: the field, its node and column, the headers. */
export interface TemplateColumn {
  field: string;
  title: string;
  titleEn: string;
  width: number;
  node: FormNode;
  col: ColumnDef;
  translation: Translation;
}

export type Text = { zh: string; en: string };
export type CellValue = string | number | boolean | Date | null;

/** How the values of `node` translate (see the module comment); `dictCode` overrides the field's own. */
export function translationOf(node: FormNode, dictCode?: string | null): Translation {
  const props = (node['x-component-props'] ?? {}) as Record<string, unknown>;
  if (dictCode) return { kind: 'dict', code: dictCode, biz: props.biz === true };
  if (node['x-component'] === 'DictSelect' && typeof props.code === 'string') return { kind: 'dict', code: props.code, biz: props.biz === true };
  if (Array.isArray(node.enum) && node.enum.length) {
    return {
      kind: 'enum',
      options: node.enum.map((o) => (typeof o === 'object' && o !== null ? { value: o.value, label: o.label, labelEn: o.labelEn ?? o.label } : { value: o, label: String(o), labelEn: String(o) })),
    };
  }
  if (node['x-ref'] === 'dept' || node['x-component'] === 'DeptTreeSelect') return { kind: 'dept' };
  return { kind: 'none' };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** yyyy-MM-dd of an Excel date cell (Excel dates carry no zone: exceljs hands them over as UTC). */
const ymd = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const ymdhms = (d: Date) => `${ymd(d)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/;
const DECIMAL_RE = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

export class Translator {
  private readonly dicts = new Map<string, Array<{ key: string; zh: string; en: string }>>();
  private depts: Array<{ id: string; name: string; fullName: string }> = [];

  constructor(
    private readonly db: Db,
    private readonly tenantId: string,
  ) {}

  /** Loads the dictionaries and departments the columns translate with. */
  async prepare(columns: TemplateColumn[]): Promise<void> {
    for (const c of columns) {
      const t = c.translation;
      if (t.kind === 'dict') {
        const id = `${t.biz ? 'biz' : 'sys'}:${t.code}`;
        if (this.dicts.has(id)) continue;
        const rows = t.biz
          ? await sql<{ k: string; v: string; e: string | null }>`SELECT dict_key AS k, dict_value AS v, dict_value_en AS e FROM blade_dict_biz
               WHERE code = ${t.code} AND parent_id <> 0 AND is_deleted = 0 AND tenant_id = ${this.tenantId} ORDER BY sort, id`.execute(this.db)
          : await sql<{ k: string; v: string; e: string | null }>`SELECT dict_key AS k, dict_value AS v, dict_value_en AS e FROM blade_dict
               WHERE code = ${t.code} AND parent_id <> 0 AND is_deleted = 0 ORDER BY sort, id`.execute(this.db);
        this.dicts.set(id, rows.rows.map((r) => ({ key: String(r.k), zh: r.v, en: r.e || r.v })));
      } else if (t.kind === 'dept' && this.depts.length === 0) {
        const rows = await sql<{ id: string; n: string; f: string | null }>`SELECT id::text AS id, dept_name AS n, full_name AS f FROM blade_dept
                                                                             WHERE tenant_id = ${this.tenantId} AND is_deleted = 0 ORDER BY id`.execute(this.db);
        this.depts = rows.rows.map((r) => ({ id: r.id, name: r.n, fullName: r.f ?? r.n }));
      }
    }
  }

  private dict(t: { code: string; biz: boolean }) {
    return this.dicts.get(`${t.biz ? 'biz' : 'sys'}:${t.code}`) ?? [];
  }

  /** The cell an export writes for `value` of column `c`. */
  toCell(c: TemplateColumn, value: unknown, lang: Lang): CellValue {
    if (value === null || value === undefined || value === '') return null;
    const t = c.translation;
    if (t.kind === 'dict') {
      const one = (v: unknown) => this.dict(t).find((e) => e.key === String(v))?.[lang] ?? String(v);
      return Array.isArray(value) ? value.map(one).join(',') : one(value);
    }
    if (t.kind === 'enum') {
      const o = t.options.find((x) => x.value === value || String(x.value) === String(value));
      return o ? (lang === 'en' ? o.labelEn : o.label) : String(value);
    }
    if (t.kind === 'dept') return this.depts.find((d) => d.id === String(value))?.name ?? String(value);
    if (typeof value === 'boolean') return value ? M.yes[lang] : M.no[lang];
    if (c.col.kind === 'json') return JSON.stringify(value);
    if (value instanceof Date) return c.col.kind === 'date' ? ymd(value) : ymdhms(value);
    if (typeof value === 'number') return value;
    if ((c.col.kind === 'number' || c.col.kind === 'integer') && typeof value === 'string' && DECIMAL_RE.test(value) && !c.col.idText) return Number(value);
    return String(value);
  }

  /**
   * The record value of a cell of column `c`: `{ value }` (undefined = empty cell) or `{ fault }` with the
   * message the import reports for it.
   */
  fromCell(c: TemplateColumn, raw: CellValue): { value: unknown } | { fault: Text } {
    if (raw === null || (typeof raw === 'string' && raw.trim() === '')) return { value: undefined };
    const text = raw instanceof Date ? (c.col.kind === 'timestamp' ? ymdhms(raw) : ymd(raw)) : typeof raw === 'number' && Number.isInteger(raw) ? String(raw) : String(raw).trim();
    const t = c.translation;
    if (t.kind === 'dict') {
      const entries = this.dict(t);
      const one = (s: string) => entries.find((e) => e.zh === s || e.en === s || e.key === s)?.key;
      const many = c.node.type === 'array';
      const parts = many ? text.split(/[,，、]/).map((s) => s.trim()).filter(Boolean) : [text];
      const keys = parts.map(one);
      const bad = parts.find((_, i) => keys[i] === undefined);
      if (bad !== undefined) return { fault: M.notInDict(bad) };
      const typed = keys.map((k) => (c.col.kind === 'integer' || c.col.kind === 'number' ? Number(k) : k));
      return { value: many ? typed : typed[0] };
    }
    if (t.kind === 'enum') {
      const o = t.options.find((x) => x.label === text || x.labelEn === text || String(x.value) === text);
      return o ? { value: o.value } : { fault: M.notInDict(text) };
    }
    if (t.kind === 'dept') {
      const d = this.depts.find((x) => x.name === text || x.fullName === text || x.id === text);
      return d ? { value: d.id } : { fault: M.notInDict(text) };
    }
    switch (c.col.kind) {
      case 'boolean': {
        const s = text.toLowerCase();
        if (['是', 'yes', 'true', '1', 'y'].includes(s) || raw === true) return { value: true };
        if (['否', 'no', 'false', '0', 'n'].includes(s) || raw === false) return { value: false };
        return { fault: M.badBool(text) };
      }
      case 'integer':
      case 'number':
        if (c.col.idText) return { value: text };
        if (typeof raw === 'number') return { value: raw };
        if (!DECIMAL_RE.test(text)) return { fault: M.badNumber(text) };
        return { value: Number(text) };
      case 'date':
        return DATE_RE.test(text) ? { value: text } : { fault: M.badDate(text) };
      case 'timestamp':
        return DATETIME_RE.test(text) ? { value: text.replace('T', ' ') } : { fault: M.badDate(text) };
      case 'json':
        try {
          return { value: JSON.parse(text) };
        } catch {
          return { fault: M.badJson };
        }
      default:
        return { value: typeof raw === 'number' ? String(raw) : text };
    }
  }
}

/**
 * The template column a header cell names: its zh header exactly, else its en header (any case), else its
 * field name (any case) — in that order over all columns, so that a header is read as the column it titles
 * before one whose field name it happens to spell (the user template's English 'Name' is `realName`, not the
 * field `name`, whose header is 'Nickname').
 */
export function matchColumn(columns: TemplateColumn[], text: string): TemplateColumn | undefined {
  const low = text.toLowerCase();
  return columns.find((c) => c.title === text) ?? columns.find((c) => c.titleEn.toLowerCase() === low) ?? columns.find((c) => c.field.toLowerCase() === low);
}
