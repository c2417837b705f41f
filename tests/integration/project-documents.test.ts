/**
 * The project documents (issue 12 "Documents"; src/server/modules/documents, schema key `documents` of
 * schemas/project/baseinfo.json; templates: schemas/project/template.json, modules/project/templates.ts):
 *
 * - a declaration's feasibility report, task book and acceptance report are generated as .docx from the built
 *   template: the text holds the project's fields, dictionary values by their label and the team rows;
 * - a signed link opens the document without login, until it is tampered with;
 * - research management uploads a designed template; enabling it makes the task book use it (the uploaded
 *   tags filled), and disables the other template of the kind; a version is unique per kind; a template with a
 *   broken tag gives the administrator's message, not a 500;
 * - an unknown kind is 400, another tenant gets 404, a role without the grant 403.
 */
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, testServer, type Json, type Session, type TestServer, uploadFile } from './helpers.js';
import { docx } from './duplicate-fixtures.js';

let s: TestServer;
let sbdw: Session, kygl: Session, zj: Session, other: Session;
let projectId: string;
let guide: Json;
const API = '/api/project/baseinfo';
const T = '/api/project/template';
const tag = `DOC${Date.now().toString(36)}`;

/** The text of a .docx reply (its paragraphs' runs, tags removed). */
const textOf = (bytes: Buffer) => new PizZip(bytes).file('word/document.xml')!.asText().replace(/<[^>]+>/g, '');

async function upload(who: Session, fileName: string, bytes: Buffer): Promise<Json> {
  const d = await uploadFile(s, who, fileName, bytes);
  return { name: d.name, link: d.link, originalName: d.originalName };
}

