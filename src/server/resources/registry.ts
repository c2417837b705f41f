/**
 * The schema registry (DESIGN §4): loads every resource schema from `schemas/`, checks it against the
 * meta-schema `schemas/_meta/resource.schema.json`, and keeps per resource what is derived from it once
 * (never per request): the ajv validator of records, the columns, the field index and the messages.
 *
 * A faulty file stops the start with `SchemaLoadError`, whose message names the file and the fault
 * (资源定义 <file> 不合法: <path> <problem>).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { repoRoot } from '../core/config.js';
import { columnsOf, dataFields, dateFormats, recordJsonSchema, type ColumnDef, type DataField } from '../../shared/schema/derive.js';
import type { ResourceSchema } from '../../shared/schema/types.js';
import { t } from '../../shared/i18n/messages.js';

export class SchemaLoadError extends Error {}

/** A resource with everything derived from its schema. */
export interface Resource {
  schema: ResourceSchema;
  file: string;
  key: string;
  keyColumn: string;
  columns: ColumnDef[];
  /** field name → column, for every column (system ones included). */
  byField: Map<string, ColumnDef>;
  /** column name → column. */
  byColumn: Map<string, ColumnDef>;
  fields: DataField[];
  validate: ValidateFunction;
  tenantScoped: boolean;
}

/** One ajv instance for records: all errors, strict types off (Formily keys such as x-component are allowed). */
export function createRecordAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  for (const [name, re] of Object.entries(dateFormats)) ajv.addFormat(name, re);
  return ajv;
}

const metaSchemaFile = path.join(repoRoot, 'schemas/_meta/resource.schema.json');

let metaValidator: ValidateFunction | undefined;
function metaValidate(): ValidateFunction {
  if (!metaValidator) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    metaValidator = ajv.compile(JSON.parse(fs.readFileSync(metaSchemaFile, 'utf8')));
  }
  return metaValidator;
}

function describe(e: ErrorObject): string {
  const where = e.instancePath || '/';
  if (e.keyword === 'additionalProperties') return `${where}: unknown key "${(e.params as any).additionalProperty}"`;
  if (e.keyword === 'enum') return `${where}: ${e.message} (${(e.params as any).allowedValues?.join(', ')})`;
  return `${where}: ${e.message}`;
}

/**
 * Checks one parsed schema: the meta-schema, then rules JSON Schema cannot say (field names unique across
 * layout nodes, list and search fields exist, tree fields exist, key field exists). Returns the faults.
 */
export function checkSchema(schema: unknown): string[] {
  const v = metaValidate();
  if (!v(schema)) {
    // anyOf/allOf produce cascades; the first few distinct faults are what a reader needs
    return [...new Set((v.errors ?? []).map(describe))].slice(0, 5);
  }
  const s = schema as ResourceSchema;
  const faults: string[] = [];
  const names = new Map<string, number>();
  for (const f of dataFields(s.form)) names.set(f.name, (names.get(f.name) ?? 0) + 1);
  for (const [n, c] of names) if (c > 1) faults.push(`/form: field "${n}" is defined ${c} times`);
  const known = new Set([...names.keys(), 'id', 'createTime', 'updateTime', 'createUser', 'createDept', 'status']);
  for (const c of s.list?.columns ?? []) if (!known.has(c.field)) faults.push(`/list/columns: no field "${c.field}"`);
  for (const c of s.list?.search ?? []) if (!known.has(c.field)) faults.push(`/list/search: no field "${c.field}"`);
  if (s.tree) {
    for (const k of ['parentField', 'labelField'] as const) if (!known.has(s.tree[k])) faults.push(`/tree/${k}: no field "${s.tree[k]}"`);
  }
  if (s.key && !names.has(s.key)) faults.push(`/key: no field "${s.key}"`);
  if (s.labelField && !known.has(s.labelField)) faults.push(`/labelField: no field "${s.labelField}"`);
  if ((s.endpoints.includes('tree') || s.endpoints.includes('lazy-tree')) && !s.tree) faults.push('/endpoints: tree endpoints need a "tree" section');
  return faults;
}

/** Derives a `Resource` from a checked schema. */
export function deriveResource(schema: ResourceSchema, file: string, ajv: Ajv): Resource {
  const columns = columnsOf(schema);
  const key = schema.key ?? 'id';
  const byField = new Map(columns.map((c) => [c.field, c]));
  return {
    schema,
    file,
    key,
    keyColumn: byField.get(key)!.column,
    columns,
    byField,
    byColumn: new Map(columns.map((c) => [c.column, c])),
    fields: dataFields(schema.form),
    validate: ajv.compile(recordJsonSchema(schema)),
    tenantScoped: schema.scope?.tenant !== false,
  };
}

function listSchemaFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name.startsWith('_') || e.name === 'locales' || e.name === 'flows') continue;
      out.push(...listSchemaFiles(p));
    } else if (e.name.endsWith('.json')) out.push(p);
  }
  return out.sort();
}

export class Registry {
  readonly resources = new Map<string, Resource>();
  private readonly ajv = createRecordAjv();

  /** Loads every schema under `dir` (default `<repo>/schemas`); throws SchemaLoadError on the first bad file. */
  static loadFolder(dir = path.join(repoRoot, 'schemas')): Registry {
    const reg = new Registry();
    for (const file of listSchemaFiles(dir)) {
      const rel = path.relative(repoRoot, file);
      let parsed: unknown;
      try {
        parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (e) {
        throw new SchemaLoadError(t('schemaInvalid', 'zh', { file: rel, fault: `JSON: ${(e as Error).message}` }));
      }
      reg.add(parsed, rel);
    }
    return reg;
  }

  /** Checks and adds one schema; throws SchemaLoadError naming `file` and the fault. */
  add(parsed: unknown, file: string): Resource {
    const faults = checkSchema(parsed);
    if (faults.length) throw new SchemaLoadError(t('schemaInvalid', 'zh', { file, fault: faults.join('; ') }));
    const schema = parsed as ResourceSchema;
    for (const r of this.resources.values()) {
      if (r.schema.name === schema.name) throw new SchemaLoadError(t('schemaInvalid', 'zh', { file, fault: `name "${schema.name}" is already used by ${r.file}` }));
      if (r.schema.api === schema.api) throw new SchemaLoadError(t('schemaInvalid', 'zh', { file, fault: `api "${schema.api}" is already used by ${r.file}` }));
      if (r.schema.table === schema.table) throw new SchemaLoadError(t('schemaInvalid', 'zh', { file, fault: `table "${schema.table}" is already used by ${r.file}` }));
    }
    const res = deriveResource(schema, file, this.ajv);
    this.resources.set(schema.name, res);
    return res;
  }

  get(name: string): Resource {
    const r = this.resources.get(name);
    if (!r) throw new Error(`No resource named ${name}`);
    return r;
  }
}
