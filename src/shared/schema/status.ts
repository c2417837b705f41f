/**
 * A record's workflow status (DESIGN §4 `actions.statusField`), read the same way by the server (locked
 * statuses, workflow actions, statistics) and the client (which buttons a row shows):
 * `statusOf(schema, record)` is the status as a string — '' when the resource has no status field — and an
 * empty value (null, undefined, '') counts as the status field's default, so a record stored before the
 * field existed reads as its initial status.
 */
import type { ResourceSchema } from './types.js';
import { dataFields } from './derive.js';

type Row = Record<string, unknown>;

const defaults = new WeakMap<ResourceSchema, unknown>();

/** The default of the schema's status field (cached per schema object). */
function statusDefault(schema: ResourceSchema, field: string): unknown {
  if (!defaults.has(schema)) defaults.set(schema, dataFields(schema.form).find((f) => f.name === field)?.node.default);
  return defaults.get(schema);
}

export function statusOf(schema: ResourceSchema, record: Row): string {
  const field = schema.actions?.statusField;
  if (!field) return '';
  const v = record[field];
  if (v === null || v === undefined || v === '') {
    const d = statusDefault(schema, field);
    return d === undefined || d === null ? '' : String(d);
  }
  return String(v);
}
