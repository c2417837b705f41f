/**
 * The writes of an Excel import (issue 13; import.ts reads and checks the rows): new rows inserted a batch at
 * a time (`insertRows`: one INSERT … SELECT FROM unnest), existing ones updated (`updateRow`), in the caller's
 * tenant and as the caller; and, once the import committed, the resource's `afterCommit` hooks (`afterCommit`:
 * search indexing and the like, as the generic submit runs them, resources/write.ts) — run by the follow-up job
 * `excel-after-commit` (import-route.ts), so that a large import is done when its rows are, and the indexing of
 * 100,000 records does not hold its answer.
 */
import { nextId } from '../../core/ids.js';
import type { AuthUser } from '../../core/context.js';
import type { Db } from '../../core/db/index.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Resource } from '../../resources/registry.js';
import { quote } from '../../resources/query.js';
import type { ColumnDef } from '../../../shared/schema/derive.js';
import type { Lang } from '../../../shared/i18n/messages.js';
import type { ImportResult } from './import.js';

type Row = Record<string, unknown>;
/** Keys handed to an `afterCommit` hook of every resource at once. */
const CHUNK = 1000;

/** The cast of a bind parameter into column `c` of a multi-row VALUES list. */
const cast = (c: ColumnDef) => (c.kind === 'json' ? 'jsonb' : c.idText ? 'bigint' : c.sqlType);
const bind = (c: ColumnDef, v: unknown) => (v === undefined || v === null ? null : c.kind === 'json' ? JSON.stringify(v) : c.idText ? String(v) : v);

/** The `afterCommit` hooks of `r`'s own module (not those every resource has): they may read `saved`. */
export function ownCommitHooks(engine: ResourceEngine, r: Resource) {
  const everyResource = new Set(engine.hooksOf('')); // no resource is named '': the hooks of every resource
  return engine.hooksOf(r.schema.name).filter((h) => h.afterCommit && !everyResource.has(h));
}

/**
 * After the import committed, the `afterCommit` hooks as the generic submit runs them (resources/write.ts):
 * search indexing and the like see the imported records. The hooks of every resource get the keys 1,000 at a
 * time per action; the resource's own hooks one record at a time with `saved`. `progress(done, total)` after
 * each call. A hook handles its own errors (the import stands); one that throws fails the job running this.
 */
export async function afterCommit(
  engine: ResourceEngine,
  user: AuthUser,
  r: Resource,
  lang: Lang,
  res: Pick<ImportResult, 'written' | 'saved'>,
  progress: (done: number, total: number) => Promise<void> = async () => undefined,
): Promise<void> {
  const own = new Set(ownCommitHooks(engine, r));
  const hooks = engine.hooksOf(r.schema.name).filter((h) => h.afterCommit);
  const rows = res.written.add.length + res.written.edit.length;
  const total = hooks.reduce((n, h) => n + (own.has(h) ? res.saved.length : rows), 0);
  let done = 0;
  for (const h of hooks) {
    if (own.has(h)) {
      for (const s of res.saved) {
        await h.afterCommit!({ user, resource: r, lang, action: s.action, ids: [s.id], saved: s.row });
        if (++done % CHUNK === 0) await progress(done, total);
      }
      continue;
    }
    for (const action of ['add', 'edit'] as const) {
      const ids = res.written[action];
      for (let i = 0; i < ids.length; i += CHUNK) {
        const chunk = ids.slice(i, i + CHUNK);
        await h.afterCommit!({ user, resource: r, lang, action, ids: chunk });
        done += chunk.length;
        await progress(done, total);
      }
    }
  }
}

/** True when `r` has `afterCommit` hooks an import's written rows must reach. */
export const hasCommitHooks = (engine: ResourceEngine, r: Resource) => engine.hooksOf(r.schema.name).some((h) => h.afterCommit);

/**
 * One INSERT of `records` into `r`'s table, in the caller's tenant: each column's values travel as one array
 * parameter and `unnest` turns them into rows (one parameter per column, not per value: a batch of 500 rows
 * binds ~25 arrays instead of ~12,500 values). Answers the inserted rows (`returning`: whole, hooks want them;
 * else their keys only, as `__k`), in the order of `records`.
 */
export async function insertRows(engine: ResourceEngine, user: AuthUser, r: Resource, records: Row[], trx: Db, returning: boolean): Promise<Row[]> {
  if (!records.length) return [];
  const cols = r.fields.map((f) => r.byField.get(f.name)!).filter((c) => c.column !== r.keyColumn || r.key !== 'id');
  const params: unknown[] = [];
  const names: string[] = [];
  const arrays: string[] = [];
  const selects: string[] = [];
  /** One column: its values as an array parameter of `arrayType`, cast to the column's type in the SELECT. */
  const column = (name: string, values: unknown[], arrayType: 'text' | 'numeric' | 'boolean', to: string) => {
    params.push(values);
    names.push(quote(name));
    arrays.push(`$${params.length}::${arrayType}[]`);
    selects.push(`u.c${params.length}::${to}`);
  };
  if (r.key === 'id') column('id', records.map(() => nextId()), 'text', 'bigint');
  if (r.tenantScoped) column('tenant_id', records.map(() => user.tenantId), 'text', 'varchar');
  for (const c of cols) {
    const kind = c.kind === 'boolean' ? 'boolean' : (c.kind === 'integer' || c.kind === 'number') && !c.idText ? 'numeric' : 'text';
    column(c.column, records.map((rec) => bind(c, rec[c.field])), kind, cast(c));
  }
  const by = records.map(() => user.userId);
  column('create_user', by, 'text', 'bigint');
  column('create_dept', records.map(() => user.deptId || null), 'text', 'bigint');
  column('update_user', by, 'text', 'bigint');
  const aliases = params.map((_, i) => `c${i + 1}`).join(', ');
  return engine.query(
    `INSERT INTO ${quote(r.schema.table)} (${names.join(', ')}) SELECT ${selects.join(', ')} FROM unnest(${arrays.join(', ')}) AS u(${aliases}) RETURNING ${returning ? '*' : `${quote(r.keyColumn)}::text AS __k`}`,
    params,
    trx,
  );
}

/** Updates the record `old` with `values` (every field), as the caller. */
export async function updateRow(engine: ResourceEngine, user: AuthUser, r: Resource, values: Row, old: Row, trx: Db): Promise<Row> {
  const params: unknown[] = [];
  const sets = r.fields
    .filter((f) => f.name !== r.key)
    .map((f) => {
      const c = r.byField.get(f.name)!;
      params.push(bind(c, values[f.name]));
      return `${quote(c.column)} = $${params.length}::${cast(c)}`;
    });
  params.push(user.userId, String(old[r.key]));
  const keyCast = r.byField.get(r.key)!.sqlType === 'bigint' ? '::bigint' : '';
  const [row] = await engine.query(
    `UPDATE ${quote(r.schema.table)} SET ${sets.join(', ')}, update_user = $${params.length - 1}::bigint, update_time = now() WHERE ${quote(r.keyColumn)} = $${params.length}${keyCast} RETURNING *`,
    params,
    trx,
  );
  return row;
}
