/**
 * Tasks done by each of the users a related resource names (src/server/modules/flow/parts.ts; bpmn.ts
 * `candidateUsersFrom`, `partDone`, `pickerRoles`): the expert review of a project declaration
 * (schemas/flows/project-declaration.bpmn, `expertReview` fed by project/expert rows) at API level:
 *
 * - no expert picked: the step waits with the group's research management (in their to-do list), who cannot
 *   complete it before picking (400 请先选定任务「专家评审」的办理人, nothing changed); no expert sees it;
 * - one pick: only that expert gets the task; an expert who was not picked neither sees it (expert-todo, 我的待办)
 *   nor completes or claims it (403 您不是任务「专家评审」的办理人, zh and en, nothing changed);
 * - two picks: each has their own part; a part is completed only after scoring (400, nothing changed); after the
 *   first expert the process still waits, after the second it moves on to 立项审批 with both experts' outcomes
 *   and scores in `parts.expertReview`;
 * - a pick removed while its part is open: the part goes; when the parts left are done the process moves on;
 * - another tenant gets nothing (404, empty lists).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let sbdw: Session, kyglHb: Session, kygl: Session, zj: Session, duo: Session, other: Session;
const API = '/api/project/baseinfo';
const tag = `P${Date.now().toString(36)}`;
const scores = { scoreInnovation: 25, scoreFeasibility: 24, scoreBenefit: 16, scoreTeam: 15 };

beforeAll(async () => {
  s = await testServer();
  [sbdw, kyglHb, kygl, zj, duo] = await Promise.all(['sbdw', 'kygl_hb', 'kygl', 'zj', 'duo'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
  // a second expert, of another company than the declaring unit (an expert of the same company must abstain)
  await s.kernel.database.pool.query(`UPDATE blade_user SET is_expert = true WHERE id = $1`, [duo.userId]);
});
afterAll(async () => {
  await s.kernel.database.pool.query(`UPDATE blade_user SET is_expert = false WHERE id = $1`, [duo.userId]);
  await s.close();
});

const q = async (text: string, params: unknown[]) => (await s.kernel.database.pool.query(text, params)).rows;
const status = async (id: string) => (await q(`SELECT project_status::int AS s FROM project_baseinfo WHERE id = $1`, [id]))[0].s as number;
const openTasks = async (id: string) =>
  (await q(`SELECT id::text AS id, task_key, assignee::text AS assignee, awaiting_candidates FROM flow_task WHERE business_id = $1 AND end_time IS NULL ORDER BY create_time, id`, [id])) as Json[];
const list = async (who: Session, path: string) => ((await call(s, who, 'GET', `${API}/${path}?size=200`)).body.data.records as Json[]);
const todos = async (who: Session, id: string) => (await q(`SELECT title, state::int AS state FROM basic_todo WHERE user_id = $1 AND business_id = $2 AND is_deleted = 0 AND state = 0`, [who.userId, id])) as Json[];

/** A declaration passed by the company and the group: waiting at 专家评审. */
async function atExpertReview(name: string): Promise<string> {
  const res = await call(s, sbdw, 'POST', `${API}/submit`, {
    name, code: `${tag}-${name.length}-${Math.random().toString(36).slice(2, 6)}`, type: '3', researchType: '2', deptId: sbdw.deptId, leader: '王申', leaderPhone: '13800000001',
    startDate: '2026-01-01', endDate: '2027-12-31', researchContent: '研究粮情监测方法。', objectives: '形成监测技术。', indicators: '申请发明专利1项。',
    totalBudget: 100, allocatedBudget: 60, selfRaisedBudget: 40,
    budgetEquipment: 30, budgetMaterial: 20, budgetTesting: 10, budgetTravel: 5, budgetMeeting: 5, budgetLabour: 20, budgetExpert: 5, budgetOther: 5,
  });
  expect(res.status, res.body.msg).toBe(200);
  const id = String(res.body.data.id);
  expect((await call(s, sbdw, 'POST', `${API}/start-process`, { businessId: id })).status).toBe(200);
  for (const who of [kyglHb, kygl]) {
    const t = (await list(who, 'claim-list-for-kygl')).find((x) => x.businessId === id)!;
    expect(t, 'claimable review').toBeTruthy();
    expect((await call(s, who, 'GET', `${API}/confirm-task?taskId=${t.taskId}`)).status).toBe(200);
    const done = await call(s, who, 'POST', `${API}/complete-task`, { taskId: t.taskId, outcome: 'approve', comment: '同意' });
    expect(done.status, done.body.msg).toBe(200);
  }
  expect(await status(id)).toBe(3);
  return id;
}

