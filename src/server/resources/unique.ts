/**
 * The `unique` key of a resource schema (DESIGN §4 schema keys; src/shared/schema/types.ts `unique`): sets of
 * fields no two live records of a tenant may share — e.g. one supplier per unified social credit code
 * (schemas/basic/supplier.json). Checked by the generic submit (write.ts) inside its transaction.
 */
import type { AuthUser } from '../core/context.js';
import type { Db } from '../core/db/index.js';
import type { ResourceEngine } from './engine.js';
import type { Resource } from './registry.js';
import { quote } from './query.js';
import type { FieldFault } from './validate.js';

type Row = Record<string, unknown>;

/**
 * The faults of the schema's `unique` sets: another live record of the tenant holds the same values (text compared
 * trimmed and case-insensitively; a set with an empty value is not checked). Each set is checked under a
 * transaction lock on its values, so two submits of the same values at once cannot both pass.
 */
export async function uniqueFaults(engine: ResourceEngine, r: Resource, user: AuthUser, values: Row, existing: Row | null, trx: Db): Promise<FieldFault[]> {
  const faults: FieldFault[] = [];
  for (const u of r.schema.unique ?? []) {
    const vals = u.fields.map((f) => values[f]);
    if (vals.some((v) => v === null || v === undefined || String(v).trim() === '')) continue;
    const norm = vals.map((v) => String(v).trim().toLowerCase());
    const lockKey = `${r.schema.table}:${u.fields.join(',')}:${r.tenantScoped ? user.tenantId : ''}:${JSON.stringify(norm)}`;
    await engine.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockKey], trx);
    const params: unknown[] = [];
    const cond = u.fields.map((f, i) => {
      params.push(norm[i]);
      return `lower(btrim(${quote(r.byField.get(f)!.column)}::text)) = $${params.length}`;
    });
    if (r.tenantScoped) {
      params.push(user.tenantId);
      cond.push(`tenant_id = $${params.length}`);
    }
    if (existing) {
      params.push(String(existing[r.key]));
      cond.push(`${quote(r.keyColumn)}::text <> $${params.length}`);
    }
    const hit = await engine.query(`SELECT 1 FROM ${quote(r.schema.table)} WHERE is_deleted = 0 AND ${cond.join(' AND ')} LIMIT 1`, params, trx);
    if (hit.length) faults.push({ field: u.fields[0], message: u.message, messageEn: u.messageEn });
  }
  return faults;
}
