/**
 * The examination of achievements (spec 001 §7 '/basic examine, examinerecord'; the schemas' workflow
 * `actions`, src/server/modules/flow/actions.ts and modules/basic/examine.ts), end to end at API level:
 *
 * - the researcher kyry (华北分公司) registers a thesis and submits it (0 → 1); research management of the
 *   group (kygl) rejects it — without an opinion first (请输入审核意见, nothing stored) — the researcher reads
 *   the opinion in the history, edits the record and submits it again (3 → 1); it is approved (1 → 2); the
 *   history lists every step in order with who, as which role, and when;
 * - a record waiting for review or approved can be neither edited nor removed; a submit cannot set the status;
 * - the actor rules: only the registrant submits; research management of 华北分公司 (kygl_hb) decides its own
 *   company's records and not 华东分公司's, while the group's research management decides both; a researcher
 *   may not decide; another company sees nothing of an examination; another tenant gets nothing;
 * - wrong-state actions, and malformed requests, are refused with a message and change nothing.
 *
 * Test files share one database: every record carries TAG in its title and the lists filter on it.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';
import { checkActions } from '../../src/shared/schema/check-actions.js';
import type { ResourceSchema } from '../../src/shared/schema/types.js';

let s: TestServer;
let kyry: Session; // researcher, 华北分公司 / 仓储管理部 (own records)
let kygl: Session; // research management, group company (集团科技信息部)
let kyglHb: Session; // research management, 华北分公司
let sbdw: Session; // declaring unit, 华北分公司 / 仓储管理部
let duo: Session; // researcher + project manager, 华东分公司
let other: Session; // administrator of tenant 100001
const TAG = `EX${Date.now().toString(36)}`;

const SUBMIT = '/api/basic/examine/submit';
const AGAIN = '/api/basic/examine/againSubmit';
const DECIDE = '/api/basic/examinerecord/submit';
const RECORDS = '/api/basic/examinerecord/list';
const LIST = '/api/basic/examine/list';
const COMPANY = '/api/basic/examine/list-for-company';

beforeAll(async () => {
  s = await testServer();
  [kyry, kygl, kyglHb, sbdw, duo] = await Promise.all(['kyry', 'kygl', 'kygl_hb', 'sbdw', 'duo'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
});
afterAll(async () => {
  await s.close();
});

function thesis(title: string, deptId: string): Json {
  return {
    title: `${TAG} ${title}`,
    projectSource: 3,
    projectName: '智能粮库关键技术研究',
    projectType: '3',
    publish: '粮油食品科技',
    publishDate: '2024',
    issueNumber: '4',
    pageScope: '12-18',
    level: '5',
    scope: '2',
    deptId,
    authorDetailForm: [{ name: '刘研', rank: 1 }],
    annex: [{ name: '论文.pdf', link: '/upload/20250101/a.pdf' }],
  };
}

async function register(who: Session, title: string): Promise<Json> {
  const res = await call(s, who, 'POST', '/api/basic/thesis/submit', thesis(title, who.deptId));
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data;
}

const detail = async (id: string) => (await call(s, kygl, 'GET', `/api/basic/thesis/detail?id=${id}`)).body.data as Json;
const steps = (id: string) => countRows(s, 'basic_examine_record', 'business_id = $1', [id]);
const history = async (who: Session, id: string) => (await call(s, who, 'GET', `${RECORDS}?businessId=${id}&size=50`)).body.data.records as Json[];

/** Asserts that a refused request left the record's status and history as they were. */
async function unchanged(id: string, status: string, stepCount: number) {
  expect((await detail(id)).examineStatus).toBe(status);
  expect(await steps(id)).toBe(stepCount);
}

