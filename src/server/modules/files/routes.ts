/**
 * Files (spec 000 §7 Files, §9; spec 002 §7; DESIGN §8 Files, §11):
 *
 * - `POST /api/blade-resource/oss/endpoint/put-file` (and BladeX's `put-file-attach`, the same): multipart,
 *   one file in the field `file`. Stores it under `<DATA_DIR>/files/upload/{yyyyMMdd}/{uuid}.{ext}`, records it
 *   in `blade_attach` for the caller's tenant (the attachment administration lists these rows, attach.ts) and answers
 *   `{link, domain, name, originalName, attachId}` — `name` the stored relative path, `domain` the download
 *   base (same origin), `link` = `domain/name`, the URL the browser GETs (with its Blade-Auth header, like
 *   every other call).
 * - `GET /api/blade-resource/oss/endpoint/file/upload/{yyyyMMdd}/{uuid}.{ext}`: the file, byte for byte, with
 *   its content type and the user's file name (Content-Disposition; inline only for pdf, raster images and
 *   plain text, an attachment otherwise; `X-Content-Type-Options: nosniff`).
 *
 * download, downloadZip, getPolicy and the signed PUT it answers: transfer.ts; basic/basicfile getDirPath and
 * operation (the attachments' directory helpers): basicfile.ts; the online editor (`onlyoffice/endpoint`):
 * editor.ts.
 *
 * Checks, all on the server: a signed-in user (401); the extension on the whitelist of `kinds.ts`
 * (400 不支持的文件类型: .exe); the first bytes fitting the extension (400 文件内容与扩展名 .pdf 不符); not empty;
 * at most `maxBytes` (default 50 MiB, `UPLOAD_MAX_MB`; 400 文件大小不能超过 50 MB); a refused file leaves nothing
 * on disk or in the table. A download finds the file by its name among the caller's tenant's live attachments
 * first, so another tenant's file, a name that is not one we hand out (`../`, encoded separators, absolute
 * paths) and a missing file all answer 404 without touching anything outside the files folder.
 */
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import { nextId } from '../../core/ids.js';
import { extensionOf, kindOf, SNIFF_BYTES } from './kinds.js';
import { FILE_BASE, FILE_DOMAIN, LocalFileStore } from '../../core/file-store.js';
import { registerAttachHooks } from './attach.js';
import { registerTransferRoutes, uploadKey } from './transfer.js';
import { registerBasicFileRoutes } from './basicfile.js';
import { registerEditorRoutes } from './editor.js';
import { FileAccess, FILE_READ_DENIED, storedFileOf } from '../../core/file-access.js';
import { loadOrCreateSecrets } from '../../core/secrets.js';
import type { ResourceEngine } from '../../resources/engine.js';

export { FILE_BASE, FILE_DOMAIN }; // core/file-store.ts
export const DEFAULT_UPLOAD_MAX_MB = 50;

export interface FileRoutesOptions {
  db: Db;
  dataDir: string;
  timeZone: string;
  /** Largest file in bytes (default `UPLOAD_MAX_MB` MiB, else 50 MiB). */
  maxBytes?: number;
  /** The resource engine: the attachment administration's hooks, and its cached counts dropped on upload. */
  engine?: ResourceEngine;
  /** Per-file read / edit rules of the online editor (core/file-access.ts); without it the default rule alone. */
  access?: FileAccess;
}

/** The upload limit from `UPLOAD_MAX_MB` (whole MiB, ≥ 1), else 50 MiB. */
export function uploadLimitFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.UPLOAD_MAX_MB;
  if (raw === undefined || raw === '') return DEFAULT_UPLOAD_MAX_MB * 1024 * 1024;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`Environment variable UPLOAD_MAX_MB must be a whole number of MiB (≥ 1), got "${raw}"`);
  return n * 1024 * 1024;
}

/** The user's file name made safe to keep and to show: no folders, no control characters, at most 255 characters. */
export function cleanFileName(raw: string): string {
  const base = raw.slice(Math.max(raw.lastIndexOf('/'), raw.lastIndexOf('\\')) + 1);
  // eslint-disable-next-line no-control-regex
  return base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(-255);
}

/** `Content-Disposition` with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
function disposition(inline: boolean, fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_') || 'file';
  return `${inline ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Registers the file endpoints (in their own scope, so the multipart parser serves only them). */
