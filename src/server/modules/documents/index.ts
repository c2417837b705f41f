/**
 * Documents generated from records (DESIGN §8 "Documents"; spec 001 §7 project/baseinfo generate,
 * generateReportFile, generateReportFileList, preview, download; issue 12): every resource whose schema has
 * `documents` gets, under its `api`:
 *
 * | call                                         | answer                                                          |
 * | -------------------------------------------- | --------------------------------------------------------------- |
 * | GET generateReportFileList?id=               | `[{kind, title, template: {id, name, version} | null, preview}]` |
 * | GET generate?id=&kind=                       | the .docx (attachment `<label>-<title>.docx`)                   |
 * | POST download {id, kind} (or the query)      | the same .docx                                                  |
 * | GET/POST export-word?id=&kind= (or the body) | the same .docx; `kind` may be left out: the schema's first kind |
 * |                                              | (spec 001 §7 project/report export-word)                        |
 * | GET generateReportFile?id=&kind=             | `{token, link, expiresIn}`: a signed link (30 minutes) to the   |
 * |                                              | kind's public preview page, e.g. `/previewTaskBook?token=…`     |
 * | GET preview?token= (public, no login)        | the .docx the token names, inline, as the record is now          |
 * | GET /api/documents/preview?token= (public)   | the same for any resource: what the preview pages read           |
 *
 * Access: the read grant of the resource and the record visible to the caller (tenant and data scope; 404
 * otherwise); `kind` must be one of the schema's (400 文书类型不存在). The preview token is a JWT (HS256, the
 * server's generated key — core/secrets.ts; audience `kc-document`) naming tenant, resource, record and kind:
 * whoever holds the link reads that one document until it expires, nothing else; a forged, expired or
 * foreign token is 401 预览链接无效或已过期.
 *
 * A filled-in .docx is read back into the form by dealWord / dealWordToRedis / getDealWordOfRedis (deal-word.ts).
 *
 * Templates: the newest enabled record (by update time) of the `documents.templates` resource with
 * `templateKind` = kind in the caller's tenant, whose `file` is an uploaded .docx of that tenant (blade_attach);
 * else the one built from the form (fill.ts). Routes are mounted at start for the schemas then current.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import type { Module } from '../../core/module.js';
import { loadOrCreateSecrets } from '../../core/secrets.js';
import { attachment } from '../../core/jobs.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Resource } from '../../resources/registry.js';
import { quote } from '../../resources/query.js';
import { isId } from '../../../shared/contract/ids.js';
import type { Lang } from '../../../shared/i18n/messages.js';
import { LocalFileStore } from '../../core/file-store.js';
import { documentData, fill, formTemplate } from './fill.js';
import { migrations, mountDealWord } from './deal-word.js';

type Row = Record<string, unknown>;
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const AUDIENCE = 'kc-document';
/** Lifetime of a preview link, seconds. */
export const PREVIEW_SECONDS = 1800;

export const M = {
  kind: { zh: '文书类型不存在', en: 'No such document' },
  token: { zh: '预览链接无效或已过期', en: 'The preview link is invalid or has expired' },
};

interface Deps {
  db: Db;
  engine: ResourceEngine;
  store: LocalFileStore;
  key: Uint8Array;
}

/** The kind `raw` of `r`'s documents (400 otherwise). */
function kindOf(r: Resource, raw: unknown) {
  const k = r.schema.documents!.items.find((i) => i.kind === raw);
  if (!k) throw new ApiError(400, M.kind);
  return k;
}

