/**
 * The file helpers (issue 17; spec 000 §7 "Files", spec 001 §7; src/server/modules/files/transfer.ts): download
 * by stored name, downloadZip (the files byte for byte in one streamed .zip, duplicate names kept apart),
 * getPolicy's signed same-origin upload address and the PUT to it (one file per address, expired / forged /
 * wrong-content uploads refused storing nothing); another tenant's files are never served; sign-in required.
 */
import JSZip from 'jszip';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer, uploadFile } from './helpers.js';
import { uploadKey } from '../../src/server/modules/files/transfer.js';
import { loadOrCreateSecrets } from '../../src/server/core/secrets.js';

let s: TestServer;
let kyry: Session;
let other: Session;
const B = '/api/blade-resource/oss/endpoint';
const TAG = `ft${Date.now().toString(36)}`;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(TAG), Buffer.alloc(40, 3)]);
const TXT = Buffer.from(`${TAG} 储粮温度记录\n第二行\n`, 'utf8');
const uploaded: Json[] = [];

const upload = (who: Session, fileName: string, bytes: Buffer): Promise<Json> => uploadFile(s, who, fileName, bytes);
const put = (url: string, bytes: Buffer, headers: Record<string, string> = { 'content-type': 'application/octet-stream' }) =>
  s.app.inject({ method: 'PUT', url, payload: bytes, headers });

beforeAll(async () => {
  s = await testServer();
  kyry = await login(s, 'kyry');
  other = await login(s, 'admin', { tenantId: '100001' });
  uploaded.push(await upload(kyry, `${TAG} 仓温.png`, PNG), await upload(kyry, `${TAG} 记录.txt`, TXT), await upload(kyry, `${TAG} 记录.txt`, Buffer.from(`${TAG} 另一份\n`)));
});
afterAll(async () => {
  await s?.close();
});

describe('download and downloadZip', () => {
  it('download answers the stored file byte for byte under its name, by name or link', async () => {
    const byName = await call(s, kyry, 'POST', `${B}/download?name=${encodeURIComponent(uploaded[0].name)}`);
    expect(byName.status).toBe(200);
    expect(byName.res.rawPayload.equals(PNG)).toBe(true);
    expect(byName.res.headers['content-disposition']).toContain(encodeURIComponent(`${TAG} 仓温.png`));
    const byLink = await call(s, kyry, 'POST', `${B}/download?link=${encodeURIComponent(uploaded[1].link)}`);
    expect(byLink.res.rawPayload.equals(TXT)).toBe(true);
    const missing = await call(s, kyry, 'POST', `${B}/download`);
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('参数 name 的值无效');
    expect((await call(s, kyry, 'POST', `${B}/download?name=${encodeURIComponent('../../secrets.json')}`)).status).toBe(404);
    expect((await call(s, kyry, 'POST', `${B}/download?name=upload/20260101/00000000-0000-0000-0000-000000000000.png`)).status).toBe(404);
  });

  it('downloadZip packs the files byte for byte, keeping two files of one name apart', async () => {
    const res = await call(s, kyry, 'POST', `${B}/downloadZip`, uploaded.map((u) => u.name));
    expect(res.status).toBe(200);
    expect(res.res.headers['content-type']).toBe('application/zip');
    expect(res.res.headers['content-disposition']).toContain(encodeURIComponent('附件.zip'));
    const zip = await JSZip.loadAsync(res.res.rawPayload);
    const names = Object.keys(zip.files).sort();
    expect(names).toEqual([`${TAG} 仓温.png`, `${TAG} 记录 (2).txt`, `${TAG} 记录.txt`].sort());
    expect((await zip.file(`${TAG} 仓温.png`)!.async('nodebuffer')).equals(PNG)).toBe(true);
    expect((await zip.file(`${TAG} 记录.txt`)!.async('nodebuffer')).equals(TXT)).toBe(true);
    expect(await zip.file(`${TAG} 记录 (2).txt`)!.async('string')).toBe(`${TAG} 另一份\n`);
    const named = await call(s, kyry, 'POST', `${B}/downloadZip`, { names: [uploaded[0].link], fileName: '项目资料' }, { 'accept-language': 'en' });
    expect(named.res.headers['content-disposition']).toContain(encodeURIComponent('项目资料.zip'));
    expect(Object.keys((await JSZip.loadAsync(named.res.rawPayload)).files)).toEqual([`${TAG} 仓温.png`]);
  });

  it('downloadZip refuses no files, too many and unknown names', async () => {
    const none = await call(s, kyry, 'POST', `${B}/downloadZip`, []);
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('请选择要下载的文件');
    const many = await call(s, kyry, 'POST', `${B}/downloadZip`, Array.from({ length: 101 }, (_, i) => `upload/20260101/${String(i).padStart(8, '0')}-0000-0000-0000-000000000000.png`));
    expect(many.body.msg).toBe('一次最多下载100个文件');
    const unknown = await call(s, kyry, 'POST', `${B}/downloadZip`, [uploaded[0].name, 'upload/20260101/00000000-0000-0000-0000-000000000000.png']);
    expect(unknown.status).toBe(404);
  });

  it('another tenant gets none of the files; anonymous callers get 401', async () => {
    expect((await call(s, other, 'POST', `${B}/download?name=${encodeURIComponent(uploaded[0].name)}`)).status).toBe(404);
    const zip = await call(s, other, 'POST', `${B}/downloadZip`, [uploaded[0].name]);
    expect(zip.status).toBe(404);
    expect(zip.res.rawPayload.includes(Buffer.from(TAG))).toBe(false);
    expect((await call(s, null, 'POST', `${B}/download?name=${encodeURIComponent(uploaded[0].name)}`)).status).toBe(401);
    expect((await call(s, null, 'POST', `${B}/downloadZip`, [uploaded[0].name])).status).toBe(401);
    expect((await call(s, null, 'GET', `${B}/getPolicy?fileName=a.png`)).status).toBe(401);
  });
});

