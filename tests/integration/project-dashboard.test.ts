/**
 * The project figures of the home page (src/server/modules/project/dashboard.ts; spec 001 §7 "Dashboards"):
 * each figure moves by exactly what a test adds (the database is shared with the other files, so figures are
 * compared before and after): a declaration counts for its registrant, its company and the group above it; an
 * approved project's budget and its funds (allocated, spent, balance) count for the company's money; an
 * expert's picked and submitted reviews count for the expert. A role without the declaration grant gets zeros;
 * another tenant's figures never move.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let sbdw: Session, kygl: Session, kyglHb: Session, zj: Session, other: Session;
const D = '/api/system/dashborad';
const tag = `PD${Date.now().toString(36)}`;

const get = async (who: Session, what: string) => {
  const r = await call(s, who, 'GET', `${D}/${what}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as Json;
};
const q = (text: string, params: unknown[] = []) => s.kernel.database.pool.query(text, params);

function declaration(name: string): Json {
  return {
    name, code: `${tag}-${name.length}`, type: '3', researchType: '2', deptId: sbdw.deptId, leader: '王申', leaderPhone: '13800000001',
    startDate: '2031-01-01', endDate: '2032-12-31', researchContent: '研究内容。', objectives: '目标。', indicators: '指标。',
    totalBudget: 100, allocatedBudget: 60, selfRaisedBudget: 40,
    budgetEquipment: 30, budgetMaterial: 20, budgetTesting: 10, budgetTravel: 5, budgetMeeting: 5, budgetLabour: 20, budgetExpert: 5, budgetOther: 5,
  };
}

beforeAll(async () => {
  s = await testServer();
  [sbdw, kygl, kyglHb, zj] = await Promise.all(['sbdw', 'kygl', 'kygl_hb', 'zj'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
});
afterAll(async () => {
  await s?.close();
});

describe('project dashboards', () => {
  it('counts a declaration for its registrant, its company and the group; another tenant does not move', async () => {
    const [mine0, hb0, group0, other0] = [await get(sbdw, 'myProjectNumber'), await get(kyglHb, 'companyProjectNumber'), await get(kygl, 'companyProjectNumber'), await get(other, 'companyProjectNumber')];
    const saved = await call(s, sbdw, 'POST', '/api/project/baseinfo/submit', declaration(`${tag} 看板项目`));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const mine1 = await get(sbdw, 'myProjectNumber');
    expect(mine1.total).toBe(mine0.total + 1);
    expect(mine1.byStatus['0']).toBe((mine0.byStatus['0'] ?? 0) + 1);
    const hb1 = await get(kyglHb, 'companyProjectNumber');
    expect(hb1.total).toBe(hb0.total + 1);
    expect(hb1.byCompany.find((c: Json) => c.companyId === hb1.companyId).total).toBe(hb0.byCompany.find((c: Json) => c.companyId === hb0.companyId).total + 1);
    const group1 = await get(kygl, 'companyProjectNumber');
    expect(group1.total).toBe(group0.total + 1);
    expect(group1.byCompany.map((c: Json) => c.companyId)).toContain(hb1.companyId);
    expect(await get(other, 'companyProjectNumber')).toEqual(other0);
  });

  it('sums the budgets of approved projects and their funds, in 10,000 CNY', async () => {
    const money0 = await get(kyglHb, 'companyProjectMoney');
    const saved = await call(s, sbdw, 'POST', '/api/project/baseinfo/submit', declaration(`${tag} 已立项项目`));
    const id = saved.body.data.id as string;
    await q(`UPDATE project_baseinfo SET project_status = 6 WHERE id = $1`, [id]); // decided by the process in project.test.ts
    for (const [moneyType, amount] of [['1', 10], ['2', 2.25], ['2', 0.5]] as const) {
      const r = await call(s, sbdw, 'POST', '/api/project/money/submit', { projectId: id, moneyType, subject: moneyType === '2' ? 'budgetTravel' : undefined, amount, occurDate: '2031-02-01' });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const money1 = await get(kyglHb, 'companyProjectMoney');
    expect(money1.declared.total).toBeCloseTo(money0.declared.total + 100, 2);
    expect(money1.approved).toEqual({ total: money0.approved.total + 100, allocated: money0.approved.allocated + 60, selfRaised: money0.approved.selfRaised + 40 });
    expect(money1.funds.allocated).toBeCloseTo(money0.funds.allocated + 10, 2);
    expect(money1.funds.spent).toBeCloseTo(money0.funds.spent + 2.75, 2);
    expect(money1.funds.balance).toBeCloseTo(money0.funds.balance + 7.25, 2);
    const y2031 = (d: Json) => d.byYear.find((y: Json) => y.year === 2031) ?? { approvedTotal: 0, spent: 0 };
    expect(y2031(money1).approvedTotal).toBeCloseTo(y2031(money0).approvedTotal + 100, 2);
    expect(y2031(money1).spent).toBeCloseTo(y2031(money0).spent + 2.75, 2);
  });

  it("counts the expert's own reviews, pending and submitted", async () => {
    const before = await get(zj, 'expertProject');
    const project = (await q(`SELECT id::text AS id FROM project_baseinfo WHERE tenant_id = '000000' AND is_deleted = 0 LIMIT 1`)).rows[0].id;
    for (const [status, score] of [[0, null], [1, 90]] as const) {
      await q(`INSERT INTO project_expert (id, tenant_id, project_id, expert_id, review_status, total_score, is_deleted) VALUES ((random() * 1e15)::bigint, '000000', $1, $2, $3, $4, 0)`, [project, zj.userId, status, score]);
    }
    const after = await get(zj, 'expertProject');
    expect([after.total, after.pending, after.submitted]).toEqual([before.total + 2, before.pending + 1, before.submitted + 1]);
    expect(after.averageScore).toBeGreaterThan(0);
    expect(await get(kygl, 'expertProject')).toMatchObject({ total: 0, pending: 0, submitted: 0 });
  });

  it('answers zeros to a role that may not read declarations', async () => {
    expect(await get(zj, 'myProjectNumber')).toEqual({ total: 0, byStatus: {} });
    expect((await get(zj, 'companyProjectMoney')).approved).toEqual({ total: 0, allocated: 0, selfRaised: 0 });
  });
});
