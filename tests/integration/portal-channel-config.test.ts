/**
 * Channel configuration (issue 14 "configuration checkboxes 列表页 / 内容编辑页 / 是否筛选, default 1 and 2";
 * spec 001 §3; src/server/modules/portal/hooks.ts CHANNEL_CONFIG, public.ts):
 * - stored with the default [1, 2] when none is given;
 * - without 内容编辑页 (2) content cannot be written into the channel nor edited while in it (400 naming the
 *   channel, zh and en, nothing stored or changed); content may still be pushed to it, and other tenants'
 *   channels are not theirs to name;
 * - without 列表页 (1) the public channel address opens the channel's newest released content (a redirect), or
 *   the not-found page while it has none;
 * - with 是否筛选 (3) the list page has a filter (title keyword, release year) that narrows the list; without
 *   it the same parameters change nothing and there is no filter form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kygl: Session;
let other: Session; // administrator of tenant 100001
const TAG = `pc${Date.now().toString(36)}`;
const ch: Record<string, string> = {};
let siteId = '';

const channel = async (key: string, configuration?: number[]) => {
  const r = await call(s, admin, 'POST', '/api/portal/channel/submit', { title: `${TAG} ${key}`, path: `${TAG}-c${Object.keys(ch).length}`, ...(configuration ? { configuration } : {}) });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  ch[key] = r.body.data.id;
};
const write = (body: Json, who = kygl, lang?: string) => call(s, who, 'POST', '/api/portal/content/submit', body, lang ? { 'accept-language': lang } : {});
const step = (path: string, businessId: string, extra: Json = {}) => call(s, kygl, 'POST', `/api/portal/content/${path}`, { businessType: 'portal/content', businessId, ...extra });

/** A released content of channel `key` titled `${TAG} title`, answering its id. */
async function released(key: string, title: string): Promise<string> {
  const r = await write({ channelId: ch[key], title: `${TAG} ${title}`, content: '<p>正文</p>' });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const id = r.body.data.id as string;
  expect((await step('submitPublish', id)).status).toBe(200);
  expect((await step('examine', id, { action: 'approve', opinion: '同意' })).status).toBe(200);
  expect((await step('release', id)).status).toBe(200);
  return id;
}

beforeAll(async () => {
  s = await testServer();
  [admin, kygl, other] = await Promise.all([login(s, 'admin'), login(s, 'kygl'), login(s, 'admin', { tenantId: '100001' })]);
  await channel('默认');
  await channel('汇总', [1]);
  await channel('单页', [2]);
  await channel('空单页', [2]);
  await channel('筛选', [1, 2, 3]);
  const site = await call(s, admin, 'POST', '/api/portal/site/submit', { title: `${TAG} 门户`, channelIds: Object.values(ch) });
  expect(site.status, JSON.stringify(site.body)).toBe(200);
  siteId = site.body.data.id;
});
afterAll(async () => {
  await s?.close();
});

