/**
 * Export of a crawl task's rows into the platform's own records instead of a database table (issue 16
 * "Export: … or into the portal's journal records"; spec 002 §7 `spider/task` getTableNames, getTableColumns,
 * exportData with the body's `targetType: 'records'`).
 *
 * Which records: every resource whose schema has the `portalRecord` key (records gathered from outside and
 * published to the portal — the journal catalogue schemas/portal/journal.json, CNKI records …) and that the
 * caller may add to (its `add` grant); nothing names a resource here.
 *
 * - `recordTargets(engine, user, lang)` → `[{value: resource name, label: its title}]` (getTableNames);
 * - `recordColumns(resource)` → `[{name, type, nullable, title}]`: its editable string / number fields
 *   (getTableColumns), `nullable` false for a required one;
 * - `recordTarget(engine, user, name)` → the resource (400 所选数据表不存在 when it is not such a resource, 403
 *   without the grant);
 * - `exportToRecords(...)` (the `spider-export` job for this target): each collected row becomes one record
 *   through the engine's submit (validated, audited and indexed like a record typed in the form) as the
 *   job's owner: mapped values converted to the field's type (text cut to its `maxLength`, a number field
 *   takes the first number of a text), a row whose `portalRecord.dedupe` values equal an existing record's is
 *   skipped (exporting twice does not copy twice), a row the validation refuses is counted failed with its
 *   message (the first 20 kept in the result).
 */
import { sql, type Db } from '../../core/db/index.js';
import { ApiError } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import type { JobContext, JobOutcome } from '../../core/jobs.js';
import type { Lang } from '../../../shared/contract/lang.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Resource } from '../../resources/registry.js';

type Row = Record<string, any>;

const TABLE_MESSAGE = { zh: '所选数据表不存在', en: 'The chosen table does not exist' };

/** The editable scalar fields of `r` a crawled value can fill. */
function scalarFields(r: Resource) {
  return r.fields.filter((f) => !f.node['x-server-only'] && ['string', 'number', 'integer'].includes(String(f.node.type ?? 'string')) && !f.node.enum && r.byField.has(f.name));
}

const required = (node: Row) => Array.isArray(node['x-validator']) && node['x-validator'].some((v: Row) => v?.required === true);

/** The resources rows can be exported into, for `user` (see the module comment). */
export async function recordTargets(engine: ResourceEngine, user: AuthUser, lang: Lang): Promise<Array<{ value: string; label: string }>> {
  const out: Array<{ value: string; label: string }> = [];
  for (const r of engine.registry.resources.values()) {
    if (!r.schema.portalRecord) continue;
    const allowed = await engine.authorize(user, r, 'add').then(() => true, () => false);
    if (allowed) out.push({ value: r.schema.name, label: lang === 'en' ? r.schema.titleEn : r.schema.title });
  }
  return out.sort((a, b) => a.value.localeCompare(b.value));
}

/** The records resource `name` for `user`: 400 when it is not one, 403 without the add grant. */
export async function recordTarget(engine: ResourceEngine, user: AuthUser, name: unknown): Promise<Resource> {
  const r = typeof name === 'string' ? engine.registry.resources.get(name) : undefined;
  if (!r?.schema.portalRecord) throw new ApiError(400, TABLE_MESSAGE);
  await engine.authorize(user, r, 'add');
  return r;
}

/** The fields of records resource `r` a mapping can name. */
export function recordColumns(r: Resource, lang: Lang): Array<{ name: string; type: string; nullable: boolean; title: string }> {
  return scalarFields(r).map((f) => ({
    name: f.name,
    type: String(f.node.type ?? 'string'),
    nullable: !required(f.node as Row),
    title: String((lang === 'en' ? (f.node as Row).titleEn : f.node.title) ?? f.name),
  }));
}

/** A crawled value as the value of field `node` (see the module comment); undefined = leave the field out. */
function convert(node: Row, v: unknown): unknown {
  if (v === null || v === undefined || v === '') return undefined;
  const text = typeof v === 'object' ? JSON.stringify(v) : String(v);
  if (node.type === 'number' || node.type === 'integer') {
    const m = /-?\d+(?:\.\d+)?/.exec(text.replace(/,/g, ''));
    if (!m) return undefined;
    return node.type === 'integer' ? Math.trunc(Number(m[0])) : Number(m[0]);
  }
  return typeof node.maxLength === 'number' ? text.slice(0, node.maxLength) : text;
}

/** The job's work for a records target (see the module comment). */
export async function exportToRecords(
  db: Db,
  engine: ResourceEngine,
  ctx: JobContext<{ taskId: string; records?: string; columns: Array<{ field: string; column: string }>; lang?: Lang }>,
  valueOf: (row: Row, field: string) => unknown,
): Promise<JobOutcome> {
  const p = ctx.params;
  const lang: Lang = p.lang ?? 'zh';
  const r = engine.registry.resources.get(p.records ?? '');
  if (!r?.schema.portalRecord) return { error: TABLE_MESSAGE.zh };
  const tenantId = ctx.owner.tenantId;
  const nodes = new Map(scalarFields(r).map((f) => [f.name, f.node as Row]));
  const dedupe = r.schema.portalRecord.dedupe.filter((f) => r.byField.has(f));
  const total = (await sql<Row>`SELECT count(*)::int AS n FROM spider_data WHERE tenant_id = ${tenantId} AND task_id = ${p.taskId}::bigint`.execute(db)).rows[0].n as number;
  let read = 0;
  let written = 0;
  let failed = 0;
  let skipped = 0;
  const errors: string[] = [];
  let after = '0';
  for (;;) {
    const batch = await sql<Row>`SELECT id::text AS id, url, data, create_time FROM spider_data WHERE tenant_id = ${tenantId} AND task_id = ${p.taskId}::bigint AND id > ${after}::bigint ORDER BY id LIMIT 200`.execute(db);
    if (!batch.rows.length) break;
    for (const row of batch.rows) {
      read++;
      const record: Row = {};
      for (const m of p.columns) {
        const node = nodes.get(m.column);
        const v = node ? convert(node, valueOf(row, m.field)) : undefined;
        if (v !== undefined) record[m.column] = v;
      }
      if (dedupe.length && dedupe.some((f) => record[f] !== undefined)) {
        const conds = dedupe.map((f) => (record[f] === undefined ? sql`${sql.ref(r.byField.get(f)!.column)} IS NULL` : sql`${sql.ref(r.byField.get(f)!.column)}::text = ${String(record[f])}`));
        if (r.tenantScoped) conds.push(sql`tenant_id = ${tenantId}`);
        if (r.byColumn.has('is_deleted')) conds.push(sql`is_deleted = 0`);
        const same = await sql`SELECT 1 FROM ${sql.table(r.schema.table)} WHERE ${sql.join(conds, sql` AND `)} LIMIT 1`.execute(db);
        if (same.rows.length) {
          skipped++;
          continue;
        }
      }
      try {
        await engine.submit(r, ctx.owner, record, lang);
        written++;
      } catch (e) {
        failed++;
        if (errors.length < 20) errors.push(`${row.url}：${e instanceof ApiError ? e.localized(lang) : (e as Error).message.slice(0, 200)}`);
      }
    }
    after = batch.rows[batch.rows.length - 1].id;
    await ctx.report({ progress: total ? (100 * read) / total : 100, read, written, failed });
  }
  await ctx.report({ progress: 100, read, written, failed }, true);
  return { result: { written, skipped, failed, total, errors, records: r.schema.name } };
}
