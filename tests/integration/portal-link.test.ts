/**
 * The top bar's information-portal link (`GET /api/portal/site/portalLink`; spec 000 §2.5, issue 18): the
 * tenant's enabled sites with their public address, for any signed-in user (the pages are public), never
 * another tenant's; anonymous 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kyry: Session; // a researcher: no grant on the portal's screens
let other: Session; // administrator of tenant 100001
const TAG = `PL${Date.now().toString(36)}`;
const LINK = '/api/portal/site/portalLink';

beforeAll(async () => {
  s = await testServer();
  [admin, kyry, other] = await Promise.all([login(s, 'admin'), login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' })]);
});
afterAll(async () => {
  await s?.close();
});

describe('portal link', () => {
  it('answers the tenant’s enabled sites with their public pages, to every signed-in user; another tenant nothing of them', async () => {
    const channel = await call(s, admin, 'POST', '/api/portal/channel/submit', { title: `${TAG} 新闻`, path: `${TAG.toLowerCase()}-news` });
    expect(channel.status, JSON.stringify(channel.body)).toBe(200);
    const site = (body: Json) => call(s, admin, 'POST', '/api/portal/site/submit', { channelIds: [channel.body.data.id], theme: 'blue', ...body });
    const on = await site({ title: `${TAG} 门户`, domain: `${TAG.toLowerCase()}.portal.test` });
    const off = await site({ title: `${TAG} 停用`, enabled: false });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(off.status, JSON.stringify(off.body)).toBe(200);

    expect((await call(s, kyry, 'GET', '/api/portal/site/list')).status).toBe(403); // the list is not theirs…
    const res = await call(s, kyry, 'GET', LINK); // …the link is
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const mine = (res.body.data as Json[]).filter((x) => String(x.title).startsWith(TAG));
    expect(mine).toEqual([{ id: on.body.data.id, title: `${TAG} 门户`, path: `/site/${on.body.data.id}`, url: `http://${TAG.toLowerCase()}.portal.test/` }]);
    // the address is the public page the link opens
    const page = await call(s, null, 'GET', mine[0].path);
    expect(page.status).toBe(200);
    expect(page.res.body).toContain(`${TAG} 门户`);

    const theirs = await call(s, other, 'GET', LINK);
    expect(theirs.status).toBe(200);
    expect((theirs.body.data as Json[]).some((x) => String(x.title).startsWith(TAG))).toBe(false);
    expect((await call(s, null, 'GET', LINK)).status).toBe(401);
  });
});
