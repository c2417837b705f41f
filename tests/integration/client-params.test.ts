/**
 * The parameters the web client reads (`GET /api/blade-system/param/client-params`; spec 000 §9 disable_devtool,
 * issue 18): public, only the whitelisted keys, following what the platform administrator stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
const URL = '/api/blade-system/param/client-params';

beforeAll(async () => {
  s = await testServer();
  admin = await login(s, 'admin');
});
afterAll(async () => {
  await s?.close();
});

describe('client params', () => {
  it('answers only disable_devtool, without a login; the stored value once the administrator changes it', async () => {
    const first = await call(s, null, 'GET', URL);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ disable_devtool: '0' });
    // the other parameters stay behind the parameter screen's grant
    expect((await call(s, null, 'GET', '/api/blade-system/param/list')).status).toBe(401);
    const params = await call(s, admin, 'GET', '/api/blade-system/param/list?paramKey_equal=disable_devtool');
    const row = (params.body.data.records as Json[])[0];
    expect(row).toBeDefined();
    const set = (v: string) => call(s, admin, 'POST', '/api/blade-system/param/submit', { ...row, paramValue: v });
    expect((await set('1')).status).toBe(200);
    try {
      expect((await call(s, null, 'GET', URL)).body.data).toEqual({ disable_devtool: '1' });
      const other = await login(s, 'admin', { tenantId: '100001' });
      expect((await call(s, other, 'GET', URL)).body.data).toEqual({ disable_devtool: '1' }); // platform-wide
    } finally {
      await set('0');
    }
  });
});
