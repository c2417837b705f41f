/**
 * Files of released content on the public portal (issue 14 "published content is served without login as
 * real pages"): the attachments, cover image, banner and body images of a content are stored files whose
 * links (`/api/blade-resource/oss/endpoint/file/upload/…`, spec 000 §7) answer signed-in users only, so the
 * public pages link them through the content instead:
 *
 * - `publicLinks(text, siteId, contentId)` rewrites every stored-file link in `text` (HTML or a bare link) to
 *   `/site/:siteId/article/:contentId/file/upload/…`;
 * - `GET /site/:siteId/article/:id/file/upload/{yyyyMMdd}/{uuid}.{ext}` (no login) sends the file when the
 *   site is live, the content is released (status 4) in the site's tenant, the file is one of the content's —
 *   named in its `files`, `coverImage`, `banner` or body — and a live attachment of that tenant
 *   (blade_attach); images and PDF inline, anything else as a download under its original name; everything
 *   else is 404 (nothing outside the files folder is reachable: the name must have the store's exact shape).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { attachment } from '../../core/jobs.js';
import { isId } from '../../../shared/contract/ids.js';
import { RELEASED } from './hooks.js';

type Row = Record<string, any>;

/** The link prefix of stored files (modules/files: FILE_DOMAIN) and the stored names' shape. */
const FILE_LINK = '/api/blade-resource/oss/endpoint/file/';
const NAME = 'upload/\\d{8}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.[a-z0-9]{1,8}';
const NAME_RE = new RegExp(`^${NAME}$`);
const LINK_RE = new RegExp(`${FILE_LINK.replace(/[/.]/g, '\\$&')}(${NAME})`, 'g');

/** Types shown in the browser; the rest is sent as a download. */
const INLINE: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', bmp: 'image/bmp', webp: 'image/webp', pdf: 'application/pdf',
};

/** `text` with its stored-file links pointing at the public file route of content `contentId` on site `siteId`. */
export function publicLinks(text: string, siteId: string, contentId: string): string {
  return text.replace(LINK_RE, (_m, name: string) => `/site/${siteId}/article/${contentId}/file/${name}`);
}

/** Mounts the public file route of the module comment. */
export function registerPublicFiles(app: FastifyInstance, d: { db: Db; dataDir: string }): void {
  const root = path.resolve(d.dataDir, 'files');
  app.get<{ Params: { siteId: string; id: string; '*': string } }>('/site/:siteId/article/:id/file/*', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    const { siteId, id } = req.params;
    const name = req.params['*'] ?? '';
    const missing = () => reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    if (!isId(siteId) || !isId(id) || !NAME_RE.test(name)) return missing();
    const r = await sql<Row>`SELECT a.original_name, a.extension FROM portal_site s
        JOIN portal_content c ON c.tenant_id = s.tenant_id AND c.id = ${id}::bigint AND c.is_deleted = 0 AND c.content_status = ${RELEASED}
        JOIN blade_attach a ON a.tenant_id = s.tenant_id AND a.name = ${name} AND a.is_deleted = 0
        WHERE s.id = ${siteId}::bigint AND s.is_deleted = 0 AND s.enabled = true
          AND (coalesce(c.files::text, '') LIKE ${`%${name}%`} OR coalesce(c.cover_image, '') LIKE ${`%${name}`} OR coalesce(c.banner, '') LIKE ${`%${name}`}
               OR coalesce(c.content, '') LIKE ${`%${name}%`})
        LIMIT 1`.execute(d.db);
    const row = r.rows[0];
    const abs = path.resolve(root, name);
    if (!row || !abs.startsWith(root + path.sep)) return missing();
    const stat = await fs.promises.stat(abs).catch(() => null);
    if (!stat?.isFile()) return missing();
    const type = INLINE[String(row.extension).toLowerCase()];
    return reply
      .header('content-type', type ?? 'application/octet-stream')
      .header('content-length', String(stat.size))
      .header('content-disposition', type ? 'inline' : attachment(String(row.original_name ?? path.basename(name))))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=300')
      .send(fs.createReadStream(abs));
  });
}
