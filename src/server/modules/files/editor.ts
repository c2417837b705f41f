/**
 * The online editor's endpoints (spec 002 §7 `onlyoffice/endpoint`: GET edit, getFileStatus, editStatus,
 * file-history, file-history-data; issue 17; DESIGN §8 "Documents": served by our own editor — the browser edits
 * the .docx with @eigenpal/docx-editor-react — with no document server). Shapes: src/shared/contract/editor.ts.
 *
 * | call                                         | does                                                               |
 * | -------------------------------------------- | ------------------------------------------------------------------ |
 * | GET  edit?fileId=                            | opens: takes (or refreshes) the edit lock → mode edit; someone     |
 * |                                              | else's live lock, or no edit permission → mode view, with the lock |
 * |                                              | holder. The open editor calls it every 30 s as its heartbeat.      |
 * | GET  editStatus?fileId=                      | the lock (holder, since, expiry) and whether the caller may edit   |
 * | GET  getFileStatus?fileId=                   | name, size, current version, number of versions, last change, lock |
 * | GET  file-history?fileId=                    | the versions newest first: who, when, size, restored from          |
 * | GET  file-history-data?fileId=&version=      | that version's bytes (default: the current), never cached          |
 * | POST save?fileId=  (body: the .docx)         | a new version with these bytes (the caller's lock taken/refreshed) |
 * | POST restore?fileId=&version=                | a new version with that version's bytes, byte for byte             |
 * | POST close?fileId=                           | releases the caller's lock                                         |
 *
 * Access, all on the server: a signed-in user (401); the document is a live attachment of the caller's tenant
 * (404 otherwise — another tenant gets nothing, not even that the id exists) and a .docx for everything but
 * reading its status (400 只能在线编辑 Word 文档（.docx）); reading needs the file access rule's `read`, writing
 * (the lock, save, restore) its `edit` (core/file-access.ts: by default the uploader or an administrator; modules
 * add per-file rules): 403 您没有查看该文档的权限 / 您没有编辑该文档的权限. A save or restore while someone else
 * holds a live lock is 400 文档正在被{name}编辑，不能保存. A saved body must be a .docx (a zip holding
 * word/document.xml; 400 文档内容不是有效的 Word 文档（.docx）), not empty, within the upload limit; a refused
 * save stores nothing. The lock lapses after `EDIT_LOCK_IDLE_SECONDS` (default 300) without a sign of life.
 */
import fsp from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import { FILE_READ_DENIED, type FileAccess, type FileOperation } from '../../core/file-access.js';
import { isId } from '../../../shared/contract/ids.js';
import { EDITOR_API, type EditorOpen, type EditStatus, type FileHistory, type FileStatus, type SavedVersion } from '../../../shared/contract/editor.js';
import type { Lang } from '../../../shared/i18n/messages.js';
import { kindOf, SNIFF_BYTES } from './kinds.js';
import type { LocalFileStore } from '../../core/file-store.js';
import { FileVersions, type DocRow } from './versions.js';

type Row = Record<string, unknown>;
const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
/** Default seconds without a sign of life after which an edit lock lapses. */
export const DEFAULT_LOCK_IDLE_SECONDS = 300;

export const M = {
  notDocx: { zh: '只能在线编辑 Word 文档（.docx）', en: 'Only Word documents (.docx) can be edited online' },
  noEdit: { zh: '您没有编辑该文档的权限', en: 'You do not have permission to edit this document' },
  invalid: { zh: '文档内容不是有效的 Word 文档（.docx）', en: 'The content is not a valid Word document (.docx)' },
  noVersion: { zh: '该版本不存在', en: 'No such version' },
  saved: { zh: '保存成功', en: 'Saved' },
  closed: { zh: '已关闭文档', en: 'Document closed' },
  lockedBy: (name: string) => ({ zh: `文档正在被${name}编辑，不能保存`, en: `${name} is editing the document; it cannot be saved now` }),
  restored: (v: number) => ({ zh: `已恢复到版本 ${v}`, en: `Restored version ${v}` }),
};

export interface EditorOptions {
  db: Db;
  store: LocalFileStore;
  timeZone: string;
  /** Largest document in bytes (the upload limit). */
  maxBytes: number;
  access: FileAccess;
  /** Seconds without a sign of life after which a lock lapses (default `EDIT_LOCK_IDLE_SECONDS`, else 300). */
  lockIdleSeconds?: number;
  /** Called after an attachment row changed (the engine's cached counts). */
  changed?: () => void;
}

