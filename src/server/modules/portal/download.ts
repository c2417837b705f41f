/**
 * downLoadAchievement (spec 001 §7 "/portal/content: … downLoadAchievement (POST)"; issue 14): the chosen
 * portal contents — the achievements the portal publishes — packed for download as one .zip.
 *
 * `POST /api/portal/content/downLoadAchievement` body `{ids: [..]}` (or a comma list, in the body or the query;
 * 1–100 ids) → `application/zip` named 成果资料.zip, holding for each content (in the order asked) a folder
 * `NN-<title>/` with `<title>.html` — a standalone page of the article: title, author, source, company,
 * release time, tips (the `attrs` pairs, e.g. tip_code / tip_content) and the body as stored (sanitised on
 * submit, hooks.ts; sanitised again here) — and its attachments (`files`) under their original names. Only
 * attachments recorded for the caller's tenant (blade_attach, live) are read, by their stored name of the
 * shape the file store hands out, so an item naming another tenant's file or a path outside the store is
 * left out; a file missing on disk is left out too. Every left-out attachment is listed in the folder's
 * 缺失附件.txt.
 *
 * Grant: reading portal/content; each id must be a record the caller sees (tenant and data scope) — else 404.
 * Errors (400, with the user's message): no ids 请选择至少一条数据; more than 100 一次最多下载 100 条内容; the
 * attachments above 200 MB (the .zip is built in memory) 附件总大小超过 200 MB，请分批下载; a malformed id badParam.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { loadPizZip } from '../../core/lazy-libs.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError } from '../../core/envelope.js';
import { attachment } from '../../core/jobs.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { isId } from '../../../shared/contract/ids.js';
import { CONTENT_RESOURCE, sanitizeRichText } from './hooks.js';

type Row = Record<string, any>;

export const MAX_CONTENTS = 100;
export const MAX_BYTES = 200 * 1024 * 1024;
/** The stored names the file store hands out (core/file-store.ts): `upload/yyyyMMdd/<uuid>.<ext>`. */
const STORED_RE = /^upload\/\d{8}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{1,8}$/;

export const M = {
  noneChosen: { zh: '请选择至少一条数据', en: 'Please choose at least one record' },
  tooMany: { zh: `一次最多下载 ${MAX_CONTENTS} 条内容`, en: `At most ${MAX_CONTENTS} contents at a time` },
  tooLarge: { zh: '附件总大小超过 200 MB，请分批下载', en: 'The attachments exceed 200 MB; download fewer at a time' },
  missing: { zh: '以下附件未能打包：', en: 'These attachments could not be packed:' },
  fileName: { zh: '成果资料.zip', en: 'achievements.zip' },
  author: { zh: '作者', en: 'Author' },
  source: { zh: '来源', en: 'Source' },
  company: { zh: '所属单位', en: 'Company' },
  released: { zh: '发布时间', en: 'Released' },
  tips: { zh: '扩展属性', en: 'Attributes' },
  files: { zh: '附件', en: 'Attachments' },
};

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** A file or folder name safe on every system: no separators, reserved or control characters; at most 60. */
export function safeName(s: string, fallback: string): string {
  // eslint-disable-next-line no-control-regex
  const v = s.replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, '_').replace(/^[.\s]+|[.\s]+$/g, '').slice(0, 60);
  return v || fallback;
}

/** The ids of the request (see the module comment). */
function idsOf(req: FastifyRequest): string[] {
  const raw = ((req.body ?? {}) as Row).ids ?? (req.query as Row).ids;
  const list = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? raw.split(',') : raw === undefined || raw === null ? [] : [String(raw)];
  const ids = [...new Set(list.map((x) => x.trim()).filter(Boolean))];
  if (!ids.length) throw new ApiError(400, M.noneChosen);
  if (ids.length > MAX_CONTENTS) throw new ApiError(400, M.tooMany);
  if (ids.some((x) => !isId(x))) throw new ApiError(400, 'badParam', { param: 'ids' });
  return ids;
}

