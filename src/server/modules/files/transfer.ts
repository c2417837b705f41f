/**
 * The file helpers beside put-file (issue 17; spec 000 §7 "Files", spec 001 §7 "Files and dictionary"; DESIGN §8):
 *
 * - `POST /api/blade-resource/oss/endpoint/download?name=` (query, binary reply): one stored file by its stored
 *   name (`upload/{yyyyMMdd}/{uuid}.{ext}`, the `name` put-file answered; its `link` is accepted too, as
 *   `?link=`), under the user's file name. 400 参数 name 的值无效 without a name; 404 for a name that is not a live
 *   attachment of the caller's tenant (another tenant's file is not found, never read).
 * - `POST /api/blade-resource/oss/endpoint/downloadZip` (body: a JSON array of stored names or links, or
 *   `{names: […], fileName?}`; binary reply): the files as one .zip, streamed as it is written (JSZip's node
 *   stream with data descriptors: a file is read from disk only when its turn comes, nothing is held whole in
 *   memory). 1–100 distinct names (400 请选择要下载的文件 / 一次最多下载100个文件); every name must be a live
 *   attachment of the caller's tenant, else 404 and no byte of any file is sent. Entries are named with the
 *   users' file names; a name used twice becomes `名称 (2).ext`. The archive is `附件.zip` (`files.zip` in en)
 *   unless `fileName` (≤ 100 characters, `.zip` added) names it.
 * - Both ask the file access rules (core/file-access.ts, `access`) for `read` on every file first: a file a module's
 *   rule keeps from the caller (a bidding chapter they have no right on, modules/smartdoc) is 403
 *   您没有查看该文档的权限 and no byte of any file is sent.
 * - `GET /api/blade-resource/oss/endpoint/getPolicy?fileName=` (spec 000 §7: "getPolicy (fileName) then PUT of
 *   the file to the returned address"): a same-origin upload address signed for the caller (HS256 JWT over
 *   tenant, user, dept, the stored name chosen now and the user's file name; audience `kc-upload`, 10 minutes):
 *   `{url, method: 'PUT', name, link, domain, originalName, expire}`. The extension must be on the upload
 *   whitelist (400 不支持的文件类型 like put-file).
 * - `PUT /api/blade-resource/oss/endpoint/put-object?token=` (the address getPolicy gave; no Blade-Auth needed,
 *   the token is the permission — as an object store's signed URL): the raw body is the file, checked as put-file
 *   checks (size, not empty, magic bytes) and recorded in blade_attach for the token's tenant and user; answers
 *   what put-file answers. A token is good for one file: the stored name it names is taken after the first PUT
 *   (400 上传地址已使用); an expired or forged token 400 上传地址无效或已过期, nothing stored.
 */
import { Readable, Transform } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { loadJSZip } from '../../core/lazy-libs.js';
import { SignJWT, jwtVerify } from 'jose';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import { nextId } from '../../core/ids.js';
import { extensionOf, kindOf, SNIFF_BYTES } from './kinds.js';
import type { LocalFileStore } from '../../core/file-store.js';
import { FILE_READ_DENIED, storedFileOf, type FileAccess } from '../../core/file-access.js';

type Row = Record<string, unknown>;
const UPLOAD_AUDIENCE = 'kc-upload';
/** Lifetime of a getPolicy address, seconds. */
export const POLICY_SECONDS = 600;
/** Most files one downloadZip packs. */
export const ZIP_MAX_FILES = 100;

const M = {
  noFiles: { zh: '请选择要下载的文件', en: 'Please choose the files to download' },
  tooMany: { zh: `一次最多下载${ZIP_MAX_FILES}个文件`, en: `At most ${ZIP_MAX_FILES} files can be downloaded at once` },
  zipName: { zh: '附件', en: 'files' },
  badToken: { zh: '上传地址无效或已过期', en: 'The upload address is invalid or has expired' },
  used: { zh: '上传地址已使用', en: 'The upload address has already been used' },
};

export interface TransferOptions {
  db: Db;
  store: LocalFileStore;
  base: string;
  domain: string;
  timeZone: string;
  maxBytes: number;
  /** The key that signs upload addresses (derived from the server's generated JWT key). */
  key: Uint8Array;
  /** Called after a file is recorded (the engine's cached attachment counts). */
  changed?: () => void;
  disposition(inline: boolean, fileName: string): string;
  cleanFileName(raw: string): string;
  /** Per-file read rules (core/file-access.ts); without it the tenant alone decides. */
  access?: FileAccess;
}

/** The stored name a request gives: `name` itself, or the `link` put-file answered (`<domain>/<name>`). */
function storedName(raw: unknown, domain: string): string | null {
  if (typeof raw !== 'string' || raw === '' || raw.length > 300) return null;
  let v = raw;
  const at = v.indexOf(`${domain}/`);
  if (at >= 0) v = v.slice(at + domain.length + 1);
  return v.split('?')[0];
}