describe('getPolicy and the signed PUT', () => {
  it('a signed address takes one file, recorded for the caller and downloadable', async () => {
    const pol = await call(s, kyry, 'GET', `${B}/getPolicy?fileName=${encodeURIComponent(`${TAG} 直传.png`)}`);
    expect(pol.status, JSON.stringify(pol.body)).toBe(200);
    const p = pol.body.data as Json;
    expect(p).toMatchObject({ method: 'PUT', originalName: `${TAG} 直传.png`, expire: 600 });
    expect(p.url).toMatch(new RegExp(`^${B}/put-object\\?token=`));
    const res = await put(p.url, PNG);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ name: p.name, link: p.link, originalName: `${TAG} 直传.png` });
    const row = (await s.kernel.database.pool.query('SELECT tenant_id, create_user::text AS u, attach_size::int AS size FROM blade_attach WHERE name = $1', [p.name])).rows[0];
    expect(row).toEqual({ tenant_id: '000000', u: kyry.userId, size: PNG.length });
    expect((await call(s, kyry, 'GET', p.link)).res.rawPayload.equals(PNG)).toBe(true);
    // one file per address
    const again = await put(p.url, PNG);
    expect(again.statusCode).toBe(400);
    expect(again.json().msg).toBe('上传地址已使用');
    expect(await countRows(s, 'blade_attach', 'name = $1', [p.name])).toBe(1);
    expect((await call(s, other, 'GET', p.link)).status).toBe(404);
  });

  it('refuses a type off the whitelist, wrong content, an empty body, a forged or expired address — storing nothing', async () => {
    const exe = await call(s, kyry, 'GET', `${B}/getPolicy?fileName=setup.exe`);
    expect(exe.status).toBe(400);
    expect(exe.body.msg).toBe('不支持的文件类型: .exe');
    expect((await call(s, kyry, 'GET', `${B}/getPolicy`)).body.msg).toBe('参数 fileName 的值无效');
    const before = await countRows(s, 'blade_attach');
    const pol = (await call(s, kyry, 'GET', `${B}/getPolicy?fileName=fake.png`)).body.data as Json;
    const wrong = await put(pol.url, TXT);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().msg).toBe('文件内容与扩展名 .png 不符');
    expect((await put(pol.url, Buffer.alloc(0))).json().msg).toBe('上传的文件是空的');
    const forged = await new SignJWT({ t: '000000', u: kyry.userId, d: null, n: 'upload/20260101/11111111-1111-1111-1111-111111111111.png', o: 'x.png' })
      .setProtectedHeader({ alg: 'HS256' }).setAudience('kc-upload').setExpirationTime('10m').sign(new TextEncoder().encode('not the key'));
    expect((await put(`${B}/put-object?token=${forged}`, PNG)).json().msg).toBe('上传地址无效或已过期');
    const key = uploadKey(loadOrCreateSecrets(s.kernel.config.dataDir).jwtKey);
    const expired = await new SignJWT({ t: '000000', u: kyry.userId, d: null, n: 'upload/20260101/22222222-2222-2222-2222-222222222222.png', o: 'x.png' })
      .setProtectedHeader({ alg: 'HS256' }).setAudience('kc-upload').setIssuedAt(Math.floor(Date.now() / 1000) - 1200).setExpirationTime(Math.floor(Date.now() / 1000) - 600).sign(key);
    const exp = await put(`${B}/put-object?token=${expired}`, PNG);
    expect(exp.statusCode).toBe(400);
    expect(exp.json().msg).toBe('上传地址无效或已过期');
    expect((await put(`${B}/put-object`, PNG)).statusCode).toBe(400);
    const big = (await call(s, kyry, 'GET', `${B}/getPolicy?fileName=big.png`)).body.data as Json;
    const over = await put(big.url, Buffer.concat([PNG, Buffer.alloc(50 * 1024 * 1024)]));
    expect(over.statusCode).toBe(400);
    expect(over.json().msg).toBe('文件大小不能超过 50 MB');
    expect(await countRows(s, 'blade_attach')).toBe(before);
  });
});

