/**
 * The online editor's calls (issue 17; spec 002 §7 onlyoffice/endpoint edit, getFileStatus, editStatus,
 * file-history, file-history-data; save, restore and close; src/server/modules/files/editor.ts, versions.ts):
 * the edit lock (a second user sees the holder and opens read-only, a lapsed lock is taken over, close releases
 * it), saves as new versions under the same attachment (the normal download reads the current bytes), versions
 * restored byte for byte, per-file rules (core/file-access.ts), bad input refused storing nothing, another
 * tenant gets nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer, uploadFile } from './helpers.js';
import { fileAccessOf } from '../../src/server/core/file-access.js';

let s: TestServer;
let kyry: Session; // the uploader (刘研)
let admin: Session; // an administrator of the same tenant
let sbdw: Session; // a user of the same tenant who neither uploaded the file nor administers
let other: Session; // an administrator of another tenant
const B = '/api/onlyoffice/endpoint';
const TAG = `de${Date.now().toString(36)}`;
const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A real .docx (the parts Word needs) whose body is `paragraphs`. */
async function docx(paragraphs: string[]): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
  zip.file('_rels/.rels', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${p}</w:t></w:r></w:p>`).join('');
  zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

const upload = (who: Session, fileName: string, bytes: Buffer): Promise<Json> => uploadFile(s, who, fileName, bytes);
const save = (who: Session | null, fileId: string, bytes: Buffer, lang = 'zh') =>
  call(s, who, 'POST', `${B}/save?fileId=${fileId}`, bytes, { 'content-type': DOCX_MIME, 'accept-language': lang });
const versions = (fileId: string) => countRows(s, 'kc_file_version', 'attach_id = $1::bigint', [fileId]);
const current = async (who: Session, link: string) => (await call(s, who, 'GET', link)).res.rawPayload;

let V1: Buffer;
let V2: Buffer;
let doc: Json; // the uploaded .docx
let txt: Json; // an uploaded .txt

beforeAll(async () => {
  s = await testServer();
  [kyry, admin, sbdw, other] = await Promise.all([login(s, 'kyry'), login(s, 'admin'), login(s, 'sbdw'), login(s, 'admin', { tenantId: '100001' })]);
  V1 = await docx([`${TAG} 第一章 项目概况`, '原始文本']);
  V2 = await docx([`${TAG} 第一章 项目概况`, '原始文本', '第二版新增的段落']);
  doc = await upload(kyry, `${TAG} 投标文件.docx`, V1);
  txt = await upload(kyry, `${TAG} 说明.txt`, Buffer.from('纯文本\n'));
});
afterAll(async () => {
  await s?.close();
});

describe('opening, the edit lock and its holder', () => {
  it('getFileStatus reports the upload as version 1, unlocked', async () => {
    const r = await call(s, kyry, 'GET', `${B}/getFileStatus?fileId=${doc.attachId}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ fileId: doc.attachId, fileName: `${TAG} 投标文件.docx`, extension: 'docx', size: V1.length, version: 1, versions: 1, locked: false, lock: null, updateUserName: '刘研' });
    const h = await call(s, kyry, 'GET', `${B}/file-history?fileId=${doc.attachId}`);
    expect(h.body.data.currentVersion).toBe(1);
    expect(h.body.data.history).toEqual([expect.objectContaining({ version: 1, size: V1.length, createUser: kyry.userId, createUserName: '刘研', restoredFrom: null, current: true })]);
    const d = await call(s, kyry, 'GET', `${B}/file-history-data?fileId=${doc.attachId}&version=1`);
    expect(d.res.headers['cache-control']).toBe('no-store');
    expect(d.res.rawPayload.equals(V1)).toBe(true);
  });

  it('the first to open takes the lock; a second editor sees who holds it and opens read-only', async () => {
    const mine = await call(s, kyry, 'GET', `${B}/edit?fileId=${doc.attachId}`);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.data).toMatchObject({ mode: 'edit', canEdit: true, version: 1, lockIdleSeconds: 300, lock: { userId: kyry.userId, userName: '刘研', mine: true } });
    const second = await call(s, admin, 'GET', `${B}/edit?fileId=${doc.attachId}`);
    expect(second.body.data).toMatchObject({ mode: 'view', canEdit: true, lock: { userId: kyry.userId, userName: '刘研', mine: false } });
    const status = await call(s, admin, 'GET', `${B}/editStatus?fileId=${doc.attachId}`);
    expect(status.body.data).toMatchObject({ locked: true, canEdit: true, lock: { userName: '刘研', mine: false } });
    // opening again (the editor's heartbeat) keeps the holder and the time they started
    const again = await call(s, kyry, 'GET', `${B}/edit?fileId=${doc.attachId}`);
    expect(again.body.data.lock.since).toBe(mine.body.data.lock.since);
    // the read-only editor cannot save: refused with the holder's name, nothing stored
    const refused = await save(admin, doc.attachId, V2);
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('文档正在被刘研编辑，不能保存');
    expect((await save(admin, doc.attachId, V2, 'en')).body.msg).toBe('刘研 is editing the document; it cannot be saved now');
    expect(await versions(doc.attachId)).toBe(0);
    expect((await current(kyry, doc.link)).equals(V1)).toBe(true);
    const restore = await call(s, admin, 'POST', `${B}/restore?fileId=${doc.attachId}&version=1`);
    expect(restore.body.msg).toBe('文档正在被刘研编辑，不能保存');
    expect(await versions(doc.attachId)).toBe(0);
  });
});

