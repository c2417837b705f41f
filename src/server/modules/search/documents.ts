/**
 * Index definitions and the documents they index (DESIGN §8 Search; spec 001 §7 "/es").
 *
 * An index definition (`es/index`, table es_index) names a tenant-scoped resource, its title field and its
 * searchable fields with a weight each (A highest … D lowest, PostgreSQL's setweight). `indexRecords` reads
 * the named records of the definition's resource (live rows of the tenant; columns only from the schema),
 * turns each field into plain text (`fieldText`: HTML reduced to its text by sanitize-html, arrays and
 * objects to their string leaves), segments it with the tenant's dictionary and upserts one search_document
 * per record; a record that is gone (removed, other tenant, unknown) loses its document. A document written
 * (added or re-indexed) takes the next place in indexing order, hence the newest insertion bucket (migrations.ts
 * 0003: the order the search walks). No resource is named
 * here: what is indexed comes from the definition and the schema.
 */
import sanitizeHtml from 'sanitize-html';
import { sql, type Db } from '../../core/db/index.js';
import type { Registry, Resource } from '../../resources/registry.js';
import { quote } from '../../resources/query.js';
import type { Segmenters } from './segment.js';

export const WEIGHTS = ['A', 'B', 'C', 'D'] as const;
export type Weight = (typeof WEIGHTS)[number];

export interface IndexField {
  field: string;
  weight: Weight;
}

/** One es_index row as the module uses it. */
export interface IndexDef {
  id: string;
  tenantId: string;
  indexName: string;
  resource: string;
  titleField: string;
  fields: IndexField[];
  enabled: boolean;
}

/** Longest text of one field that is indexed (characters); tsvector positions stop at 16,383 anyway. */
const MAX_FIELD_CHARS = 100_000;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ', apos: "'" };

/** The plain text of an HTML fragment (tags dropped, script/style contents dropped, common entities decoded). */
export function htmlText(html: string): string {
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {}, nonTextTags: ['script', 'style', 'textarea', 'noscript', 'option'] });
  return text.replace(/&(amp|lt|gt|quot|#39|nbsp|apos);/g, (_, e: string) => ENTITIES[e]);
}

/** A field value as indexable text: strings (HTML reduced to text), numbers, and the string leaves of arrays/objects. */
export function fieldText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return (v.includes('<') ? htmlText(v) : v).slice(0, MAX_FIELD_CHARS);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map(fieldText).filter(Boolean).join(' ').slice(0, MAX_FIELD_CHARS);
  if (typeof v === 'object') {
    return Object.entries(v as Record<string, unknown>)
      .filter(([k, x]) => !/^(link|url|name|id|domain)$/i.test(k) || typeof x !== 'string')
      .map(([, x]) => fieldText(x))
      .filter(Boolean)
      .join(' ')
      .slice(0, MAX_FIELD_CHARS);
  }
  return '';
}

/** Reads an es_index row into an IndexDef (the JSON `fields` cleaned: known weights only). */
export function indexDefOf(row: Record<string, any>): IndexDef {
  const fields: IndexField[] = (Array.isArray(row.fields) ? row.fields : [])
    .filter((f: any) => f && typeof f.field === 'string')
    .map((f: any) => ({ field: f.field, weight: (WEIGHTS as readonly string[]).includes(f.weight) ? f.weight : 'B' }));
  return { id: String(row.id), tenantId: row.tenant_id, indexName: row.index_name, resource: row.resource, titleField: row.title_field, fields, enabled: row.enabled !== false };
}

const INDEX_COLUMNS = sql`id::text AS id, tenant_id, index_name, resource, title_field, fields, enabled`;

/** The live index definitions of a tenant (all, or those of one resource). */
export async function tenantIndexes(db: Db, tenantId: string, resource?: string): Promise<IndexDef[]> {
  const r = resource
    ? await sql<Record<string, any>>`SELECT ${INDEX_COLUMNS} FROM es_index WHERE tenant_id = ${tenantId} AND is_deleted = 0 AND resource = ${resource} ORDER BY id`.execute(db)
    : await sql<Record<string, any>>`SELECT ${INDEX_COLUMNS} FROM es_index WHERE tenant_id = ${tenantId} AND is_deleted = 0 ORDER BY id`.execute(db);
  return r.rows.map(indexDefOf);
}

/** One live index definition of the tenant by id, or null. */
export async function indexById(db: Db, tenantId: string, id: string): Promise<IndexDef | null> {
  const r = await sql<Record<string, any>>`SELECT ${INDEX_COLUMNS} FROM es_index WHERE tenant_id = ${tenantId} AND is_deleted = 0 AND id = ${id}::bigint`.execute(db);
  return r.rows[0] ? indexDefOf(r.rows[0]) : null;
}