/** The lock idle time from `EDIT_LOCK_IDLE_SECONDS` (whole seconds ≥ 10), else 300. */
export function lockIdleFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.EDIT_LOCK_IDLE_SECONDS;
  if (raw === undefined || raw === '') return DEFAULT_LOCK_IDLE_SECONDS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 10) throw new Error(`Environment variable EDIT_LOCK_IDLE_SECONDS must be a whole number of seconds (≥ 10), got "${raw}"`);
  return n;
}

/** A stream that passes at most `max` bytes and fails past them (`over` says why). */
function cap(max: number): Transform & { over: boolean } {
  let seen = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > max) {
        t.over = true;
        done(new Error('too large'));
      } else done(null, chunk);
    },
  }) as Transform & { over: boolean };
  t.over = false;
  return t;
}

/** True when `bytes` is a .docx: a zip with the main document part. */
async function isDocx(bytes: Buffer): Promise<boolean> {
  if (!kindOf('docx')!.sniff(bytes.subarray(0, SNIFF_BYTES))) return false;
  try {
    // loaded at first use, not at start (the server's resident memory; jszip is ~10 MB)
    const JSZip = (await import('jszip')).default;
    const zip = await JSZip.loadAsync(bytes);
    return zip.file('word/document.xml') !== null && zip.file('[Content_Types].xml') !== null;
  } catch {
    return false;
  }
}