describe('basic/basicfile: getDirPath and operation', () => {
  const BF = '/api/basic/basicfile';
  it('getDirPath: the folder of today’s uploads, and where an attachment lies', async () => {
    const today = await call(s, kyry, 'GET', `${BF}/getDirPath`);
    expect(today.status).toBe(200);
    expect(today.body.data.dirPath).toBe(uploaded[0].name.slice(0, uploaded[0].name.lastIndexOf('/')));
    const one = await call(s, kyry, 'GET', `${BF}/getDirPath?link=${encodeURIComponent(uploaded[0].link)}`);
    expect(one.body.data).toMatchObject({ name: uploaded[0].name, originalName: `${TAG} 仓温.png`, extension: 'png', size: PNG.length, dirPath: today.body.data.dirPath });
    expect(`${one.body.data.dirPath}/${one.body.data.fileName}`).toBe(uploaded[0].name);
    expect((await call(s, other, 'GET', `${BF}/getDirPath?name=${encodeURIComponent(uploaded[0].name)}`)).status).toBe(404);
    expect((await call(s, null, 'GET', `${BF}/getDirPath`)).status).toBe(401);
  });

  it('operation: the uploader renames (extension kept) and removes; others are refused and nothing changes', async () => {
    const file = await upload(kyry, `${TAG} 待改名.txt`, TXT);
    const op = (who: Session | null, body: Json) => call(s, who, 'POST', `${BF}/operation`, body);
    const nameNow = async () => (await s.kernel.database.pool.query('SELECT original_name, is_deleted FROM blade_attach WHERE name = $1', [file.name])).rows[0];
    expect((await op(kyry, { name: file.name, type: 'move' })).body.msg).toBe('不支持的操作类型');
    expect((await op(kyry, { name: file.name, type: 'rename', originalName: ' ' })).body.msg).toBe('请输入文件名');
    expect((await op(kyry, { name: file.name, type: 'rename', originalName: '改名.exe' })).body.msg).toBe('文件扩展名不能修改');
    const sbdw = await login(s, 'sbdw');
    const notMine = await op(sbdw, { name: file.name, type: 'remove' });
    expect(notMine.status).toBe(403);
    expect(notMine.body.msg).toBe('只能操作自己上传的文件');
    expect((await op(other, { name: file.name, type: 'remove' })).status).toBe(404);
    expect(await nameNow()).toEqual({ original_name: `${TAG} 待改名.txt`, is_deleted: 0 });
    const ren = await op(kyry, { link: file.link, type: 'rename', originalName: `${TAG} 温度记录.txt` });
    expect(ren.status, JSON.stringify(ren.body)).toBe(200);
    expect((await call(s, kyry, 'POST', `${B}/download?name=${encodeURIComponent(file.name)}`)).res.headers['content-disposition']).toContain(encodeURIComponent(`${TAG} 温度记录.txt`));
    const rm = await op(kyry, { name: file.name, type: 'remove' });
    expect(rm.status).toBe(200);
    expect((await nameNow()).is_deleted).toBe(1);
    expect((await call(s, kyry, 'POST', `${B}/download?name=${encodeURIComponent(file.name)}`)).status).toBe(404);
  });
});

describe('basic/checkid/noPage', () => {
  const CK = '/api/basic/checkid/noPage';
  it('answers the live attachments among the ids, in the order asked; removed, unknown and another tenant’s left out', async () => {
    const gone = await upload(kyry, `${TAG} 将删除.txt`, TXT);
    expect((await call(s, kyry, 'POST', '/api/basic/basicfile/operation', { name: gone.name, type: 'remove' })).status).toBe(200);
    const ids = [uploaded[1].attachId, '999999999999', gone.attachId, uploaded[0].attachId].join(',');
    const res = await call(s, kyry, 'GET', `${CK}?ids=${ids}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((res.body.data as Json[]).map((r) => r.id)).toEqual([uploaded[1].attachId, uploaded[0].attachId]);
    expect(res.body.data[1]).toMatchObject({ name: uploaded[0].name, link: uploaded[0].link, originalName: `${TAG} 仓温.png`, extension: 'png', size: PNG.length });
    expect((await call(s, other, 'GET', `${CK}?ids=${ids}`)).body.data).toEqual([]);
  });

  it('refuses malformed or too many ids with the message; anonymous 401', async () => {
    const bad = await call(s, kyry, 'GET', `${CK}?ids=12,abc`);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('参数 ids 的值无效');
    const many = await call(s, kyry, 'GET', `${CK}?ids=${Array.from({ length: 201 }, (_, i) => String(i + 1)).join(',')}`);
    expect(many.status).toBe(400);
    expect((await call(s, kyry, 'GET', CK)).status).toBe(400);
    expect((await call(s, null, 'GET', `${CK}?ids=1`)).status).toBe(401);
  });
});