/** The columns of `def`'s fields that exist in the current schema of `r` (unknown fields are skipped). */
function columnsOf(r: Resource, def: IndexDef) {
  const title = r.byField.get(def.titleField);
  const fields = def.fields.map((f) => ({ ...f, col: r.byField.get(f.field) })).filter((f) => f.col && f.col.column !== 'tenant_id');
  return { title, fields };
}

/**
 * (Re-)indexes the records `ids` of `def` (see the module comment); answers how many documents were written.
 * Runs one SELECT and one INSERT … SELECT FROM unnest per call: callers pass batches (≤ 1,000 ids). The records
 * take their places in indexing order (their insertion buckets) by key.
 */
export async function indexRecords(db: Db, registry: Registry, segmenters: Segmenters, def: IndexDef, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const r = registry.resources.get(def.resource);
  if (!r || !r.tenantScoped || !def.enabled) {
    await sql`DELETE FROM search_document WHERE tenant_id = ${def.tenantId} AND index_id = ${def.id}::bigint AND record_id = ANY(${ids}::bigint[])`.execute(db);
    return 0;
  }
  const { title, fields } = columnsOf(r, def);
  const select = [`${quote(r.keyColumn)}::text AS "__id"`, ...(title ? [`${quote(title.column)} AS "__title"`] : []), ...fields.map((f, i) => `${quote(f.col!.column)} AS "f${i}"`)];
  const rows = (
    await sql<Record<string, unknown>>`SELECT ${sql.raw(select.join(', '))} FROM ${sql.table(r.schema.table!)}
      WHERE tenant_id = ${def.tenantId} AND is_deleted = 0 AND ${sql.ref(r.keyColumn)} = ANY(${ids}::bigint[]) ORDER BY ${sql.ref(r.keyColumn)}`.execute(db)
  ).rows;
  const seg = await segmenters.of(def.tenantId);
  const cols: { id: string[]; title: string[]; seg: string[]; a: string[]; b: string[]; c: string[]; d: string[] } = { id: [], title: [], seg: [], a: [], b: [], c: [], d: [] };
  for (const row of rows) {
    const byWeight: Record<Weight, string[]> = { A: [], B: [], C: [], D: [] };
    const shown: string[] = [];
    for (const [i, f] of fields.entries()) {
      const text = fieldText(row[`f${i}`]);
      if (!text) continue;
      byWeight[f.weight].push(seg.documentWords(text).join(' '));
      shown.push(seg.displayWords(text).join(' '));
    }
    cols.id.push(row.__id as string);
    cols.title.push(fieldText(row.__title).slice(0, 500));
    cols.seg.push(shown.join(' ， '));
    cols.a.push(byWeight.A.join(' '));
    cols.b.push(byWeight.B.join(' '));
    cols.c.push(byWeight.C.join(' '));
    cols.d.push(byWeight.D.join(' '));
  }
  const found = new Set(cols.id);
  const gone = ids.filter((id) => !found.has(id));
  if (gone.length) await sql`DELETE FROM search_document WHERE tenant_id = ${def.tenantId} AND index_id = ${def.id}::bigint AND record_id = ANY(${gone}::bigint[])`.execute(db);
  if (!cols.id.length) return 0;
  await sql`INSERT INTO search_document (tenant_id, index_id, resource, record_id, title, seg, tsv)
    SELECT ${def.tenantId}, ${def.id}::bigint, ${def.resource}, u.id, u.title, u.seg,
           setweight(to_tsvector('simple', u.a), 'A') || setweight(to_tsvector('simple', u.b), 'B') ||
           setweight(to_tsvector('simple', u.c), 'C') || setweight(to_tsvector('simple', u.d), 'D')
      FROM unnest(${cols.id}::bigint[], ${cols.title}::text[], ${cols.seg}::text[], ${cols.a}::text[], ${cols.b}::text[], ${cols.c}::text[], ${cols.d}::text[])
           AS u(id, title, seg, a, b, c, d)
    ON CONFLICT (tenant_id, index_id, record_id) DO UPDATE SET title = EXCLUDED.title, seg = EXCLUDED.seg, tsv = EXCLUDED.tsv, bucket = EXCLUDED.bucket, update_time = now()`.execute(db);
  return cols.id.length;
}

/** Drops the documents of records `ids` of `resource` from every index of the tenant; answers how many went. */
export async function dropRecords(db: Db, tenantId: string, resource: string, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const r = await sql`DELETE FROM search_document WHERE tenant_id = ${tenantId} AND resource = ${resource} AND record_id = ANY(${ids}::bigint[])`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
