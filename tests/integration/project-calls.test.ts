/**
 * The remaining project calls of spec 001 §7 "Other project modules" (issue 12):
 *
 * - /project/report myReport: the reports on the caller's projects and those they wrote — the declaring unit
 *   sees the demo project's reports, research management of another company's scope does not see a report it
 *   did not write on a project it did not declare; another tenant nothing; the expert 403;
 * - /project/reportexamine/list: reports under review for research management whose company the review task
 *   names (the subsidiary's and the group's), not once approved; 403 for a declaring unit; another tenant
 *   nothing;
 * - /project/report examine: research management of the company passes a report under review through its
 *   process; an unknown outcome refused with the message and nothing changed; a declaring unit 403; once
 *   passed there is no step left (400); another tenant 404;
 * - /project/report export-word: the report as a .docx filled with its fields (the schema's `documents`);
 *   a bad id 400, another tenant 404, the expert 403;
 * - /project/intent done-list-of-jituan / done-list-of-yuan: an intent of 华北 reviewed by its research
 *   management is in that company's list and in the group's, not in the group company's own; 403 for others;
 * - /project/baseinfo todoBfList: every open step each role may act on (the demo's projects), nothing of
 *   another tenant, 403 for the expert (no read grant of the declarations; theirs is expert-todo);
 * - /project/baseinfo bookTotalSave: the task book of the approved demo project saved (its task-book fields
 *   only: the name sent along is ignored); a budget that does not add up refused with the rule's message and
 *   nothing changed; a declaration under review refused (项目立项后方可填写任务书), totalSave on the approved one
 *   still refused; bad id 400, another tenant 404, the expert 403;
 * - /project/itemchangeexamine (a schema only): research management records an examination; a declaring unit
 *   reads but may not write (403, nothing stored); a missing opinion is refused with its message, nothing
 *   stored; another tenant nothing;
 * - every call of spec 001 §7 for the project modules is served (an answer, or a 400 for its missing
 *   parameters; never 404 or 500).
 */
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';
import { DEMO } from '../../src/server/modules/project/demo.js';

let s: TestServer;
let sbdw: Session, kyglHb: Session, kygl: Session, zj: Session, duo: Session, kyry: Session, other: Session;
let approved: string; // the demo's approved project (its 开题 report approved, its 中期 report under review)
const tag = `PC${Date.now().toString(36)}`;