describe('the shipped schemas', () => {
  it('declare the four examination actions, consistent with their fields (checkActions)', () => {
    for (const type of ['patent', 'thesis', 'softwarecopyright', 'book', 'award', 'standard']) {
      const schema = JSON.parse(fs.readFileSync(new URL(`../../schemas/basic/${type}.json`, import.meta.url), 'utf8')) as ResourceSchema;
      expect(checkActions(schema), type).toEqual([]);
      expect(schema.actions!.items.map((a) => [a.key, a.from, a.to, a.endpoint])).toEqual([
        ['submitExamine', ['0', '3'], '1', SUBMIT],
        ['approve', ['1'], '2', DECIDE],
        ['reject', ['1'], '3', DECIDE],
        ['againSubmit', ['3'], '1', AGAIN],
      ]);
      const reject = schema.actions!.items.find((a) => a.key === 'reject')!;
      expect(JSON.stringify(reject.dialog)).toContain('请输入审核意见');
    }
  });

  it('checkActions finds a status field that is not server-only and a generic endpoint', () => {
    const schema = JSON.parse(fs.readFileSync(new URL('../../schemas/basic/book.json', import.meta.url), 'utf8')) as ResourceSchema;
    const bad = structuredClone(schema);
    bad.actions!.statusField = 'name';
    bad.actions!.items[0].endpoint = '/api/basic/book/submit';
    expect(checkActions(bad)).toEqual([
      '/actions/submitExamine: /api/basic/book/submit is a generic endpoint of the resource',
      '/actions/statusField: field "name" must be x-server-only',
    ]);
  });
});

