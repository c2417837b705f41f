/**
 * The schema registry (DESIGN §4): loads every resource schema from `schemas/`, checks it against the
 * meta-schema `schemas/_meta/resource.schema.json`, and keeps per resource what is derived from it once
 * (never per request): the ajv validator of records, the columns, the field index and the messages.
 *
 * A faulty file stops the start with `SchemaLoadError`, whose message names the file and the fault
 * (资源定义 <file> 不合法: <path> <problem>).
 *
 * Run-time replacement (the schema store, `store.ts`): a version published from the designer replaces a
 * resource while the server runs. `candidate()` checks and derives a schema without adding it, `replace()`
 * swaps the `Resource` object of a name (a new object, never mutated in place: a request that already holds
 * the old one finishes with it consistently), `remove()` drops one. `folder` keeps the folder's schemas as
 * loaded at start, which is what a rollback to version 0 serves again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { repoRoot } from '../core/config.js';
import { columnsOf, dataFields, dateFormats, recordJsonSchema, type ColumnDef, type DataField } from '../../shared/schema/derive.js';
import type { ResourceSchema } from '../../shared/schema/types.js';
import { t } from '../../shared/i18n/messages.js';
import { checkActions } from '../../shared/schema/check-actions.js';
import { FIELD_FORMATS } from '../../shared/validators/index.js';
import { resourceSchemaFiles } from './schema-files.js';
import { READABLE_SYSTEM_FIELDS } from '../../shared/contract/records.js';

/** A schema that cannot be served: `file` names where it came from, `fault` what is wrong (en, as ajv says it). */
export class SchemaLoadError extends Error {
  constructor(
    readonly file: string,
    readonly fault: string,
  ) {
    super(t('schemaInvalid', 'zh', { file, fault }));
  }
}

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
  /** The record validator (compiled on first use for the folder's schemas: `deriveResource`). */
  readonly validate: ValidateFunction;
  /** The JSON Schema `validate` is compiled from (ajv's cache key, for `discard`). */
  recordSchema: object;
  tenantScoped: boolean;
  /** The version served: 0 = the folder's, n ≥ 1 = version n of the schema store (kc_schema_version). */
  version: number;
}

/** One ajv instance for records: all errors, strict types off (Formily keys such as x-component are allowed). */
export function createRecordAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  for (const [name, re] of Object.entries(dateFormats)) ajv.addFormat(name, re);
  // the shared field formats (phone, idcard …, src/shared/validators): validate.ts answers their own messages
  for (const [name, f] of Object.entries(FIELD_FORMATS)) ajv.addFormat(name, { type: 'string', validate: (v: string) => f.fault(v) === null });
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
 * layout nodes, list and search fields exist — or a column names its own title —, tree fields exist, the
 * fields `rules` name exist, key field exists, list operations have distinct keys, an operation's designField
 * is a field of type object). Returns the faults.
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
  const known = new Set<string>([...names.keys(), ...READABLE_SYSTEM_FIELDS]);
  // a column the form does not define is a value the list answers beside the record: it needs its own title
  // and cannot be sorted (the server sorts by columns only)
  for (const c of s.list?.columns ?? []) {
    if (known.has(c.field)) continue;
    if (!c.title || !c.titleEn) faults.push(`/list/columns: no field "${c.field}" (a column the list answers beside the record needs title and titleEn)`);
    else if (c.sortable) faults.push(`/list/columns: "${c.field}" is not a field and cannot be sortable`);
  }
  const opKeys = (s.list?.operations ?? []).map((o) => o.key);
  for (const k of new Set(opKeys.filter((k, i) => opKeys.indexOf(k) !== i))) faults.push(`/list/operations: key "${k}" is used twice`);
  for (const o of s.list?.operations ?? []) {
    // a designed form lives in a field of type object of the record
    if (o.designField && dataFields(s.form).find((f) => f.name === o.designField)?.node.type !== 'object') faults.push(`/list/operations: "${o.key}" designs "${o.designField}", which is no field of type object`);
  }
  for (const c of s.list?.search ?? []) if (!known.has(c.field)) faults.push(`/list/search: no field "${c.field}"`);
  if (s.tree) {
    for (const k of ['parentField', 'labelField'] as const) if (!known.has(s.tree[k])) faults.push(`/tree/${k}: no field "${s.tree[k]}"`);
  }
  for (const [i, rule] of (s.rules ?? []).entries()) {
    const fields = 'before' in rule ? rule.before : 'sum' in rule ? [...rule.sum.map((p) => p.split('.')[0]), rule.equals] : rule.clear;
    for (const f of fields) if (!names.has(f)) faults.push(`/rules/${i}: no field "${f}"`);
  }
  if (s.key && !names.has(s.key)) faults.push(`/key: no field "${s.key}"`);
  if (s.labelField && !known.has(s.labelField)) faults.push(`/labelField: no field "${s.labelField}"`);
  for (const f of Object.keys(s.selectWhere ?? {})) if (!names.has(f)) faults.push(`/selectWhere: no field "${f}"`);
  for (const [i, u] of (s.unique ?? []).entries()) for (const f of u.fields) if (!names.has(f)) faults.push(`/unique/${i}: no field "${f}"`);
  for (const [i, l] of (s.userLists ?? []).entries()) {
    if (!names.has(l.field)) faults.push(`/userLists/${i}: no field "${l.field}"`);
    if ((s.endpoints as string[]).includes(l.endpoint) || (s.userLists ?? []).findIndex((o) => o.endpoint === l.endpoint) !== i) faults.push(`/userLists/${i}: endpoint "${l.endpoint}" is used twice`);
  }
  if ((s.endpoints.includes('tree') || s.endpoints.includes('lazy-tree')) && !s.tree) faults.push('/endpoints: tree endpoints need a "tree" section');
  faults.push(...checkActions(s));
  return faults;
}