const pick = async (id: string, expert: Session) => {
  const res = await call(s, kygl, 'POST', '/api/project/expert/submit', { projectId: id, expertId: expert.userId, reviewDeadline: '2026-12-31' });
  expect(res.status, res.body.msg).toBe(200);
  return String(res.body.data.id);
};
const score = async (who: Session, reviewId: string) => {
  const res = await call(s, who, 'POST', '/api/project/expert/submitComment', { id: reviewId, ...scores, comment: '路线清晰，建议立项。' });
  expect(res.status, res.body.msg).toBe(200);
};
const complete = (who: Session, taskId: string, headers?: Record<string, string>) =>
  call(s, who, 'POST', '/api/blade-flow/process/complete-task', { taskId, outcome: 'done', comment: '评审完成' }, headers);

describe('expert review: the users picked in project/expert, and only they', () => {
  let id = '';
  let duoReview = '';
  let zjReview = '';

  it('no expert picked: the step waits with the group’s research management, who must pick first', async () => {
    id = await atExpertReview(`${tag} 多专家评审`);
    const open = await openTasks(id);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ task_key: 'expertReview', assignee: null, awaiting_candidates: true });
    expect((await list(kygl, 'todo-list')).some((t) => t.businessId === id)).toBe(true);
    expect(await todos(kygl, id)).toHaveLength(1);
    expect((await list(zj, 'expert-todo')).some((t) => t.businessId === id)).toBe(false);
    const early = await complete(kygl, open[0].id);
    expect(early.status).toBe(400);
    expect(early.body.msg).toBe('请先选定任务「专家评审」的办理人');
    expect((await complete(kygl, open[0].id, { 'accept-language': 'en' })).body.msg).toBe('Pick the handlers of the task "专家评审" first');
    expect(await openTasks(id)).toEqual(open);
    expect(await status(id)).toBe(3);
  });

  it('one pick: only that expert gets the task; an expert not picked gets 403 and changes nothing', async () => {
    duoReview = await pick(id, duo);
    const open = await openTasks(id);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ assignee: duo.userId, awaiting_candidates: false });
    expect(await todos(kygl, id)).toHaveLength(0); // the placeholder went with the pick
    expect(await todos(duo, id)).toHaveLength(1);
    expect((await list(duo, 'expert-todo')).map((t) => t.taskId)).toContain(open[0].id);
    // zj holds the expert role but was not picked: nothing to see, nothing to do
    expect((await list(zj, 'expert-todo')).some((t) => t.businessId === id)).toBe(false);
    expect((await list(zj, 'todo-list')).some((t) => t.businessId === id)).toBe(false);
    expect(await todos(zj, id)).toHaveLength(0);
    const refused = await complete(zj, open[0].id);
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('您不是任务「专家评审」的办理人');
    expect((await complete(zj, open[0].id, { 'accept-language': 'en' })).body.msg).toBe('You are not a handler of the task "专家评审"');
    const claim = await call(s, zj, 'GET', `${API}/confirm-task?taskId=${open[0].id}`);
    expect(claim.status).toBe(403);
    expect(await openTasks(id)).toEqual(open);
    expect(await countRows(s, 'flow_history', `task_id = $1`, [open[0].id])).toBe(0);
    expect(await status(id)).toBe(3);
  });

  it('two picks: each completes their own part after scoring; the process waits for both, then moves on', async () => {
    zjReview = await pick(id, zj);
    const open = await openTasks(id);
    expect(open.map((t) => t.assignee).sort()).toEqual([duo.userId, zj.userId].sort());
    const zjTask = open.find((t) => t.assignee === zj.userId)!;
    const duoTask = open.find((t) => t.assignee === duo.userId)!;
    // not scored yet: the part cannot be completed
    const unscored = await complete(zj, zjTask.id);
    expect(unscored.status).toBe(400);
    expect(unscored.body.msg).toBe('您在任务「专家评审」中的工作尚未完成，不能办理');
    expect(await openTasks(id)).toHaveLength(2);
    await score(zj, zjReview);
    // duo cannot complete zj's part either
    expect((await complete(duo, zjTask.id)).status).toBe(403);
    const first = await complete(zj, zjTask.id);
    expect(first.status, first.body.msg).toBe(200);
    expect(await status(id)).toBe(3); // still waiting for duo
    expect((await openTasks(id)).map((t) => t.id)).toEqual([duoTask.id]);
    expect((await list(zj, 'expert-done')).some((t) => t.taskId === zjTask.id)).toBe(true);
    await score(duo, duoReview);
    const last = await complete(duo, duoTask.id);
    expect(last.status, last.body.msg).toBe(200);
    expect(await status(id)).toBe(4);
    const next = await openTasks(id);
    expect(next).toHaveLength(1);
    expect(next[0].task_key).toBe('finalReview');
    // the next step sees both experts' outcomes and scores
    const vars = (await q(`SELECT variables FROM flow_instance WHERE business_id = $1 AND run_status = 'running'`, [id]))[0].variables as Json;
    expect(vars.parts.expertReview).toMatchObject({ total: 2, outcomes: { done: 2 } });
    expect((vars.parts.expertReview.results as Json[]).map((r) => [r.userId, Number(r.row.totalScore)]).sort()).toEqual([[duo.userId, 80], [zj.userId, 80]].sort());
    const hist = await call(s, kygl, 'GET', `${API}/getTotalDetail?projectId=${id}`);
    expect((hist.body.data.history as Json[]).filter((h) => h.taskKey === 'expertReview')).toHaveLength(2);
  });

  it('another tenant gets nothing', async () => {
    const t = (await q(`SELECT id::text AS id FROM flow_task WHERE business_id = $1 AND task_key = 'expertReview' ORDER BY create_time LIMIT 1`, [id]))[0];
    expect((await complete(other, t.id)).status).toBe(404);
    expect((await call(s, other, 'GET', `${API}/confirm-task?taskId=${t.id}`)).status).toBe(404);
    const todo = await call(s, other, 'GET', '/api/basic/todo/list?size=200');
    expect((todo.body.data.records as Json[]).some((r) => r.businessId === id)).toBe(false);
    expect(((await call(s, other, 'GET', `${API}/todo-list?size=200`)).body.data.records as Json[]).some((r) => r.businessId === id)).toBe(false);
  });
});

