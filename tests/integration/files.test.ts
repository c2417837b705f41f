/**
 * Files (spec 000 §7 Files, §9; DESIGN §8 Files, §11): upload through put-file, download byte for byte,
 * type (extension whitelist and content sniffing), size and path checks with nothing left behind by a refused
 * upload, tenant isolation of downloads, and sign-in.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';
import { cleanFileName, uploadLimitFromEnv } from '../../src/server/modules/files/routes.js';
import { dayFolder } from '../../src/server/core/file-store.js';

let s: TestServer;
let kyry: Session;
let sbdw: Session;
let other: Session; // administrator of tenant 100001
let filesDir: string;

const PUT = '/api/blade-resource/oss/endpoint/put-file';
const DOMAIN = '/api/blade-resource/oss/endpoint/file';

/** A small, well-formed PDF (one empty page). */
function pdfBytes(text = 'Kechuang'): Buffer {
  const body = [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    `3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Title (${text}) >> endobj`,
    'trailer << /Root 1 0 R >>',
    '%%EOF',
    '',
  ].join('\n');
  // a few binary bytes, as real PDFs have after the header
  return Buffer.concat([Buffer.from(body, 'latin1'), Buffer.from([0xe2, 0xe3, 0xcf, 0xd3, 0x00, 0xff])]);
}
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 1)]);
const DOCX = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('[Content_Types].xml'), Buffer.alloc(64, 7)]);
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(126, 0x90)]);

/** A multipart body with one file (field `field`, default `file`), as a browser's FormData sends it. */
async function multipart(fileName: string, bytes: Buffer, field = 'file', extra: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  form.append(field, new Blob([new Uint8Array(bytes)]), fileName);
  const res = new Response(form);
  return { payload: Buffer.from(await res.arrayBuffer()), headers: { 'content-type': res.headers.get('content-type')! } };
}

async function upload(who: Session | null, fileName: string, bytes: Buffer, field = 'file', headers: Record<string, string> = {}) {
  const mp = await multipart(fileName, bytes, field);
  return call(s, who, 'POST', PUT, mp.payload, { ...mp.headers, ...headers });
}

