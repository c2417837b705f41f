/**
 * The content portal (issue 14; spec 001 §3 "Portal content", §4, §7 "Portal"; spec 002 portal/site): channels
 * (default configuration 1 and 2), content written with rich text sanitised on the server, examined and released
 * through the portalPublish BPMN process, found by searchByEs, shown on the public site without login only once
 * released (and counted in the access statistics), shared by QR code; the extra calls (getMaxCodeOfExt,
 * attrValues, listNoPage, getAllChildrenTree, listByIds, customList, getDashboard); searchByGPT unconfigured and
 * against a small OpenAI-compatible server on 127.0.0.1; bad input refused with its message, storing nothing;
 * 403 for callers without the grant; another tenant sees nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kygl: Session;
let kyry: Session;
let other: Session;
const TAG = `pt${Date.now().toString(36)}`;
let channelId = '';
let childId = '';
let siteId = '';
let articleId = '';
let draftId = '';

const content = (extra: Json = {}): Json => ({
  channelId, title: `${TAG} 低温储粮技术在高大平房仓的应用`, author: '刘研', source: '粮储研究院', tag: '低温储粮,节能',
  content: `<p>采用<strong>谷冷机</strong>降温，${TAG} 仓温保持在15℃以下。</p><script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">链接</a>`,
  attrs: [{ attr: 'tip_code', val: '7' }, { attr: 'region', val: '华北' }],
  ...extra,
});

const step = (who: Session, path: string, body: Json) => call(s, who, 'POST', `/api/portal/content/${path}`, { businessType: 'portal/content', ...body });

beforeAll(async () => {
  s = await testServer();
  [admin, kygl, kyry, other] = await Promise.all([login(s, 'admin'), login(s, 'kygl'), login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' })]);
});
afterAll(async () => {
  await s?.kernel.database.pool.query(`DELETE FROM blade_param WHERE param_key LIKE 'gpt_%'`).catch(() => undefined);
  await s?.close();
});

describe('portal channels, content and publishing', () => {
  it('channels: a tree with the default configuration 1 and 2; listNoPage and getAllChildrenTree', async () => {
    const c = await call(s, admin, 'POST', '/api/portal/channel/submit', { title: `${TAG} 科技动态`, path: `${TAG}-news` });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    channelId = c.body.data.id;
    expect(c.body.data.configuration).toEqual([1, 2]);
    const child = await call(s, admin, 'POST', '/api/portal/channel/submit', { title: `${TAG} 行业资讯`, path: `${TAG}-industry`, parentId: channelId, configuration: [1, 3] });
    childId = child.body.data.id;
    const all = await call(s, admin, 'GET', '/api/portal/channel/listNoPage');
    expect((all.body.data as Json[]).map((x) => x.id)).toEqual(expect.arrayContaining([channelId, childId]));
    const tree = await call(s, admin, 'GET', `/api/portal/channel/getAllChildrenTree?channelId=${channelId}`);
    expect(tree.body.data[0].id).toBe(channelId);
    expect(tree.body.data[0].children.map((x: Json) => x.id)).toEqual([childId]);
    const bad = await call(s, admin, 'POST', '/api/portal/channel/submit', { title: `${TAG} 坏`, path: 'Bad Path' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('栏目路径只能包含小写字母、数字、下划线和连字符');
    expect(await countRows(s, 'portal_channel', 'title = $1', [`${TAG} 坏`])).toBe(0);
    const site = await call(s, admin, 'POST', '/api/portal/site/submit', { title: `${TAG} 粮储门户`, channelIds: [channelId, childId], theme: 'green' });
    expect(site.status, JSON.stringify(site.body)).toBe(200);
    siteId = site.body.data.id;
  });

  it('content: rich text sanitised on the server, company filled; bad input refused storing nothing', async () => {
    const res = await call(s, kygl, 'POST', '/api/portal/content/submit', content());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    articleId = res.body.data.id;
    const stored = (await s.kernel.database.pool.query('SELECT content, content_status, create_company FROM portal_content WHERE id = $1', [articleId])).rows[0];
    expect(stored.content).not.toMatch(/script|onerror|javascript:|alert/);
    expect(stored.content).toContain('<strong>谷冷机</strong>');
    expect(stored.content_status).toBe('0');
    expect(stored.create_company).toBeTruthy();
    const missing = await call(s, kygl, 'POST', '/api/portal/content/submit', { ...content(), title: '' });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('请输入标题');
    const twice = await call(s, kygl, 'POST', '/api/portal/content/submit', { ...content({ title: `${TAG} 重复` }), attrs: [{ attr: 'a', val: '1' }, { attr: 'a', val: '2' }] });
    expect(twice.status).toBe(400);
    expect(twice.body.msg).toBe('扩展属性重复：a');
    expect(await countRows(s, 'portal_content', 'title = $1', [`${TAG} 重复`])).toBe(0);
    const draft = await call(s, kygl, 'POST', '/api/portal/content/submit', content({ title: `${TAG} 草稿 低温储粮未发布稿`, attrs: [{ attr: 'tip_code', val: '12' }] }));
    draftId = draft.body.data.id;
    expect((await call(s, kygl, 'GET', '/api/portal/content/getMaxCodeOfExt?attr=tip_code')).body.data).toBeGreaterThanOrEqual(12);
    expect((await call(s, kygl, 'GET', `/api/portal/content/attrValues?attr=region&channelId=${channelId}`)).body.data).toEqual(['华北']);
    expect((await call(s, kygl, 'GET', '/api/portal/content/attrValues?attr=bad%20name')).status).toBe(400);
  });

  it('examine → release through the BPMN flow; unpublished content is invisible to the public', async () => {
    expect((await call(s, null, 'GET', `/site/${siteId}/article/${articleId}`)).status).toBe(404);
    expect((await call(s, kygl, 'GET', `/api/portal/content/generateShareQrCode?id=${articleId}`)).body.msg).toBe('内容未发布，不能分享');
    const sub = await step(kygl, 'submitPublish', { businessId: articleId });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    const early = await step(kygl, 'release', { businessId: articleId });
    expect(early.status).toBe(400);
    const ok = await step(kygl, 'examine', { businessId: articleId, action: 'approve', opinion: '同意' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await call(s, null, 'GET', `/site/${siteId}/article/${articleId}`)).status).toBe(404);
    const rel = await step(kygl, 'release', { businessId: articleId });
    expect(rel.status, JSON.stringify(rel.body)).toBe(200);
    const d = await call(s, kygl, 'GET', `/api/portal/content/detail?id=${articleId}`);
    expect(d.body.data).toMatchObject({ contentStatus: '4', isRelease: 1 });
    expect(d.body.data.releaseTime).toBeTruthy();
    const qr = await call(s, kygl, 'GET', `/api/portal/content/generateShareQrCode?id=${articleId}`);
    expect(qr.status).toBe(200);
    expect(qr.body.data.url).toMatch(new RegExp(`/site/${siteId}/article/${articleId}$`));
    expect(qr.body.data.qrCode).toMatch(/^data:image\/png;base64,/);
  });

  it('the public site shows released content without login, searches it, and counts the visits', async () => {
    const home = await call(s, null, 'GET', `/site/${siteId}`);
    expect(home.status).toBe(200);
    expect(home.res.headers['content-type']).toContain('text/html');
    expect(home.res.headers['content-security-policy']).toBeTruthy();
    expect(home.res.body).toContain(`${TAG} 低温储粮技术在高大平房仓的应用`);
    expect(home.res.body).not.toContain(`${TAG} 草稿`);
    const art = await call(s, null, 'GET', `/site/${siteId}/article/${articleId}`, undefined, { referer: 'https://www.example.org/x' });
    expect(art.status).toBe(200);
    expect(art.res.body).toContain('<strong>谷冷机</strong>');
    expect(art.res.body).not.toMatch(/<script|onerror/);
    expect((await call(s, null, 'GET', `/site/${siteId}/article/${draftId}`)).status).toBe(404);
    expect((await call(s, null, 'GET', `/site/${siteId}/channel/${channelId}`)).res.body).toContain(articleId);
    const found = await call(s, null, 'GET', `/site/${siteId}/search?q=${encodeURIComponent(`低温储粮 ${TAG}`)}`);
    expect(found.status).toBe(200);
    expect(found.res.body).toContain(`/site/${siteId}/article/${articleId}`);
    expect(found.res.body).not.toContain(draftId);
    expect(found.res.body).toContain('<em>');
    const pub = await call(s, null, 'GET', `/api/es/public/search?tenantId=000000&resource=portal/content&keyword=${encodeURIComponent(`${TAG} 草稿`)}`);
    expect(pub.body.data.records).toEqual([]);
    expect((await call(s, null, 'GET', '/site/999999999999/article/1')).status).toBe(404);
    const dash = await call(s, kygl, 'GET', '/api/portal/access/getDashboard?days=7');
    expect(dash.status).toBe(200);
    expect(dash.body.data.contents.find((c: Json) => c.contentId === articleId)?.visits).toBeGreaterThanOrEqual(1);
    expect(dash.body.data.referrers.map((r: Json) => r.referrer)).toContain('www.example.org');
    expect(dash.body.data.total).toBeGreaterThanOrEqual(4);
    expect((await call(s, kygl, 'GET', '/api/portal/access/getDashboard?days=0')).status).toBe(400);
  });

  it('searchByEs finds released and draft content for readers, in the caller’s tenant only', async () => {
    const r = await call(s, kygl, 'GET', `/api/portal/content/searchByEs?keyword=${encodeURIComponent(`低温储粮 ${TAG}`)}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((r.body.data.records as Json[]).map((x) => x.id).sort()).toEqual([articleId, draftId].sort());
    const only = await call(s, kygl, 'GET', `/api/portal/content/searchByEs?keyword=${encodeURIComponent(`低温储粮 ${TAG}`)}&contentStatus=4`);
    expect((only.body.data.records as Json[]).map((x) => x.id)).toEqual([articleId]);
    const o = await call(s, other, 'GET', `/api/portal/content/searchByEs?keyword=${encodeURIComponent(`低温储粮 ${TAG}`)}`);
    expect(o.body.data.records).toEqual([]);
    expect((await call(s, other, 'GET', `/api/portal/content/detail?id=${articleId}`)).body.data ?? null).toBeFalsy();
    expect((await call(s, kyry, 'GET', `/api/portal/content/searchByEs?keyword=x`)).status).toBe(403);
    expect((await call(s, kyry, 'GET', '/api/portal/access/getDashboard')).status).toBe(403);
    expect((await call(s, kyry, 'POST', '/api/portal/site/submit', { title: 'x', channelIds: [channelId] })).status).toBe(403);
  });

  it('models and comments: listByIds, customList with moderation', async () => {
    const m = await call(s, admin, 'POST', '/api/portal/model/submit', { name: `${TAG} 期刊模型`, code: 'journal', form: { type: 'object', properties: { issn: { type: 'string', title: 'ISSN', 'x-decorator': 'FormItem', 'x-component': 'Input' } } } });
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    const l = await call(s, admin, 'GET', `/api/portal/model/listByIds?ids=${m.body.data.id}`);
    expect(l.body.data.map((x: Json) => x.name)).toEqual([`${TAG} 期刊模型`]);
    const c = await call(s, admin, 'POST', '/api/portal/contentcomment/submit', { contentId: articleId, nickname: '读者', comment: `${TAG} 很有用` });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect((await call(s, null, 'GET', `/site/${siteId}/article/${articleId}`)).res.body).not.toContain(`${TAG} 很有用`);
    await call(s, kygl, 'POST', '/api/portal/contentcomment/submit', { id: c.body.data.id, contentId: articleId, nickname: '读者', comment: `${TAG} 很有用`, auditStatus: 1 });
    expect((await call(s, null, 'GET', `/site/${siteId}/article/${articleId}`)).res.body).toContain(`${TAG} 很有用`);
    const list = await call(s, kygl, 'GET', `/api/portal/contentcomment/customList?contentId=${articleId}`);
    expect(list.body.data.records.map((x: Json) => x.comment)).toEqual([`${TAG} 很有用`]);
    expect((await call(s, other, 'GET', `/api/portal/contentcomment/customList?contentId=${articleId}`)).body.data.records).toEqual([]);
  });
});

describe('searchByGPT', () => {
  it('unconfigured, says so; configured, answers from an OpenAI-compatible endpoint grounded on the hits', async () => {
    const none = await call(s, kygl, 'GET', `/api/portal/content/searchByGPT?keyword=${encodeURIComponent('低温储粮')}`);
    expect(none.status).toBe(200);
    expect(none.body.data.configured).toBe(false);
    expect(none.body.msg).toBe('未配置智能问答服务');
    expect((await call(s, kygl, 'GET', '/api/portal/content/searchByGPT?check=1')).body.data.configured).toBe(false);
    const seen: Json[] = [];
    const srv = http.createServer((req, res) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => {
        seen.push({ url: req.url, auth: req.headers.authorization, body: JSON.parse(b) });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: '根据资料 [1]，采用谷冷机降温。' } }] }));
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as AddressInfo).port;
    try {
      const pool = s.kernel.database.pool;
      for (const [k, v] of [['gpt_base_url', `http://127.0.0.1:${port}/v1`], ['gpt_model', 'tiny'], ['gpt_api_key', 'k-test']]) {
        const p = await call(s, admin, 'POST', '/api/blade-system/param/submit', { paramName: k, paramKey: k, paramValue: v });
        expect(p.status, JSON.stringify(p.body)).toBe(200);
      }
      const r = await call(s, kygl, 'GET', `/api/portal/content/searchByGPT?keyword=${encodeURIComponent(`低温储粮 ${TAG}`)}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data).toMatchObject({ configured: true, answer: '根据资料 [1]，采用谷冷机降温。' });
      expect(r.body.data.hits.map((h: Json) => h.id)).toContain(articleId);
      expect(seen[0]).toMatchObject({ url: '/v1/chat/completions', auth: 'Bearer k-test', body: { model: 'tiny' } });
      expect(seen[0].body.messages[1].content).toContain(`${TAG} 低温储粮技术在高大平房仓的应用`);
      expect((await call(s, kygl, 'GET', '/api/portal/content/searchByGPT?keyword=')).body.msg).toBe('请输入问题');
      expect((await call(s, kygl, 'GET', '/api/portal/content/searchByGPT?check=1')).body.data).toEqual({ configured: true });
      expect(seen).toHaveLength(1);
      await pool.query(`UPDATE blade_param SET param_value = $1 WHERE param_key = 'gpt_base_url'`, ['http://127.0.0.1:1/v1']);
      const down = await call(s, kygl, 'GET', `/api/portal/content/searchByGPT?keyword=x`);
      expect(down.status).toBe(502);
      expect(down.body.msg).toBe('智能问答服务调用失败');
    } finally {
      srv.close();
    }
  });
});