/** The template record of `kind` (see the module comment) and its .docx bytes, or null. */
async function uploadedTemplate(d: Deps, r: Resource, tenantId: string, kind: string): Promise<{ rec: Row; bytes: Buffer } | null> {
  const tr = r.schema.documents?.templates ? d.engine.registry.resources.get(r.schema.documents.templates) : undefined;
  if (!tr) return null;
  const rows = (await sql<Row>`SELECT id::text AS id, name, version, file FROM ${sql.table(tr.schema.table)}
                 WHERE tenant_id = ${tenantId} AND is_deleted = 0 AND enabled = true AND template_kind = ${kind} ORDER BY update_time DESC, id DESC LIMIT 1`.execute(d.db)).rows;
  const rec = rows[0];
  const item = Array.isArray(rec?.file) ? (rec.file[0] as Row | undefined) : undefined;
  const name = typeof item?.name === 'string' ? item.name : '';
  const abs = name ? d.store.resolve(name) : null;
  if (!rec || !abs) return null;
  const known = await sql`SELECT 1 FROM blade_attach WHERE tenant_id = ${tenantId} AND name = ${name} AND is_deleted = 0`.execute(d.db);
  if (!known.rows.length) return null;
  const bytes = await fsp.readFile(abs).catch(() => null);
  return bytes ? { rec, bytes } : null;
}

