/**
 * Suppliers (issue 17; spec 001 §4 "Supplier: an application is submitted (submitApply) and examined", §7
 * basic/supplier; schemas/basic/supplier.json, schemas/flows/supplier-examine.bpmn): a declaring unit registers a
 * company (credit code checked with its GB 32100-2015 check character) and submits the application; research
 * management examines it through the supplierExamine process — a rejection goes back to the applicant, who
 * changes it and submits again; one supplier per credit code in a tenant; an approved supplier is offered by `select` and can be named as a project's
 * partner, an unapproved one cannot. Bad input is refused with its message storing nothing; a role without the
 * grant gets 403; another tenant sees nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, type Json, type Session, type TestServer, testServer } from './helpers.js';

let s: TestServer;
let sbdw: Session;
let kygl: Session;
let zj: Session;
let other: Session;
const API = '/api/basic/supplier';
const TAG = `sp${Date.now().toString(36)}`;
let approvedId = '';
let draftId = '';

const supplier = (name: string, over: Json = {}): Json => ({
  companyName: `${TAG} ${name}`, creditCode: '91350100M000100Y43', legalPerson: '张法', contactName: '李联', contactPhone: '13800138000',
  email: 'sales@example.com', address: '北京市海淀区粮储路1号', qualifications: '粮油仓储设备生产许可证；ISO 9001 质量管理体系认证。',
  attachments: [], ...over,
});
const act = (who: Session, path: string, body: Json) => call(s, who, 'POST', `${API}/${path}`, { businessType: 'basic/supplier', ...body });
const statusOf = async (id: string) => (await s.kernel.database.pool.query('SELECT supplier_status FROM basic_supplier WHERE id = $1', [id])).rows[0]?.supplier_status;

beforeAll(async () => {
  s = await testServer();
  [sbdw, kygl, zj] = await Promise.all(['sbdw', 'kygl', 'zj'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
});
afterAll(async () => {
  await s?.close();
});

describe('suppliers', () => {
  it('refuses a wrong credit code and missing fields with their messages, storing nothing', async () => {
    const cases: Array<[Json, string]> = [
      [{ creditCode: '91350100M000100Y44' }, '统一社会信用代码校验位错误'],
      [{ creditCode: '91350100M000100Y4' }, '统一社会信用代码长度不为18位'],
      [{ creditCode: '91350100M000100I43' }, '统一社会信用代码格式错误'],
      [{ creditCode: '' }, '请输入统一社会信用代码'],
      [{ companyName: '' }, '请输入企业名称'],
      [{ qualifications: '' }, '请填写资质情况'],
      [{ contactPhone: '1380013800' }, '手机号码长度不为11位'],
    ];
    for (const [over, message] of cases) {
      const res = await call(s, sbdw, 'POST', `${API}/submit`, supplier('坏', over));
      expect(res.status, message).toBe(400);
      expect(JSON.stringify(res.body), message).toContain(message);
    }
    const en = await call(s, sbdw, 'POST', `${API}/submit`, supplier('坏', { creditCode: '91350100M000100Y44' }), { 'accept-language': 'en' });
    expect(JSON.stringify(en.body)).toContain('The check character of the unified social credit code is wrong');
    expect(await countRows(s, 'basic_supplier', 'company_name = $1', [`${TAG} 坏`])).toBe(0);
  });

  it('a declaring unit applies, research management rejects, the applicant resubmits and it is approved', async () => {
    const res = await call(s, sbdw, 'POST', `${API}/submit`, supplier('粮仓设备有限公司', { creditCode: '91110000802100433b' }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    approvedId = res.body.data.id;
    expect(res.body.data.supplierStatus).toBe('0');
    // the status is written by the actions only
    const forged = await call(s, sbdw, 'POST', `${API}/submit`, { ...supplier('粮仓设备有限公司'), id: approvedId, supplierStatus: '2' });
    expect(forged.status).toBe(200);
    expect(await statusOf(approvedId)).toBe('0');
    // research management may not apply on the declaring unit's behalf (actor owner), and cannot examine a draft
    expect((await act(kygl, 'submitApply', { businessId: approvedId })).status).toBe(403);
    expect((await act(kygl, 'examine', { businessId: approvedId, action: 'approve' })).status).toBe(400);

    const sub = await act(sbdw, 'submitApply', { businessId: approvedId });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    expect(await statusOf(approvedId)).toBe('1');
    // locked while examined
    const edit = await call(s, sbdw, 'POST', `${API}/submit`, { ...supplier('改名'), id: approvedId });
    expect(edit.status).toBe(400);
    expect(await countRows(s, 'basic_supplier', 'company_name = $1', [`${TAG} 改名`])).toBe(0);
    // the declaring unit cannot examine; a rejection needs its reason
    expect((await act(sbdw, 'examine', { businessId: approvedId, action: 'approve' })).status).toBe(403);
    const noReason = await act(kygl, 'examine', { businessId: approvedId, action: 'reject', opinion: '' });
    expect(noReason.status).toBe(400);
    expect(JSON.stringify(noReason.body)).toContain('请输入驳回原因');
    expect(await statusOf(approvedId)).toBe('1');

    const todo = ((await call(s, kygl, 'GET', `${API}/todo-list?size=200`)).body.data.records as Json[]).filter((t) => t.businessId === approvedId);
    expect(todo.length + ((await call(s, kygl, 'GET', `${API}/claim-list?size=200`)).body.data.records as Json[]).filter((t) => t.businessId === approvedId).length).toBeGreaterThan(0);

    const rej = await act(kygl, 'examine', { businessId: approvedId, action: 'reject', opinion: '缺少生产许可证扫描件' });
    expect(rej.status, JSON.stringify(rej.body)).toBe(200);
    expect(await statusOf(approvedId)).toBe('3');
    const fixed = await call(s, sbdw, 'POST', `${API}/submit`, { ...supplier('粮仓设备有限公司', { creditCode: '91110000802100433B' }), id: approvedId, attachments: [] });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect((await act(sbdw, 'submitApply', { businessId: approvedId })).status).toBe(200);
    const ok = await act(kygl, 'examine', { businessId: approvedId, action: 'approve', opinion: '资质齐全' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await statusOf(approvedId)).toBe('2');
    const open = await s.kernel.database.pool.query(`SELECT count(*)::int AS n FROM flow_task WHERE business_id = $1 AND end_time IS NULL`, [approvedId]);
    expect(open.rows[0].n).toBe(0);
    const running = await s.kernel.database.pool.query(`SELECT count(*)::int AS n FROM flow_instance WHERE business_id = $1 AND run_status = 'running'`, [approvedId]);
    expect(running.rows[0].n).toBe(0);
  });

  it('select offers approved suppliers only; a project names an approved supplier as partner, not an unapproved one', async () => {
    const draft = await call(s, sbdw, 'POST', `${API}/submit`, supplier('未审核公司', { creditCode: '91440300708461136T' }));
    draftId = draft.body.data.id;
    // one supplier per credit code in a tenant (case and blanks aside), also for an edit
    const dup = await call(s, sbdw, 'POST', `${API}/submit`, supplier('重复登记', { creditCode: '91110000802100433b' }));
    expect(dup.status).toBe(400);
    expect(JSON.stringify(dup.body)).toContain('该统一社会信用代码的供应商已登记');
    expect(await countRows(s, 'basic_supplier', 'company_name = $1', [`${TAG} 重复登记`])).toBe(0);
    const dupEdit = await call(s, sbdw, 'POST', `${API}/submit`, { ...supplier('未审核公司', { creditCode: '91110000802100433B' }), id: draftId });
    expect(dupEdit.status).toBe(400);
    expect((await s.kernel.database.pool.query('SELECT credit_code FROM basic_supplier WHERE id = $1', [draftId])).rows[0].credit_code).toBe('91440300708461136T');
    expect((await call(s, sbdw, 'POST', `${API}/submit`, { ...supplier('未审核公司', { creditCode: '91440300708461136T' }), id: draftId })).status).toBe(200);
    const sel = await call(s, sbdw, 'GET', `${API}/select`);
    expect(sel.status).toBe(200);
    const ids = (sel.body.data as Json[]).map((r) => r.id);
    expect(ids).toContain(approvedId);
    expect(ids).not.toContain(draftId);
    expect((sel.body.data as Json[]).every((r) => r.supplierStatus === '2')).toBe(true);
    // the list shows every application the caller may read
    const list = await call(s, sbdw, 'GET', `${API}/list?companyName=${encodeURIComponent(TAG)}`);
    expect((list.body.data.records as Json[]).map((r) => r.id)).toEqual(expect.arrayContaining([approvedId, draftId]));

    const project = (name: string, partnerSuppliers: string[]): Json => ({
      name: `${TAG} ${name}`, code: `${TAG}-${name.length}`, type: '3', researchType: '2', deptId: sbdw.deptId, leader: '王申', leaderPhone: '13800000001',
      startDate: '2026-01-01', endDate: '2027-12-31', researchContent: '研究低温储粮条件下的粮情监测。', objectives: '形成可推广的技术。', indicators: '能耗降低15%。',
      totalBudget: 100, allocatedBudget: 60, selfRaisedBudget: 40,
      budgetEquipment: 30, budgetMaterial: 20, budgetTesting: 10, budgetTravel: 5, budgetMeeting: 5, budgetLabour: 20, budgetExpert: 5, budgetOther: 5,
      teamMembers: [{ name: '王申', unit: '华北储备库', title: '3', role: '1', workload: 12 }],
      partnerSuppliers,
    });
    const bad = await call(s, sbdw, 'POST', '/api/project/baseinfo/submit', project('未审核合作', [approvedId, draftId]));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('合作供应商不存在');
    expect(await countRows(s, 'project_baseinfo', 'name = $1', [`${TAG} 未审核合作`])).toBe(0);
    const good = await call(s, sbdw, 'POST', '/api/project/baseinfo/submit', project('已审核合作', [approvedId]));
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(good.body.data.partnerSuppliers).toEqual([approvedId]);
  });

  it('another tenant sees nothing; a role without the grant gets 403', async () => {
    expect((await call(s, other, 'GET', `${API}/list?companyName=${encodeURIComponent(TAG)}`)).body.data.records).toEqual([]);
    expect((await call(s, other, 'GET', `${API}/select`)).body.data.map((r: Json) => r.id)).not.toContain(approvedId);
    expect((await call(s, other, 'GET', `${API}/detail?id=${approvedId}`)).body.data ?? null).toBeNull();
    expect((await act(other, 'submitApply', { businessId: draftId })).status).toBeGreaterThanOrEqual(400);
    expect(await statusOf(draftId)).toBe('0');
    for (const [method, path] of [['GET', 'list'], ['GET', 'select'], ['GET', `detail?id=${approvedId}`]] as const) {
      expect((await call(s, zj, method, `${API}/${path}`)).status, path).toBe(403);
    }
    const add = await call(s, zj, 'POST', `${API}/submit`, supplier('专家代填'));
    expect(add.status).toBe(403);
    expect((await act(zj, 'submitApply', { businessId: draftId })).status).toBe(403);
    expect(await countRows(s, 'basic_supplier', 'company_name = $1', [`${TAG} 专家代填`])).toBe(0);
  });
});