beforeAll(async () => {
  s = await testServer();
  [sbdw, kyglHb, kygl, zj, duo, kyry] = await Promise.all(['sbdw', 'kygl_hb', 'kygl', 'zj', 'duo', 'kyry'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
  approved = (await s.kernel.database.pool.query(`SELECT id::text AS id FROM project_baseinfo WHERE tenant_id = '000000' AND code = ANY($1) AND project_status = 6`, [DEMO.map((d) => d.code)])).rows[0].id;
});
afterAll(async () => {
  await s?.close();
});

const records = async (who: Session, url: string) => ((await call(s, who, 'GET', `${url}${url.includes('?') ? '&' : '?'}size=200`)).body.data?.records as Json[] | undefined) ?? [];
const reportsOf = async (projectId: string) => (await s.kernel.database.pool.query(`SELECT id::text AS id, report_kind::text AS kind FROM project_report WHERE project_id = $1 AND is_deleted = 0 ORDER BY report_kind`, [projectId])).rows as Array<{ id: string; kind: string }>;

describe('report lists', () => {
  it('myReport: the reports on the caller’s projects', async () => {
    const [opening, midterm] = await reportsOf(approved);
    const mine = (await records(sbdw, '/api/project/report/myReport')).map((r) => String(r.id));
    expect(mine).toEqual(expect.arrayContaining([opening.id, midterm.id]));
    // a project of duo's (华东), and a report he writes on it: his, not sbdw's
    const p = await call(s, duo, 'POST', '/api/project/baseinfo/submit', { name: `${tag} 华东项目`, code: `${tag}-E`, type: '3', deptId: duo.deptId, leader: '赵多', startDate: '2026-01-01', endDate: '2026-12-31' });
    expect(p.status, p.body.msg).toBe(200);
    const rep = await call(s, duo, 'POST', '/api/project/report/submit', { title: `${tag} 开题报告`, projectId: String(p.body.data.id), reportKind: '1', reportDate: '2026-11-20', workDone: '开题。' });
    expect(rep.status, rep.body.msg).toBe(200);
    expect((await records(duo, '/api/project/report/myReport')).map((r) => String(r.id))).toEqual([String(rep.body.data.id)]);
    expect((await records(sbdw, '/api/project/report/myReport')).map((r) => String(r.id))).not.toContain(String(rep.body.data.id));
    expect(await records(other, '/api/project/report/myReport')).toEqual([]);
    expect((await call(s, zj, 'GET', '/api/project/report/myReport')).status).toBe(403);
  });

  it('reportexamine/list: reports under review for the research management the review names', async () => {
    const [opening, midterm] = await reportsOf(approved);
    const hb = (await records(kyglHb, '/api/project/reportexamine/list')).map((r) => String(r.id));
    expect(hb).toContain(midterm.id);
    expect(hb).not.toContain(opening.id); // approved: no longer under review
    expect((await records(kygl, '/api/project/reportexamine/list')).map((r) => String(r.id))).toContain(midterm.id);
    expect((await call(s, sbdw, 'GET', '/api/project/reportexamine/list')).status).toBe(403);
    expect(await records(other, '/api/project/reportexamine/list')).toEqual([]);
  });

  it('export-word: the report as a .docx filled with its fields', async () => {
    const [, midterm] = await reportsOf(approved);
    const res = await call(s, sbdw, 'GET', `/api/project/report/export-word?id=${midterm.id}`);
    expect(res.status).toBe(200);
    expect(res.res.headers['content-type']).toContain('wordprocessingml');
    const xml = new PizZip(res.res.rawPayload).file('word/document.xml')!.asText();
    expect(xml).toContain('中期报告');
    expect(xml).toContain('完成监测系统在两个库点的部署');
    const bad = await call(s, sbdw, 'GET', '/api/project/report/export-word?id=abc');
    expect(bad.status).toBe(400);
    expect((await call(s, sbdw, 'POST', '/api/project/report/export-word', { id: midterm.id, kind: 'nothing' })).body.msg).toBe('文书类型不存在');
    expect((await call(s, other, 'GET', `/api/project/report/export-word?id=${midterm.id}`)).status).toBe(404);
    expect((await call(s, zj, 'GET', `/api/project/report/export-word?id=${midterm.id}`)).status).toBe(403);
  });
});

describe('item change examinations', () => {
  it('research management records an examination; others read or get nothing', async () => {
    const api = '/api/project/itemchangeexamine';
    const change = await call(s, sbdw, 'POST', '/api/project/itemchange/submit', { title: `${tag} 延期`, projectId: approved, changeType: '2', newEndDate: '2028-06-30', changeReason: '设备到货延迟。', afterContent: '结束日期延至2028年6月。' });
    expect(change.status, change.body.msg).toBe(200);
    const rec = { itemChangeId: String(change.body.data.id), itemChangeName: `${tag} 延期`, examineResult: 1, examineDate: '2026-11-25', opinion: '同意延期。' };
    const missing = await call(s, kygl, 'POST', `${api}/submit`, { ...rec, opinion: '' });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toContain('请输入审核意见');
    expect((await call(s, sbdw, 'POST', `${api}/submit`, rec)).status).toBe(403);
    expect(await countRows(s, 'project_itemchangeexamine', 'item_change_id = $1', [rec.itemChangeId])).toBe(0);
    const saved = await call(s, kygl, 'POST', `${api}/submit`, rec);
    expect(saved.status, saved.body.msg).toBe(200);
    const id = String(saved.body.data.id);
    expect((await records(sbdw, `${api}/list`)).map((r) => String(r.id))).toContain(id);
    expect((await call(s, sbdw, 'GET', `${api}/detail?id=${id}`)).body.data).toMatchObject({ examineResult: 1, opinion: '同意延期。' });
    expect(await records(other, `${api}/list`)).toEqual([]);
    expect([403, 404]).toContain((await call(s, other, 'GET', `${api}/detail?id=${id}`)).status);
    expect((await call(s, zj, 'GET', `${api}/list`)).status).toBe(403);
    expect((await call(s, sbdw, 'POST', `${api}/remove?ids=${id}`)).status).toBe(403);
    expect((await call(s, kygl, 'POST', `${api}/remove?ids=${id}`)).status).toBe(200);
    expect(await countRows(s, 'project_itemchangeexamine', 'id = $1 AND is_deleted = 0', [id])).toBe(0);
  });
});

describe('task lists', () => {
  it('intent done lists: of the company (yuan) and of the group (jituan)', async () => {
    const api = '/api/project/intent';
    const saved = await call(s, kyry, 'POST', `${api}/submit`, { name: `${tag} 意向`, leader: '刘研', summary: '粮堆多参数监测。' });
    expect(saved.status, saved.body.msg).toBe(200);
    const id = String(saved.body.data.id);
    expect((await call(s, kyry, 'POST', `${api}/start-process`, { businessId: id })).status).toBe(200);
    const [t] = (await records(kyglHb, `${api}/claim-list`)).filter((x) => x.businessId === id);
    expect((await call(s, kyglHb, 'POST', `${api}/complete-task`, { taskId: t.taskId, outcome: 'approve', comment: '同意' })).status).toBe(200);
    const done = (await records(kyglHb, `${api}/done-list-of-yuan`)).filter((x) => x.businessId === id);
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ taskKey: t.taskKey, outcome: 'approve', operatorName: '周审' });
    expect(done[0].record).toMatchObject({ id });
    expect((await records(kygl, `${api}/done-list-of-jituan`)).map((x) => x.businessId)).toContain(id);
    expect((await records(kygl, `${api}/done-list-of-yuan`)).map((x) => x.businessId)).not.toContain(id);
    expect((await call(s, kyry, 'GET', `${api}/done-list-of-jituan`)).status).toBe(403);
    expect((await records(other, `${api}/done-list-of-jituan`)).map((x) => x.businessId)).not.toContain(id);
  });

  it('todoBfList: every open declaration step each role may act on', async () => {
    const byState = new Map<number, string>();
    for (const r of (await s.kernel.database.pool.query(`SELECT id::text AS id, project_status::int AS st FROM project_baseinfo WHERE tenant_id = '000000' AND code = ANY($1)`, [DEMO.map((d) => d.code)])).rows) byState.set(r.st, r.id);
    const ids = async (who: Session) => (await records(who, '/api/project/baseinfo/todoBfList')).map((x) => x.businessId);
    const hb = await ids(kyglHb);
    expect(hb).toContain(byState.get(1));
    expect(hb).not.toContain(byState.get(2));
    const group = await ids(kygl);
    expect(group).toEqual(expect.arrayContaining([byState.get(2), byState.get(4)]));
    expect(group).not.toContain(byState.get(1));
    expect(await ids(sbdw)).toContain(byState.get(5));
    // the expert's steps are in expert-todo: the declaration's own lists need its read grant
    expect((await call(s, zj, 'GET', '/api/project/baseinfo/todoBfList')).status).toBe(403);
    expect(await ids(other)).toEqual([]);
    expect((await call(s, sbdw, 'GET', '/api/project/baseinfo/todoBfList?current=abc')).status).not.toBe(500);
  });
});

