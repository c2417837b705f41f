/**
 * Research projects (issue 12; src/server/modules/project; schemas/project/*.json;
 * schemas/flows/project-declaration.bpmn) at API level:
 *
 * - the budget must add up: refused with the message, nothing stored; save progress and checkInfo;
 * - the whole declaration per role: the declaring unit (sbdw) declares; research management of its company
 *   (kygl_hb) claims and passes it, the group's (kygl) cannot claim that step but the next; the group picks
 *   an expert (not a non-expert), the expert (zj) scores and comments (only their own review), completes
 *   the review; the group approves; the project's state follows every step and a declared project is fixed;
 *   its 结题报告 passed by research management makes it 已结题 (a 中期报告 or a rejected 结题报告 does not);
 * - the project manager of the same company (xmfzr) sees it among the company's projects; another company
 *   (duo) and another tenant do not; non-permitted calls get 403; guides are examined and published.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let sbdw: Session, kyglHb: Session, kygl: Session, zj: Session, xmfzr: Session, duo: Session, other: Session;
const API = '/api/project/baseinfo';
const tag = `T${Date.now().toString(36)}`;

beforeAll(async () => {
  s = await testServer();
  [sbdw, kyglHb, kygl, zj, xmfzr, duo] = await Promise.all(['sbdw', 'kygl_hb', 'kygl', 'zj', 'xmfzr', 'duo'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
});
afterAll(async () => {
  await s.close();
});

function declaration(name: string, over: Json = {}): Json {
  return {
    name, code: `${tag}-${name.length}`, type: '3', researchType: '2', deptId: sbdw.deptId, leader: '王申', leaderPhone: '13800000001',
    cooperateUnits: '国家粮食和物资储备局科学研究院', startDate: '2026-01-01', endDate: '2027-12-31',
    researchContent: '研究低温储粮条件下的粮情监测与能耗控制方法。', objectives: '形成一套可推广的低温储粮节能控制技术。', indicators: '能耗降低15%；申请发明专利2项。',
    totalBudget: 100, allocatedBudget: 60, selfRaisedBudget: 40,
    budgetEquipment: 30, budgetMaterial: 20, budgetTesting: 10, budgetTravel: 5, budgetMeeting: 5, budgetLabour: 20, budgetExpert: 5, budgetOther: 5,
    teamMembers: [{ name: '王申', unit: '华北储备库', title: '3', role: '1', workload: 12 }, { name: '刘研', unit: '华北储备库', role: '3', workload: 6 }],
    ...over,
  };
}

const rowOf = async (id: string) => (await s.kernel.database.pool.query(`SELECT project_status::int AS project_status, declare_status::int AS declare_status, expert_score::float AS score, group_dept_id FROM project_baseinfo WHERE id = $1`, [id])).rows[0];
const taskFor = async (who: Session, list: string, id: string) => ((await call(s, who, 'GET', `${API}/${list}?size=200`)).body.data.records as Json[]).find((t) => t.businessId === id);

async function step(who: Session, list: string, id: string, outcome: string) {
  const t = await taskFor(who, list, id);
  expect(t, `${list} of ${outcome}`).toBeTruthy();
  expect((await call(s, who, 'GET', `${API}/confirm-task?taskId=${t!.taskId}`)).status).toBe(200);
  const done = await call(s, who, 'POST', `${API}/complete-task`, { taskId: t!.taskId, outcome, comment: `${outcome} by test` });
  expect(done.status, done.body.msg).toBe(200);
}

describe('declaration: budget arithmetic and save progress', () => {
  it('refuses a budget whose subjects do not add up to the total, storing nothing', async () => {
    const name = `${tag} 预算不符`;
    const res = await call(s, sbdw, 'POST', `${API}/submit`, declaration(name, { budgetOther: 15 }));
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('预算科目合计（110.00万元）与总经费（100.00万元）不一致');
    const res2 = await call(s, sbdw, 'POST', `${API}/submit`, declaration(name, { selfRaisedBudget: 30 }), { 'accept-language': 'en' });
    expect(res2.status).toBe(400);
    expect(res2.body.msg).toMatch(/Allocated and self-raised funds add up to 90\.00/);
    expect(await countRows(s, 'project_baseinfo', 'name = $1', [name])).toBe(0);
  });

  it('answers the save progress and what is missing', async () => {
    const res = await call(s, sbdw, 'POST', `${API}/totalSave`, declaration(`${tag} 进度`));
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data.saveProcess).toMatchObject({ done: 4, total: 5, percent: 80 });
    const id = res.body.data.record.id;
    const check = await call(s, sbdw, 'GET', `${API}/checkInfo?id=${id}`);
    expect(check.body.data).toEqual({ ok: false, missing: ['附件'] });
    expect((await call(s, sbdw, 'GET', `${API}/getSaveProcess?id=abc`)).status).toBe(400);
    expect((await call(s, other, 'GET', `${API}/getSaveProcess?id=${id}`)).status).toBe(404);
  });
});

describe('declaration: the lifecycle per role', () => {
  let id = '';
  it('the declaring unit declares; the record is then fixed', async () => {
    const res = await call(s, sbdw, 'POST', `${API}/submit`, declaration(`${tag} 低温储粮节能控制`));
    expect(res.status, res.body.msg).toBe(200);
    id = String(res.body.data.id);
    expect((await rowOf(id)).group_dept_id).toBeTruthy();
    const start = await call(s, sbdw, 'POST', `${API}/start-process`, { businessId: id });
    expect(start.status, start.body.msg).toBe(200);
    expect(await rowOf(id)).toMatchObject({ project_status: 1, declare_status: 1 });
    const edit = await call(s, sbdw, 'POST', `${API}/submit`, { ...declaration(`${tag} 改名`), id });
    expect(edit.status).toBe(400);
    expect(edit.body.msg).toBe('项目已提交申报，审核期间及审核完成后不能修改');
    expect((await call(s, sbdw, 'POST', `${API}/remove?ids=${id}`)).status).toBe(400);
  });

  it('the company’s research management reviews first; the group’s cannot claim that step', async () => {
    expect(await taskFor(kygl, 'claim-list-for-kygl', id)).toBeUndefined();
    expect(await taskFor(kyglHb, 'claim-list-for-kygl', id)).toMatchObject({ taskKey: 'companyReview' });
    await step(kyglHb, 'claim-list-for-kygl', id, 'approve');
    expect((await rowOf(id)).project_status).toBe(2);
    expect(await taskFor(kyglHb, 'claim-list-for-kygl', id)).toBeUndefined();
  });

  it('the group reviews and picks an expert: a non-expert refused, nothing stored', async () => {
    await step(kygl, 'claim-list-for-kygl', id, 'approve');
    expect((await rowOf(id)).project_status).toBe(3);
    const bad = await call(s, kygl, 'POST', '/api/project/expert/submit', { projectId: id, expertId: xmfzr.userId });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('所选用户不是评审专家');
    expect(await countRows(s, 'project_expert', 'project_id = $1', [id])).toBe(0);
    expect((await call(s, xmfzr, 'POST', '/api/project/expert/submit', { projectId: id, expertId: zj.userId })).status).toBe(403);
    const pick = await call(s, kygl, 'POST', '/api/project/expert/submit', { projectId: id, expertId: zj.userId, reviewDeadline: '2026-12-31' });
    expect(pick.status, pick.body.msg).toBe(200);
    expect(pick.body.data).toMatchObject({ expertName: '陈专', reviewStatus: 0 });
    const twice = await call(s, kygl, 'POST', '/api/project/expert/submit', { projectId: id, expertId: zj.userId });
    expect(twice.body.msg).toBe('该专家已是本项目的评审专家');
  });

  it('the expert scores against the indicators; the score lands on the project', async () => {
    const review = (await s.kernel.database.pool.query(`SELECT id::text AS id FROM project_expert WHERE project_id = $1 AND is_deleted = 0`, [id])).rows[0].id;
    const scores = { scoreInnovation: 25, scoreFeasibility: 26, scoreBenefit: 16, scoreTeam: 18 };
    expect((await call(s, kygl, 'POST', '/api/project/expert/submitComment', { id: review, ...scores, comment: '同意' })).status).toBe(403);
    const over = await call(s, zj, 'POST', '/api/project/expert/submitComment', { id: review, ...scores, scoreBenefit: 21, comment: '同意' });
    expect(over.status).toBe(400);
    expect(over.body.msg).toBe('预期效益评分须为0到20之间的整数');
    const sub = await call(s, zj, 'POST', '/api/project/expert/submitComment', { id: review, ...scores, comment: '技术路线清晰，建议立项。' });
    expect(sub.status, sub.body.msg).toBe(200);
    expect(sub.body.data).toMatchObject({ totalScore: 85, projectScore: 85 });
    expect((await rowOf(id)).score).toBe(85);
    expect((await call(s, zj, 'POST', '/api/project/expert/submitComment', { id: review, ...scores, comment: '再改' })).body.msg).toBe('评审意见已提交，不能修改');
    await step(zj, 'expert-todo', id, 'done');
    expect((await rowOf(id)).project_status).toBe(4);
  });

  it('the group approves; the total detail shows the experts and the history', async () => {
    await step(kygl, 'todo-list', id, 'approve');
    expect((await rowOf(id)).project_status).toBe(6);
    const total = await call(s, kygl, 'GET', `${API}/getTotalDetail?projectId=${id}`);
    expect(total.status).toBe(200);
    expect(total.body.data.experts).toHaveLength(1);
    expect((total.body.data.history as Json[]).map((h) => h.taskKey)).toEqual(['companyReview', 'groupReview', 'expertReview', 'finalReview']);
  });

  it('acceptance: a passed 结题报告 makes the project 已结题 (8) — a passed 中期报告 or a rejected 结题报告 does not', async () => {
    const report = async (title: string, kind: string, outcome: string) => {
      const rep = await call(s, sbdw, 'POST', '/api/project/report/submit', { title: `${tag} ${title}`, projectId: id, reportKind: kind, reportDate: '2026-11-25', workDone: '按计划完成。' });
      expect(rep.status, rep.body.msg).toBe(200);
      expect((await call(s, sbdw, 'POST', '/api/project/report/start-process', { businessId: String(rep.body.data.id) })).status).toBe(200);
      const done = await call(s, kyglHb, 'POST', '/api/project/report/examine', { businessId: String(rep.body.data.id), outcome, comment: '审核意见。' });
      expect(done.status, done.body.msg).toBe(200);
    };
    await report('中期报告', '2', 'approve');
    expect((await rowOf(id)).project_status).toBe(6);
    await report('结题报告', '3', 'reject');
    expect((await rowOf(id)).project_status).toBe(6);
    await report('结题报告（修改）', '3', 'approve');
    expect((await rowOf(id)).project_status).toBe(8);
    const edit = await call(s, sbdw, 'POST', `${API}/submit`, { id, name: `${tag} 改名` });
    expect(edit.status).toBe(400);
    expect(edit.body.msg).toBe('项目已提交申报，审核期间及审核完成后不能修改');
    const dict = await call(s, sbdw, 'GET', '/api/blade-system/dict-biz/dictionary?code=project_status');
    expect((dict.body.data as Json[]).find((d) => d.dictKey === '8')).toMatchObject({ dictValue: '已结题' });
  });

  it('the company sees its projects; another company and another tenant do not', async () => {
    const ids = async (who: Session, url: string) => ((await call(s, who, 'GET', `${API}/${url}?size=200`)).body.data?.records as Json[] | undefined ?? []).map((r) => String(r.id));
    expect(await ids(xmfzr, 'listOfMyCompany')).toContain(id);
    expect(await ids(xmfzr, 'listOfStartMyCompany')).toContain(id);
    expect(await ids(kygl, 'listOfMyCompanyAllProject')).toContain(id);
    expect(await ids(duo, 'listOfMyCompany')).not.toContain(id);
    expect(await ids(other, 'list')).not.toContain(id);
    expect((await call(s, other, 'GET', `${API}/detail?id=${id}`)).status).toBe(404);
    const n = await call(s, xmfzr, 'GET', `${API}/myCompanyProjectNumber`);
    expect(n.body.data.byStatus['6']).toBeGreaterThanOrEqual(1);
    expect((await call(s, zj, 'GET', `${API}/listOfMyCompany`)).status).toBe(403);
  });
});

describe('guides', () => {
  it('research management writes, submits and publishes a guide; others may not', async () => {
    const g = { name: `${tag} 指南`, guideYear: 2027, guideArea: '2', startDate: '2027-01-01', deadline: '2027-03-31', topics: '智能粮库', eligibility: '集团所属企业' };
    expect((await call(s, sbdw, 'POST', '/api/project/guide/submit', g)).status).toBe(403);
    const bad = await call(s, kygl, 'POST', '/api/project/guide/submit', { ...g, deadline: '2026-12-31' });
    expect(bad.body.msg).toBe('申报截止日期不能早于申报开始日期');
    const res = await call(s, kygl, 'POST', '/api/project/guide/submit', g);
    expect(res.status, res.body.msg).toBe(200);
    const gid = String(res.body.data.id);
    expect((await call(s, kygl, 'POST', '/api/project/guide/examine', { businessId: gid, action: 'submitExamine' })).status).toBe(200);
    const pending = (await call(s, kygl, 'GET', '/api/project/guideexamine/list?size=200')).body.data.records as Json[];
    expect(pending.map((x) => String(x.id))).toContain(gid);
    expect((await call(s, sbdw, 'GET', '/api/project/guideexamine/list')).status).toBe(403);
    const pub = await call(s, kygl, 'POST', '/api/project/guide/examine', { businessId: gid, action: 'publish', opinion: '同意发布' });
    expect(pub.status, pub.body.msg).toBe(200);
    const options = (await call(s, sbdw, 'GET', '/api/project/guide/options')).body.data as Json[];
    expect(options.map((o) => o.value)).toContain(gid);
    expect(((await call(s, other, 'GET', '/api/project/guide/options')).body.data as Json[]).map((o) => o.value)).not.toContain(gid);
  });
});