describe('the examination flow: submit, reject, change, submit again, approve', () => {
  let rec: Json;

  it('a new record is a draft (0), and a submit cannot set the status', async () => {
    const res = await call(s, kyry, 'POST', '/api/basic/thesis/submit', { ...thesis('低温储粮稻谷品质研究', kyry.deptId), examineStatus: '2' });
    expect(res.status).toBe(200);
    rec = res.body.data;
    expect(rec.examineStatus).toBe('0');
    const upd = await call(s, kyry, 'POST', '/api/basic/thesis/submit', { id: rec.id, examineStatus: '2' });
    expect(upd.status).toBe(200);
    expect(upd.body.data.examineStatus).toBe('0');
    expect(await steps(rec.id)).toBe(0);
  });

  it('a draft cannot be approved or submitted again (wrong state), nothing changes', async () => {
    const approve = await call(s, kygl, 'POST', DECIDE, { businessId: rec.id, businessType: 'thesis', action: 'approve' });
    expect(approve.status).toBe(400);
    expect(approve.body.msg).toBe('当前状态为「草稿」，不能执行「审核通过」');
    const again = await call(s, kyry, 'POST', AGAIN, { businessId: rec.id, businessType: 'thesis' });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('当前状态为「草稿」，不能执行「重新提交」');
    await unchanged(rec.id, '0', 0);
  });

  it('only the registrant submits: the declaring unit of the same department may not (403)', async () => {
    const res = await call(s, sbdw, 'POST', SUBMIT, { businessId: rec.id, businessType: 'thesis' });
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe('只有登记人才能执行「提交审核」');
    await unchanged(rec.id, '0', 0);
  });

  it('the researcher submits it (0 → 1): the examination row and the record say 待审核', async () => {
    const res = await call(s, kyry, 'POST', SUBMIT, { businessId: rec.id, businessType: 'basic/thesis' });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.msg).toBe('提交成功');
    expect(res.body.data).toMatchObject({
      businessType: 'basic/thesis', businessTypeName: '论文', businessId: rec.id, businessName: rec.title, examineStatus: '1',
      submitUser: kyry.userId, submitUserName: '刘研', companyName: '华北分公司', opinion: null, examineUser: null,
    });
    expect(res.body.data.submitTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await detail(rec.id)).examineStatus).toBe('1');
  });

  it('waiting for review it can be neither edited nor removed nor submitted twice', async () => {
    const edit = await call(s, kyry, 'POST', '/api/basic/thesis/submit', { id: rec.id, title: `${TAG} 改名` });
    expect(edit.status).toBe(400);
    expect(edit.body.msg).toBe('当前状态为「待审核」，不能修改');
    const en = await call(s, kyry, 'POST', '/api/basic/thesis/submit', { id: rec.id, title: `${TAG} 改名` }, { 'accept-language': 'en' });
    expect(en.body.msg).toBe('The record is pending review and cannot be changed');
    const remove = await call(s, kyry, 'POST', `/api/basic/thesis/remove?ids=${rec.id}`);
    expect(remove.status).toBe(400);
    expect(remove.body.msg).toBe('当前状态为「待审核」，不能删除');
    const twice = await call(s, kyry, 'POST', SUBMIT, { businessId: rec.id, businessType: 'thesis' });
    expect(twice.status).toBe(400);
    expect(twice.body.msg).toBe('当前状态为「待审核」，不能执行「提交审核」');
    expect((await detail(rec.id)).title).toBe(rec.title);
    await unchanged(rec.id, '1', 1);
  });

  it('a researcher may not decide (403)', async () => {
    const res = await call(s, kyry, 'POST', DECIDE, { businessId: rec.id, businessType: 'thesis', action: 'approve' });
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe('当前角色无权执行「审核通过」');
    await unchanged(rec.id, '1', 1);
  });

  it('rejecting without an opinion (or a blank one): 请输入审核意见, nothing stored', async () => {
    for (const opinion of [undefined, '', '   ']) {
      const res = await call(s, kygl, 'POST', DECIDE, { businessId: rec.id, businessType: 'thesis', action: 'reject', ...(opinion === undefined ? {} : { opinion }) });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('请输入审核意见');
      expect(res.body.data).toEqual([{ field: 'opinion', message: '请输入审核意见' }]);
    }
    const en = await call(s, kygl, 'POST', DECIDE, { businessId: rec.id, businessType: 'thesis', action: 'reject' }, { 'accept-language': 'en' });
    expect(en.body.msg).toBe('Please enter the review opinion');
    const long = await call(s, kygl, 'POST', DECIDE, { businessId: rec.id, businessType: 'thesis', action: 'reject', opinion: '意'.repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body.msg).toBe('审核意见不能超过500个字符');
    await unchanged(rec.id, '1', 1);
  });

  it('research management of the group rejects it with an opinion (1 → 3)', async () => {
    const res = await call(s, kygl, 'POST', DECIDE, { businessId: rec.id, businessType: 'thesis', action: 'reject', opinion: '  页码范围与刊物不符，请核对  ' });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.msg).toBe('已驳回');
    expect(res.body.data).toMatchObject({ examineStatus: '3', opinion: '页码范围与刊物不符，请核对', examineUser: kygl.userId, examineUserName: '李科' });
    expect((await detail(rec.id)).examineStatus).toBe('3');
  });

  it('the researcher reads the opinion in the history', async () => {
    const h = await history(kyry, rec.id);
    expect(h.map((x) => [x.action, x.fromStatus, x.toStatus, x.opinion, x.operatorName])).toEqual([
      ['submitExamine', '0', '1', null, '刘研'],
      ['reject', '1', '3', '页码范围与刊物不符，请核对', '李科'],
    ]);
  });

  it('rejected, it can be edited, then submitted again (3 → 1) with a note', async () => {
    const edit = await call(s, kyry, 'POST', '/api/basic/thesis/submit', { id: rec.id, pageScope: '12-19' });
    expect(edit.status, edit.body.msg).toBe(200);
    expect(edit.body.data).toMatchObject({ pageScope: '12-19', examineStatus: '3' });
    const res = await call(s, kyry, 'POST', AGAIN, { businessId: rec.id, businessType: 'thesis', opinion: '已核对页码' });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toMatchObject({ examineStatus: '1', opinion: null, examineUser: null });
  });

  it('approval by examineId and status (1 → 2); approved, it is locked', async () => {
    const exam = (await call(s, kygl, 'GET', `${LIST}?businessName=${TAG}&examineStatus=1&size=50`)).body.data.records.find((e: Json) => e.businessId === rec.id);
    expect(exam).toBeTruthy();
    const res = await call(s, kygl, 'POST', DECIDE, { examineId: exam.id, status: '2', opinion: '同意' });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.msg).toBe('审核通过');
    expect(res.body.data).toMatchObject({ id: exam.id, examineStatus: '2', opinion: '同意', examineUserName: '李科' });
    expect((await detail(rec.id)).examineStatus).toBe('2');
    const edit = await call(s, kyry, 'POST', '/api/basic/thesis/submit', { id: rec.id, pageScope: '1-2' });
    expect(edit.status).toBe(400);
    expect(edit.body.msg).toBe('当前状态为「审核通过」，不能修改');
    for (const [who, url, body] of [
      [kygl, DECIDE, { businessId: rec.id, businessType: 'thesis', action: 'reject', opinion: '再驳回' }],
      [kyry, AGAIN, { businessId: rec.id, businessType: 'thesis' }],
      [kyry, SUBMIT, { businessId: rec.id, businessType: 'thesis' }],
    ] as const) {
      const again = await call(s, who, 'POST', url, body);
      expect(again.status).toBe(400);
      expect(again.body.msg).toMatch(/^当前状态为「审核通过」，不能执行「.+」$/);
    }
    await unchanged(rec.id, '2', 4);
  });

  it('the history shows every step in order, with who, as which role, and when', async () => {
    const h = await history(kyry, rec.id);
    expect(h.map((x) => [x.action, x.actionName, x.fromStatus, x.toStatus, x.opinion, x.operatorUser, x.operatorName, x.operatorRole])).toEqual([
      ['submitExamine', '提交审核', '0', '1', null, kyry.userId, '刘研', 'researcher'],
      ['reject', '驳回', '1', '3', '页码范围与刊物不符，请核对', kygl.userId, '李科', 'kygl'],
      ['againSubmit', '重新提交', '3', '1', '已核对页码', kyry.userId, '刘研', 'researcher'],
      ['approve', '审核通过', '1', '2', '同意', kygl.userId, '李科', 'kygl'],
    ]);
    const times = h.map((x) => x.createTime as string);
    for (const t of times) expect(t).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect([...times].sort()).toEqual(times);
    // the examiner and the registrant's company see the same history; paging works
    expect((await history(kygl, rec.id)).length).toBe(4);
    const page = (await call(s, kyry, 'GET', `${RECORDS}?businessId=${rec.id}&size=2&current=2`)).body.data;
    expect(page).toMatchObject({ total: 4, size: 2, current: 2, pages: 2 });
    expect(page.records.map((x: Json) => x.action)).toEqual(['againSubmit', 'approve']);
  });
});