describe('channel configuration', () => {
  it('is stored with the default 列表页 and 内容编辑页', async () => {
    const d = await call(s, admin, 'GET', `/api/portal/channel/detail?id=${ch['默认']}`);
    expect(d.body.data.configuration).toEqual([1, 2]);
  });

  it('without 内容编辑页 refuses content written into the channel or edited in it, storing nothing', async () => {
    const into = await write({ channelId: ch['汇总'], title: `${TAG} 写入汇总`, content: '<p>x</p>' });
    expect(into.status).toBe(400);
    expect(into.body.msg).toBe(`栏目「${TAG} 汇总」未开启内容编辑页，不能编辑其中的内容`);
    const en = await write({ channelId: ch['汇总'], title: `${TAG} 写入汇总`, content: '<p>x</p>' }, kygl, 'en');
    expect(en.body.msg).toBe(`The channel "${TAG} 汇总" has no content editor: its content cannot be edited`);
    expect(await countRows(s, 'portal_content', 'title = $1', [`${TAG} 写入汇总`])).toBe(0);

    // content of an open channel moves in: refused, unchanged; pushed to it: fine
    const a = await write({ channelId: ch['默认'], title: `${TAG} 可编辑`, content: '<p>x</p>', pushChannel: [ch['汇总']] });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const move = await write({ id: a.body.data.id, channelId: ch['汇总'] });
    expect(move.status).toBe(400);
    expect(move.body.msg).toBe(`栏目「${TAG} 汇总」未开启内容编辑页，不能编辑其中的内容`);
    expect((await call(s, kygl, 'GET', `/api/portal/content/detail?id=${a.body.data.id}`)).body.data.channelId).toBe(ch['默认']);

    // the channel closes its editor: the content in it can no longer be edited
    await channel('将关闭');
    const b = await write({ channelId: ch['将关闭'], title: `${TAG} 关闭前`, content: '<p>x</p>' });
    expect(b.status).toBe(200);
    const close = await call(s, admin, 'POST', '/api/portal/channel/submit', { id: ch['将关闭'], configuration: [1] });
    expect(close.status, JSON.stringify(close.body)).toBe(200);
    const edit = await write({ id: b.body.data.id, title: `${TAG} 关闭后` });
    expect(edit.status).toBe(400);
    expect(edit.body.msg).toBe(`栏目「${TAG} 将关闭」未开启内容编辑页，不能编辑其中的内容`);
    expect(await countRows(s, 'portal_content', 'title = $1', [`${TAG} 关闭后`])).toBe(0);

    // another tenant names our closed channel: it is none of its own (refused as an unknown channel, not by
    // our channel's configuration, which it does not get to see)
    const foreign = await write({ channelId: ch['汇总'], title: `${TAG} 外租户`, content: '<p>x</p>' }, other);
    expect(foreign.status).toBe(400);
    expect(foreign.body.msg).not.toContain(`${TAG} 汇总`);
    expect(await countRows(s, 'portal_content', 'title = $1', [`${TAG} 外租户`])).toBe(0);
  });

  it('without 列表页 the channel address opens its newest released content, or the not-found page', async () => {
    const older = await released('单页', '关于我们（旧）');
    const newest = await released('单页', '关于我们');
    expect(older).not.toBe(newest);
    const page = await call(s, null, 'GET', `/site/${siteId}/channel/${ch['单页']}`);
    expect(page.status).toBe(302);
    expect(page.res.headers.location).toBe(`/site/${siteId}/article/${newest}`);
    expect((await call(s, null, 'GET', `/site/${siteId}/channel/${ch['空单页']}`)).status).toBe(404);
    // a channel with its list page lists
    await released('默认', '默认栏目文章');
    const list = await call(s, null, 'GET', `/site/${siteId}/channel/${ch['默认']}`);
    expect(list.status).toBe(200);
    expect(list.res.body).toContain(`${TAG} 默认栏目文章`);
  });

  it('with 是否筛选 the list page filters by title keyword and release year; without it there is no filter', async () => {
    const wheat = await released('筛选', '小麦低温储粮');
    await released('筛选', '玉米通风降温');
    await s.kernel.database.pool.query(`UPDATE portal_content SET release_time = '2023-06-01T08:00:00Z' WHERE id = $1`, [wheat]);
    const all = await call(s, null, 'GET', `/site/${siteId}/channel/${ch['筛选']}`);
    expect(all.res.body).toContain('<form class="filter"');
    expect(all.res.body).toContain('<option value="2023">2023</option>');
    expect(all.res.body).toContain(`${TAG} 小麦低温储粮`);
    expect(all.res.body).toContain(`${TAG} 玉米通风降温`);
    const kw = await call(s, null, 'GET', `/site/${siteId}/channel/${ch['筛选']}?kw=${encodeURIComponent('玉米')}`);
    expect(kw.res.body).toContain(`${TAG} 玉米通风降温`);
    expect(kw.res.body).not.toContain(`${TAG} 小麦低温储粮`);
    const year = await call(s, null, 'GET', `/site/${siteId}/channel/${ch['筛选']}?year=2023`);
    expect(year.res.body).toContain(`${TAG} 小麦低温储粮`);
    expect(year.res.body).not.toContain(`${TAG} 玉米通风降温`);
    expect(year.res.body).toContain('<option value="2023" selected>2023</option>');
    const en = await call(s, null, 'GET', `/site/${siteId}/channel/${ch['筛选']}?lang=en`);
    expect(en.res.body).toContain('placeholder="Title keyword"');
    // without 是否筛选: no form, the parameters change nothing
    const plain = await call(s, null, 'GET', `/site/${siteId}/channel/${ch['默认']}?kw=${encodeURIComponent('不存在的词')}`);
    expect(plain.res.body).not.toContain('<form class="filter"');
    expect(plain.res.body).toContain(`${TAG} 默认栏目文章`);
  });
});
