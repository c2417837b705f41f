/**
 * The attachments' directory helpers `basic/basicfile` (issue 17 "attachments' directory helpers"; spec 001 §7
 * "basicfile: getDirPath, operation" — the spec names the calls only, their shape is ours, written down here):
 *
 * - `GET /api/basic/basicfile/getDirPath` — without parameters: the folder today's uploads go to
 *   (`{dirPath: 'upload/{yyyyMMdd}', domain}`, the day in the server's time zone, as put-file and getPolicy name
 *   files); with `name` (a stored name) or `link`: where that attachment of the caller's tenant lies —
 *   `{dirPath, fileName, name, link, domain, originalName, extension, size, createTime}`; 404 for a name that is
 *   not a live attachment of the tenant. `id` (the attachment's id, as put-file answers `attachId`) names it too:
 *   /previewFile?id= finds its file so (issue 18).
 * - `POST /api/basic/basicfile/operation` `{name | link, type, originalName?}` — the uploader (or an
 *   administrator of the tenant) operates on one attachment: `rename` changes the name a download is saved
 *   under (`originalName`, ≤ 255 characters after cleaning, the extension kept: 400 文件扩展名不能修改;
 *   empty: 400 请输入文件名), `remove` takes the attachment away (logical delete: downloads answer 404, the
 *   attachment administration no longer lists it). Another user's file 403 只能操作自己上传的文件; an unknown
 *   type 400 不支持的操作类型; another tenant's file 404; nothing changes on any refusal.
 * - `GET /api/basic/checkid/noPage?ids=` (spec 001 §7 "checkid/noPage", listed with the file helpers; the spec
 *   names it only — our reading: check ids, unpaged) — which of the given attachment ids (`ids`, comma-separated
 *   or repeated, at most 200, as put-file answers `attachId` and forms keep them) are live attachments of the
 *   caller's tenant that the caller may read (core/file-access.ts rules, e.g. a bidding chapter's scope):
 *   `[{id, name, link, originalName, extension, size}]` in the order asked, ids that are not (removed, another
 *   tenant's, unreadable, unknown) left out — what a form needs to tell which of its attachments still exist.
 *   A malformed id 400 参数 ids 的值无效; more than 200 400.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import { extensionOf } from './kinds.js';
import { dayFolder } from '../../core/file-store.js';
import { isId } from '../../../shared/contract/ids.js';
import { storedFileOf, type FileAccess } from '../../core/file-access.js';

type Row = Record<string, unknown>;
const BASE = '/api/basic/basicfile';

const M = {
  notYours: { zh: '只能操作自己上传的文件', en: 'You can only operate on files you uploaded' },
  badType: { zh: '不支持的操作类型', en: 'Unsupported operation type' },
  nameRequired: { zh: '请输入文件名', en: 'Please enter the file name' },
  extension: { zh: '文件扩展名不能修改', en: 'The file extension cannot be changed' },
  renamed: { zh: '重命名成功', en: 'Renamed' },
  removed: { zh: '删除成功', en: 'Removed' },
};

export interface BasicFileOptions {
  db: Db;
  domain: string;
  timeZone: string;
  cleanFileName(raw: string): string;
  /** Called after an attachment row changed (the engine's cached counts). */
  changed?: () => void;
  /** The file access rules checkid/noPage asks (none: every live attachment of the tenant is readable). */
  access?: FileAccess;
}

/** At most this many ids per checkid/noPage call. */
export const CHECK_IDS_MAX = 200;

/** The stored name of `name` or `link` (`<domain>/<name>`), or null when neither is a plausible one. */
function nameOf(q: Row, domain: string): string | null {
  const raw = q.name ?? q.link;
  if (typeof raw !== 'string' || raw === '' || raw.length > 600) return null;
  const at = raw.indexOf(`${domain}/`);
  return (at >= 0 ? raw.slice(at + domain.length + 1) : raw).split('?')[0];
}