describe('expert review: a pick removed while its part is open', () => {
  it('the part goes with the pick; when the parts left are done, the process moves on', async () => {
    const id = await atExpertReview(`${tag} 移除专家`);
    const zjReview = await pick(id, zj);
    const duoReview = await pick(id, duo);
    await score(zj, zjReview);
    const zjTask = (await openTasks(id)).find((t) => t.assignee === zj.userId)!;
    expect((await complete(zj, zjTask.id)).status).toBe(200);
    expect(await status(id)).toBe(3);
    const removed = await call(s, kygl, 'POST', '/api/project/expert/delete', { id: duoReview, deleteReason: '专家出差，无法评审' });
    expect(removed.status, removed.body.msg).toBe(200);
    expect(await todos(duo, id)).toHaveLength(0);
    expect(await status(id)).toBe(4);
    expect((await openTasks(id)).map((t) => t.task_key)).toEqual(['finalReview']);
  });
});

describe('a file whose candidate users cannot be read', () => {
  it('is refused with the reason; nothing is deployed', async () => {
    const admin = await login(s, 'admin');
    const xml = (from: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:kc="http://kechuang.local/schema/bpmn" id="d" targetNamespace="t">
  <process id="${tag}parts" isExecutable="true">
    <startEvent id="s" /><sequenceFlow id="f1" sourceRef="s" targetRef="review" />
    <userTask id="review" name="评审" ${from} /><sequenceFlow id="f2" sourceRef="review" targetRef="e" /><endEvent id="e" />
  </process>
</definitions>`;
    const before = await countRows(s, 'flow_definition', 'process_key = $1', [`${tag}parts`]);
    const bad = await call(s, admin, 'POST', '/api/blade-flow/manager/deploy-upload', { category: 'test', files: [{ name: 'parts.bpmn', xml: xml('kc:candidateUsersFrom="project/expert,expertId"') }] });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('任务 review 的候选用户来源无法识别：project/expert,expertId（格式：资源:关联字段:用户字段）');
    const cond = await call(s, admin, 'POST', '/api/blade-flow/manager/deploy-upload', { category: 'test', files: [{ name: 'parts.bpmn', xml: xml('kc:candidateUsers="${experts}" kc:partDone="${row.score >}"') }] }, { 'accept-language': 'en' });
    expect(cond.status).toBe(400);
    expect(cond.body.msg).toContain('The part condition of task review cannot be read');
    expect(await countRows(s, 'flow_definition', 'process_key = $1', [`${tag}parts`])).toBe(before);
    const good = await call(s, admin, 'POST', '/api/blade-flow/manager/deploy-upload', { category: 'test', files: [{ name: 'parts.bpmn', xml: xml('kc:candidateUsers="${experts}"') }] });
    expect(good.status, good.body.msg).toBe(200);
    expect(await countRows(s, 'flow_definition', 'process_key = $1', [`${tag}parts`])).toBe(before + 1);
  });
});
