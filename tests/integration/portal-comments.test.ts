/**
 * Comments on the public portal and their moderation (issue 14: comments — list, customList, CRUD,
 * moderation; src/server/modules/portal/public-comments.ts, routes.ts moderate): a visitor without login
 * comments on a released article (a plain form post), the comment waits (auditStatus 0) and shows once
 * approved, not once hidden; a blank comment or one on unreleased content stores nothing; moderation answers
 * the user's message, refuses no ids / another status, 403 without the grant, 404 for another tenant's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kygl: Session;
let kyry: Session;
let other: Session; // administrator of tenant 100001
const TAG = `pc${Date.now().toString(36)}`;
let siteId = '';
let articleId = '';
let draftId = '';
let commentId = '';

const step = (path: string, body: Json) => call(s, kygl, 'POST', `/api/portal/content/${path}`, { businessType: 'portal/content', ...body });
const post = (content: string, fields: Record<string, string>) =>
  call(s, null, 'POST', `/site/${siteId}/article/${content}/comment`, new URLSearchParams(fields).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
const article = async (q = '') => (await call(s, null, 'GET', `/site/${siteId}/article/${articleId}${q}`)).res.body;
const moderate = (who: Session, body: Json) => call(s, who, 'POST', '/api/portal/contentcomment/moderate', body);

beforeAll(async () => {
  s = await testServer();
  [admin, kygl, kyry, other] = await Promise.all([login(s, 'admin'), login(s, 'kygl'), login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' })]);
  const ch = await call(s, admin, 'POST', '/api/portal/channel/submit', { title: `${TAG} 动态`, path: `${TAG}-news` });
  const site = await call(s, admin, 'POST', '/api/portal/site/submit', { title: `${TAG} 门户`, channelIds: [ch.body.data.id] });
  siteId = site.body.data.id;
  const a = await call(s, kygl, 'POST', '/api/portal/content/submit', { channelId: ch.body.data.id, title: `${TAG} 低温储粮`, content: '<p>正文</p>' });
  articleId = a.body.data.id;
  const d = await call(s, kygl, 'POST', '/api/portal/content/submit', { channelId: ch.body.data.id, title: `${TAG} 草稿`, content: '<p>草稿</p>' });
  draftId = d.body.data.id;
  for (const [p, b] of [['submitPublish', {}], ['examine', { action: 'approve', opinion: '同意' }], ['release', {}]] as const) expect((await step(p, { businessId: articleId, ...b })).status).toBe(200);
});
afterAll(async () => {
  await s?.close();
});

describe('public comments and moderation', () => {
  it('a visitor comments without login; the comment waits for moderation', async () => {
    expect(await article()).toContain(`action="/site/${siteId}/article/${articleId}/comment"`);
    const r = await post(articleId, { nickname: '粮友', comment: `${TAG} 写得很好` });
    expect(r.status).toBe(303);
    expect(r.res.headers.location).toBe(`/site/${siteId}/article/${articleId}?comment=ok`);
    const row = (await s.kernel.database.pool.query(`SELECT id::text AS id, tenant_id, audit_status FROM portal_content_comment WHERE comment = $1`, [`${TAG} 写得很好`])).rows[0];
    expect(row.tenant_id).toBe('000000');
    expect(Number(row.audit_status)).toBe(0);
    commentId = row.id;
    expect(await article()).not.toContain(`${TAG} 写得很好`);
    expect(await article('?comment=ok')).toContain('评论已提交，审核通过后显示');
    const bad = await post(articleId, { nickname: ' ', comment: `${TAG} 无名` });
    expect(bad.res.headers.location).toBe(`/site/${siteId}/article/${articleId}?comment=bad`);
    expect(await article('?comment=bad')).toContain('请填写昵称（50 字以内）和评论（1000 字以内）');
    expect((await post(articleId, { nickname: 'x'.repeat(51), comment: `${TAG} 长名` })).res.headers.location).toContain('comment=bad');
    expect((await post(draftId, { nickname: '粮友', comment: `${TAG} 草稿评论` })).status).toBe(404);
    expect((await post('1', { nickname: '粮友', comment: `${TAG} 无此内容` })).status).toBe(404);
    expect(await countRows(s, 'portal_content_comment', 'comment = ANY($1)', [[`${TAG} 无名`, `${TAG} 长名`, `${TAG} 草稿评论`, `${TAG} 无此内容`]])).toBe(0);
  });

  it('moderation approves and hides; bad calls are refused', async () => {
    const ok = await moderate(kygl, { ids: [commentId], auditStatus: '1' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.msg).toBe('已处理 1 条评论');
    expect(await article()).toContain(`${TAG} 写得很好`);
    const list = await call(s, kygl, 'GET', `/api/portal/contentcomment/customList?contentId=${articleId}`);
    expect(list.body.data.records.map((x: Json) => Number(x.auditStatus))).toEqual([1]);
    expect((await moderate(kygl, { ids: commentId, auditStatus: 2 })).status).toBe(200);
    expect(await article()).not.toContain(`${TAG} 写得很好`);
    const none = await moderate(kygl, { ids: [], auditStatus: 1 });
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('请选择至少一条数据');
    expect((await moderate(kygl, { ids: [commentId], auditStatus: 5 })).status).toBe(400);
    expect((await moderate(kygl, { ids: [commentId] })).status).toBe(400);
    expect((await moderate(kyry, { ids: [commentId], auditStatus: 1 })).status).toBe(403);
    expect((await moderate(other, { ids: [commentId], auditStatus: 1 })).status).toBe(404);
    const row = (await s.kernel.database.pool.query(`SELECT audit_status FROM portal_content_comment WHERE id = $1`, [commentId])).rows[0];
    expect(Number(row.audit_status)).toBe(2);
  });
});