describe('who may act and see: company, role and tenant', () => {
  let north: Json; // kyry's, 华北分公司
  let east: Json; // duo's, 华东分公司

  beforeAll(async () => {
    north = await register(kyry, '华北 粮情测控');
    east = await register(duo, '华东 智能通风');
    for (const [who, rec] of [[kyry, north], [duo, east]] as const) {
      const res = await call(s, who, 'POST', SUBMIT, { businessId: rec.id, businessType: 'thesis' });
      expect(res.status, res.body.msg).toBe(200);
    }
  });

  it('research management of 华北分公司 may not decide a record of 华东分公司 (outside its data scope: 404), nothing changes', async () => {
    // kygl_hb's data scope is its own company and below (ownCompanyAndChildren): 华东's record is not found
    // before the action's company rule (companyTree) is even asked
    const res = await call(s, kyglHb, 'POST', DECIDE, { businessId: east.id, businessType: 'thesis', action: 'approve' });
    expect(res.status).toBe(404);
    expect(res.body.msg).toBe('数据不存在');
    await unchanged(east.id, '1', 1);
  });

  it('examine/list: 华北 research management lists its company only, the group’s lists every company, others 403', async () => {
    const names = async (who: Session) => ((await call(s, who, 'GET', `${LIST}?name=${TAG}&businessType=thesis&size=50`)).body.data.records as Json[]).map((e) => e.businessId);
    const hb = await names(kyglHb);
    expect(hb).toContain(north.id);
    expect(hb).not.toContain(east.id);
    const group = await names(kygl);
    expect(group).toEqual(expect.arrayContaining([north.id, east.id]));
    for (const who of [kyry, sbdw, duo]) {
      const res = await call(s, who, 'GET', LIST);
      expect(res.status).toBe(403);
    }
    const filtered = (await call(s, kygl, 'GET', `${LIST}?name=${TAG}&examineStatus=1&size=50`)).body.data;
    expect(filtered.records.every((e: Json) => e.examineStatus === '1')).toBe(true);
    expect(filtered.records.map((e: Json) => e.businessId)).toEqual(expect.arrayContaining([north.id, east.id]));
    expect((await call(s, kygl, 'GET', `${LIST}?businessType=nosuch`)).body.msg).toBe('参数 businessType 的值无效');
    expect((await call(s, kygl, 'GET', `${LIST}?foo=1`)).body.msg).toBe('未知的查询条件: foo');
  });

  it('examine/list-for-company: the caller’s own company only', async () => {
    const ids = async (who: Session) => ((await call(s, who, 'GET', `${COMPANY}?name=${TAG}&size=50`)).body.data.records as Json[]).map((e) => e.businessId);
    for (const who of [kyry, sbdw, kyglHb]) {
      const got = await ids(who);
      expect(got).toContain(north.id);
      expect(got).not.toContain(east.id);
    }
    const east1 = await ids(duo);
    expect(east1).toContain(east.id);
    expect(east1).not.toContain(north.id);
    // the group company's own list holds neither subsidiary's records
    const group = await ids(kygl);
    expect(group).not.toContain(north.id);
    expect(group).not.toContain(east.id);
  });

  it('another company sees nothing of an examination’s history', async () => {
    expect(await history(duo, north.id)).toEqual([]);
    expect(await history(kyry, east.id)).toEqual([]);
    expect(await history(kyglHb, east.id)).toEqual([]);
    expect((await history(kygl, east.id)).length).toBe(1);
    expect((await history(sbdw, north.id)).length).toBe(1); // same company
  });

  it('research management of 华北分公司 rejects its company’s record; the group’s approves 华东’s', async () => {
    const rej = await call(s, kyglHb, 'POST', DECIDE, { businessId: north.id, businessType: 'thesis', action: 'reject', opinion: '请补充附件' });
    expect(rej.status, rej.body.msg).toBe(200);
    expect(rej.body.data).toMatchObject({ examineStatus: '3', examineUserName: '周审' });
    const ok = await call(s, kygl, 'POST', DECIDE, { businessId: east.id, businessType: 'thesis', action: 'approve' });
    expect(ok.status, ok.body.msg).toBe(200);
    expect(ok.body.data).toMatchObject({ examineStatus: '2', opinion: null });
  });

  it('another tenant gets nothing: 404 on every action, empty lists and history', async () => {
    for (const [url, body] of [
      [SUBMIT, { businessId: north.id, businessType: 'thesis' }],
      [AGAIN, { businessId: north.id, businessType: 'thesis' }],
      [DECIDE, { businessId: north.id, businessType: 'thesis', action: 'approve' }],
    ] as const) {
      const res = await call(s, other, 'POST', url, body);
      expect(res.status).toBe(404);
    }
    const exam = (await call(s, kygl, 'GET', `${LIST}?name=${TAG}&size=50`)).body.data.records.find((e: Json) => e.businessId === north.id);
    expect((await call(s, other, 'POST', DECIDE, { examineId: exam.id, action: 'approve' })).status).toBe(404);
    expect((await call(s, other, 'GET', `${LIST}?name=${TAG}`)).body.data.total).toBe(0);
    expect((await call(s, other, 'GET', `${COMPANY}?name=${TAG}`)).body.data.total).toBe(0);
    expect(await history(other, north.id)).toEqual([]);
    await unchanged(north.id, '3', 2);
  });

  it('a rejected record may be removed by its registrant; its examination leaves the lists', async () => {
    const res = await call(s, kyry, 'POST', `/api/basic/thesis/remove?ids=${north.id}`);
    expect(res.status, res.body.msg).toBe(200);
    const listed = (await call(s, kygl, 'GET', `${LIST}?name=${TAG}&size=50`)).body.data.records.map((e: Json) => e.businessId);
    expect(listed).not.toContain(north.id);
    expect(await countRows(s, 'basic_examine', 'business_id = $1 AND is_deleted = 1', [north.id])).toBe(1);
  });
});

