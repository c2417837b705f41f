/**
 * The project sub-areas of spec 001 §2 / §7 "Other project modules" (issue 12), each nothing but a schema of
 * schemas/project/ (intent, plan, report, reportrule, itemchange, budget, money, annex) and, for the three
 * with a process, a BPMN file of schemas/flows/ — the proof that a new resource costs a schema:
 *
 * - every area answers its generic calls (submit, list, detail, remove) to the roles its menu grants, 403 to a
 *   role without the grant, and nothing to another tenant (its list is empty, the detail 404, the removal 404);
 * - a budget whose lines do not add up to its total is refused with the message (the schema's `sum` rule)
 *   and nothing is stored; a wrong project reference is refused;
 * - a report, a change and an intent run through their process: the researcher submits (start-process), research
 *   management of the company claims it from its to-do list and returns it, the applicant resubmits, research
 *   management approves; the applicant's send-list and the reviewer's done-list show it; a user of another
 *   company without the role, and another tenant, never see the task; an unknown outcome changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyProject, call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let kyry: Session, sbdw: Session, kygl: Session, kyglHb: Session, zj: Session, duo: Session, other: Session;
let projectId: string;
const tag = `PA${Date.now().toString(36)}`;

beforeAll(async () => {
  s = await testServer();
  [kyry, sbdw, kygl, kyglHb, zj, duo] = await Promise.all(['kyry', 'sbdw', 'kygl', 'kygl_hb', 'zj', 'duo'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
  projectId = await anyProject(s);
});
afterAll(async () => {
  await s?.close();
});

/** A valid record of each area, and the role that may write it. */
const areas: Array<[area: string, writer: () => Session, record: () => Json]> = [
  ['intent', () => kyry, () => ({ name: `${tag} 意向`, leader: '王研', summary: '粮堆多参数监测的意向研究。', expectedBudget: 50 })],
  ['plan', () => kygl, () => ({ name: `${tag} 计划`, planYear: 2027, projectId, planContent: '完成样机研制与两个库点的示范。', milestones: [{ milestone: '样机', dueDate: '2027-06-30' }] })],
  ['report', () => kyry, () => ({ title: `${tag} 中期报告`, projectId, reportKind: '2', reportDate: '2026-11-20', progress: 50, workDone: '完成了监测系统的部署。' })],
  ['reportrule', () => kygl, () => ({ name: `${tag} 中期规则`, reportKind: '2', basis: 'start', offsetMonths: 12, remindDays: 15 })],
  ['itemchange', () => kyry, () => ({ title: `${tag} 延期`, projectId, changeType: '2', newEndDate: '2028-06-30', changeReason: '设备到货延迟。', afterContent: '结束日期延至2028年6月。' })],
  ['budget', () => sbdw, () => ({ projectId, budgetYear: 2027, totalBudget: 30, items: [{ subject: 'budgetEquipment', amount: 20 }, { subject: 'budgetTravel', amount: 10 }] })],
  ['money', () => sbdw, () => ({ projectId, moneyType: '2', subject: 'budgetTravel', amount: 1.25, occurDate: '2026-11-01', voucherNo: 'V-001' })],
  ['annex', () => kyry, () => ({ name: `${tag} 任务书`, projectId, annexKind: '2' })],
];

