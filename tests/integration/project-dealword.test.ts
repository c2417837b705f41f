/**
 * Reading a filled-in Word document back into the declaration form (spec 001 §7 project/baseinfo dealWord,
 * dealWordToRedis, getDealWordOfRedis; issue 12; src/server/modules/documents/deal-word.ts):
 *
 * - a declaration's document (generate, from the form) uploaded again gives the form's text, number and date
 *   values (choices, references, rows and files are left to the form); nothing is saved to any record;
 * - dealWordToRedis keeps the reading in PostgreSQL under a key the same user reads back; another user of the
 *   tenant, another tenant and an unknown key get 404; a bad key 400;
 * - a file that is not an uploaded .docx of the tenant, or not a Word document, is refused with the message;
 *   the expert (no add grant) gets 403.
 */
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let sbdw: Session, kygl: Session, zj: Session, other: Session;
const API = '/api/project/baseinfo';
const PUT = '/api/blade-resource/oss/endpoint/put-file';
const tag = `DW${Date.now().toString(36)}`;

async function upload(who: Session, fileName: string, bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  const res = new Response(form);
  const r = await call(s, who, 'POST', PUT, Buffer.from(await res.arrayBuffer()), { 'content-type': res.headers.get('content-type')! });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.name as string;
}

beforeAll(async () => {
  s = await testServer();
  [sbdw, kygl, zj] = await Promise.all(['sbdw', 'kygl', 'zj'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
});
afterAll(async () => {
  await s?.close();
});

describe('dealWord', () => {
  it('reads a filled-in declaration back into the form, keeps it for its user', async () => {
    const saved = await call(s, sbdw, 'POST', `${API}/submit`, {
      name: `${tag} 粮情监测`, code: tag, type: '3', deptId: sbdw.deptId, leader: '王申', leaderPhone: '13800000001', startDate: '2027-01-01', endDate: '2028-12-31',
      researchContent: '研究粮情多参数在线监测。', totalBudget: 50, allocatedBudget: 30, selfRaisedBudget: 20, budgetEquipment: 50,
    });
    expect(saved.status, saved.body.msg).toBe(200);
    const id = String(saved.body.data.id);
    const doc = await call(s, sbdw, 'GET', `${API}/generate?id=${id}&kind=feasibility`);
    expect(doc.status).toBe(200);
    const file = await upload(sbdw, '申报书.docx', doc.res.rawPayload);
    const before = await countRows(s, 'project_baseinfo', `tenant_id = '000000'`);

    const res = await call(s, sbdw, 'POST', `${API}/dealWord`, { file });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data.fields).toMatchObject({ name: `${tag} 粮情监测`, code: tag, leader: '王申', leaderPhone: '13800000001', startDate: '2027-01-01', endDate: '2028-12-31', researchContent: '研究粮情多参数在线监测。', totalBudget: 50, allocatedBudget: 30 });
    expect(res.body.data.fields).not.toHaveProperty('type'); // a choice: picked in the form
    expect(res.body.data.found).toBe(Object.keys(res.body.data.fields).length);
    expect(await countRows(s, 'project_baseinfo', `tenant_id = '000000'`)).toBe(before);

    const kept = await call(s, sbdw, 'POST', `${API}/dealWordToRedis`, { file });
    expect(kept.status).toBe(200);
    const key = kept.body.data.key as string;
    expect(await countRows(s, 'kc_deal_word', 'key = $1::uuid', [key])).toBe(1);
    const again = await call(s, sbdw, 'GET', `${API}/getDealWordOfRedis?key=${key}`);
    expect(again.status).toBe(200);
    expect(again.body.data.fields).toEqual(res.body.data.fields);
    expect((await call(s, kygl, 'GET', `${API}/getDealWordOfRedis?key=${key}`)).status).toBe(404);
    expect((await call(s, other, 'GET', `${API}/getDealWordOfRedis?key=${key}`)).status).toBe(404);
    expect((await call(s, sbdw, 'GET', `${API}/getDealWordOfRedis?key=00000000-0000-0000-0000-000000000000`)).status).toBe(404);
    expect((await call(s, sbdw, 'GET', `${API}/getDealWordOfRedis?key=abc`)).status).toBe(400);
  });

  it('refuses what is not an uploaded Word document of the tenant; the expert gets 403', async () => {
    const rows = await countRows(s, 'kc_deal_word');
    const none = await call(s, sbdw, 'POST', `${API}/dealWordToRedis`, { file: 'upload/nothing.docx' });
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('请上传 Word 文档（.docx）');
    expect((await call(s, sbdw, 'POST', `${API}/dealWord`, {})).body.msg).toBe('请上传 Word 文档（.docx）');
    // a zip without a Word document inside (the upload's own check sees a zip)
    const zip = new PizZip();
    zip.file('readme.txt', 'not a document');
    const fake = await upload(sbdw, '假的.docx', zip.generate({ type: 'nodebuffer' }));
    const bad = await call(s, sbdw, 'POST', `${API}/dealWordToRedis`, { file: fake }, { 'accept-language': 'en' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('The Word document cannot be read');
    expect(await countRows(s, 'kc_deal_word')).toBe(rows);
    const mine = fake; // an upload of tenant 000000: another tenant cannot name it
    expect((await call(s, other, 'POST', `${API}/dealWord`, { file: mine })).body.msg).toBe('请上传 Word 文档（.docx）');
    expect((await call(s, zj, 'POST', `${API}/dealWord`, { file: mine })).status).toBe(403);
  });
});