/** Registers getDirPath and operation (see the module comment). */
export function registerBasicFileRoutes(app: FastifyInstance, o: BasicFileOptions): void {
  const tags = ['files'];
  const find = async (tenantId: string, name: string) =>
    (await sql<Row>`SELECT id::text AS id, name, link, original_name, extension, attach_size::text AS size, create_user::text AS create_user,
                           to_char(create_time AT TIME ZONE ${o.timeZone}, 'YYYY-MM-DD HH24:MI:SS') AS create_time
                      FROM blade_attach WHERE tenant_id = ${tenantId} AND name = ${name} AND is_deleted = 0 ORDER BY id LIMIT 1`.execute(o.db)).rows[0];

  /** The stored name of live attachment `id` of the tenant, or undefined. */
  const stored = async (tenantId: string, id: string) =>
    (await sql<{ name: string }>`SELECT name FROM blade_attach WHERE tenant_id = ${tenantId} AND id = ${id}::bigint AND is_deleted = 0`.execute(o.db)).rows[0]?.name;

  app.get(`${BASE}/getDirPath`, { schema: { tags, summary: 'The folder today’s uploads go to, or the folder of one attachment (name or link)' } }, async (req) => {
    const user = req.user;
    if (!user) throw new ApiError(401, 'unauthorized');
    const q = req.query as Row;
    if (q.name === undefined && q.link === undefined && q.id === undefined) {
      return ok({ dirPath: `upload/${dayFolder(new Date(), o.timeZone)}`, domain: o.domain }, undefined, req.lang);
    }
    if (q.id !== undefined && !isId(q.id)) throw new ApiError(400, 'badParam', { param: 'id' });
    const byId = q.id !== undefined ? await stored(user.tenantId, q.id as string) : undefined;
    const name = q.id !== undefined ? (byId ?? null) : nameOf(q, o.domain);
    if (q.id !== undefined && !name) throw new ApiError(404, 'notFound');
    if (!name) throw new ApiError(400, 'badParam', { param: 'name' });
    const row = await find(user.tenantId, name);
    if (!row) throw new ApiError(404, 'notFound');
    const slash = name.lastIndexOf('/');
    return ok({
      dirPath: name.slice(0, slash), fileName: name.slice(slash + 1), name, link: row.link, domain: o.domain,
      originalName: row.original_name, extension: row.extension, size: Number(row.size), createTime: row.create_time,
    }, undefined, req.lang);
  });

  app.post(`${BASE}/operation`, { schema: { tags, summary: 'Rename or remove one attachment the caller uploaded' } }, async (req) => {
    const user = req.user;
    if (!user) throw new ApiError(401, 'unauthorized');
    const b = { ...(req.query as Row), ...(req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Row) : {}) };
    const type = b.type;
    if (type !== 'rename' && type !== 'remove') throw new ApiError(400, M.badType);
    const name = nameOf(b, o.domain);
    if (!name) throw new ApiError(400, 'badParam', { param: 'name' });
    const row = await find(user.tenantId, name);
    if (!row) throw new ApiError(404, 'notFound');
    if (!user.isAdmin && row.create_user !== user.userId) throw new ApiError(403, M.notYours);
    if (type === 'rename') {
      const next = typeof b.originalName === 'string' ? o.cleanFileName(b.originalName) : '';
      if (!next) throw new ApiError(400, M.nameRequired, undefined, { field: 'originalName' });
      if (extensionOf(next) !== String(row.extension)) throw new ApiError(400, M.extension, undefined, { field: 'originalName' });
      await sql`UPDATE blade_attach SET original_name = ${next}, update_user = ${user.userId}::bigint, update_time = now()
                 WHERE id = ${String(row.id)}::bigint AND tenant_id = ${user.tenantId}`.execute(o.db);
      o.changed?.();
      return ok({ name, originalName: next }, M.renamed[req.lang === 'en' ? 'en' : 'zh'], req.lang);
    }
    await sql`UPDATE blade_attach SET is_deleted = 1, update_user = ${user.userId}::bigint, update_time = now()
               WHERE id = ${String(row.id)}::bigint AND tenant_id = ${user.tenantId}`.execute(o.db);
    o.changed?.();
    return ok({ name }, M.removed[req.lang === 'en' ? 'en' : 'zh'], req.lang);
  });

  app.get('/api/basic/checkid/noPage', { schema: { tags, summary: 'Which of the given attachment ids are live files the caller may read (unpaged)' } }, async (req) => {
    const user = req.user;
    if (!user) throw new ApiError(401, 'unauthorized');
    const raw = (req.query as Row).ids;
    const ids = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === 'string' ? v.split(',') : [])).map((v) => v.trim()).filter(Boolean);
    if (ids.length === 0) throw new ApiError(400, 'missingParam', { param: 'ids' });
    if (ids.length > CHECK_IDS_MAX || ids.some((i) => !isId(i))) throw new ApiError(400, 'badParam', { param: 'ids' });
    const rows = (await sql<Row>`
      SELECT id::text AS id, name, link, original_name, extension, attach_size::text AS size, coalesce(create_user, 0)::text AS create_user
        FROM blade_attach WHERE tenant_id = ${user.tenantId} AND id = ANY(${ids}::bigint[]) AND is_deleted = 0`.execute(o.db)).rows;
    const byId = new Map(rows.map((r) => [String(r.id), r]));
    const out: Row[] = [];
    for (const id of new Set(ids)) {
      const r = byId.get(id);
      if (!r) continue;
      if (o.access && !(await o.access.allows(user, storedFileOf(user.tenantId, r as Parameters<typeof storedFileOf>[1]), 'read'))) continue;
      out.push({ id, name: r.name, link: r.link, originalName: r.original_name, extension: r.extension, size: Number(r.size) });
    }
    return ok(out, undefined, req.lang);
  });
}
