/**
 * Expert picking calls of issue 17 (spec 002 §7 project/expert: delete (id, deleteReason), batchSave; list,
 * detail, submit, remove and submitComment are tested in project.test.ts): research management picks several
 * experts at once — all or none —, and deletes a pick with its reason; bad input refused with its message and
 * nothing stored or deleted; 403 without the grant; another tenant finds nothing. The expert's own screen (专家评审,
 * issue 12): the list shows only the picks naming them, with the project's name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, type Json, type Session, type TestServer, testServer } from './helpers.js';

let s: TestServer;
let sbdw: Session;
let kygl: Session;
let zj: Session;
let duo: Session;
let kyry: Session;
let other: Session;
let projectId = '';
const API = '/api/project/expert';
const TAG = `ex${Date.now().toString(36)}`;
const q = (text: string, params: unknown[] = []) => s.kernel.database.pool.query(text, params);

beforeAll(async () => {
  s = await testServer();
  [sbdw, kygl, zj, duo, kyry] = await Promise.all(['sbdw', 'kygl', 'zj', 'duo', 'kyry'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
  await q('UPDATE blade_user SET is_expert = true WHERE id = $1', [duo.userId]);
  const p = await call(s, sbdw, 'POST', '/api/project/baseinfo/submit', {
    name: `${TAG} 粮堆多场耦合监测`, code: `${TAG}-1`, type: '3', researchType: '2', deptId: sbdw.deptId, leader: '王申', leaderPhone: '13800000001',
    startDate: '2026-01-01', endDate: '2027-12-31', researchContent: '研究粮堆温湿度耦合。', objectives: '形成监测方法。', indicators: '发明专利1项。',
    totalBudget: 100, allocatedBudget: 60, selfRaisedBudget: 40,
    budgetEquipment: 30, budgetMaterial: 20, budgetTesting: 10, budgetTravel: 5, budgetMeeting: 5, budgetLabour: 20, budgetExpert: 5, budgetOther: 5,
    teamMembers: [{ name: '王申', unit: '华北储备库', title: '3', role: '1', workload: 12 }],
  });
  expect(p.status, JSON.stringify(p.body)).toBe(200);
  projectId = p.body.data.id;
});
afterAll(async () => {
  await q('UPDATE blade_user SET is_expert = false WHERE id = $1', [duo.userId]).catch(() => undefined);
  await s?.close();
});

describe('project/expert batchSave and delete', () => {
  it('batchSave: one refused pick stores none of the batch', async () => {
    const bad = await call(s, kygl, 'POST', `${API}/batchSave`, { projectId, expertIds: [zj.userId, kyry.userId], reviewDeadline: '2026-12-31' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('所选用户不是评审专家');
    const twice = await call(s, kygl, 'POST', `${API}/batchSave`, [{ projectId, expertId: zj.userId }, { projectId, expertId: zj.userId }]);
    expect(twice.status).toBe(400);
    expect(JSON.stringify(twice.body)).toContain('该专家已是本项目的评审专家');
    expect((await call(s, kygl, 'POST', `${API}/batchSave`, [])).body.msg).toBe('请选择1到50位评审专家');
    expect((await call(s, kygl, 'POST', `${API}/batchSave`, { projectId, expertIds: Array(51).fill(zj.userId) })).body.msg).toBe('请选择1到50位评审专家');
    expect(await countRows(s, 'project_expert', 'project_id = $1', [projectId])).toBe(0);
  });

  it('batchSave picks several experts at once, each checked and filled as a single pick', async () => {
    const res = await call(s, kygl, 'POST', `${API}/batchSave`, { projectId, expertIds: [zj.userId, duo.userId], reviewDeadline: '2026-12-31' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((res.body.data as Json[]).map((r) => [r.expertId, r.expertName, r.reviewStatus])).toEqual([[zj.userId, '陈专', 0], [duo.userId, expect.any(String), 0]]);
    expect(await countRows(s, 'project_expert', 'project_id = $1 AND is_deleted = 0', [projectId])).toBe(2);
    const list = await call(s, kygl, 'GET', `${API}/list?projectId_equal=${projectId}`);
    expect(list.body.data.records).toHaveLength(2);
  });

  it('options: the tenant’s users marked expert, for the picking form; 403 without the add grant, another tenant none of ours', async () => {
    const res = await call(s, kygl, 'GET', `${API}/options`);
    expect(res.status).toBe(200);
    const ids = (res.body.data as Json[]).map((u) => u.id);
    expect(ids).toEqual(expect.arrayContaining([zj.userId, duo.userId]));
    expect(ids).not.toContain(kyry.userId); // not marked expert
    expect((res.body.data as Json[]).find((u) => u.id === zj.userId)).toMatchObject({ account: 'zj', name: expect.stringMatching(/^陈专/) });
    expect((await call(s, sbdw, 'GET', `${API}/options`)).status).toBe(403);
    expect((await call(s, zj, 'GET', `${API}/options`)).status).toBe(403);
    const theirs = await call(s, other, 'GET', `${API}/options`);
    expect((theirs.body.data as Json[] | undefined ?? []).map((u) => u.id)).not.toContain(zj.userId);
  });

  it('the expert’s 专家评审 lists only the picks naming them, with the project’s name; others 403, another tenant nothing', async () => {
    const ids = async (who: Session, url: string) => ((await call(s, who, 'GET', url)).body.data?.records as Json[] | undefined ?? []).map((r) => [r.expertId, r.projectName]);
    // research management (its 评审专家) sees both picks; the expert (their 专家评审, data scope on expert_id) only theirs
    expect(await ids(kygl, `${API}/list?projectId_equal=${projectId}`)).toEqual(expect.arrayContaining([[zj.userId, `${TAG} 粮堆多场耦合监测`], [duo.userId, `${TAG} 粮堆多场耦合监测`]]));
    const mine = await ids(zj, `${API}/list?size=200`);
    expect(mine).toContainEqual([zj.userId, `${TAG} 粮堆多场耦合监测`]);
    expect(mine.every(([expert]) => expert === zj.userId)).toBe(true);
    const duoPick = (await q('SELECT id::text AS id FROM project_expert WHERE project_id = $1 AND expert_id = $2 AND is_deleted = 0', [projectId, duo.userId])).rows[0].id;
    expect((await call(s, zj, 'GET', `${API}/detail?id=${duoPick}`)).status).toBe(404);
    // the expert reads, never picks
    expect((await call(s, zj, 'POST', `${API}/submit`, { projectId, expertId: zj.userId })).status).toBe(403);
    expect((await call(s, sbdw, 'GET', `${API}/list`)).status).toBe(403);
    expect((await call(s, other, 'GET', `${API}/list?size=200`)).body.data?.records ?? []).toEqual([]);
  });

  it('a database seeded before 专家评审 was built gets it enabled at the next seed; a menu the administrator disabled stays so', async () => {
    const menu = async () => (await q(`SELECT is_enabled, resource FROM blade_menu WHERE code = 'project_expert_todo' AND is_deleted = 0`)).rows[0];
    expect(await menu()).toEqual({ is_enabled: true, resource: 'project/expert' });
    try {
      await q(`UPDATE blade_menu SET is_enabled = false, resource = NULL WHERE code = 'project_expert_todo'`); // as the older seed left it
      await s.kernel.reseed();
      expect(await menu()).toEqual({ is_enabled: true, resource: 'project/expert' });
      await q(`UPDATE blade_menu SET is_enabled = false WHERE code = 'project_expert_todo'`); // an administrator's choice
      await s.kernel.reseed();
      expect(await menu()).toEqual({ is_enabled: false, resource: 'project/expert' });
    } finally {
      await q(`UPDATE blade_menu SET is_enabled = true, resource = 'project/expert' WHERE code = 'project_expert_todo'`);
    }
  });

  it('delete needs a reason and keeps it with the deleted pick', async () => {
    const row = (await q('SELECT id::text AS id FROM project_expert WHERE project_id = $1 AND expert_id = $2 AND is_deleted = 0', [projectId, duo.userId])).rows[0];
    const none = await call(s, kygl, 'POST', `${API}/delete?id=${row.id}`);
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain('请输入删除原因');
    const long = await call(s, kygl, 'POST', `${API}/delete`, { id: row.id, deleteReason: '长'.repeat(501) });
    expect(JSON.stringify(long.body)).toContain('删除原因不能超过500个字符');
    expect((await call(s, kygl, 'POST', `${API}/delete?id=abc&deleteReason=x`)).status).toBe(400);
    expect(await countRows(s, 'project_expert', 'id = $1 AND is_deleted = 0', [row.id])).toBe(1);
    // without the grant, and from another tenant: nothing deleted
    expect((await call(s, sbdw, 'POST', `${API}/delete?id=${row.id}&deleteReason=${encodeURIComponent('越权')}`)).status).toBe(403);
    expect((await call(s, sbdw, 'POST', `${API}/batchSave`, { projectId, expertIds: [zj.userId] })).status).toBe(403);
    expect((await call(s, other, 'POST', `${API}/delete?id=${row.id}&deleteReason=${encodeURIComponent('他租户')}`)).status).toBe(404);
    expect(await countRows(s, 'project_expert', 'id = $1 AND is_deleted = 0', [row.id])).toBe(1);
    const del = await call(s, kygl, 'POST', `${API}/delete?id=${row.id}&deleteReason=${encodeURIComponent('专家时间冲突，改派他人')}`);
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    const after = (await q('SELECT is_deleted, delete_reason FROM project_expert WHERE id = $1', [row.id])).rows[0];
    expect(after).toEqual({ is_deleted: 1, delete_reason: '专家时间冲突，改派他人' });
    expect((await call(s, kygl, 'GET', `${API}/detail?id=${row.id}`)).body.data ?? null).toBeNull();
  });

  it('a submitted review is not deleted; another tenant lists nothing', async () => {
    const row = (await q('SELECT id::text AS id FROM project_expert WHERE project_id = $1 AND expert_id = $2 AND is_deleted = 0', [projectId, zj.userId])).rows[0];
    const scores = { scoreInnovation: 25, scoreFeasibility: 25, scoreBenefit: 15, scoreTeam: 15 };
    expect((await call(s, zj, 'POST', `${API}/submitComment`, { id: row.id, ...scores, comment: '同意立项。' })).status).toBe(200);
    const del = await call(s, kygl, 'POST', `${API}/delete`, { id: row.id, deleteReason: '误选' });
    expect(del.status).toBe(400);
    expect(del.body.msg).toBe('评审意见已提交，不能修改');
    expect(await countRows(s, 'project_expert', 'id = $1 AND is_deleted = 0 AND delete_reason IS NULL', [row.id])).toBe(1);
    expect((await call(s, other, 'GET', `${API}/list?projectId_equal=${projectId}`)).body.data?.records ?? []).toEqual([]);
  });
});