interface AttachRow {
  id: string;
  name: string;
  original_name: string;
  extension: string;
  size: string;
  create_user: string;
}

/** The live attachments of `tenantId` among `names`: stored name → its row. */
async function attachments(db: Db, tenantId: string, names: string[]): Promise<Map<string, AttachRow>> {
  const r = await sql<AttachRow>`
    SELECT DISTINCT ON (name) id::text AS id, name, original_name, extension, attach_size::text AS size, coalesce(create_user, 0)::text AS create_user FROM blade_attach
     WHERE tenant_id = ${tenantId} AND name = ANY(${names}::text[]) AND is_deleted = 0 ORDER BY name, id`.execute(db);
  return new Map(r.rows.map((x) => [x.name, x]));
}

/** 403 unless the file access rules let `user` read the attachment `row` (no rules: allowed). */
async function assertReadable(access: FileAccess | undefined, user: Parameters<FileAccess['allows']>[0], row: AttachRow): Promise<void> {
  if (!access) return;
  if (!(await access.allows(user, storedFileOf(user.tenantId, row), 'read'))) throw new ApiError(403, FILE_READ_DENIED);
}

/** `name` made unique among `used` by ` (2)`, ` (3)` … before the extension. */
function uniqueEntry(name: string, used: Set<string>): string {
  let out = name || 'file';
  const dot = out.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [out.slice(0, dot), out.slice(dot)] : [out, ''];
  for (let i = 2; used.has(out.toLowerCase()); i++) out = `${stem} (${i})${ext}`;
  used.add(out.toLowerCase());
  return out;
}

/** A pass-through that fails once more than `max` bytes went through (the raw PUT body's size limit). */
function limit(max: number): Transform & { over: boolean } {
  let size = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > max) {
        t.over = true;
        done(new Error('too large'));
      } else done(null, chunk);
    },
  }) as Transform & { over: boolean };
  t.over = false;
  // the consumer (store.receive) reports the failure and `over` says why; this listener only keeps an error the
  // stream emits after its consumer stopped listening (the request still writing) from crashing the process
  t.on('error', () => undefined);
  return t;
}