describe('project sub-areas: generic calls, grants and tenants', () => {
  it.each(areas)('%s: the writer submits, lists, reads and removes; another tenant gets nothing; the expert gets 403', async (area, writer, record) => {
    const api = `/api/project/${area}`;
    const saved = await call(s, writer(), 'POST', `${api}/submit`, record());
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const id = saved.body.data.id as string;
    expect((await call(s, writer(), 'GET', `${api}/detail?id=${id}`)).body.data.id).toBe(id);
    expect(((await call(s, kygl, 'GET', `${api}/list?size=200`)).body.data.records as Json[]).map((r) => r.id)).toContain(id);
    // another tenant: nothing listed, nothing read, nothing removed
    expect(((await call(s, other, 'GET', `${api}/list?size=200`)).body.data?.records ?? []).map((r: Json) => r.id)).not.toContain(id);
    expect([403, 404]).toContain((await call(s, other, 'GET', `${api}/detail?id=${id}`)).status);
    await call(s, other, 'POST', `${api}/remove?ids=${id}`);
    expect(await countRows(s, `project_${area}`, 'id = $1 AND is_deleted = 0', [id])).toBe(1);
    // the expert has no grant on these menus
    expect((await call(s, zj, 'GET', `${api}/list`)).status).toBe(403);
    expect((await call(s, zj, 'POST', `${api}/submit`, record())).status).toBe(403);
    const removed = await call(s, kygl, 'POST', `${api}/remove?ids=${id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(await countRows(s, `project_${area}`, 'id = $1 AND is_deleted = 0', [id])).toBe(0);
  });

  it('refuses a budget whose lines do not add up to its total, and one naming no project of the tenant; nothing stored', async () => {
    const before = await countRows(s, 'project_budget');
    const bad = await call(s, sbdw, 'POST', '/api/project/budget/submit', { projectId, budgetYear: 2027, totalBudget: 30, items: [{ subject: 'budgetEquipment', amount: 20 }, { subject: 'budgetTravel', amount: 9.99 }] });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('预算明细合计（29.99万元）与预算总额（30.00万元）不一致');
    const en = await call(s, sbdw, 'POST', '/api/project/budget/submit', { projectId, budgetYear: 2027, totalBudget: 30, items: [{ subject: 'budgetEquipment', amount: 31 }] }, { 'accept-language': 'en' });
    expect(en.body.msg).toBe('The budget lines add up to 31.00 (10k CNY), not the total of 30.00');
    const empty = await call(s, sbdw, 'POST', '/api/project/budget/submit', { projectId, budgetYear: 2027, totalBudget: 30, items: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('请至少填写一条预算明细');
    const foreign = await call(s, sbdw, 'POST', '/api/project/budget/submit', { projectId: '123', budgetYear: 2027, totalBudget: 1, items: [{ subject: 'budgetOther', amount: 1 }] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.data).toEqual([{ field: 'projectId', message: '所属项目不存在' }]);
    expect(await countRows(s, 'project_budget')).toBe(before);
  });

  it('keeps the budget subject of spending only (an allocation has none)', async () => {
    const r = await call(s, sbdw, 'POST', '/api/project/money/submit', { projectId, moneyType: '1', subject: 'budgetTravel', amount: 10, occurDate: '2026-10-01' });
    expect(r.status).toBe(200);
    expect(r.body.data.subject).toBeNull();
  });
});

describe('team and documents calls', () => {
  it('lists the team members of the readable projects, filtered by project and name; another tenant none', async () => {
    const saved = await call(s, sbdw, 'POST', '/api/project/baseinfo/submit', {
      name: `${tag} 团队项目`, code: `${tag}-T`, type: '3', researchType: '2', deptId: sbdw.deptId, leader: '王申', startDate: '2027-01-01', endDate: '2027-12-31',
      totalBudget: 0, allocatedBudget: 0, selfRaisedBudget: 0,
      teamMembers: [{ name: `${tag}甲`, unit: '华北储备库', role: '1', workload: 12 }, { name: `${tag}乙`, unit: '华北储备库', role: '3', workload: 6.5 }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const id = saved.body.data.id as string;
    const all = await call(s, kygl, 'GET', `/api/project/team/list?projectId=${id}&size=50`);
    expect(all.status).toBe(200);
    expect(all.body.data.total).toBe(2);
    expect(all.body.data.records).toEqual([
      { projectId: id, projectName: `${tag} 团队项目`, name: `${tag}甲`, unit: '华北储备库', title: null, role: '1', workload: 12 },
      { projectId: id, projectName: `${tag} 团队项目`, name: `${tag}乙`, unit: '华北储备库', title: null, role: '3', workload: 6.5 },
    ]);
    const named = await call(s, kygl, 'GET', `/api/project/team/list?name=${encodeURIComponent(`${tag}乙`)}`);
    expect(named.body.data.records.map((r: Json) => r.name)).toEqual([`${tag}乙`]);
    expect((await call(s, kygl, 'GET', '/api/project/team/list?projectId=x')).status).toBe(400);
    const foreign = await call(s, other, 'GET', `/api/project/team/list?projectId=${id}`);
    expect(foreign.status === 403 || foreign.body.data.total === 0).toBe(true);
    expect((await call(s, zj, 'GET', '/api/project/team/list')).status).toBe(403);
  });

  it('clears the files of a project document record; another tenant 404, the expert 403', async () => {
    const saved = await call(s, kyry, 'POST', '/api/project/annex/submit', { name: `${tag} 附件`, projectId, annexKind: '7', files: [{ name: 'upload/20260101/x.pdf', originalName: 'x.pdf' }] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const id = saved.body.data.id as string;
    expect([403, 404]).toContain((await call(s, other, 'GET', `/api/project/annex/clearFile?id=${id}`)).status);
    expect((await call(s, zj, 'GET', `/api/project/annex/clearFile?id=${id}`)).status).toBe(403);
    const cleared = await call(s, kyry, 'GET', `/api/project/annex/clearFile?id=${id}`);
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.data.files).toEqual([]);
    expect(await countRows(s, 'project_annex', `id = $1 AND files = '[]'::jsonb`, [id])).toBe(1);
  });
});

describe('reports, changes and intents on their processes', () => {
  const tasks = async (who: Session, api: string, list: string, id: string) => ((await call(s, who, 'GET', `${api}/${list}?size=200`)).body.data.records as Json[]).filter((t) => t.businessId === id);

  it.each([
    ['report', { title: `${tag} 结题报告`, reportKind: '3', reportDate: '2026-11-21', workDone: '完成全部研究内容。' }],
    ['itemchange', { title: `${tag} 负责人变更`, changeType: '1', changeReason: '原负责人调岗。', afterContent: '负责人变更为刘研。' }],
    ['intent', { name: `${tag} 新意向`, leader: '王研', summary: '储粮害虫绿色防控。' }],
  ])('%s: submitted, returned, resubmitted and approved by research management of the company', async (area, rec) => {
    const api = `/api/project/${area}`;
    const body = { ...rec, ...(area === 'intent' ? {} : { projectId }) };
    const saved = await call(s, kyry, 'POST', `${api}/submit`, body);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const id = saved.body.data.id as string;
    const started = await call(s, kyry, 'POST', `${api}/start-process`, { businessId: id });
    expect(started.status, JSON.stringify(started.body)).toBe(200);

    // research management of kyry's company (华北) sees it; a researcher of another company (华东) and the other
    // tenant do not (a 403 or an empty list)
    const [review] = await tasks(kyglHb, api, 'claim-list', id);
    expect(review, 'claim-list of kygl_hb').toBeTruthy();
    expect(await tasks(duo, api, 'claim-list', id).catch(() => [])).toEqual([]);
    expect((await call(s, other, 'GET', `${api}/claim-list?size=200`)).body.data?.records ?? []).toEqual([]);
    expect((await call(s, kyglHb, 'GET', `${api}/confirm-task?taskId=${review.taskId}`)).status).toBe(200);
    const returned = await call(s, kyglHb, 'POST', `${api}/complete-task`, { taskId: review.taskId, outcome: 'return', comment: '请补充附件' });
    expect(returned.status, JSON.stringify(returned.body)).toBe(200);

    const [adjust] = await tasks(kyry, api, 'todo-list', id);
    expect(adjust, 'the applicant adjusts').toBeTruthy();
    expect((await call(s, kyry, 'POST', `${api}/complete-task`, { taskId: adjust.taskId, outcome: 'submit', comment: '已补充' })).status).toBe(200);

    const [again] = await tasks(kyglHb, api, 'claim-list', id);
    expect(again, 'back to research management').toBeTruthy();
    const approved = await call(s, kyglHb, 'POST', `${api}/complete-task`, { taskId: again.taskId, outcome: 'approve', comment: '同意' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);

    expect(await tasks(kyglHb, api, 'claim-list', id)).toEqual([]);
    expect((await tasks(kyglHb, api, 'done-list', id)).length).toBe(2);
    const sent = (await call(s, kyry, 'GET', `${api}/send-list?size=200`)).body.data.records as Json[];
    expect(sent.map((x) => x.businessId)).toContain(id);
  });

  it('refuses an unknown outcome with a message, changing nothing', async () => {
    const api = '/api/project/report';
    const saved = await call(s, kyry, 'POST', `${api}/submit`, { title: `${tag} 开题报告`, projectId, reportKind: '1', reportDate: '2026-11-22', workDone: '开题。' });
    const id = saved.body.data.id as string;
    expect((await call(s, kyry, 'POST', `${api}/start-process`, { businessId: id })).status).toBe(200);
    const [t] = await tasks(kyglHb, api, 'claim-list', id);
    const bad = await call(s, kyglHb, 'POST', `${api}/complete-task`, { taskId: t.taskId, outcome: 'maybe', comment: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBeTruthy();
    expect(await tasks(kyglHb, api, 'claim-list', id)).toHaveLength(1);
  });
});