describe('versions', () => {
  it('a save is version 2 under the same attachment; the normal download reads it, version 1 is kept', async () => {
    const r = await save(kyry, doc.attachId, V2);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.msg).toBe('保存成功');
    expect(r.body.data).toMatchObject({ fileId: doc.attachId, version: 2, size: V2.length, restoredFrom: null });
    expect((await current(kyry, doc.link)).equals(V2)).toBe(true);
    // the browser may not keep the old bytes of the link: the download is revalidated on every use
    expect((await call(s, kyry, 'GET', doc.link)).res.headers['cache-control']).toBe('private, no-cache');
    const h = (await call(s, kyry, 'GET', `${B}/file-history?fileId=${doc.attachId}`)).body.data;
    expect(h.currentVersion).toBe(2);
    expect(h.history.map((x: Json) => [x.version, x.size, x.createUserName, x.current])).toEqual([[2, V2.length, '刘研', true], [1, V1.length, '刘研', false]]);
    expect(h.history[0].createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await call(s, kyry, 'GET', `${B}/file-history-data?fileId=${doc.attachId}&version=1`)).res.rawPayload.equals(V1)).toBe(true);
    const latest = await call(s, kyry, 'GET', `${B}/file-history-data?fileId=${doc.attachId}`);
    expect(latest.res.headers['x-file-version']).toBe('2');
    expect(latest.res.rawPayload.equals(V2)).toBe(true);
    const status = (await call(s, kyry, 'GET', `${B}/getFileStatus?fileId=${doc.attachId}`)).body.data;
    expect(status).toMatchObject({ version: 2, versions: 2, size: V2.length, locked: true });
    const row = (await s.kernel.database.pool.query('SELECT attach_size::int AS size, name FROM blade_attach WHERE id = $1::bigint', [doc.attachId])).rows[0];
    expect(row).toEqual({ size: V2.length, name: doc.name });
  });

  it('restoring version 1 writes version 3 with version 1’s bytes, byte for byte', async () => {
    const r = await call(s, kyry, 'POST', `${B}/restore?fileId=${doc.attachId}&version=1`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.msg).toBe('已恢复到版本 1');
    expect(r.body.data).toMatchObject({ version: 3, restoredFrom: 1, size: V1.length });
    expect((await current(kyry, doc.link)).equals(V1)).toBe(true);
    expect((await call(s, kyry, 'GET', `${B}/file-history-data?fileId=${doc.attachId}&version=3`)).res.rawPayload.equals(V1)).toBe(true);
    expect((await call(s, kyry, 'GET', `${B}/file-history-data?fileId=${doc.attachId}&version=2`)).res.rawPayload.equals(V2)).toBe(true);
    const h = (await call(s, kyry, 'GET', `${B}/file-history?fileId=${doc.attachId}`)).body.data;
    expect(h.history.map((x: Json) => [x.version, x.restoredFrom])).toEqual([[3, 1], [2, null], [1, null]]);
  });

  it('a save over a real socket works (the raw body is a stream the input guard must not walk)', async () => {
    const addr = await s.app.listen({ port: 0, host: '127.0.0.1' });
    const r = await fetch(`${addr}${B}/save?fileId=${doc.attachId}`, {
      method: 'POST', body: new Uint8Array(V2), signal: AbortSignal.timeout(10_000),
      headers: { 'blade-auth': `bearer ${kyry.token}`, 'content-type': DOCX_MIME },
    });
    const body = (await r.json()) as Json;
    expect(r.status, JSON.stringify(body)).toBe(200);
    expect(body.data.version).toBe(4);
    expect((await current(kyry, doc.link)).equals(V2)).toBe(true);
  });

  it('two saves at once get consecutive versions', async () => {
    const [a, b] = await Promise.all([save(kyry, doc.attachId, V2), save(kyry, doc.attachId, V1)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.data.version, b.body.data.version].sort()).toEqual([5, 6]);
    expect(await versions(doc.attachId)).toBe(6);
  });
});

