/**
 * Reading a filled-in Word document back into a form (spec 001 §7 project/baseinfo dealWord, dealWordToRedis,
 * getDealWordOfRedis; issue 12: "kept in PostgreSQL" instead of Redis). For every resource with `documents`:
 *
 * | call                                   | answer                                                                     |
 * | -------------------------------------- | -------------------------------------------------------------------------- |
 * | POST <api>/dealWord {file}             | `{fields, found}`: the form's values read from the .docx                   |
 * | POST <api>/dealWordToRedis {file}      | the same, kept for 24 hours: `{key, fields, found}`                        |
 * | GET <api>/getDealWordOfRedis?key=      | `{fields, found}` kept under `key` by the caller (404 otherwise, or expired) |
 *
 * `file` is the stored name of a .docx the caller's tenant uploaded (POST /api/blade-resource/oss/endpoint/put-file
 * answers it; blade_attach), e.g. a declaration filled offline from the document generate answers. A paragraph
 * `<label>：<value>` (or `<label>: <value>`) whose label is a top-level field's title (zh or en) gives that
 * field's value: text and dates as written (dates only as yyyy-MM-dd), numbers as numbers; fields whose value
 * is a choice, a reference, rows or files are not read (the user picks them in the form). Nothing is saved to
 * the record: the form shows the values and the user saves it.
 *
 * Access: the add grant of the resource (the values are for a new or edited record); a name that is not a
 * .docx of the caller's tenant is 400 请上传 Word 文档（.docx）; a .docx that cannot be read is 400 Word 文档无法读取.
 */
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import { loadPizZip } from '../../core/lazy-libs.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Resource } from '../../resources/registry.js';
import type { ModuleMigrations } from '../../core/db/migrate.js';
import type { LocalFileStore } from '../../core/file-store.js';

type Row = Record<string, unknown>;
/** How long a kept reading lives, hours. */
export const KEEP_HOURS = 24;

export const M = {
  file: { zh: '请上传 Word 文档（.docx）', en: 'Please upload a Word document (.docx)' },
  unreadable: { zh: 'Word 文档无法读取', en: 'The Word document cannot be read' },
};

/** The text of each paragraph of a .docx's main part. */
export async function paragraphs(bytes: Buffer): Promise<string[]> {
  const PizZip = await loadPizZip();
  let xml: string;
  try {
    xml = new PizZip(bytes).file('word/document.xml')?.asText() ?? '';
  } catch {
    throw new ApiError(400, M.unreadable);
  }
  if (!xml) throw new ApiError(400, M.unreadable);
  const decode = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
  return xml.split(/<\/w:p>/).map((p) => decode([...p.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('')).trim()).filter((t) => t !== '');
}

/** The form values of `r` the paragraphs give (see the module comment). */
export function readFields(r: Resource, paras: string[]): Row {
  const byLabel = new Map<string, { name: string; kind: 'text' | 'number' | 'date' }>();
  for (const f of r.fields) {
    const n = f.node;
    const comp = String(n['x-component'] ?? '');
    if (n['x-server-only'] || n['x-ref'] || n.enum || n.type === 'array' || n.type === 'object' || /Select|Radio|Checkbox|Upload|Picker$/.test(comp.replace('DatePicker', 'Date').replace('NumberPicker', 'Number'))) continue;
    const kind = n.type === 'number' || n.type === 'integer' ? 'number' : n.format === 'date' ? 'date' : 'text';
    for (const label of [n.title, n.titleEn]) if (typeof label === 'string' && label) byLabel.set(label, { name: f.name, kind });
  }
  const out: Row = {};
  for (const p of paras) {
    const m = /^([^：:]{1,40})\s*[：:]\s*(.*)$/.exec(p);
    const field = m ? byLabel.get(m[1].trim()) : undefined;
    if (!field || field.name in out) continue;
    const raw = m![2].trim();
    if (!raw) continue;
    if (field.kind === 'number') {
      const v = Number(raw.replace(/[,，\s]/g, '').replace(/万元$/, ''));
      if (Number.isFinite(v)) out[field.name] = v;
    } else if (field.kind === 'date') {
      if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) out[field.name] = raw;
    } else out[field.name] = raw;
  }
  return out;
}