/** The standalone page of one content. */
function page(c: Row, lang: 'zh' | 'en', files: string[]): string {
  const meta = [
    c.author && `${M.author[lang]}：${esc(c.author)}`,
    c.source && `${M.source[lang]}：${esc(c.source)}`,
    c.createCompany && `${M.company[lang]}：${esc(c.createCompany)}`,
    c.releaseTime && `${M.released[lang]}：${esc(c.releaseTime)}`,
  ].filter(Boolean);
  const attrs = (Array.isArray(c.attrs) ? c.attrs : []).filter((a: Row) => a && a.attr);
  return `<!doctype html><html lang="${lang === 'zh' ? 'zh-CN' : 'en'}"><head><meta charset="utf-8"><title>${esc(c.title)}</title></head><body>
<h1>${esc(c.title)}</h1>${meta.length ? `<p>${meta.join(' ｜ ')}</p>` : ''}
${attrs.length ? `<h3>${M.tips[lang]}</h3><table border="1" cellpadding="4">${attrs.map((a: Row) => `<tr><th>${esc(a.attr)}</th><td>${esc(a.val)}</td></tr>`).join('')}</table>` : ''}
<div>${sanitizeRichText(String(c.content ?? ''))}</div>
${files.length ? `<h3>${M.files[lang]}</h3><ul>${files.map((f) => `<li><a href="${encodeURI(f)}">${esc(f)}</a></li>`).join('')}</ul>` : ''}
</body></html>`;
}

/** Mounts `POST /api/portal/content/downLoadAchievement` (see the module comment). */
export function registerDownloadRoute(app: FastifyInstance, d: { db: Db; engine: ResourceEngine; dataDir: string }): void {
  const { engine } = d;
  const filesRoot = path.resolve(d.dataDir, 'files');
  app.post('/api/portal/content/downLoadAchievement', { schema: { tags: ['portal'], summary: 'Content: the chosen contents with their attachments as a .zip' } }, async (req, reply) => {
    const r = engine.registry.resources.get(CONTENT_RESOURCE);
    if (!r) throw new ApiError(404, 'notFound');
    const user = await engine.authorize(req.user, r, 'read');
    const ids = idsOf(req);
    const contents: Row[] = [];
    for (const id of ids) {
      const c = await engine.findOne(r, user, id);
      if (!c) throw new ApiError(404, 'notFound');
      contents.push(c);
    }
    const names = contents.flatMap((c) => (Array.isArray(c.files) ? c.files : []).map((f: Row) => String(f?.name ?? '')).filter((n: string) => STORED_RE.test(n)));
    const known = names.length
      ? await sql<{ name: string; size: string }>`SELECT name, attach_size::text AS size FROM blade_attach
          WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND name = ANY(${names}::text[])`.execute(d.db)
      : { rows: [] };
    const sizes = new Map(known.rows.map((x) => [x.name, Number(x.size) || 0]));
    if ([...new Set(names)].reduce((n, x) => n + (sizes.get(x) ?? 0), 0) > MAX_BYTES) throw new ApiError(400, M.tooLarge);

    const zip = new (await loadPizZip())();
    const width = String(contents.length).length;
    for (const [i, c] of contents.entries()) {
      const title = safeName(String(c.title ?? ''), String(c.id));
      const folder = `${String(i + 1).padStart(width, '0')}-${title}`;
      const packed: string[] = [];
      const missing: string[] = [];
      const used = new Set<string>([`${title}.html`]);
      for (const f of Array.isArray(c.files) ? (c.files as Row[]) : []) {
        const shown = String(f?.originalName ?? f?.name ?? '');
        const name = String(f?.name ?? '');
        const abs = path.resolve(filesRoot, name);
        const buf = STORED_RE.test(name) && sizes.has(name) && abs.startsWith(filesRoot + path.sep) ? await fsp.readFile(abs).catch(() => null) : null;
        if (!buf) {
          missing.push(shown || name);
          continue;
        }
        let out = safeName(shown, path.basename(name));
        for (let n = 2; used.has(out); n++) out = `${path.parse(safeName(shown, 'file')).name}(${n})${path.extname(name)}`;
        used.add(out);
        zip.file(`${folder}/${out}`, buf);
        packed.push(out);
      }
      zip.file(`${folder}/${title}.html`, page(c, req.lang, packed));
      if (missing.length) zip.file(`${folder}/缺失附件.txt`, `${M.missing[req.lang]}\r\n${missing.join('\r\n')}\r\n`);
    }
    const buf = zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' }) as Buffer;
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', attachment(M.fileName[req.lang]))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store')
      .send(buf);
  });
}