/** Every regular file under the files folder (uploads and temporary files). */
function storedFiles(): string[] {
  if (!fs.existsSync(filesDir)) return [];
  return (fs.readdirSync(filesDir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** Runs `act` and asserts that it stored no file and no attachment row. */
async function storesNothing(act: () => Promise<void>) {
  const files = storedFiles().length;
  const rows = await countRows(s, 'blade_attach');
  await act();
  expect(storedFiles().length).toBe(files);
  expect(await countRows(s, 'blade_attach')).toBe(rows);
}

beforeAll(async () => {
  s = await testServer();
  filesDir = path.join(s.kernel.config.dataDir, 'files');
  [kyry, sbdw] = await Promise.all([login(s, 'kyry'), login(s, 'sbdw')]);
  other = await login(s, 'admin', { tenantId: '100001' });
});
afterAll(async () => {
  await s?.close();
});

describe('put-file and download', () => {
  let uploaded: Json;
  const bytes = pdfBytes();

  beforeAll(async () => {
    const res = await upload(kyry, '项目申报书 2025.pdf', bytes);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    uploaded = res.body.data;
  });

  it('answers {link, domain, name, originalName, attachId}; name is upload/{yyyyMMdd}/{uuid}.pdf', () => {
    const day = dayFolder(new Date(), s.kernel.config.timeZone);
    expect(uploaded.name).toMatch(new RegExp(`^upload/${day}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.pdf$`));
    expect(uploaded).toMatchObject({ domain: DOMAIN, link: `${DOMAIN}/${uploaded.name}`, originalName: '项目申报书 2025.pdf' });
    expect(uploaded.attachId).toMatch(/^\d+$/);
  });

  it('stores the bytes under DATA_DIR/files/<name> and records the upload for the tenant', async () => {
    expect(fs.readFileSync(path.join(filesDir, uploaded.name)).equals(bytes)).toBe(true);
    const row = (
      await s.kernel.database.pool.query(
        'SELECT tenant_id, link, domain, name, original_name, extension, attach_size::int AS size, create_user::text AS create_user FROM blade_attach WHERE id = $1',
        [uploaded.attachId],
      )
    ).rows[0];
    expect(row).toEqual({
      tenant_id: '000000', link: uploaded.link, domain: DOMAIN, name: uploaded.name, original_name: '项目申报书 2025.pdf',
      extension: 'pdf', size: bytes.length, create_user: kyry.userId,
    });
    expect(fs.readdirSync(path.join(filesDir, 'tmp'))).toEqual([]);
  });

  it('GET link gives the file back byte for byte, as a pdf with the user’s file name', async () => {
    const res = await s.app.inject({ method: 'GET', url: uploaded.link, headers: { 'blade-auth': `bearer ${kyry.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toBe(`inline; filename="_____ 2025.pdf"; filename*=UTF-8''${encodeURIComponent('项目申报书 2025.pdf')}`);
  });

  it('another user of the same tenant can download it', async () => {
    const res = await s.app.inject({ method: 'GET', url: uploaded.link, headers: { 'blade-auth': `bearer ${sbdw.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
  });

  it('another tenant gets 404 for it', async () => {
    const res = await call(s, other, 'GET', uploaded.link);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, success: false, data: null, msg: '数据不存在' });
  });

  it('anonymous callers get 401 for the download and the upload', async () => {
    const get = await call(s, null, 'GET', uploaded.link);
    expect(get.status).toBe(401);
    expect(get.body.msg).toBe('请求未授权，请重新登录');
    await storesNothing(async () => {
      const res = await upload(null, 'a.pdf', pdfBytes());
      expect(res.status).toBe(401);
    });
  });

  it('an upload of tenant 100001 is theirs: they download it, tenant 000000 gets 404', async () => {
    const res = await upload(other, 'their.png', PNG);
    expect(res.status).toBe(200);
    expect(await countRows(s, 'blade_attach', 'id = $1 AND tenant_id = $2', [res.body.data.attachId, '100001'])).toBe(1);
    const theirs = await s.app.inject({ method: 'GET', url: res.body.data.link, headers: { 'blade-auth': `bearer ${other.token}` } });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers['content-type']).toBe('image/png');
    expect(theirs.rawPayload.equals(PNG)).toBe(true);
    expect((await call(s, kyry, 'GET', res.body.data.link)).status).toBe(404);
  });

  it('accepts a docx (a zip container) and serves it as an attachment', async () => {
    const res = await upload(kyry, '任务书.DOCX', DOCX);
    expect(res.status).toBe(200);
    expect(res.body.data.name).toMatch(/\.docx$/);
    const got = await s.app.inject({ method: 'GET', url: res.body.data.link, headers: { 'blade-auth': `bearer ${kyry.token}` } });
    expect(got.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(got.headers['content-disposition']).toMatch(/^attachment; /);
    expect(got.rawPayload.equals(DOCX)).toBe(true);
  });

  it('keeps only the base name of a file name that carries folders', async () => {
    const res = await upload(kyry, '../../etc/passwd.pdf', pdfBytes('x'));
    expect(res.status).toBe(200);
    expect(res.body.data.originalName).toBe('passwd.pdf');
    expect(res.body.data.name).toMatch(/^upload\/\d{8}\/[0-9a-f-]{36}\.pdf$/);
    expect(cleanFileName('C:\\Users\\李\\报告.pdf')).toBe('报告.pdf');
  });
});

describe('refused uploads leave nothing behind', () => {
  it('a file type off the whitelist: 400 不支持的文件类型: .exe', async () => {
    await storesNothing(async () => {
      const res = await upload(kyry, 'setup.exe', EXE);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 400, success: false, data: null, msg: '不支持的文件类型: .exe' });
      const en = await upload(kyry, 'run.sh', Buffer.from('#!/bin/sh\n'), 'file', { 'accept-language': 'en' });
      expect(en.body.msg).toBe('Unsupported file type: .sh');
      const none = await upload(kyry, 'README', Buffer.from('text'));
      expect(none.status).toBe(400);
      expect(none.body.msg).toBe('不支持的文件类型: README');
    });
  });

  it('content that does not fit the extension (an executable named .pdf): 400', async () => {
    await storesNothing(async () => {
      const res = await upload(kyry, 'invoice.pdf', EXE);
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('文件内容与扩展名 .pdf 不符');
      const png = await upload(kyry, 'photo.png', pdfBytes());
      expect(png.body.msg).toBe('文件内容与扩展名 .png 不符');
    });
  });

  it('an empty file: 400 上传的文件是空的', async () => {
    await storesNothing(async () => {
      const res = await upload(kyry, 'empty.pdf', Buffer.alloc(0));
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('上传的文件是空的');
    });
  });

  it('a file over the limit (default 50 MiB): 400 文件大小不能超过 50 MB', async () => {
    const big = Buffer.alloc(50 * 1024 * 1024 + 1, 0x20);
    pdfBytes().copy(big);
    await storesNothing(async () => {
      const res = await upload(kyry, 'big.pdf', big);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 400, success: false, data: null, msg: '文件大小不能超过 50 MB' });
    });
  });

  it('a request without the file field or not multipart: 400 请选择要上传的文件', async () => {
    await storesNothing(async () => {
      const wrongField = await upload(kyry, 'a.pdf', pdfBytes(), 'attachment');
      expect(wrongField.status).toBe(400);
      expect(wrongField.body.msg).toBe('请选择要上传的文件');
      const json = await call(s, kyry, 'POST', PUT, { file: 'a.pdf' });
      expect(json.status).toBe(400);
      expect(json.body.msg).toBe('请选择要上传的文件');
      const broken = await call(s, kyry, 'POST', PUT, '--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF', {
        'content-type': 'multipart/form-data; boundary=x',
      });
      expect(broken.status).toBe(400);
    });
  });

  it('the limit is configurable with UPLOAD_MAX_MB (whole MiB)', () => {
    expect(uploadLimitFromEnv({})).toBe(50 * 1024 * 1024);
    expect(uploadLimitFromEnv({ UPLOAD_MAX_MB: '200' })).toBe(200 * 1024 * 1024);
    expect(() => uploadLimitFromEnv({ UPLOAD_MAX_MB: '0.5' })).toThrow(/UPLOAD_MAX_MB/);
  });
});

describe('downloads stay inside the files folder', () => {
  beforeAll(() => {
    // a file outside the files folder that a traversal would reach
    fs.writeFileSync(path.join(s.kernel.config.dataDir, 'outside.pdf'), pdfBytes('secret'));
  });

  it.each([
    `${DOMAIN}/../../outside.pdf`,
    `${DOMAIN}/upload/../../outside.pdf`,
    `${DOMAIN}/..%2F..%2Foutside.pdf`,
    `${DOMAIN}/upload%2F20250101%2F..%2F..%2F..%2Foutside.pdf`,
    `${DOMAIN}/%2e%2e/%2e%2e/secrets.json`,
    `${DOMAIN}/%2Fetc%2Fpasswd`,
    `${DOMAIN}/upload/20250101/..%5C..%5C..%5Coutside.pdf`,
    `${DOMAIN}/tmp/anything`,
    `${DOMAIN}/upload/20250101/00000000-0000-0000-0000-000000000000.pdf`,
  ])('%s → 404 (or 400), never a file', async (url) => {
    const res = await call(s, kyry, 'GET', url);
    expect([400, 404]).toContain(res.status);
    expect(res.body.success).toBe(false);
    expect(res.res.body).not.toContain('%PDF');
    expect(res.res.body).not.toContain('jwtKey');
  });
});