interface Deps {
  db: Db;
  engine: ResourceEngine;
  store: LocalFileStore;
}

/** The bytes of the tenant's uploaded .docx `name` (400 otherwise). */
async function docx(d: Deps, tenantId: string, name: unknown): Promise<Buffer> {
  if (typeof name !== 'string' || !/\.docx$/i.test(name) || name.length > 500) throw new ApiError(400, M.file, undefined, { field: 'file' });
  const known = await sql`SELECT 1 FROM blade_attach WHERE tenant_id = ${tenantId} AND name = ${name} AND is_deleted = 0`.execute(d.db);
  const abs = known.rows.length ? d.store.resolve(name) : null;
  const bytes = abs ? await fsp.readFile(abs).catch(() => null) : null;
  if (!bytes) throw new ApiError(400, M.file, undefined, { field: 'file' });
  return bytes;
}

/** Mounts dealWord, dealWordToRedis and getDealWordOfRedis under `r`'s api. */
export function mountDealWord(app: FastifyInstance, d: Deps, r: Resource): void {
  const api = r.schema.api;
  const tags = [r.schema.name];
  const read = async (req: FastifyRequest) => {
    const user = req.user!;
    await d.engine.authorize(user, r, 'add');
    const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Row) : {};
    const fields = readFields(d.engine.registry.resources.get(r.schema.name) ?? r, await paragraphs(await docx(d, user.tenantId, body.file)));
    return { user, fields, found: Object.keys(fields).length };
  };
  app.post(`${api}/dealWord`, { schema: { tags, summary: `${r.schema.titleEn}: the form's values read from a filled-in .docx` } }, async (req) => {
    const { fields, found } = await read(req);
    return ok({ fields, found }, undefined, req.lang);
  });
  app.post(`${api}/dealWordToRedis`, { schema: { tags, summary: `${r.schema.titleEn}: the same, kept 24 hours under a key` } }, async (req) => {
    const { user, fields, found } = await read(req);
    const key = crypto.randomUUID();
    await sql`DELETE FROM kc_deal_word WHERE expires_at < now()`.execute(d.db);
    await sql`INSERT INTO kc_deal_word (key, tenant_id, user_id, resource, data, expires_at)
              VALUES (${key}::uuid, ${user.tenantId}, ${user.userId}::bigint, ${r.schema.name}, ${JSON.stringify({ fields, found })}::jsonb, now() + make_interval(hours => ${KEEP_HOURS}))`.execute(d.db);
    return ok({ key, fields, found }, undefined, req.lang);
  });
  app.get(`${api}/getDealWordOfRedis`, { schema: { tags, summary: `${r.schema.titleEn}: a kept reading of a .docx` } }, async (req) => {
    const user: AuthUser = req.user!;
    await d.engine.authorize(user, r, 'add');
    const key = ((req.query ?? {}) as Row).key;
    if (typeof key !== 'string' || !/^[0-9a-f-]{36}$/i.test(key)) throw new ApiError(400, key === undefined || key === '' ? 'missingParam' : 'badParam', { param: 'key' });
    const row = (await sql<{ data: Row }>`SELECT data FROM kc_deal_word WHERE key = ${key}::uuid AND tenant_id = ${user.tenantId} AND user_id = ${user.userId}::bigint
                                           AND resource = ${r.schema.name} AND expires_at > now()`.execute(d.db)).rows[0];
    if (!row) throw new ApiError(404, 'notFound');
    return ok(row.data, undefined, req.lang);
  });
}

/** The documents module's table of kept readings (applied as documents/0001_deal_word). */
export const migrations: ModuleMigrations = {
  '0001_deal_word': {
    async up(db: Kysely<any>) {
      await sql`CREATE TABLE kc_deal_word (key uuid PRIMARY KEY, tenant_id varchar(12) NOT NULL, user_id bigint NOT NULL, resource varchar(200) NOT NULL,
                                          data jsonb NOT NULL, create_time timestamptz NOT NULL DEFAULT now(), expires_at timestamptz NOT NULL)`.execute(db);
      await sql`CREATE INDEX kc_deal_word_expiry_idx ON kc_deal_word (expires_at)`.execute(db);
    },
    async down(db: Kysely<any>) {
      await sql`DROP TABLE IF EXISTS kc_deal_word`.execute(db);
    },
  },
};
