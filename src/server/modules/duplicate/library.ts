/**
 * The library a check compares against (issue 15: "uploaded files, a folder of them, achievements' and
 * projects' attachments, portal content — chosen per task"), always within one tenant.
 *
 * Kinds (`LibraryKind`):
 * - `file`: the tenant's uploaded files to check (duplicate/file), all or one `folder`;
 * - `achievement`, `project`, `portal`: the records of the resources of that kind, chosen from their schemas
 *   (no resource is named here): achievements = every resource whose `stats.group` is `achievement`;
 *   projects and portal content = every resource of the area `project` / `portal` (its name's first segment).
 *   From each record: the attachments of its upload fields (`x-component` FileUpload; each file extracted once
 *   and kept as an `attach` document under its stored name — stored names are never reused) and its long
 *   label and long texts (text areas and rich text, and strings of 200 characters or more) as one `record` document,
 *   replaced when the text changed. A file that cannot be read (a .doc, a damaged file, a missing one) is
 *   skipped and counted in `skipped`.
 *
 * `resolveLibrary` answers the document ids; `progress` gets the records walked. The documents already stored
 * for a resource's records are read in one statement per resource; only new or changed texts are written.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { sql, type Db } from '../../core/db/index.js';
import type { Registry, Resource } from '../../resources/registry.js';
import { quote } from '../../resources/query.js';
import { dataFields } from '../../../shared/schema/derive.js';
import type { FormNode } from '../../../shared/schema/types.js';
import { contentHash, saveDocument } from './documents.js';
import { extractFileText } from './extract.js';
import { coreOf, normaliseText } from './text.js';

export const LIBRARY_KINDS = ['file', 'achievement', 'project', 'portal'] as const;
export type LibraryKind = (typeof LIBRARY_KINDS)[number];

/** Stored names the files module hands out (src/server/core/file-store.ts): nothing else is read. */
const STORED_NAME = /^upload\/\d{8}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{1,8}$/;

/** The resources whose records belong to library kind `kind` (from their schemas). */
export function resourcesOf(registry: Registry, kind: LibraryKind): Resource[] {
  const out: Resource[] = [];
  for (const r of registry.resources.values()) {
    const area = r.schema.name.split('/')[0];
    if (kind === 'achievement' ? r.schema.stats?.group === 'achievement' : area === kind) out.push(r);
  }
  return out.sort((a, b) => a.schema.name.localeCompare(b.schema.name));
}

export const isUpload = (n: FormNode) => n['x-component'] === 'FileUpload';
const isLongText = (n: FormNode) =>
  n.type === 'string' && (n['x-component'] === 'Input.TextArea' || n['x-component'] === 'RichText' || (typeof n.maxLength === 'number' && n.maxLength >= 200));

/** The columns whose text forms a record's `record` document: the label field, then the long texts. */
export function recordTextColumns(res: Resource) {
  const label = res.byField.get(res.schema.labelField ?? '') ?? res.byField.get('name');
  const long = dataFields(res.schema.form).filter((f) => isLongText(f.node)).map((f) => res.byField.get(f.name)).filter((c) => !!c);
  return [...(label && label.kind === 'text' ? [label] : []), ...long.filter((c) => c !== label)];
}

/** A record's text document content from its row (`row` keyed by column). */
export function recordText(res: Resource, row: Record<string, unknown>): string {
  return normaliseText(recordTextColumns(res).map((c) => (typeof row[c.column] === 'string' ? stripTags(row[c.column] as string) : '')).join('\n'));
}

export interface LibraryOptions {
  db: Db;
  registry: Registry;
  dataDir: string;
  tenantId: string;
  kinds: readonly string[];
  folder?: string | null;
  progress?: (walked: number) => Promise<void>;
}

