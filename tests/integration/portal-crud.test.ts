/**
 * The generic calls of the portal resources (issue 14 "Integration: every call"; spec 001 §7 "Portal", spec 002
 * portal/site): content list, page, detail, select, list-for-myCompany, remove; channel list, tree, detail,
 * remove (refused while it holds sub-channels or content, with the message, removing nothing); model list,
 * detail, remove; comment list, detail, remove; site list, detail, remove — each in the caller's tenant only
 * (another tenant sees nothing, removes nothing) and 403 for a caller without the grant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kygl: Session; // research management of the group
let kyglHb: Session; // research management of 华北分公司
let kyry: Session; // researcher: no portal grant
let other: Session; // administrator of tenant 100001
const TAG = `cr${Date.now().toString(36)}`;
const id: Record<string, string> = {};

const records = (r: { body: Json }) => ((r.body.data?.records ?? r.body.data ?? []) as Json[]).map((x) => String(x.id));
const live = (table: string, key: string) => countRows(s, table, 'id = $1 AND is_deleted = 0', [key]);

beforeAll(async () => {
  s = await testServer();
  [admin, kygl, kyglHb, kyry, other] = await Promise.all([login(s, 'admin'), login(s, 'kygl'), login(s, 'kygl_hb'), login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' })]);
  const add = async (who: Session, api: string, body: Json) => {
    const r = await call(s, who, 'POST', `${api}/submit`, body);
    expect(r.status, `${api} ${JSON.stringify(r.body)}`).toBe(200);
    return String(r.body.data.id);
  };
  id.channel = await add(admin, '/api/portal/channel', { title: `${TAG} 父栏目`, path: `${TAG}-p` });
  id.child = await add(admin, '/api/portal/channel', { title: `${TAG} 子栏目`, path: `${TAG}-c`, parentId: id.channel });
  id.empty = await add(admin, '/api/portal/channel', { title: `${TAG} 空栏目`, path: `${TAG}-e` });
  id.group = await add(kygl, '/api/portal/content', { channelId: id.child, title: `${TAG} 集团内容`, content: '<p>a</p>' });
  id.hb = await add(kyglHb, '/api/portal/content', { channelId: id.child, title: `${TAG} 华北内容`, content: '<p>b</p>' });
  id.model = await add(admin, '/api/portal/model', { name: `${TAG} 模型`, code: 'm1', form: { type: 'object', properties: {} } });
  id.comment = await add(admin, '/api/portal/contentcomment', { contentId: id.group, nickname: '读者', comment: `${TAG} 评论` });
  id.site = await add(admin, '/api/portal/site', { title: `${TAG} 站点`, channelIds: [id.channel] });
});
afterAll(async () => {
  await s?.close();
});

describe('portal generic calls', () => {
  it('content: list, page, detail, select, list-for-myCompany in the tenant', async () => {
    const q = `title=${encodeURIComponent(TAG)}`;
    expect(records(await call(s, kygl, 'GET', `/api/portal/content/list?${q}`)).sort()).toEqual([id.group, id.hb].sort());
    expect(records(await call(s, kygl, 'GET', `/api/portal/content/page?${q}&current=1&size=1`))).toHaveLength(1);
    expect((await call(s, kygl, 'GET', `/api/portal/content/detail?id=${id.hb}`)).body.data.title).toBe(`${TAG} 华北内容`);
    const sel = await call(s, kygl, 'GET', `/api/portal/content/select?${q}`);
    expect(sel.status, JSON.stringify(sel.body)).toBe(200);
    expect(records(sel)).toEqual(expect.arrayContaining([id.group, id.hb]));
    const mine = await call(s, kyglHb, 'GET', `/api/portal/content/list-for-myCompany?${q}`);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(records(mine)).toEqual([id.hb]);
    expect(records(await call(s, other, 'GET', `/api/portal/content/list?${q}`))).toEqual([]);
    expect((await call(s, other, 'GET', `/api/portal/content/detail?id=${id.hb}`)).body.data ?? null).toBeFalsy();
    expect((await call(s, kyry, 'GET', `/api/portal/content/list?${q}`)).status).toBe(403);
  });

  it('channels, models, comments and sites: list, tree, detail in the tenant; 403 without the grant', async () => {
    expect(records(await call(s, admin, 'GET', `/api/portal/channel/list?title=${encodeURIComponent(TAG)}`)).sort()).toEqual([id.channel, id.child, id.empty].sort());
    const tree = (await call(s, admin, 'GET', '/api/portal/channel/tree')).body.data as Json[];
    expect(tree.find((n) => n.id === id.channel)?.children.map((c: Json) => c.id)).toEqual([id.child]);
    for (const [api, key] of [['/api/portal/channel', 'channel'], ['/api/portal/model', 'model'], ['/api/portal/contentcomment', 'comment'], ['/api/portal/site', 'site']] as const) {
      const d = await call(s, admin, 'GET', `${api}/detail?id=${id[key]}`);
      expect(d.body.data?.id, api).toBe(id[key]);
      // a page large enough for every row the files sharing the database made (the default page is 10)
      expect(records(await call(s, admin, 'GET', `${api}/list?size=500`)), api).toContain(id[key]);
      expect(records(await call(s, other, 'GET', `${api}/list?size=500`)), api).not.toContain(id[key]);
      expect((await call(s, other, 'GET', `${api}/detail?id=${id[key]}`)).body.data ?? null, api).toBeFalsy();
    }
    // channels and models are readable by every signed-in user of the tenant (the content editor's choices); comments and sites are not
    expect((await call(s, kyry, 'GET', '/api/portal/model/list')).status).toBe(200);
    for (const api of ['/api/portal/contentcomment/list', '/api/portal/site/list']) expect((await call(s, kyry, 'GET', api)).status, api).toBe(403);
    for (const [api, body] of [['/api/portal/model/submit', { name: `${TAG} 越权`, code: 'x1' }], ['/api/portal/channel/submit', { title: `${TAG} 越权`, path: `${TAG}-x` }]] as const)
      expect((await call(s, kyry, 'POST', api, body)).status, api).toBe(403);
    expect(await countRows(s, 'portal_model', 'name = $1', [`${TAG} 越权`])).toBe(0);
  });

  it('remove: guarded channels keep their message; another tenant removes nothing; 403 without the grant', async () => {
    const parent = await call(s, admin, 'POST', `/api/portal/channel/remove?ids=${id.channel}`);
    expect(parent.status).toBe(400);
    expect(parent.body.msg).toBe('该栏目下还有子栏目，不能删除');
    const full = await call(s, admin, 'POST', `/api/portal/channel/remove?ids=${id.child}`);
    expect(full.status).toBe(400);
    expect(full.body.msg).toBe('该栏目下还有内容，不能删除');
    expect(await live('portal_channel', id.channel)).toBe(1);
    expect(await live('portal_channel', id.child)).toBe(1);
    for (const [api, table, key] of [['/api/portal/contentcomment', 'portal_content_comment', 'comment'], ['/api/portal/model', 'portal_model', 'model'], ['/api/portal/site', 'portal_site', 'site'], ['/api/portal/content', 'portal_content', 'hb'], ['/api/portal/channel', 'portal_channel', 'empty']] as const) {
      await call(s, other, 'POST', `${api}/remove?ids=${id[key]}`);
      expect(await live(table, id[key]), `${api} other tenant`).toBe(1);
      expect((await call(s, kyry, 'POST', `${api}/remove?ids=${id[key]}`)).status, api).toBe(403);
      const r = await call(s, key === 'hb' ? kygl : admin, 'POST', `${api}/remove?ids=${id[key]}`);
      expect(r.status, `${api} ${JSON.stringify(r.body)}`).toBe(200);
      expect(await live(table, id[key]), api).toBe(0);
    }
  });
});