describe('task book', () => {
  it('bookTotalSave fills the task book of an approved declaration only', async () => {
    const api = '/api/project/baseinfo';
    const row = async (id: string) => (await s.kernel.database.pool.query(`SELECT name, research_content, total_budget::float AS total, budget_other::float AS other FROM project_baseinfo WHERE id = $1`, [id])).rows[0];
    const before = await row(approved);
    const content = `${tag} 任务书：在三个库点完成准低温储粮技术集成与示范。`;
    const budget = { totalBudget: 180, allocatedBudget: 100, selfRaisedBudget: 80, budgetEquipment: 50, budgetMaterial: 30, budgetTesting: 20, budgetTravel: 10, budgetMeeting: 10, budgetLabour: 40, budgetExpert: 10, budgetOther: 10 };
    const bad = await call(s, sbdw, 'POST', `${api}/bookTotalSave`, { id: approved, researchContent: content, ...budget, budgetOther: 30 });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('预算科目合计（200.00万元）与总经费（180.00万元）不一致');
    expect(await row(approved)).toEqual(before);
    const res = await call(s, sbdw, 'POST', `${api}/bookTotalSave`, { id: approved, name: `${tag} 改名`, researchContent: content, ...budget });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data.saveProcess.total).toBe(5);
    expect(await row(approved)).toEqual({ name: before.name, research_content: content, total: 180, other: 10 });
    expect((await call(s, sbdw, 'POST', `${api}/totalSave`, { id: approved, researchContent: '再改' })).body.msg).toBe('项目已提交申报，审核期间及审核完成后不能修改');
    const underReview = (await s.kernel.database.pool.query(`SELECT id::text AS id FROM project_baseinfo WHERE tenant_id = '000000' AND code = ANY($1) AND project_status = 1`, [DEMO.map((d) => d.code)])).rows[0].id;
    const early = await call(s, sbdw, 'POST', `${api}/bookTotalSave`, { id: underReview, researchContent: content });
    expect(early.status).toBe(400);
    expect(early.body.msg).toBe('项目立项后方可填写任务书');
    expect((await row(underReview)).research_content).not.toBe(content);
    expect((await call(s, sbdw, 'POST', `${api}/bookTotalSave`, { researchContent: content })).status).toBe(400);
    expect((await call(s, sbdw, 'POST', `${api}/bookTotalSave`, { id: 'abc' })).status).toBe(400);
    expect((await call(s, other, 'POST', `${api}/bookTotalSave`, { id: approved, researchContent: 'x' })).status).toBe(404);
    expect((await call(s, zj, 'POST', `${api}/bookTotalSave`, { id: approved, researchContent: 'x' })).status).toBe(403);
    expect((await row(approved)).research_content).toBe(content);
  });
});

