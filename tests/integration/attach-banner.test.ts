/**
 * Attachments (`/api/blade-resource/attach`: list, detail, remove, submit) and banners
 * (`/api/blade-system/banner`: list, detail, remove, submit) — issue 9, spec 002 §2, §7: every call, the
 * uploader's tenant only, a non-administrator gets 403, bad input gives the message and stores nothing, and
 * removing an attachment deletes its stored file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer, uploadFile } from './helpers.js';

let s: TestServer;
let admin: Session;
let kyry: Session; // researcher: no administration menus
let other: Session; // administrator of tenant 100001
const ATTACH = '/api/blade-resource/attach';
const BANNER = '/api/blade-system/banner';
const TAG = `AB${Date.now().toString(36)}`;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 1)]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

const upload = (who: Session, fileName: string, bytes: Buffer): Promise<Json> => uploadFile(s, who, fileName, bytes);
const stored = (name: string) => path.join(s.kernel.config.dataDir, 'files', name);

beforeAll(async () => {
  s = await testServer();
  [admin, kyry] = await Promise.all([login(s, 'admin'), login(s, 'kyry')]);
  other = await login(s, 'admin', { tenantId: '100001' });
});
afterAll(async () => {
  await s?.close();
});

describe('attachments', () => {
  let file: Json; // uploaded by kyry in tenant 000000

  beforeAll(async () => {
    file = await upload(kyry, `${TAG}报告.pdf`, PDF);
  });

  it('every upload is a record: list, page and detail show it to the administrator of the uploader’s tenant', async () => {
    for (const ep of ['list', 'page']) {
      const res = await call(s, admin, 'GET', `${ATTACH}/${ep}?originalName=${encodeURIComponent(TAG)}`);
      expect(res.status, ep).toBe(200);
      expect(res.body.data.records.map((r: Json) => r.id)).toEqual([file.attachId]);
    }
    const detail = await call(s, admin, 'GET', `${ATTACH}/detail?id=${file.attachId}`);
    expect(detail.body.data).toMatchObject({ id: file.attachId, link: file.link, name: file.name, originalName: `${TAG}报告.pdf`, extension: 'pdf', attachSize: PDF.length, tenantId: '000000' });
  });

  it('another tenant gets nothing: empty list, 404 detail, 404 edit and remove with the file kept', async () => {
    expect((await call(s, other, 'GET', `${ATTACH}/list?originalName=${encodeURIComponent(TAG)}`)).body.data.total).toBe(0);
    expect((await call(s, other, 'GET', `${ATTACH}/detail?id=${file.attachId}`)).status).toBe(404);
    expect((await call(s, other, 'POST', `${ATTACH}/submit`, { id: file.attachId, originalName: 'x.pdf' })).status).toBe(404);
    expect((await call(s, other, 'POST', `${ATTACH}/remove?ids=${file.attachId}`)).status).toBe(404);
    expect(fs.existsSync(stored(file.name))).toBe(true);
    expect(await countRows(s, 'blade_attach', 'id = $1 AND is_deleted = 0 AND original_name = $2', [file.attachId, `${TAG}报告.pdf`])).toBe(1);
  });

  it('a non-administrator gets 403 on every call and nothing changes', async () => {
    for (const url of ['list', 'page', `detail?id=${file.attachId}`]) expect((await call(s, kyry, 'GET', `${ATTACH}/${url}`)).status, url).toBe(403);
    expect((await call(s, kyry, 'POST', `${ATTACH}/submit`, { id: file.attachId, originalName: 'x.pdf' })).status).toBe(403);
    expect((await call(s, kyry, 'POST', `${ATTACH}/remove?ids=${file.attachId}`)).status).toBe(403);
    expect(fs.existsSync(stored(file.name))).toBe(true);
  });

  it('submit renames the download; the stored name, link and size cannot be changed; a new one must be uploaded', async () => {
    const res = await call(s, admin, 'POST', `${ATTACH}/submit`, { id: file.attachId, originalName: `${TAG}终稿.pdf`, name: 'upload/x.pdf', link: '/evil', attachSize: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ originalName: `${TAG}终稿.pdf`, name: file.name, link: file.link, attachSize: PDF.length });
    const dl = await call(s, kyry, 'GET', file.link);
    expect(dl.res.headers['content-disposition']).toContain(encodeURIComponent(`${TAG}终稿.pdf`));
    const before = await countRows(s, 'blade_attach');
    const add = await call(s, admin, 'POST', `${ATTACH}/submit`, { originalName: 'a.pdf' });
    expect(add.status).toBe(400);
    expect(add.body.msg).toBe('附件只能通过上传文件新增');
    const empty = await call(s, admin, 'POST', `${ATTACH}/submit`, { id: file.attachId, originalName: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('请输入附件原名');
    const slash = await call(s, admin, 'POST', `${ATTACH}/submit`, { id: file.attachId, originalName: '../a.pdf' });
    expect(slash.status).toBe(400);
    expect(await countRows(s, 'blade_attach')).toBe(before);
    expect(await countRows(s, 'blade_attach', 'id = $1 AND original_name = $2', [file.attachId, `${TAG}终稿.pdf`])).toBe(1);
  });

  it('remove deletes the record and the stored file; the link answers 404', async () => {
    expect(fs.existsSync(stored(file.name))).toBe(true);
    const res = await call(s, admin, 'POST', `${ATTACH}/remove?ids=${file.attachId}`);
    expect(res.status).toBe(200);
    expect(fs.existsSync(stored(file.name))).toBe(false);
    expect((await call(s, admin, 'GET', `${ATTACH}/detail?id=${file.attachId}`)).status).toBe(404);
    expect((await call(s, kyry, 'GET', file.link)).status).toBe(404);
  });

  it('a removal that fails as a whole (one id unknown) keeps every file', async () => {
    const a = await upload(kyry, `${TAG}a.pdf`, PDF);
    const res = await call(s, admin, 'POST', `${ATTACH}/remove?ids=${a.attachId},1`);
    expect(res.status).toBe(404);
    expect(fs.existsSync(stored(a.name))).toBe(true);
    expect(await countRows(s, 'blade_attach', 'id = $1 AND is_deleted = 0', [a.attachId])).toBe(1);
  });

  it('tenant 100001’s administrator manages its own uploads', async () => {
    const mine = await upload(other, `${TAG}t2.pdf`, PDF);
    expect((await call(s, other, 'GET', `${ATTACH}/list?originalName=${encodeURIComponent(TAG)}`)).body.data.records.map((r: Json) => r.id)).toEqual([mine.attachId]);
    expect((await call(s, admin, 'GET', `${ATTACH}/detail?id=${mine.attachId}`)).status).toBe(404);
    expect((await call(s, other, 'POST', `${ATTACH}/remove?ids=${mine.attachId}`)).status).toBe(200);
    expect(fs.existsSync(stored(mine.name))).toBe(false);
  });
});

describe('banners', () => {
  let image: Json;
  let banner: Json;
  const valid = () => ({ title: `${TAG}横幅`, image: [{ name: image.name, link: image.link, originalName: 'b.png' }], link: '/basic/patent', sort: 2, isEnabled: true });

  beforeAll(async () => {
    image = await upload(admin, 'b.png', PNG);
  });

  it('submit adds a banner (image, sort, link, enabled); detail, list and page answer it; submit with id edits', async () => {
    const res = await call(s, admin, 'POST', `${BANNER}/submit`, valid());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    banner = res.body.data;
    expect(banner).toMatchObject({ title: `${TAG}横幅`, link: '/basic/patent', sort: 2, isEnabled: true, tenantId: '000000' });
    expect((await call(s, admin, 'GET', `${BANNER}/detail?id=${banner.id}`)).body.data.image[0].link).toBe(image.link);
    for (const ep of ['list', 'page']) expect((await call(s, admin, 'GET', `${BANNER}/${ep}?title=${TAG}`)).body.data.records.map((r: Json) => r.id), ep).toEqual([banner.id]);
    const edit = await call(s, admin, 'POST', `${BANNER}/submit`, { ...banner, isEnabled: false, link: 'https://example.com/news' });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(edit.body.data).toMatchObject({ isEnabled: false, link: 'https://example.com/news' });
    expect((await call(s, admin, 'GET', `${BANNER}/list?isEnabled=false&title=${TAG}`)).body.data.total).toBe(1);
  });

  it('bad input: the message, nothing stored', async () => {
    const before = await countRows(s, 'blade_banner');
    const cases: Array<[Json, string]> = [
      [{ ...valid(), title: '' }, '请输入标题'],
      [{ ...valid(), image: [] }, '请上传图片'],
      [{ ...valid(), image: [{ name: 'x', link: '/api/blade-resource/oss/endpoint/file/upload/20250101/00000000-0000-0000-0000-000000000000.png' }] }, '请上传图片'],
      [{ ...valid(), link: 'javascript:alert(1)' }, '跳转链接须以 http://、https:// 或 / 开头'],
      [{ ...valid(), sort: -1 }, '排序不能小于 0'],
    ];
    for (const [body, msg] of cases) {
      const res = await call(s, admin, 'POST', `${BANNER}/submit`, body);
      expect(res.status, msg).toBe(400);
      expect(res.body.msg).toBe(msg);
    }
    // a pdf is no image, and another tenant's upload is not ours
    const pdf = await upload(admin, 'x.pdf', PDF);
    const notImage = await call(s, admin, 'POST', `${BANNER}/submit`, { ...valid(), image: [{ name: pdf.name, link: pdf.link }] });
    expect(notImage.status).toBe(400);
    const theirs = await upload(other, 'c.png', PNG);
    const foreign = await call(s, admin, 'POST', `${BANNER}/submit`, { ...valid(), image: [{ name: theirs.name, link: theirs.link }] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.msg).toBe('请上传图片');
    expect(await countRows(s, 'blade_banner')).toBe(before);
  });

  it('another tenant gets nothing; a non-administrator gets 403', async () => {
    expect((await call(s, other, 'GET', `${BANNER}/list?title=${TAG}`)).body.data.total).toBe(0);
    expect((await call(s, other, 'GET', `${BANNER}/detail?id=${banner.id}`)).status).toBe(404);
    expect((await call(s, other, 'POST', `${BANNER}/submit`, { ...banner, title: 'x' })).status).toBe(404);
    expect((await call(s, other, 'POST', `${BANNER}/remove?ids=${banner.id}`)).status).toBe(404);
    for (const url of ['list', 'page', `detail?id=${banner.id}`]) expect((await call(s, kyry, 'GET', `${BANNER}/${url}`)).status, url).toBe(403);
    const before = await countRows(s, 'blade_banner');
    expect((await call(s, kyry, 'POST', `${BANNER}/submit`, valid())).status).toBe(403);
    expect((await call(s, kyry, 'POST', `${BANNER}/remove?ids=${banner.id}`)).status).toBe(403);
    expect(await countRows(s, 'blade_banner')).toBe(before);
    expect(await countRows(s, 'blade_banner', 'id = $1 AND is_deleted = 0 AND title = $2', [banner.id, `${TAG}横幅`])).toBe(1);
  });

  it('remove', async () => {
    expect((await call(s, admin, 'POST', `${BANNER}/remove?ids=${banner.id}`)).status).toBe(200);
    expect((await call(s, admin, 'GET', `${BANNER}/detail?id=${banner.id}`)).status).toBe(404);
  });

  it('the menus sit under 系统管理 with their buttons, for administrators', async () => {
    const res = await call(s, admin, 'GET', '/api/blade-system/menu/buttons');
    const system = res.body.data.find((m: Json) => m.code === 'system');
    const codes = system.children.map((m: Json) => m.code);
    expect(codes).toEqual(expect.arrayContaining(['attach', 'banner', 'version', 'systembanip']));
    const ban = system.children.find((m: Json) => m.code === 'systembanip');
    expect(ban.children.map((b: Json) => b.code)).toEqual(['systembanip_view', 'systembanip_add', 'systembanip_edit', 'systembanip_delete', 'systembanip_unseal']);
    expect(system.children.find((m: Json) => m.code === 'banner').resource).toBe('system/banner');
    const researcher = await call(s, kyry, 'GET', '/api/blade-system/menu/routes');
    expect(JSON.stringify(researcher.body.data)).not.toContain('"banner"');
  });
});
