/**
 * The public portal's files and domains (issue 14 "published content is served without login as real pages";
 * spec 002 portal/site: title, domain, channels, theme; src/server/modules/portal/public.ts, public-files.ts):
 * a released content's banner, cover, body image and attachments are linked through the content and served
 * without login — not before release, not a file the content does not name, not another tenant's, nothing
 * outside the store; a site's domain leads to its home, belongs to one site (refused with its message,
 * storing nothing) and is where the share QR code points.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kygl: Session;
let other: Session; // administrator of tenant 100001
const TAG = `pp${Date.now().toString(36)}`;
const DOMAIN = `${TAG}.portal.example`;
let channelId = '';
let siteId = '';
let articleId = '';
const f: Record<string, Json> = {};
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(`${TAG} image bytes`)]);

async function upload(who: Session, name: string, content: Buffer): Promise<Json> {
  const boundary = `----kc${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const r = await call(s, who, 'POST', '/api/blade-resource/oss/endpoint/put-file', payload, { 'content-type': `multipart/form-data; boundary=${boundary}` });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { link: r.body.data.link, name: r.body.data.name, originalName: r.body.data.originalName };
}

const step = (path: string, body: Json) => call(s, kygl, 'POST', `/api/portal/content/${path}`, { businessType: 'portal/content', ...body });
const publicFile = (name: string, content = articleId) => call(s, null, 'GET', `/site/${siteId}/article/${content}/file/${name}`);

beforeAll(async () => {
  s = await testServer();
  [admin, kygl, other] = await Promise.all([login(s, 'admin'), login(s, 'kygl'), login(s, 'admin', { tenantId: '100001' })]);
  const c = await call(s, admin, 'POST', '/api/portal/channel/submit', { title: `${TAG} 科技成果`, path: `${TAG}-results` });
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  channelId = c.body.data.id;
});
afterAll(async () => {
  await s?.close();
});

describe('site domains', () => {
  it('a domain belongs to one site; its root leads to the site', async () => {
    const site = await call(s, admin, 'POST', '/api/portal/site/submit', { title: `${TAG} 成果门户`, domain: DOMAIN, channelIds: [channelId], theme: 'blue' });
    expect(site.status, JSON.stringify(site.body)).toBe(200);
    siteId = site.body.data.id;
    const twice = await call(s, other, 'POST', '/api/portal/site/submit', { title: `${TAG} 冒用`, domain: DOMAIN, channelIds: ['1'] });
    expect(twice.status).toBe(400);
    expect(twice.body.msg).toBe('该域名已被其他门户站点使用');
    expect(await countRows(s, 'portal_site', 'title = $1', [`${TAG} 冒用`])).toBe(0);
    const root = await call(s, null, 'GET', '/', undefined, { host: DOMAIN });
    expect(root.status).toBe(302);
    expect(root.res.headers.location).toBe(`/site/${siteId}`);
    expect((await call(s, null, 'GET', '/', undefined, { host: `other-${DOMAIN}` })).status).not.toBe(302);
    const home = await call(s, null, 'GET', `/site/${siteId}`, undefined, { host: DOMAIN });
    expect(home.res.body).toContain('class="theme-blue"');
    // a site edited keeps its own domain
    const again = await call(s, admin, 'POST', '/api/portal/site/submit', { id: siteId, title: `${TAG} 成果门户`, domain: DOMAIN, channelIds: [channelId], theme: 'green' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });
});

describe('files of released content on the public site', () => {
  it('serves the banner, cover, body image and attachments of released content only, through the content', async () => {
    f.banner = await upload(kygl, '横幅.png', PNG);
    f.cover = await upload(kygl, '封面.png', PNG);
    f.inline = await upload(kygl, '插图.png', PNG);
    f.report = await upload(kygl, '试验报告.pdf', Buffer.from('%PDF-1.4\n试验报告'));
    f.sheet = await upload(kygl, '数据.txt', Buffer.from('仓温 15℃'));
    f.unrelated = await upload(kygl, '无关.png', PNG);
    f.foreign = await upload(other, '外部.png', PNG);
    const r = await call(s, kygl, 'POST', '/api/portal/content/submit', {
      channelId, title: `${TAG} 低温储粮成果`, coverImage: f.cover.link, banner: f.banner.link,
      content: `<p>示意图：</p><img src="${f.inline.link}" alt="示意图"><img src="${f.foreign.link}">`, files: [f.report, f.sheet],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    articleId = r.body.data.id;
    expect((await publicFile(f.banner.name)).status).toBe(404); // not released yet
    expect((await step('submitPublish', { businessId: articleId })).status).toBe(200);
    expect((await step('examine', { businessId: articleId, action: 'approve', opinion: '同意' })).status).toBe(200);
    expect((await step('release', { businessId: articleId })).status).toBe(200);

    const page = await call(s, null, 'GET', `/site/${siteId}/article/${articleId}`);
    expect(page.status).toBe(200);
    const body = page.res.body;
    for (const k of ['banner', 'inline', 'report', 'sheet']) expect(body, k).toContain(`/site/${siteId}/article/${articleId}/file/${f[k].name}`);
    expect(body).not.toContain('/api/blade-resource/oss/endpoint/file/upload/');
    expect(body).toContain('class="banner"');
    const list = await call(s, null, 'GET', `/site/${siteId}/channel/${channelId}`);
    expect(list.res.body).toContain(`<img class="cover" src="/site/${siteId}/article/${articleId}/file/${f.cover.name}"`);

    for (const k of ['banner', 'cover', 'inline']) {
      const img = await publicFile(f[k].name);
      expect(img.status, k).toBe(200);
      expect(img.res.headers['content-type']).toBe('image/png');
      expect(img.res.rawPayload.equals(PNG)).toBe(true);
    }
    const pdf = await publicFile(f.report.name);
    expect(pdf.res.headers['content-type']).toBe('application/pdf');
    const txt = await publicFile(f.sheet.name);
    expect(txt.status).toBe(200);
    expect(txt.res.headers['content-type']).toBe('application/octet-stream');
    expect(String(txt.res.headers['content-disposition'])).toContain(encodeURIComponent('数据.txt'));
    expect(txt.res.body).toBe('仓温 15℃');
  });

  it('refuses a file the content does not name, another tenant’s, another site’s content and paths outside the store', async () => {
    expect((await publicFile(f.unrelated.name)).status).toBe(404);
    expect((await publicFile(f.foreign.name)).status).toBe(404); // named in the body, but not the tenant's
    expect((await publicFile(f.banner.name, '1')).status).toBe(404);
    expect((await call(s, null, 'GET', `/site/999999999999/article/${articleId}/file/${f.banner.name}`)).status).toBe(404);
    for (const bad of ['upload/../../secrets.txt', '..%2F..%2Fetc%2Fpasswd', `${f.banner.name}x`, 'tmp/x.png'])
      expect((await publicFile(bad)).status, bad).toBe(404);
  });

  it('refuses a cover or banner (content, channel) that is no link, with the message, storing nothing', async () => {
    for (const field of ['coverImage', 'banner']) {
      const bad = await call(s, kygl, 'POST', '/api/portal/content/submit', { channelId, title: `${TAG} 坏图 ${field}`, content: '<p>x</p>', [field]: 'javascript:alert(1)' });
      expect(bad.status, field).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('图片地址无效');
      expect(await countRows(s, 'portal_content', 'title = $1', [`${TAG} 坏图 ${field}`])).toBe(0);
    }
    const ch = await call(s, admin, 'POST', '/api/portal/channel/submit', { title: `${TAG} 坏图栏目`, path: `${TAG}-bad`, coverImage: 'data:image/png;base64,AAAA' });
    expect(ch.status).toBe(400);
    expect(JSON.stringify(ch.body)).toContain('图片地址无效');
    expect(await countRows(s, 'portal_channel', 'title = $1', [`${TAG} 坏图栏目`])).toBe(0);
    const good = await call(s, admin, 'POST', '/api/portal/channel/submit', { id: channelId, title: `${TAG} 科技成果`, path: `${TAG}-results`, coverImage: f.cover.link });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(good.body.data.coverImage).toBe(f.cover.link);
  });

  it('the share QR code points at the site’s domain', async () => {
    const qr = await call(s, kygl, 'GET', `/api/portal/content/generateShareQrCode?id=${articleId}&siteId=${siteId}`);
    expect(qr.status, JSON.stringify(qr.body)).toBe(200);
    expect(qr.body.data.url).toBe(`http://${DOMAIN}/site/${siteId}/article/${articleId}`);
  });
});