export async function registerFileRoutes(app: FastifyInstance, opts: FileRoutesOptions): Promise<void> {
  const maxBytes = opts.maxBytes ?? uploadLimitFromEnv();
  const maxMb = Math.round((maxBytes / (1024 * 1024)) * 100) / 100;
  const store = new LocalFileStore(path.join(opts.dataDir, 'files'));
  const db = opts.db;
  if (opts.engine) registerAttachHooks(opts.engine, store, db, (e) => app.log.error(e));

  await app.register(async (scope) => {
    await scope.register(multipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 10_000, parts: 30, headerPairs: 100 },
    });

    const upload = async (req: FastifyRequest) => {
      const user = req.user;
      if (!user) throw new ApiError(401, 'unauthorized');
      if (!req.isMultipart()) throw new ApiError(400, 'fileRequired');
      let part: Awaited<ReturnType<typeof req.file>>;
      try {
        part = await req.file();
      } catch {
        throw new ApiError(400, 'fileRequired'); // malformed multipart body
      }
      if (!part) throw new ApiError(400, 'fileRequired');
      const drain = () => part!.file.resume();
      if (part.fieldname !== 'file') {
        drain();
        throw new ApiError(400, 'fileRequired');
      }
      const originalName = cleanFileName(part.filename ?? '');
      const ext = extensionOf(originalName);
      const kind = kindOf(ext);
      if (!kind) {
        drain();
        throw new ApiError(400, 'fileTypeNotAllowed', { ext: ext ? `.${ext}` : originalName || '?' });
      }
      const received = await store.receive(part.file, SNIFF_BYTES).catch((e: NodeJS.ErrnoException) => {
        if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) throw e; // disk trouble: a 500
        throw new ApiError(400, 'fileRequired'); // the upload broke off or was malformed
      });
      const refuse = async (e: ApiError) => {
        await store.discard(received.tmp);
        return e;
      };
      if (part.file.truncated) throw await refuse(new ApiError(400, 'fileTooLarge', { limit: maxMb }));
      if (received.size === 0) throw await refuse(new ApiError(400, 'fileEmpty'));
      if (!kind.sniff(received.head)) throw await refuse(new ApiError(400, 'fileContentMismatch', { ext: `.${ext}` }));

      const name = store.newName(ext, opts.timeZone);
      const abs = await store.commit(received.tmp, name).catch(async (e) => {
        await store.discard(received.tmp);
        throw e;
      });
      const link = `${FILE_DOMAIN}/${name}`;
      const id = nextId();
      try {
        await sql`INSERT INTO blade_attach (id, tenant_id, link, domain, name, original_name, extension, attach_size, create_user, create_dept, update_user)
                  VALUES (${id}::bigint, ${user.tenantId}, ${link}, ${FILE_DOMAIN}, ${name}, ${originalName}, ${ext}, ${received.size},
                          ${user.userId}::bigint, ${user.deptId || null}::bigint, ${user.userId}::bigint)`.execute(db);
      } catch (e) {
        await store.discard(abs);
        throw e;
      }
      opts.engine?.changed('blade_attach');
      return ok({ link, domain: FILE_DOMAIN, name, originalName, attachId: id }, undefined, req.lang);
    };

    const uploadSchema = { tags: ['files'], summary: 'Upload one file (multipart field "file")', consumes: ['multipart/form-data'] };
    scope.post(`${FILE_BASE}/put-file`, { schema: uploadSchema }, upload);
    scope.post(`${FILE_BASE}/put-file-attach`, { schema: { ...uploadSchema, summary: 'Upload one file (as put-file)' } }, upload);

    await registerTransferRoutes(scope, {
      db, store, base: FILE_BASE, domain: FILE_DOMAIN, timeZone: opts.timeZone, maxBytes, key: uploadKey(loadOrCreateSecrets(opts.dataDir).jwtKey),
      changed: () => opts.engine?.changed('blade_attach'), disposition, cleanFileName, access: opts.access,
    });
    registerBasicFileRoutes(scope, { db, domain: FILE_DOMAIN, timeZone: opts.timeZone, cleanFileName, changed: () => opts.engine?.changed('blade_attach'), access: opts.access });
    await registerEditorRoutes(scope, { db, store, timeZone: opts.timeZone, maxBytes, access: opts.access ?? new FileAccess(), changed: () => opts.engine?.changed('blade_attach') });

    scope.get(`${FILE_DOMAIN}/*`, { schema: { tags: ['files'], summary: 'Download a stored file of the caller’s tenant' } }, async (req, reply) => {
      const user = req.user;
      if (!user) throw new ApiError(401, 'unauthorized');
      const name = (req.params as Record<string, string>)['*'] ?? '';
      if (!store.resolve(name)) throw new ApiError(404, 'notFound');
      const r = await sql<{ id: string; name: string; original_name: string; extension: string; size: string; create_user: string }>`
        SELECT id::text AS id, name, original_name, extension, attach_size::text AS size, coalesce(create_user, 0)::text AS create_user
          FROM blade_attach WHERE tenant_id = ${user.tenantId} AND name = ${name} AND is_deleted = 0 ORDER BY id LIMIT 1`.execute(db);
      const row = r.rows[0];
      if (!row) throw new ApiError(404, 'notFound');
      // a module's rule may keep a file from a user of its tenant (a bidding chapter: modules/smartdoc)
      if (opts.access && !(await opts.access.allows(user, storedFileOf(user.tenantId, row), 'read'))) throw new ApiError(403, FILE_READ_DENIED);
      const file = await store.open(name);
      if (!file) throw new ApiError(404, 'notFound');
      const kind = kindOf(row.extension);
      return reply
        .header('content-type', kind?.mime ?? 'application/octet-stream')
        .header('content-length', String(file.size))
        .header('content-disposition', disposition(kind?.inline ?? false, row.original_name))
        .header('x-content-type-options', 'nosniff')
        // revalidated on every use: the online editor replaces a document's bytes under the same name (editor.ts)
        .header('cache-control', 'private, no-cache')
        .send(file.stream);
    });
  });
}