/** Registers the editor's calls (see the module comment) in `app` (a scope of its own: raw bodies for save). */
export async function registerEditorRoutes(app: FastifyInstance, o: EditorOptions): Promise<void> {
  const v = new FileVersions(o.db, o.store, o.timeZone, o.lockIdleSeconds ?? lockIdleFromEnv());
  const maxMb = Math.round((o.maxBytes / (1024 * 1024)) * 100) / 100;
  const tags = ['files'];

  /** The caller, the document named by `fileId` (or `id`) and whether they may `op` it; refusals as documented. */
  const open = async (req: FastifyRequest, op: FileOperation, docxOnly = true): Promise<{ user: AuthUser; doc: DocRow }> => {
    const user = req.user;
    if (!user) throw new ApiError(401, 'unauthorized');
    const q = req.query as Row;
    const id = q.fileId ?? q.id;
    if (!isId(id)) throw new ApiError(400, 'badParam', { param: 'fileId' });
    const doc = await v.find(user.tenantId, id);
    if (!doc) throw new ApiError(404, 'notFound');
    if (!(await o.access.allows(user, doc, 'read'))) throw new ApiError(403, FILE_READ_DENIED);
    if (docxOnly && doc.extension !== 'docx') throw new ApiError(400, M.notDocx);
    if (op === 'edit' && !(await o.access.allows(user, doc, 'edit'))) throw new ApiError(403, M.noEdit);
    return { user, doc };
  };
  const versionParam = (req: FastifyRequest): number | null => {
    const raw = (req.query as Row).version;
    if (raw === undefined || raw === '') return null;
    const n = Number(raw);
    if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || n < 1) throw new ApiError(400, 'badParam', { param: 'version' });
    return n;
  };
  const lang = (req: FastifyRequest): Lang => (req.lang === 'en' ? 'en' : 'zh');

  app.get(`${EDITOR_API}/edit`, { schema: { tags, summary: 'Open a .docx in the editor: take the edit lock, or read-only with its holder' } }, async (req) => {
    const { user, doc } = await open(req, 'read');
    const canEdit = await o.access.allows(user, doc, 'edit');
    const lock = canEdit ? await v.acquire(doc, user.userId) : await v.lock(doc, user.userId);
    const answer: EditorOpen = {
      fileId: doc.id, fileName: doc.originalName, extension: doc.extension, size: doc.size, version: await v.current(doc),
      mode: lock?.mine ? 'edit' : 'view', canEdit, lock, lockIdleSeconds: v.idleSeconds,
    };
    return ok(answer, undefined, req.lang);
  });

  app.get(`${EDITOR_API}/editStatus`, { schema: { tags, summary: 'The edit lock of a document' } }, async (req) => {
    const { user, doc } = await open(req, 'read');
    const lock = await v.lock(doc, user.userId);
    const answer: EditStatus = { fileId: doc.id, locked: lock !== null, lock, canEdit: await o.access.allows(user, doc, 'edit') };
    return ok(answer, undefined, req.lang);
  });

  app.get(`${EDITOR_API}/getFileStatus`, { schema: { tags, summary: 'A stored file: size, current version, versions, last change, lock' } }, async (req) => {
    const { user, doc } = await open(req, 'read', false);
    const history = await v.history(doc);
    const lock = await v.lock(doc, user.userId);
    const answer: FileStatus = {
      fileId: doc.id, fileName: doc.originalName, extension: doc.extension, size: doc.size, version: history[0].version, versions: history.length,
      updateTime: doc.updateTime, updateUser: doc.updateUser, updateUserName: await v.userName(doc.updateUser), locked: lock !== null, lock,
    };
    return ok(answer, undefined, req.lang);
  });

  app.get(`${EDITOR_API}/file-history`, { schema: { tags, summary: 'The versions of a document, newest first' } }, async (req) => {
    const { doc } = await open(req, 'read');
    const history = await v.history(doc);
    const answer: FileHistory = { fileId: doc.id, currentVersion: history[0].version, history };
    return ok(answer, undefined, req.lang);
  });

  app.get(`${EDITOR_API}/file-history-data`, { schema: { tags, summary: 'The bytes of one version of a document (default: the current)' } }, async (req, reply) => {
    const { doc } = await open(req, 'read');
    const version = versionParam(req) ?? (await v.current(doc));
    const name = await v.versionName(doc, version);
    const file = name ? await o.store.open(name) : null;
    if (!file) throw new ApiError(404, M.noVersion);
    const base = doc.originalName.replace(/\.docx$/i, '') || 'document';
    const fileName = `${base}-v${version}.docx`;
    return reply
      .header('content-type', DOCX_MIME)
      .header('content-length', String(file.size))
      .header('content-disposition', `attachment; filename="v${version}.docx"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      .header('x-content-type-options', 'nosniff')
      .header('x-file-version', String(version))
      .header('cache-control', 'no-store')
      .send(file.stream);
  });

  app.post(`${EDITOR_API}/close`, { schema: { tags, summary: 'Release the caller’s edit lock' } }, async (req) => {
    const { user, doc } = await open(req, 'read');
    const released = await v.release(doc, user.userId);
    return ok({ fileId: doc.id, released }, M.closed[lang(req)], req.lang);
  });

  /** Writes a version from `tmp` (a checked temporary file) as the caller; refuses another holder's lock. */
  const write = async (req: FastifyRequest, user: AuthUser, doc: DocRow, tmp: string, restoredFrom: number | null): Promise<SavedVersion> => {
    try {
      const saved = await v.write(doc, user.userId, tmp, restoredFrom, (lock) => {
        if (!lock.mine) throw new ApiError(400, M.lockedBy(lock.userName));
      });
      o.changed?.();
      return { fileId: doc.id, restoredFrom, ...saved };
    } finally {
      await o.store.discard(tmp);
    }
  };

  app.post(`${EDITOR_API}/restore`, { schema: { tags, summary: 'A new version with the bytes of an earlier one' } }, async (req) => {
    const { user, doc } = await open(req, 'edit');
    const version = versionParam(req);
    if (version === null) throw new ApiError(400, 'badParam', { param: 'version' });
    const name = await v.versionName(doc, version);
    const file = name ? await o.store.open(name) : null;
    if (!file) throw new ApiError(404, M.noVersion);
    const received = await o.store.receive(file.stream, 0);
    const saved = await write(req, user, doc, received.tmp, version);
    return ok(saved, M.restored(version)[lang(req)], req.lang);
  });

  // save: its own scope, whose body parser hands the raw request stream (the .docx) to the route
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    scope.post(`${EDITOR_API}/save`, { schema: { tags, summary: 'Save the .docx in the body as the document’s new version' } }, async (req) => {
      const body: Readable = req.body instanceof Readable ? req.body : req.raw;
      let opened: { user: AuthUser; doc: DocRow };
      try {
        opened = await open(req, 'edit');
      } catch (e) {
        body.resume();
        throw e;
      }
      const limit = cap(o.maxBytes);
      const received = await o.store.receive(body.pipe(limit), 0).catch(() => {
        body.resume();
        throw new ApiError(400, limit.over ? 'fileTooLarge' : 'fileRequired', { limit: maxMb });
      });
      let bytes: Buffer;
      try {
        if (received.size === 0) throw new ApiError(400, 'fileEmpty');
        bytes = await fsp.readFile(received.tmp);
        if (!(await isDocx(bytes))) throw new ApiError(400, M.invalid);
      } catch (e) {
        await o.store.discard(received.tmp);
        throw e;
      }
      const saved = await write(req, opened.user, opened.doc, received.tmp, null);
      return ok(saved, M.saved[lang(req)], req.lang);
    });
  });
}