/** The .docx of `kind` for record `id` of `r` as `user` may read it. */
async function generate(d: Deps, r: Resource, user: AuthUser, id: unknown, rawKind: unknown, lang: Lang): Promise<{ file: string; bytes: Buffer }> {
  await d.engine.authorize(user, r, 'read');
  if (typeof id !== 'string' || !isId(id)) throw new ApiError(400, id === undefined || id === '' ? 'missingParam' : 'badParam', { param: 'id' });
  const k = kindOf(r, rawKind);
  const rec = await d.engine.findOne(r, user, id);
  if (!rec) throw new ApiError(404, 'notFound');
  const title = lang === 'en' ? k.titleEn : k.title;
  const data = await documentData(d.db, d.engine.registry.resources, r, user.tenantId, rec, lang, title);
  const t = await uploadedTemplate(d, r, user.tenantId, k.kind);
  const label = String(data._label || id).replace(/[\\/:*?"<>|\s]+/g, '_').slice(0, 60);
  return { file: `${label}-${title}.docx`, bytes: await fill(t ? t.bytes : await formTemplate(r, lang), data) };
}

const send = (reply: FastifyReply, f: { file: string; bytes: Buffer }, inline = false) =>
  reply.header('Content-Type', DOCX).header('Content-Disposition', inline ? attachment(f.file).replace(/^attachment/, 'inline') : attachment(f.file)).send(f.bytes);

/**
 * The document a preview token names (see the module comment), as the record is now; `only` limits it to one
 * resource (its own `<api>/preview`). 401 预览链接无效或已过期 for a token that does not verify.
 */
async function preview(d: Deps, token: unknown, only?: Resource): Promise<{ file: string; bytes: Buffer }> {
  let claims: Row;
  try {
    if (typeof token !== 'string' || token.length > 4096) throw new Error('no token');
    claims = (await jwtVerify(token, d.key, { audience: AUDIENCE, algorithms: ['HS256'] })).payload as Row;
  } catch {
    throw new ApiError(401, M.token);
  }
  const r = d.engine.registry.resources.get(String(claims.r));
  if (!r?.schema.documents || (only && only.schema.name !== r.schema.name)) throw new ApiError(401, M.token);
  // the record as it is now, in the token's tenant: the link was issued to a reader of the record
  const tenantId = String(claims.t);
  const rows = await d.engine.query(`SELECT ${d.engine.selectList(r)} FROM ${quote(r.schema.table)} WHERE tenant_id = $1 AND ${quote(r.keyColumn)}::text = $2 AND is_deleted = 0`, [tenantId, String(claims.id)]);
  if (!rows[0]) throw new ApiError(404, 'notFound');
  const rec = d.engine.toRecord(r, rows[0]);
  const k = kindOf(r, claims.k);
  const lang: Lang = claims.l === 'en' ? 'en' : 'zh';
  const title = lang === 'en' ? k.titleEn : k.title;
  const data = await documentData(d.db, d.engine.registry.resources, r, tenantId, rec, lang, title);
  const t = await uploadedTemplate(d, r, tenantId, k.kind);
  return { file: `${title}.docx`, bytes: await fill(t ? t.bytes : await formTemplate(r, lang), data) };
}

function mount(app: FastifyInstance, d: Deps, r: Resource): void {
  const api = r.schema.api;
  const tags = [r.schema.name];
  const q = (req: FastifyRequest) => (req.query ?? {}) as Row;

  app.get(`${api}/generateReportFileList`, { schema: { tags, summary: `${r.schema.titleEn}: the documents a record has` } }, async (req) => {
    const user = req.user!;
    await d.engine.authorize(user, r, 'read');
    const id = q(req).id;
    if (typeof id !== 'string' || !isId(id)) throw new ApiError(400, id === undefined || id === '' ? 'missingParam' : 'badParam', { param: 'id' });
    if (!(await d.engine.findOne(r, user, id))) throw new ApiError(404, 'notFound');
    const out = [];
    for (const k of r.schema.documents!.items) {
      const t = await uploadedTemplate(d, r, user.tenantId, k.kind);
      out.push({ kind: k.kind, title: req.lang === 'en' ? k.titleEn : k.title, template: t ? { id: t.rec.id, name: t.rec.name, version: t.rec.version } : null, preview: k.preview ?? null });
    }
    return ok(out, undefined, req.lang);
  });
  app.get(`${api}/generate`, { schema: { tags, summary: `${r.schema.titleEn}: a document of a record (.docx)` } }, async (req, reply) => send(reply, await generate(d, r, req.user!, q(req).id, q(req).kind, req.lang)));
  app.post(`${api}/download`, { schema: { tags, summary: `${r.schema.titleEn}: a document of a record (.docx)` } }, async (req, reply) => {
    const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Row) : {};
    return send(reply, await generate(d, r, req.user!, body.id ?? q(req).id, body.kind ?? q(req).kind, req.lang));
  });
  const exportWord = async (req: FastifyRequest, reply: FastifyReply) => {
    const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Row) : {};
    const kind = body.kind ?? q(req).kind ?? r.schema.documents!.items[0].kind;
    return send(reply, await generate(d, r, req.user!, body.id ?? q(req).id, kind, req.lang));
  };
  app.get(`${api}/export-word`, { schema: { tags, summary: `${r.schema.titleEn}: a record as a Word document (.docx)` } }, exportWord);
  app.post(`${api}/export-word`, { schema: { tags, summary: `${r.schema.titleEn}: a record as a Word document (.docx)` } }, exportWord);
  app.get(`${api}/generateReportFile`, { schema: { tags, summary: `${r.schema.titleEn}: a signed link to a document's preview page` } }, async (req) => {
    const user = req.user!;
    const { id, kind } = q(req);
    await generate(d, r, user, id, kind, req.lang); // the same checks, and a template that fills
    const token = await new SignJWT({ t: user.tenantId, r: r.schema.name, id: id as string, k: kind as string, l: req.lang })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${PREVIEW_SECONDS}s`)
      .sign(d.key);
    const page = kindOf(r, kind).preview ?? '/previewFile';
    return ok({ token, link: `${page}?token=${encodeURIComponent(token)}`, expiresIn: PREVIEW_SECONDS }, undefined, req.lang);
  });
  app.get(`${api}/preview`, { config: { public: true }, schema: { tags, summary: `${r.schema.titleEn}: a document by its signed link (no login)` } }, async (req, reply) =>
    send(reply, await preview(d, q(req).token, r), true),
  );
}

export const module: Module = {
  name: 'documents',
  migrations,
  routes(app, k) {
    const d: Deps = { db: k.database.db, engine: k.engine, store: new LocalFileStore(path.join(k.config.dataDir, 'files')), key: new TextEncoder().encode(`${loadOrCreateSecrets(k.config.dataDir).jwtKey}:documents`) };
    for (const r of k.registry.resources.values()) {
      if (!r.schema.documents || !r.tenantScoped) continue;
      mount(app, d, r);
      mountDealWord(app, d, r); // dealWord, dealWordToRedis, getDealWordOfRedis (deal-word.ts)
    }
    // the preview pages (/previewReport …) read any resource's document by the token alone
    app.get('/api/documents/preview', { config: { public: true }, schema: { tags: ['documents'], summary: 'A document by its signed link (no login)' } }, async (req, reply) =>
      send(reply, await preview(d, ((req.query ?? {}) as Row).token), true),
    );
  },
};