describe('report examine', () => {
  it('research management examines a report through its process', async () => {
    const api = '/api/project/report';
    const rep = await call(s, sbdw, 'POST', `${api}/submit`, { title: `${tag} 年度报告`, projectId: approved, reportKind: '2', reportDate: '2026-11-25', progress: 60, workDone: '完成年度任务。' });
    expect(rep.status, rep.body.msg).toBe(200);
    const id = String(rep.body.data.id);
    expect((await call(s, sbdw, 'POST', `${api}/start-process`, { businessId: id })).status).toBe(200);
    const run = async () => (await s.kernel.database.pool.query(`SELECT run_status FROM flow_instance WHERE business_type = 'project/report' AND business_id = $1`, [id])).rows[0].run_status;
    const bad = await call(s, kyglHb, 'POST', `${api}/examine`, { businessId: id, outcome: 'maybe', comment: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('请选择审核结果');
    expect((await call(s, sbdw, 'POST', `${api}/examine`, { businessId: id, outcome: 'approve', comment: '自己审' })).status).toBe(403);
    expect(await run()).toBe('running');
    expect((await call(s, other, 'POST', `${api}/examine`, { businessId: id, outcome: 'approve' })).status).toBe(404);
    const done = await call(s, kyglHb, 'POST', `${api}/examine`, { businessId: id, outcome: 'approve', comment: '同意' });
    expect(done.status, done.body.msg).toBe(200);
    expect(await run()).not.toBe('running');
    expect((await records(kyglHb, '/api/project/reportexamine/list')).map((r) => String(r.id))).not.toContain(id);
    const again = await call(s, kyglHb, 'POST', `${api}/examine`, { businessId: id, outcome: 'approve' });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('该报告当前没有待审核的步骤');
  });
});

describe('every call of spec 001 §7', () => {
  // the paths of spec 001 §7 "Projects, /project/baseinfo" and "Other project modules", each with its method
  const GETS: Record<string, string[]> = {
    '/api/project/baseinfo': ['list', 'select', 'detail', 'getTotalDetail', 'getSaveProcess', 'claim-list', 'todo-list', 'claim-list-for-sbdw', 'claim-list-for-kygl', 'confirm-task', 'send-list',
      'done-list', 'listOfMyCompany', 'listOfMyCompanyAllProject', 'todoBfList', 'getDealWordOfRedis', 'generate', 'generateReportFile', 'generateReportFileList',
      'myCompanyProjectNumber', 'checkInfo', 'expert-todo', 'expert-done', 'preview', 'listOfStartMyCompany', 'checkRepeat'],
    '/api/project/report': ['list', 'detail', 'myList', 'myReport', 'confirm-task', 'send-list', 'todo-list', 'done-list', 'export-report', 'export-excel-report', 'export-word'],
    '/api/project/intent': ['list', 'detail', 'done-list-of-jituan', 'done-list-of-yuan'],
    '/api/project/template': ['list', 'detail', 'tree', 'checkVersion'],
    '/api/project/annex': ['list', 'clearFile'],
  };
  const POSTS: Record<string, string[]> = {
    '/api/project/baseinfo': ['remove', 'submit', 'totalSave', 'bookTotalSave', 'start-process', 'complete-task', 'dealWord', 'dealWordToRedis', 'download'],
    '/api/project/report': ['remove', 'submit', 'complete-task', 'start-process', 'examine', 'import-report'],
    '/api/project/guide': ['examine'],
    '/api/project/template': ['enable'],
    '/api/project/annex': ['submit'],
    '/api/project/systembanip': ['unseal'],
  };
  const GENERIC = ['reportrule', 'plan', 'itemchange', 'systembanip', 'itemchangeexamine', 'money', 'budget', 'guide', 'intent', 'expert'];

  it('each is served (research management of the group: an answer or a 400 for the missing parameters, never 404 or 500)', async () => {
    const served = (status: number) => status !== 404 && status < 500;
    const missing: string[] = [];
    for (const [api, calls] of Object.entries(GETS)) for (const c of calls) if (!served((await call(s, kygl, 'GET', `${api}/${c}`)).status)) missing.push(`GET ${api}/${c}`);
    for (const [api, calls] of Object.entries(POSTS)) for (const c of calls) if (!served((await call(s, kygl, 'POST', `${api}/${c}`, {})).status)) missing.push(`POST ${api}/${c}`);
    for (const m of GENERIC) for (const c of ['list', 'detail']) if (!served((await call(s, kygl, 'GET', `/api/project/${m}/${c}`)).status)) missing.push(`GET /api/project/${m}/${c}`);
    for (const path of ['/api/project/team/list', '/api/project/guideexamine/list', '/api/project/reportexamine/list']) if (!served((await call(s, kygl, 'GET', path)).status)) missing.push(`GET ${path}`);
    expect(missing).toEqual([]);
  });
});