describe('close and lapse', () => {
  it('close releases the lock; the next editor takes it', async () => {
    const closed = await call(s, kyry, 'POST', `${B}/close?fileId=${doc.attachId}`);
    expect(closed.body.data).toEqual({ fileId: doc.attachId, released: true });
    expect((await call(s, admin, 'GET', `${B}/editStatus?fileId=${doc.attachId}`)).body.data).toMatchObject({ locked: false, lock: null });
    const taken = await call(s, admin, 'GET', `${B}/edit?fileId=${doc.attachId}`);
    expect(taken.body.data).toMatchObject({ mode: 'edit', lock: { userName: '系统管理员', mine: true } });
    // closing someone else's lock releases nothing
    expect((await call(s, kyry, 'POST', `${B}/close?fileId=${doc.attachId}`)).body.data.released).toBe(false);
    expect((await call(s, kyry, 'GET', `${B}/edit?fileId=${doc.attachId}`)).body.data.mode).toBe('view');
  });

  it('a lock lapses after the idle time without a sign of life and is taken over', async () => {
    await s.kernel.database.pool.query(`UPDATE kc_file_lock SET last_active = now() - interval '301 seconds' WHERE attach_id = $1::bigint`, [doc.attachId]);
    expect((await call(s, kyry, 'GET', `${B}/editStatus?fileId=${doc.attachId}`)).body.data.locked).toBe(false);
    const taken = await call(s, kyry, 'GET', `${B}/edit?fileId=${doc.attachId}`);
    expect(taken.body.data).toMatchObject({ mode: 'edit', lock: { userName: '刘研', mine: true } });
    expect((await call(s, admin, 'GET', `${B}/edit?fileId=${doc.attachId}`)).body.data.mode).toBe('view');
  });
});

