/**
 * A record's workflow status (DESIGN §4 `actions.statusField`, `actions.statusDict`), read the same way by
 * the write path (locked statuses), the workflow actions and the statistics:
 *
 * - `statusOf(r, record)`: the status as a string (shared/schema/status.ts, which the client uses too); an
 *   empty one counts as the status field's default;
 * - `statusLabel(db, spec, value)`: `{zh, en}` of the status from the system dictionary `statusDict`
 *   (blade_dict entries, cached 30 s per dictionary), or the value itself when there is none — used in the
 *   messages 当前状态为「待审核」，不能修改.
 */
import { sql, type Db } from '../core/db/index.js';
import type { ActionsSpec } from '../../shared/schema/types.js';
import { statusOf as schemaStatusOf } from '../../shared/schema/status.js';
import type { Resource } from './registry.js';

type Row = Record<string, unknown>;

/** The status of `record` (shared/schema/status.ts), for a served resource. */
export function statusOf(r: Resource, record: Row): string {
  return schemaStatusOf(r.schema, record);
}

const LABEL_TTL_MS = 30_000;
const labelCache = new Map<string, { at: number; labels: Map<string, { zh: string; en: string }> }>();

/** The label of status `value` (the dictionary's entry in zh and en, or the value itself). */
export async function statusLabel(db: Db, spec: ActionsSpec | undefined, value: string): Promise<{ zh: string; en: string }> {
  const code = spec?.statusDict;
  if (!code) return { zh: value, en: value };
  let hit = labelCache.get(code);
  if (!hit || Date.now() - hit.at > LABEL_TTL_MS) {
    const rows = await sql<{ dict_key: string; dict_value: string; dict_value_en: string | null }>`
      SELECT dict_key, dict_value, dict_value_en FROM blade_dict WHERE code = ${code} AND parent_id <> 0 AND is_deleted = 0`.execute(db);
    hit = { at: Date.now(), labels: new Map(rows.rows.map((r) => [r.dict_key, { zh: r.dict_value, en: r.dict_value_en ?? r.dict_value }])) };
    labelCache.set(code, hit);
  }
  return hit.labels.get(value) ?? { zh: value, en: value };
}