/** See the module comment: the live document ids of the library, and how many files were skipped. */
export async function resolveLibrary(o: LibraryOptions): Promise<{ ids: Set<string>; skipped: number }> {
  const ids = new Set<string>();
  let skipped = 0;
  if (o.kinds.includes('file')) {
    const folder = o.folder?.trim() || null;
    const r = await sql<{ id: string }>`SELECT id::text AS id FROM duplicate_document WHERE tenant_id = ${o.tenantId} AND source_type = 'file'
        AND is_deleted = 0 AND (${folder}::text IS NULL OR folder = ${folder})`.execute(o.db);
    for (const { id } of r.rows) ids.add(id);
  }
  let walked = 0;
  for (const kind of LIBRARY_KINDS) {
    if (kind === 'file' || !o.kinds.includes(kind)) continue;
    for (const res of resourcesOf(o.registry, kind)) {
      const fields = dataFields(res.schema.form);
      const uploads = fields.filter((f) => isUpload(f.node)).map((f) => res.byField.get(f.name)).filter((c) => !!c);
      const label = res.byField.get(res.schema.labelField ?? '') ?? res.byField.get('name');
      const texts = recordTextColumns(res);
      const cols = [...uploads, ...texts].map((c) => quote(c.column));
      const rows = await sql<Record<string, unknown>>`SELECT id::text AS kc_id, ${sql.raw(label ? `${quote(label.column)}::text AS kc_label, ` : '')}${sql.raw(cols.join(', '))}
          FROM ${sql.raw(quote(res.schema.table))} WHERE tenant_id = ${o.tenantId} AND is_deleted = 0 ORDER BY id`.execute(o.db);
      // the documents stored for these records (one lookup): unchanged ones are taken as they are
      const itemsOf = (row: Record<string, unknown>) => uploads.flatMap((c) => (Array.isArray(row[c.column]) ? (row[c.column] as unknown[]) : []));
      const nameOf = (item: unknown) => (item && typeof item === 'object' ? String((item as Record<string, unknown>).name ?? '') : '');
      const keys = rows.rows.flatMap((row) => [`${res.schema.name}:${String(row.kc_id)}`, ...itemsOf(row).map(nameOf).filter((n) => STORED_NAME.test(n))]);
      const stored = await sql<{ source_type: string; source_key: string; id: string; content_hash: string; title: string }>`
          SELECT source_type, source_key, id::text AS id, content_hash, title FROM duplicate_document
           WHERE tenant_id = ${o.tenantId} AND source_type IN ('record', 'attach') AND source_key = ANY(${keys}::text[]) AND is_deleted = 0`.execute(o.db);
      const known = new Map(stored.rows.map((x) => [`${x.source_type}|${x.source_key}`, x]));
      for (const row of rows.rows) {
        const recordId = String(row.kc_id);
        const title = String(row.kc_label ?? `${res.schema.title} ${recordId}`);
        for (const item of itemsOf(row)) {
          const done = known.get(`attach|${nameOf(item)}`);
          const id = done ? done.id : await attachmentDocument(o, item, res.schema.name, recordId, title);
          if (id) ids.add(id);
          else if (id === null) skipped++;
        }
        const text = recordText(res, row);
        if (coreOf(text).core.length >= 8) {
          const key = `${res.schema.name}:${recordId}`;
          const done = known.get(`record|${key}`);
          if (done && done.content_hash === contentHash(text) && done.title === title.slice(0, 500)) ids.add(done.id);
          else ids.add(await saveDocument(o.db, { tenantId: o.tenantId, sourceType: 'record', sourceKey: key, title, content: text, resource: res.schema.name, recordId }));
        }
        await o.progress?.(++walked);
      }
    }
  }
  return { ids, skipped };
}

/** Rich text to plain text (tags dropped, the common entities decoded). */
function stripTags(s: string): string {
  return s.replace(/<(br|\/p|\/div|\/li|\/h\d)[^>]*>/gi, '\n').replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

/**
 * The document of one attachment item `{name, link, originalName}`: the stored one, or extracted now. Answers
 * undefined for an item that is not an attachment of this tenant, null when the file could not be read.
 */
async function attachmentDocument(o: LibraryOptions, item: unknown, resource: string, recordId: string, recordTitle: string): Promise<string | null | undefined> {
  if (!item || typeof item !== 'object') return undefined;
  const name = String((item as Record<string, unknown>).name ?? '');
  if (!STORED_NAME.test(name)) return undefined;
  const known = await sql<{ id: string }>`SELECT id::text AS id FROM duplicate_document WHERE tenant_id = ${o.tenantId} AND source_type = 'attach' AND source_key = ${name} AND is_deleted = 0`.execute(o.db);
  if (known.rows[0]) return known.rows[0].id;
  const att = await sql<{ original_name: string; extension: string; link: string }>`SELECT original_name, extension, link FROM blade_attach
      WHERE tenant_id = ${o.tenantId} AND name = ${name} AND is_deleted = 0`.execute(o.db);
  const a = att.rows[0];
  if (!a) return undefined;
  try {
    const buf = await fsp.readFile(path.join(o.dataDir, 'files', name));
    const content = await extractFileText(buf, a.extension, a.original_name);
    return await saveDocument(o.db, { tenantId: o.tenantId, sourceType: 'attach', sourceKey: name, title: `${recordTitle}：${a.original_name}`, content, link: a.link, resource, recordId });
  } catch {
    return null;
  }
}