describe('removal', () => {
  it('removing the attachment removes the files of its versions too', async () => {
    const gone = await upload(kyry, `${TAG} 删除.docx`, V1);
    await call(s, kyry, 'GET', `${B}/edit?fileId=${gone.attachId}`);
    expect((await save(kyry, gone.attachId, V2)).status).toBe(200);
    const names = (await s.kernel.database.pool.query('SELECT name FROM kc_file_version WHERE attach_id = $1::bigint ORDER BY version', [gone.attachId])).rows.map((r) => r.name as string);
    expect(names).toHaveLength(2);
    const root = path.join(s.kernel.config.dataDir, 'files');
    for (const n of names) expect(fs.existsSync(path.join(root, n))).toBe(true);
    const r = await call(s, admin, 'POST', `/api/blade-resource/attach/remove?ids=${gone.attachId}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await expect.poll(() => names.filter((n) => fs.existsSync(path.join(root, n))).length).toBe(0);
    expect(fs.existsSync(path.join(root, gone.name))).toBe(false);
    expect((await call(s, kyry, 'GET', `${B}/file-history?fileId=${gone.attachId}`)).status).toBe(404);
  });
});

describe('permission, tenant and bad input', () => {
  it('a user who may not edit opens read-only and gets 403 on every write, nothing stored', async () => {
    const open = await call(s, sbdw, 'GET', `${B}/edit?fileId=${doc.attachId}`);
    expect(open.body.data).toMatchObject({ mode: 'view', canEdit: false });
    const n = await versions(doc.attachId);
    const saved = await save(sbdw, doc.attachId, V2);
    expect(saved.status).toBe(403);
    expect(saved.body.msg).toBe('您没有编辑该文档的权限');
    expect((await call(s, sbdw, 'POST', `${B}/restore?fileId=${doc.attachId}&version=2`)).status).toBe(403);
    expect(await versions(doc.attachId)).toBe(n);
    // reading stays open to the tenant (as the download of the same file)
    expect((await call(s, sbdw, 'GET', `${B}/file-history?fileId=${doc.attachId}`)).status).toBe(200);
  });

  it('another tenant gets nothing: every call 404, no bytes', async () => {
    for (const p of ['edit', 'editStatus', 'getFileStatus', 'file-history', 'file-history-data']) {
      const r = await call(s, other, 'GET', `${B}/${p}?fileId=${doc.attachId}`);
      expect(r.status, p).toBe(404);
      expect(r.res.rawPayload.includes(Buffer.from(TAG))).toBe(false);
    }
    const n = await versions(doc.attachId);
    expect((await save(other, doc.attachId, V2)).status).toBe(404);
    expect((await call(s, other, 'POST', `${B}/restore?fileId=${doc.attachId}&version=1`)).status).toBe(404);
    expect((await call(s, other, 'POST', `${B}/close?fileId=${doc.attachId}`)).status).toBe(404);
    expect(await versions(doc.attachId)).toBe(n);
    expect((await call(s, null, 'GET', `${B}/edit?fileId=${doc.attachId}`)).status).toBe(401);
    expect((await save(null, doc.attachId, V2)).status).toBe(401);
  });

  it('refuses what is not a .docx, bad ids and versions, storing nothing', async () => {
    const n = await versions(doc.attachId);
    const before = await current(kyry, doc.link);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(40, 1)]);
    const notWord = new JSZip();
    notWord.file('hello.txt', 'zip but not Word');
    for (const body of [png, await notWord.generateAsync({ type: 'nodebuffer' })]) {
      const r = await save(kyry, doc.attachId, body);
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe('文档内容不是有效的 Word 文档（.docx）');
    }
    const empty = await save(kyry, doc.attachId, Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('上传的文件是空的');
    expect(await versions(doc.attachId)).toBe(n);
    expect((await current(kyry, doc.link)).equals(before)).toBe(true);

    const bad = await call(s, kyry, 'GET', `${B}/edit?fileId=abc`);
    expect([bad.status, bad.body.msg]).toEqual([400, '参数 fileId 的值无效']);
    expect((await call(s, kyry, 'GET', `${B}/edit`)).status).toBe(400);
    expect((await call(s, kyry, 'GET', `${B}/edit?fileId=1`)).status).toBe(404);
    const ver = await call(s, kyry, 'GET', `${B}/file-history-data?fileId=${doc.attachId}&version=x`);
    expect([ver.status, ver.body.msg]).toEqual([400, '参数 version 的值无效']);
    const missing = await call(s, kyry, 'GET', `${B}/file-history-data?fileId=${doc.attachId}&version=99`);
    expect([missing.status, missing.body.msg]).toEqual([404, '该版本不存在']);
    expect((await call(s, kyry, 'POST', `${B}/restore?fileId=${doc.attachId}&version=99`)).status).toBe(404);
    expect((await call(s, kyry, 'POST', `${B}/restore?fileId=${doc.attachId}`)).status).toBe(400);
    expect(await versions(doc.attachId)).toBe(n);

    const plain = await call(s, kyry, 'GET', `${B}/edit?fileId=${txt.attachId}`);
    expect([plain.status, plain.body.msg]).toEqual([400, '只能在线编辑 Word 文档（.docx）']);
    expect((await save(kyry, txt.attachId, V2)).status).toBe(400);
    expect(await versions(txt.attachId)).toBe(0);
    // the status of any file may be read
    expect((await call(s, kyry, 'GET', `${B}/getFileStatus?fileId=${txt.attachId}`)).body.data).toMatchObject({ extension: 'txt', version: 1 });
  });

  it('a module’s per-file rule can grant editing or take reading away', async () => {
    const mine = await upload(kyry, `${TAG} 章节.docx`, V1);
    fileAccessOf(s.kernel).add((user, file, op) => {
      if (file.id !== mine.attachId) return undefined;
      if (user.userId === sbdw.userId) return true; // e.g. a chapter assigned to this writer
      if (user.userId === admin.userId && op === 'read') return false;
      return undefined;
    });
    const open = await call(s, sbdw, 'GET', `${B}/edit?fileId=${mine.attachId}`);
    expect(open.body.data).toMatchObject({ mode: 'edit', canEdit: true, lock: { userName: '王申' } });
    expect((await save(sbdw, mine.attachId, V2)).body.data.version).toBe(2);
    const denied = await call(s, admin, 'GET', `${B}/file-history?fileId=${mine.attachId}`);
    expect([denied.status, denied.body.msg]).toEqual([403, '您没有查看该文档的权限']);
  });
});