/**
 * Derives a `Resource` from a checked schema. The record validator is compiled by ajv on first use (`lazy`, the
 * folder's schemas at start: compiling all of them took ~0.7 s of every start, most never written to by a given
 * process) or at once (`lazy` false: a schema published at run time, so that what ajv refuses — an invalid
 * regular expression in a pattern — is refused when it is published, not at its first write). The folder's
 * schemas are all compiled by the schema test (tests/integration/schema.test.ts).
 */
export function deriveResource(schema: ResourceSchema, file: string, ajv: Ajv, version = 0, lazy = false): Resource {
  const columns = columnsOf(schema);
  const key = schema.key ?? 'id';
  const byField = new Map(columns.map((c) => [c.field, c]));
  const jsonSchema = recordJsonSchema(schema);
  let compiled: ValidateFunction | undefined = lazy ? undefined : ajv.compile(jsonSchema);
  return {
    schema,
    file,
    key,
    keyColumn: byField.get(key)!.column,
    columns,
    byField,
    byColumn: new Map(columns.map((c) => [c.column, c])),
    fields: dataFields(schema.form),
    get validate(): ValidateFunction {
      return (compiled ??= ajv.compile(jsonSchema));
    },
    recordSchema: jsonSchema,
    tenantScoped: schema.scope?.tenant !== false && schema.scope?.platform !== true,
    version,
  };
}


export class Registry {
  readonly resources = new Map<string, Resource>();
  /** The folder's schemas as loaded at start, by name (version 0 of each). */
  readonly folder = new Map<string, { schema: ResourceSchema; file: string }>();
  private readonly ajv = createRecordAjv();

  /** Loads every schema under `dir` (default `<repo>/schemas`); throws SchemaLoadError on the first bad file. */
  static loadFolder(dir = path.join(repoRoot, 'schemas')): Registry {
    const reg = new Registry();
    for (const file of resourceSchemaFiles(dir)) {
      const rel = path.relative(repoRoot, file);
      let parsed: unknown;
      try {
        parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (e) {
        throw new SchemaLoadError(rel, `JSON: ${(e as Error).message}`);
      }
      const r = reg.add(parsed, rel, 0, true);
      reg.folder.set(r.schema.name, { schema: r.schema, file: rel });
    }
    return reg;
  }

  /**
   * Checks one schema and derives its resource without adding it: the meta-schema and the rules of
   * `checkSchema`, and that its api and table are not used by another resource (the resource of the same
   * name is the one it would replace, so its own api and table do not count). Throws SchemaLoadError naming
   * `file` and the fault. A derived resource that is not kept should be handed to `discard`.
   */
  candidate(parsed: unknown, file: string, version = 0): Resource {
    return this.derive(this.check(parsed, file), file, version);
  }

  /** Checks and adds one schema (`lazy`: its validator compiled on first use); throws SchemaLoadError naming `file` and the fault. */
  add(parsed: unknown, file: string, version = 0, lazy = false): Resource {
    const schema = this.check(parsed, file);
    const same = this.resources.get(schema.name);
    if (same) throw new SchemaLoadError(file, `name "${schema.name}" is already used by ${same.file}`);
    const res = this.derive(schema, file, version, lazy);
    this.resources.set(schema.name, res);
    return res;
  }

  private check(parsed: unknown, file: string): ResourceSchema {
    const faults = checkSchema(parsed);
    if (faults.length) throw new SchemaLoadError(file, faults.join('; '));
    const schema = parsed as ResourceSchema;
    for (const r of this.resources.values()) {
      if (r.schema.name === schema.name) continue;
      if (r.schema.api === schema.api) throw new SchemaLoadError(file, `api "${schema.api}" is already used by ${r.file}`);
      if (r.schema.table === schema.table) throw new SchemaLoadError(file, `table "${schema.table}" is already used by ${r.file}`);
    }
    return schema;
  }

  private derive(schema: ResourceSchema, file: string, version: number, lazy = false): Resource {
    try {
      return deriveResource(schema, file, this.ajv, version, lazy);
    } catch (e) {
      // ajv refuses what the meta-schema cannot see (an invalid regular expression in a pattern ...)
      throw new SchemaLoadError(file, (e as Error).message);
    }
  }

  /** Serves `res` for its name from now on (adding it when the name is new); the replaced one is dropped. */
  replace(res: Resource): void {
    const old = this.resources.get(res.schema.name);
    this.resources.set(res.schema.name, res);
    if (old && old !== res) this.discard(old);
  }

  /** Stops serving the resource `name` (its table stays). */
  remove(name: string): void {
    const old = this.resources.get(name);
    this.resources.delete(name);
    if (old) this.discard(old);
  }

  /** Drops the compiled record validator of a resource that is no longer served (ajv caches it by schema). */
  discard(res: Resource): void {
    if (this.resources.get(res.schema.name) === res) return;
    this.ajv.removeSchema(res.recordSchema);
  }

  get(name: string): Resource {
    const r = this.resources.get(name);
    if (!r) throw new Error(`No resource named ${name}`);
    return r;
  }
}