beforeAll(async () => {
  s = await testServer();
  [sbdw, kygl, zj] = await Promise.all(['sbdw', 'kygl', 'zj'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
  guide = (await call(s, sbdw, 'GET', '/api/project/guide/options')).body.data[0];
  const saved = await call(s, sbdw, 'POST', `${API}/submit`, {
    guideId: guide.id,
    name: `${tag} 低温储粮示范`, code: tag, type: '3', researchType: '2', deptId: sbdw.deptId, leader: '王申', leaderPhone: '13800000001',
    startDate: '2027-01-01', endDate: '2028-12-31', researchContent: '低温储粮的研究内容。', objectives: '节能降耗。', indicators: '能耗降低15%。',
    totalBudget: 100, allocatedBudget: 60, selfRaisedBudget: 40,
    budgetEquipment: 30, budgetMaterial: 20, budgetTesting: 10, budgetTravel: 5, budgetMeeting: 5, budgetLabour: 20, budgetExpert: 5, budgetOther: 5,
    teamMembers: [{ name: '王申', unit: '华北储备库', role: '1', workload: 12 }, { name: '刘研', unit: '华北储备库', role: '3', workload: 6 }],
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  projectId = saved.body.data.id;
});
afterAll(async () => {
  await s?.close();
});

describe('documents from the built template', () => {
  it('lists the three documents and generates the task book with the fields, labels and team rows', async () => {
    const list = await call(s, sbdw, 'GET', `${API}/generateReportFileList?id=${projectId}`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: Json) => [x.kind, x.title, x.preview])).toEqual([
      ['feasibility', '可行性研究报告', '/previewReport'], ['taskBook', '任务书', '/previewTaskBook'], ['acceptance', '验收报告', '/previewAcceptReport'],
    ]);
    const doc = await call(s, sbdw, 'GET', `${API}/generate?id=${projectId}&kind=taskBook`);
    expect(doc.status).toBe(200);
    expect(doc.res.headers['content-type']).toContain('wordprocessingml');
    expect(String(doc.res.headers['content-disposition'])).toContain(encodeURIComponent('任务书.docx'));
    const text = textOf(doc.res.rawPayload);
    expect(text).toContain('任务书');
    expect(text).toContain(`项目名称：${tag} 低温储粮示范`);
    expect(text).toContain('总经费（万元）：100');
    expect(text).toContain(`申报指南：${String(guide.title).replace(/^\d{4} /, '')}`); // a referenced record by its label
    expect(text).toContain('项目负责人'); // team role 1 by its dictionary label
    expect(text).toMatch(/1\. 姓名：王申.*2\. 姓名：刘研/);
    const en = await call(s, sbdw, 'POST', `${API}/download`, { id: projectId, kind: 'acceptance' }, { 'accept-language': 'en' });
    expect(textOf(en.res.rawPayload)).toContain('Acceptance report');
  });

  it('refuses an unknown kind, another tenant and a role without the grant', async () => {
    const bad = await call(s, sbdw, 'GET', `${API}/generate?id=${projectId}&kind=novel`);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('文书类型不存在');
    expect([403, 404]).toContain((await call(s, other, 'GET', `${API}/generate?id=${projectId}&kind=taskBook`)).status);
    expect([403, 404]).toContain((await call(s, other, 'GET', `${API}/generateReportFileList?id=${projectId}`)).status);
    expect((await call(s, zj, 'GET', `${API}/generate?id=${projectId}&kind=taskBook`)).status).toBe(403);
    expect((await call(s, sbdw, 'GET', `${API}/generate?id=abc&kind=taskBook`)).status).toBe(400);
  });

  it('opens a document by its signed link without login, and refuses a tampered one', async () => {
    const link = await call(s, sbdw, 'GET', `${API}/generateReportFile?id=${projectId}&kind=feasibility`);
    expect(link.status).toBe(200);
    expect(link.body.data.link).toMatch(/^\/previewReport\?token=/);
    expect(link.body.data.expiresIn).toBe(1800);
    const token = link.body.data.token as string;
    const open = await call(s, null, 'GET', `${API}/preview?token=${encodeURIComponent(token)}`);
    expect(open.status).toBe(200);
    expect(String(open.res.headers['content-disposition'])).toMatch(/^inline/);
    expect(textOf(open.res.rawPayload)).toContain(`${tag} 低温储粮示范`);
    const generic = await call(s, null, 'GET', `/api/documents/preview?token=${encodeURIComponent(token)}`);
    expect(generic.status).toBe(200);
    expect(textOf(generic.res.rawPayload)).toContain('可行性研究报告');
    // another resource's preview does not open this resource's document
    expect((await call(s, null, 'GET', `/api/project/report/preview?token=${encodeURIComponent(token)}`)).status).toBe(401);
    expect((await call(s, null, 'GET', `/api/project/plan/preview?token=${encodeURIComponent(token)}`)).status).toBe(404); // no documents there
    const forged = await call(s, null, 'GET', `${API}/preview?token=${encodeURIComponent(token.slice(0, -3) + 'abc')}`);
    expect(forged.status).toBe(401);
    expect(forged.body.msg).toBe('预览链接无效或已过期');
    expect((await call(s, null, 'GET', `${API}/preview`)).status).toBe(401);
    expect((await call(s, null, 'GET', `/api/documents/preview?token=x`)).body.msg).toBe('预览链接无效或已过期');
  });
});

describe('uploaded templates', () => {
  it('a designed, enabled template is used; a version is unique per kind; enabling one disables the other', async () => {
    const file = await upload(kygl, '任务书模板.docx', docx('集团科技项目任务书\n项目：{name}（{type}）\n负责人：{leader}\n{#teamMembers}成员{_index}：{name}；{/teamMembers}'));
    const first = await call(s, kygl, 'POST', `${T}/submit`, { name: `${tag} 任务书`, templateKind: 'taskBook', version: '1.0', file: [file] });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const dup = await call(s, kygl, 'POST', `${T}/submit`, { name: `${tag} 任务书二`, templateKind: 'taskBook', version: '1.0', file: [file] });
    expect(dup.status).toBe(400);
    expect(dup.body.msg).toBe('同一文书类型的版本号已存在');
    expect((await call(s, kygl, 'GET', `${T}/checkVersion?templateKind=taskBook&version=1.0`)).body.data).toEqual({ exists: true });
    expect((await call(s, kygl, 'GET', `${T}/checkVersion?templateKind=taskBook&version=1.0&id=${first.body.data.id}`)).body.data).toEqual({ exists: false });
    const notDocx = await call(s, kygl, 'POST', `${T}/submit`, { name: `${tag} 文本`, templateKind: 'taskBook', version: '9.0', file: [await upload(kygl, 'a.txt', Buffer.from('x'))] });
    expect(notDocx.body.msg).toBe('模板文件须为 .docx 格式');

    // not enabled yet: the built template
    expect(textOf((await call(s, sbdw, 'GET', `${API}/generate?id=${projectId}&kind=taskBook`)).res.rawPayload)).not.toContain('集团科技项目任务书');
    expect((await call(s, kygl, 'POST', `${T}/enable?id=${first.body.data.id}`)).status).toBe(200);
    const text = textOf((await call(s, sbdw, 'GET', `${API}/generate?id=${projectId}&kind=taskBook`)).res.rawPayload);
    expect(text).toContain(`项目：${tag} 低温储粮示范（`);
    expect(text).toContain('负责人：王申');
    expect(text).toContain('成员1：王申；成员2：刘研；');
    const listed = (await call(s, sbdw, 'GET', `${API}/generateReportFileList?id=${projectId}`)).body.data.find((x: Json) => x.kind === 'taskBook');
    expect(listed.template).toMatchObject({ id: first.body.data.id, version: '1.0' });

    const second = await call(s, kygl, 'POST', `${T}/submit`, { name: `${tag} 任务书（新）`, templateKind: 'taskBook', version: '2.0', file: [await upload(kygl, 'v2.docx', docx('新版任务书 {name}'))] });
    expect((await call(s, kygl, 'POST', `${T}/enable?id=${second.body.data.id}`)).status).toBe(200);
    const tree = (await call(s, kygl, 'GET', `${T}/tree`)).body.data.find((k: Json) => k.id === 'taskBook');
    const mine = tree.children.filter((c: Json) => String(c.title).startsWith(tag));
    expect(mine.map((c: Json) => [c.version, c.enabled])).toEqual([['2.0', true], ['1.0', false]]);
    expect(textOf((await call(s, sbdw, 'GET', `${API}/generate?id=${projectId}&kind=taskBook`)).res.rawPayload)).toContain(`新版任务书 ${tag}`);
    // another tenant: not its template, not its tree
    expect([403, 404]).toContain((await call(s, other, 'POST', `${T}/enable?id=${first.body.data.id}`)).status);
    expect((await call(s, sbdw, 'POST', `${T}/enable?id=${first.body.data.id}`)).status).toBe(403);
  });

  it('a template with a broken tag is the administrator’s message, not a 500', async () => {
    const broken = await call(s, kygl, 'POST', `${T}/submit`, { name: `${tag} 坏模板`, templateKind: 'acceptance', version: '1.0', file: [await upload(kygl, 'bad.docx', docx('验收 {name'))] });
    expect(broken.status).toBe(200);
    await call(s, kygl, 'POST', `${T}/enable?id=${broken.body.data.id}`);
    const r = await call(s, sbdw, 'GET', `${API}/generate?id=${projectId}&kind=acceptance`);
    expect(r.status).toBe(400);
    expect(r.body.msg).toMatch(/^模板格式不正确：/);
  });
});
