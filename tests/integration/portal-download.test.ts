/**
 * downLoadAchievement (issue 14; spec 001 §7 "/portal/content: … downLoadAchievement (POST)";
 * src/server/modules/portal/download.ts): the chosen contents packed as a .zip — a page per content with its
 * tips and sanitised body, its attachments under their original names, an attachment of another tenant left
 * out and listed in 缺失附件.txt; no ids / too many refused with the user's message; a content outside the
 * caller's data scope or tenant is 404; a caller without the grant gets 403. Data scope of the content search
 * (searchByEs) too: research management of a subsidiary finds its company's content, not the group's.
 */
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextId } from '../../src/server/core/ids.js';
import { call, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kygl: Session; // research management of the group: no data scope
let kyglHb: Session; // research management of 华北分公司: own company and below
let kyry: Session; // researcher: no portal grant
let other: Session; // administrator of tenant 100001
const TAG = `dl${Date.now().toString(36)}`;
let channelId = '';
let groupId = '';
let hbId = '';
const created: string[] = [];

function multipart(file: { name: string; content: Buffer }) {
  const boundary = `----kc${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    file.content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(who: Session, name: string, content: Buffer): Promise<Json> {
  const m = multipart({ name, content });
  const r = await call(s, who, 'POST', '/api/blade-resource/oss/endpoint/put-file', m.payload, m.headers);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { link: r.body.data.link, name: r.body.data.name, originalName: r.body.data.originalName };
}

const download = (who: Session | null, body: unknown, lang?: string) =>
  call(s, who, 'POST', '/api/portal/content/downLoadAchievement', body, lang ? { 'accept-language': lang } : {});

beforeAll(async () => {
  s = await testServer();
  [admin, kygl, kyglHb, kyry, other] = await Promise.all([login(s, 'admin'), login(s, 'kygl'), login(s, 'kygl_hb'), login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' })]);
  // a data scope on portal content for the subsidiary's research management: its company and below
  const pool = s.kernel.database.pool;
  const role = (await pool.query(`SELECT ur.role_id::text AS id FROM blade_user_role ur JOIN blade_user u ON u.id = ur.user_id WHERE u.tenant_id = '000000' AND u.account = 'kygl_hb'`)).rows[0].id;
  const scopeId = nextId();
  await pool.query(`INSERT INTO blade_scope_data (id, resource_code, scope_name, scope_column, scope_type) VALUES ($1, 'portal/content', $2, 'create_dept', 'ownCompanyAndChildren')`, [scopeId, `${TAG} 本单位内容`]);
  await pool.query(`INSERT INTO blade_role_scope (id, scope_category, scope_id, role_id) VALUES ($1, 1, $2, $3)`, [nextId(), scopeId, role]);
  created.push(scopeId);
  s.kernel.grants.invalidate();
  const c = await call(s, admin, 'POST', '/api/portal/channel/submit', { title: `${TAG} 成果展示`, path: `${TAG}-results` });
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  channelId = c.body.data.id;
});
afterAll(async () => {
  await s?.kernel.database.pool.query(`DELETE FROM blade_role_scope WHERE scope_id = ANY($1::bigint[])`, [created]).catch(() => undefined);
  await s?.kernel.database.pool.query(`DELETE FROM blade_scope_data WHERE id = ANY($1::bigint[])`, [created]).catch(() => undefined);
  await s?.close();
});

describe('downLoadAchievement', () => {
  it('packs each content as a page with its tips and its attachments; another tenant’s file is left out and listed', async () => {
    const report = await upload(kygl, '低温储粮试验报告.pdf', Buffer.from('%PDF-1.4\n% 试验报告\n'));
    const notes = await upload(kygl, '说明.txt', Buffer.from('谷冷机参数：15℃'));
    const foreign = await upload(other, '外部.txt', Buffer.from('another tenant'));
    const a = await call(s, kygl, 'POST', '/api/portal/content/submit', {
      channelId, title: `${TAG} 低温储粮/成果`, author: '刘研', content: '<p>采用<strong>谷冷机</strong>降温。</p>',
      attrs: [{ attr: 'tip_code', val: '21' }, { attr: 'tip_content', val: '注意仓温' }], files: [report, notes, foreign],
    });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    groupId = a.body.data.id;
    const b = await call(s, kyglHb, 'POST', '/api/portal/content/submit', { channelId, title: `${TAG} 华北 浅圆仓通风`, content: '<p>浅圆仓通风。</p>' });
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    hbId = b.body.data.id;

    const r = await download(kygl, { ids: [groupId, hbId] });
    expect(r.status, r.res.body.slice(0, 200)).toBe(200);
    expect(r.res.headers['content-type']).toBe('application/zip');
    expect(String(r.res.headers['content-disposition'])).toContain(`filename*=UTF-8''${encodeURIComponent('成果资料.zip')}`);
    const zip = new PizZip(r.res.rawPayload);
    const names = Object.keys(zip.files).filter((n) => !zip.files[n].dir).sort();
    expect(names).toEqual([
      `1-${TAG} 低温储粮_成果/${TAG} 低温储粮_成果.html`,
      `1-${TAG} 低温储粮_成果/低温储粮试验报告.pdf`,
      `1-${TAG} 低温储粮_成果/缺失附件.txt`,
      `1-${TAG} 低温储粮_成果/说明.txt`,
      `2-${TAG} 华北 浅圆仓通风/${TAG} 华北 浅圆仓通风.html`,
    ]);
    const html = zip.file(`1-${TAG} 低温储粮_成果/${TAG} 低温储粮_成果.html`)!.asText();
    expect(html).toContain('<strong>谷冷机</strong>');
    expect(html).toContain('<th>tip_content</th><td>注意仓温</td>');
    expect(html).toContain('作者：刘研');
    expect(zip.file(`1-${TAG} 低温储粮_成果/说明.txt`)!.asText()).toBe('谷冷机参数：15℃');
    expect(zip.file(`1-${TAG} 低温储粮_成果/低温储粮试验报告.pdf`)!.asText()).toContain('%PDF-1.4');
    expect(zip.file(`1-${TAG} 低温储粮_成果/缺失附件.txt`)!.asText()).toContain('外部.txt');
    const en = await download(kygl, { ids: `${hbId},${hbId}` }, 'en');
    expect(en.status).toBe(200);
    expect(String(en.res.headers['content-disposition'])).toContain('achievements.zip');
  });

  it('refuses no ids and too many with the message; outside the data scope or tenant 404; without the grant 403', async () => {
    const none = await download(kygl, { ids: [] });
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('请选择至少一条数据');
    expect((await download(kygl, {}, 'en')).body.msg).toBe('Please choose at least one record');
    const many = await download(kygl, { ids: Array.from({ length: 101 }, (_, i) => String(1000 + i)) });
    expect(many.status).toBe(400);
    expect(many.body.msg).toBe('一次最多下载 100 条内容');
    expect((await download(kygl, { ids: ['1 OR 1=1'] })).status).toBe(400);
    // the attachments' recorded sizes above 200 MB: refused before anything is read
    const pool = s.kernel.database.pool;
    const names = (await pool.query(`SELECT files FROM portal_content WHERE id = $1`, [groupId])).rows[0].files.map((f: Json) => f.name);
    await pool.query(`UPDATE blade_attach SET attach_size = attach_size + 300 * 1024 * 1024 WHERE name = $1 AND tenant_id = '000000'`, [names[0]]);
    const big = await download(kygl, { ids: [groupId] });
    expect(big.status).toBe(400);
    expect(big.body.msg).toBe('附件总大小超过 200 MB，请分批下载');
    await pool.query(`UPDATE blade_attach SET attach_size = attach_size - 300 * 1024 * 1024 WHERE name = $1 AND tenant_id = '000000'`, [names[0]]);
    expect((await download(kyglHb, { ids: [groupId] })).status).toBe(404);
    expect((await download(kyglHb, { ids: [hbId] })).status).toBe(200);
    expect((await download(other, { ids: [hbId] })).status).toBe(404);
    expect((await download(kyry, { ids: [hbId] })).status).toBe(403);
    expect((await download(null, { ids: [hbId] })).status).toBe(401);
  });
});

describe('content search by data scope', () => {
  it('research management of a subsidiary finds its company’s content only; the group finds both', async () => {
    const q = (who: Session) => call(s, who, 'GET', `/api/portal/content/searchByEs?keyword=${encodeURIComponent(TAG)}`);
    const all = await q(kygl);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect((all.body.data.records as Json[]).map((x) => x.id).sort()).toEqual([groupId, hbId].sort());
    const hb = await q(kyglHb);
    expect(hb.status, JSON.stringify(hb.body)).toBe(200);
    expect((hb.body.data.records as Json[]).map((x) => x.id)).toEqual([hbId]);
    expect((await q(other)).body.data.records).toEqual([]);
  });
});
