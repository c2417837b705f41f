/**
 * What /previewFile reads (spec 000 §2.2; issue 18): a file named by its attachment id — `GET
 * /api/basic/basicfile/getDirPath?id=` answers its link and the user's file name for the caller's tenant only
 * (another tenant 404, a removed one 404, a bad id 400, no session 401), and the link then serves the bytes
 * with the name and an inline disposition for the kinds the browser shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, testServer, type Json, type Session, type TestServer, uploadFile } from './helpers.js';

let s: TestServer;
let kyry: Session;
let other: Session; // administrator of tenant 100001
const BF = '/api/basic/basicfile';
const TAG = `fp${Date.now().toString(36)}`;
const TXT = Buffer.from(`${TAG} 储粮温度记录\n`, 'utf8');

const upload = (who: Session, fileName: string, bytes: Buffer): Promise<Json> => uploadFile(s, who, fileName, bytes);

beforeAll(async () => {
  s = await testServer();
  [kyry, other] = await Promise.all([login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' })]);
});
afterAll(async () => {
  await s?.close();
});

describe('a file by its attachment id', () => {
  it('getDirPath?id= answers the link and the name; the link serves the bytes inline with that name', async () => {
    const saved = await upload(kyry, `${TAG} 说明.txt`, TXT);
    const where = await call(s, kyry, 'GET', `${BF}/getDirPath?id=${saved.attachId}`);
    expect(where.status).toBe(200);
    expect(where.body.data).toMatchObject({ link: saved.link, name: saved.name, originalName: `${TAG} 说明.txt`, extension: 'txt', size: TXT.length });
    const file = await call(s, kyry, 'GET', saved.link);
    expect(file.status).toBe(200);
    expect(file.res.rawPayload.equals(TXT)).toBe(true);
    expect(file.res.headers['content-disposition']).toContain('inline');
    expect(file.res.headers['content-disposition']).toContain(encodeURIComponent(`${TAG} 说明.txt`));
  });

  it('another tenant, a removed file, a bad id and no session get nothing', async () => {
    const saved = await upload(kyry, `${TAG} 私有.txt`, TXT);
    const theirs = await call(s, other, 'GET', `${BF}/getDirPath?id=${saved.attachId}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.data ?? null).toBeNull();
    expect((await call(s, other, 'GET', saved.link)).status).toBe(404);
    expect((await call(s, null, 'GET', `${BF}/getDirPath?id=${saved.attachId}`)).status).toBe(401);
    for (const bad of ['abc', '-1', '99999999999999999999', '']) {
      const res = await call(s, kyry, 'GET', `${BF}/getDirPath?id=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
    }
    expect((await call(s, kyry, 'GET', `${BF}/getDirPath?id=1`)).status).toBe(404);
    const removed = await call(s, kyry, 'POST', `${BF}/operation`, { link: saved.link, type: 'remove' });
    expect(removed.status).toBe(200);
    expect((await call(s, kyry, 'GET', `${BF}/getDirPath?id=${saved.attachId}`)).status).toBe(404);
  });
});