/** Registers download, downloadZip, getPolicy and put-object (see the module comment). */
export async function registerTransferRoutes(app: FastifyInstance, o: TransferOptions): Promise<void> {
  const tags = ['files'];
  const maxMb = Math.round((o.maxBytes / (1024 * 1024)) * 100) / 100;

  app.post(`${o.base}/download`, { schema: { tags, summary: 'One stored file of the caller’s tenant by its stored name (query name or link)' } }, async (req, reply) => {
    const user = req.user;
    if (!user) throw new ApiError(401, 'unauthorized');
    const q = req.query as Row;
    const name = storedName(q.name ?? q.link ?? q.fileName, o.domain);
    if (!name) throw new ApiError(400, 'badParam', { param: 'name' });
    if (!o.store.resolve(name)) throw new ApiError(404, 'notFound');
    const row = (await attachments(o.db, user.tenantId, [name])).get(name);
    if (!row) throw new ApiError(404, 'notFound');
    await assertReadable(o.access, user, row);
    const file = await o.store.open(name);
    if (!file) throw new ApiError(404, 'notFound');
    return reply
      .header('content-type', kindOf(row.extension)?.mime ?? 'application/octet-stream')
      .header('content-length', String(file.size))
      .header('content-disposition', o.disposition(false, row.original_name))
      .header('x-content-type-options', 'nosniff')
      .send(file.stream);
  });

  app.post(`${o.base}/downloadZip`, { schema: { tags, summary: 'Several stored files of the caller’s tenant as one streamed .zip' } }, async (req, reply) => {
    const user = req.user;
    if (!user) throw new ApiError(401, 'unauthorized');
    const body = req.body as unknown;
    const list: unknown = Array.isArray(body) ? body : body && typeof body === 'object' ? ((body as Row).names ?? (body as Row).links) : undefined;
    if (!Array.isArray(list) || list.length === 0) throw new ApiError(400, M.noFiles);
    const names = [...new Set(list.map((x) => storedName(x, o.domain)))];
    if (names.some((n) => n === null)) throw new ApiError(400, 'badParam', { param: 'names' });
    if (names.length > ZIP_MAX_FILES) throw new ApiError(400, M.tooMany);
    const found = await attachments(o.db, user.tenantId, names as string[]);
    for (const row of found.values()) await assertReadable(o.access, user, row); // before any file is opened
    const JSZip = await loadJSZip(); // before the files are opened: nothing waits between opening and zipping them
    const files: Array<{ entry: string; stream: Readable }> = [];
    const used = new Set<string>();
    try {
      for (const n of names as string[]) {
        const row = found.get(n);
        const file = row && o.store.resolve(n) ? await o.store.open(n) : null;
        if (!row || !file) throw new ApiError(404, 'notFound');
        files.push({ entry: uniqueEntry(row.original_name, used), stream: file.stream });
      }
    } catch (e) {
      for (const f of files) f.stream.destroy();
      throw e;
    }
    const zip = new JSZip();
    for (const f of files) zip.file(f.entry, f.stream, { binary: true });
    const raw = typeof (body as Row)?.fileName === 'string' ? o.cleanFileName(String((body as Row).fileName)).slice(0, 100) : '';
    const fileName = `${(raw || M.zipName[req.lang === 'en' ? 'en' : 'zh']).replace(/\.zip$/i, '')}.zip`;
    const out = zip.generateNodeStream({ type: 'nodebuffer', streamFiles: true, compression: 'DEFLATE', compressionOptions: { level: 6 } });
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', o.disposition(false, fileName))
      .header('x-content-type-options', 'nosniff')
      .send(out);
  });

  app.get(`${o.base}/getPolicy`, { schema: { tags, summary: 'A signed same-origin address to PUT one file to (10 minutes)' } }, async (req) => {
    const user = req.user;
    if (!user) throw new ApiError(401, 'unauthorized');
    const raw = (req.query as Row).fileName;
    const originalName = typeof raw === 'string' ? o.cleanFileName(raw) : '';
    if (!originalName) throw new ApiError(400, 'badParam', { param: 'fileName' });
    const ext = extensionOf(originalName);
    if (!kindOf(ext)) throw new ApiError(400, 'fileTypeNotAllowed', { ext: ext ? `.${ext}` : originalName });
    const name = o.store.newName(ext, o.timeZone);
    const token = await new SignJWT({ t: user.tenantId, u: user.userId, d: user.deptId || null, n: name, o: originalName })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(UPLOAD_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${POLICY_SECONDS}s`)
      .sign(o.key);
    const url = `${o.base}/put-object?token=${encodeURIComponent(token)}`;
    return ok({ url, method: 'PUT', name, link: `${o.domain}/${name}`, domain: o.domain, originalName, expire: POLICY_SECONDS }, undefined, req.lang);
  });

  // the signed PUT: its own scope, whose body parser hands the raw request stream to the route
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    scope.put(`${o.base}/put-object`, { config: { public: true }, schema: { tags, summary: 'PUT one file to the address getPolicy signed' } }, async (req) => {
      const token = (req.query as Row).token;
      let claims: Row;
      try {
        if (typeof token !== 'string' || token.length > 4000) throw new Error('no token');
        claims = (await jwtVerify(token, o.key, { audience: UPLOAD_AUDIENCE })).payload as Row;
      } catch {
        (req.body as Readable | undefined)?.resume?.();
        throw new ApiError(400, M.badToken);
      }
      const name = String(claims.n);
      const originalName = String(claims.o);
      const ext = extensionOf(originalName);
      const kind = kindOf(ext);
      if (!kind || !o.store.resolve(name)) throw new ApiError(400, M.badToken);
      const body: Readable = req.body instanceof Readable ? req.body : req.raw;
      const cap = limit(o.maxBytes);
      const received = await o.store.receive(body.pipe(cap), SNIFF_BYTES).catch(() => {
        body.resume();
        throw new ApiError(400, cap.over ? 'fileTooLarge' : 'fileRequired', { limit: maxMb });
      });
      const refuse = async (e: ApiError) => {
        await o.store.discard(received.tmp);
        return e;
      };
      if (received.size === 0) throw await refuse(new ApiError(400, 'fileEmpty'));
      if (!kind.sniff(received.head)) throw await refuse(new ApiError(400, 'fileContentMismatch', { ext: `.${ext}` }));
      const id = nextId();
      const link = `${o.domain}/${name}`;
      // one file per address: the stored name is checked and taken under a lock on it, so two PUTs of one token
      // cannot both land (the second is refused and its bytes discarded)
      const used = await o.db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(hashtext(${'kc-upload:' + name}))`.execute(trx);
        if ((await sql`SELECT 1 FROM blade_attach WHERE name = ${name}`.execute(trx)).rows.length) return true;
        const abs = await o.store.commit(received.tmp, name);
        try {
          await sql`INSERT INTO blade_attach (id, tenant_id, link, domain, name, original_name, extension, attach_size, create_user, create_dept, update_user)
                    VALUES (${id}::bigint, ${String(claims.t)}, ${link}, ${o.domain}, ${name}, ${originalName}, ${ext}, ${received.size},
                            ${String(claims.u)}::bigint, ${claims.d ? String(claims.d) : null}::bigint, ${String(claims.u)}::bigint)`.execute(trx);
        } catch (e) {
          await o.store.discard(abs);
          throw e;
        }
        return false;
      }).catch(async (e) => {
        await o.store.discard(received.tmp);
        throw e;
      });
      if (used) throw await refuse(new ApiError(400, M.used));
      o.changed?.();
      return ok({ link, domain: o.domain, name, originalName, attachId: id }, undefined, req.lang);
    });
  });
}

/** The key upload addresses are signed with: the server's JWT key, separated by purpose. */
export function uploadKey(jwtKey: string): Uint8Array {
  return new TextEncoder().encode(`${jwtKey}:upload`);
}