describe('malformed requests', () => {
  let rec: Json;
  beforeAll(async () => {
    rec = await register(kyry, '参数校验');
  });

  it('answer 400 with the parameter named, and change nothing', async () => {
    const cases: Array<[string, Session, unknown, string]> = [
      [SUBMIT, kyry, {}, '缺少参数 businessId'],
      [SUBMIT, kyry, { businessId: 'abc', businessType: 'thesis' }, '参数 businessId 的值无效'],
      [SUBMIT, kyry, { businessId: rec.id }, '缺少参数 businessType'],
      [SUBMIT, kyry, { businessId: rec.id, businessType: 'dict' }, '参数 businessType 的值无效'],
      [SUBMIT, kyry, [1, 2], '请求体必须是 JSON 对象'],
      [DECIDE, kygl, { businessId: rec.id, businessType: 'thesis' }, '缺少参数 action'],
      [DECIDE, kygl, { businessId: rec.id, businessType: 'thesis', action: 'submitExamine' }, '参数 action 的值无效'],
      [DECIDE, kygl, { businessId: rec.id, businessType: 'thesis', status: '9' }, '参数 status 的值无效'],
      [DECIDE, kygl, { examineId: 'x1' }, '参数 examineId 的值无效'],
    ];
    for (const [url, who, body, msg] of cases) {
      const res = await call(s, who, 'POST', url, body);
      expect(res.status, msg).toBe(400);
      expect(res.body.msg).toBe(msg);
    }
    expect((await call(s, kygl, 'POST', DECIDE, { examineId: '123' })).status).toBe(404);
    expect((await call(s, kyry, 'GET', RECORDS)).body.msg).toBe('缺少参数 businessId');
    expect((await call(s, kyry, 'GET', `${RECORDS}?businessId=1x`)).body.msg).toBe('参数 businessId 的值无效');
    expect((await call(s, null, 'POST', SUBMIT, { businessId: rec.id, businessType: 'thesis' })).status).toBe(401);
    await unchanged(rec.id, '0', 0);
  });

  it('a record outside the caller’s data scope is not found (404); within it but not theirs, 403', async () => {
    // duo acting as researcher sees only their own records; with all roles (project manager: the tenant) they see it
    const researcher = duo.roleIds[String(duo.body.role_name).split(',').indexOf('researcher')];
    const res = await call(s, duo, 'POST', SUBMIT, { businessId: rec.id, businessType: 'thesis' }, { 'role-id': researcher });
    expect(res.status).toBe(404);
    const all = await call(s, duo, 'POST', SUBMIT, { businessId: rec.id, businessType: 'thesis' });
    expect(all.status).toBe(403);
    expect(all.body.msg).toBe('只有登记人才能执行「提交审核」');
    await unchanged(rec.id, '0', 0);
  });
});
