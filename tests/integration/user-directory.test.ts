/**
 * The user picker's directory (GET /api/blade-user/user-select; src/server/modules/system/user-directory.ts): any
 * signed-in user of the tenant finds colleagues by name or account, and names stored ids; nothing of another
 * tenant; no session 401; malformed parameters 400 with the message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let kyry: Session;
let kygl: Session;
let other: Session;
const U = '/api/blade-user/user-select';

beforeAll(async () => {
  s = await testServer();
  [kyry, kygl] = await Promise.all([login(s, 'kyry'), login(s, 'kygl')]);
  other = await login(s, 'admin', { tenantId: '100001' });
});
afterAll(async () => {
  await s.close();
});

describe('user-select', () => {
  it('a researcher finds a colleague by name or account, with the department; names ids in the order asked', async () => {
    const byName = await call(s, kyry, 'GET', `${U}?keyword=${encodeURIComponent('刘研')}`);
    expect(byName.status, JSON.stringify(byName.body)).toBe(200);
    expect(byName.body.data.map((u: Json) => u.account)).toContain('kyry');
    expect(Object.keys(byName.body.data[0]).sort()).toEqual(['account', 'deptName', 'id', 'realName']);
    const byAccount = (await call(s, kyry, 'GET', `${U}?keyword=kygl`)).body.data as Json[];
    expect(byAccount.find((u) => u.account === 'kygl')).toMatchObject({ id: kygl.userId });
    const named = (await call(s, kyry, 'GET', `${U}?ids=${kygl.userId},999999999999,${kyry.userId}`)).body.data as Json[];
    expect(named.map((u) => u.id)).toEqual([kygl.userId, kyry.userId]);
  });

  it('another tenant gets none of these users; no session 401; bad parameters 400', async () => {
    expect((await call(s, other, 'GET', `${U}?ids=${kygl.userId}`)).body.data).toEqual([]);
    expect(((await call(s, other, 'GET', `${U}?keyword=kygl`)).body.data as Json[]).map((u) => u.id)).not.toContain(kygl.userId);
    expect((await call(s, null, 'GET', `${U}?keyword=a`)).status).toBe(401);
    const bad = await call(s, kyry, 'GET', `${U}?ids=1,x`);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('参数 ids 的值无效');
    expect((await call(s, kyry, 'GET', `${U}?size=51`)).status).toBe(400);
  });
});
