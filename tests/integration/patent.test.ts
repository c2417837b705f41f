/**
 * The first resource, end to end through the generic engine (issue 2; spec 001 §3, §5 patent): every
 * required field's own message with nothing stored, limits, add, update, detail, list filters and paging,
 * logical remove, projectSource semantics, sub-form rules, defaults, and the en texts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyProject, call, countRows, login, testServer, validPatent, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let kygl: Session;
const TAG = `PT${Date.now().toString(36)}`;

beforeAll(async () => {
  s = await testServer();
  kygl = await login(s, 'kygl');
});
afterAll(async () => {
  await s.close();
});

const submit = (body: unknown, session = kygl, headers: Record<string, string> = {}) => call(s, session, 'POST', '/api/basic/patent/submit', body, headers);
const stored = () => countRows(s, 'basic_patent');

/** Spec 001 §5, patent: field → the message the user sees when it is missing. */
const REQUIRED: Array<[string, string]> = [
  ['name', '请输入专利名称'],
  ['deptId', '请选择登记单位'],
  ['projectSource', '请选择项目来源'],
  ['projectType', '请选择成果来源'],
  ['type', '请选择专利类型'],
  ['region', '请输入国家或地区'],
  ['address', '请输入地址'],
  ['postcode', '请输入邮编'],
  ['applyDate', '请输入申请日期'],
  ['authorizationDate', '请选择授权公告日'],
  ['authorizationCode', '请输入授权号/专利号'],
  ['code', '请输入专利证书号'],
  ['annex', '请上传附件'],
];

describe('required fields', () => {
  for (const [field, message] of REQUIRED) {
    it(`without ${field}: 400 ${message}, nothing stored`, async () => {
      const before = await stored();
      const body = validPatent(TAG, kygl.deptId);
      delete body[field];
      const res = await submit(body);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.msg).toBe(message);
      expect(res.body.data).toEqual([{ field, message }]);
      expect(await stored()).toBe(before);
    });
  }

  it('treats empty strings, blanks and empty lists as missing', async () => {
    const before = await stored();
    const res = await submit({ ...validPatent(TAG, kygl.deptId), name: '   ', annex: [], region: '' });
    expect(res.status).toBe(400);
    expect(res.body.data.map((f: Json) => f.field)).toEqual(['name', 'region', 'annex']);
    expect(await stored()).toBe(before);
  });

  it('lists every missing field of an empty form, in form order', async () => {
    const res = await submit({});
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('请输入专利名称');
    expect(res.body.data.map((f: Json) => f.message)).toEqual(REQUIRED.map(([, m]) => m));
  });

  it('answers the en text when the client asks for English', async () => {
    const body = validPatent(TAG, kygl.deptId);
    delete body.name;
    const res = await submit(body, kygl, { 'accept-language': 'en' });
    expect(res.body.msg).toBe('Please enter the patent name');
  });
});

describe('limits and rules', () => {
  it('refuses a name over 100 characters', async () => {
    const before = await stored();
    const res = await submit({ ...validPatent(TAG, kygl.deptId), name: '粮'.repeat(101) });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([{ field: 'name', message: '专利名称长度不能超过 100 个字符' }]);
    expect(await stored()).toBe(before);
    const ok = await submit({ ...validPatent(TAG, kygl.deptId), name: '粮'.repeat(100) });
    expect(ok.status).toBe(200);
  });

  it('projectSource 3 needs a project name of at most 50 characters', async () => {
    const body = { ...validPatent(TAG, kygl.deptId), projectName: '' };
    expect((await submit(body)).body.msg).toBe('请输入项目名称');
    const long = await submit({ ...body, projectName: '项'.repeat(51) });
    expect(long.body.msg).toBe('项目名称不能超过50个字符');
  });

  it('projectSource 1 or 2 needs a project, and then no free project name', async () => {
    for (const src of [1, 2]) {
      const res = await submit({ ...validPatent(TAG, kygl.deptId), projectSource: src, projectName: '' });
      expect(res.status).toBe(400);
      expect(res.body.data).toEqual([{ field: 'projectId', message: '请选择项目' }]);
    }
    const projectId = await anyProject(s);
    const ok = await submit({ ...validPatent(TAG, kygl.deptId), projectSource: 1, projectId, projectName: '平台项目' });
    expect(ok.status).toBe(200);
    expect(ok.body.data.projectId).toBe(projectId);
  });

  it('projectSource 3 drops a project id the client left behind', async () => {
    const res = await submit({ ...validPatent(TAG, kygl.deptId), projectSource: 3, projectId: '999' });
    expect(res.status).toBe(200);
    expect(res.body.data.projectId).toBeNull();
    expect(res.body.data.projectName).toBe('智能粮库关键技术研究');
  });

  it('refuses a projectSource outside 1/2/3 and a malformed date', async () => {
    const bad = await submit({ ...validPatent(TAG, kygl.deptId), projectSource: 4 });
    expect(bad.body.data).toEqual([{ field: 'projectSource', message: '项目来源的取值无效' }]);
    const date = await submit({ ...validPatent(TAG, kygl.deptId), applyDate: '2024/03/15' });
    expect(date.body.data).toEqual([{ field: 'applyDate', message: '申请日期格式不正确，应为 yyyy-MM-dd' }]);
  });

  it('validates sub-forms: an assignee needs a name and a transfer type', async () => {
    const before = await stored();
    const res = await submit({ ...validPatent(TAG, kygl.deptId), isTransfer: true, assignee: [{ name: '', transferType: '2' }, { name: '某粮油公司' }] });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([
      { field: 'assignee.0.name', message: '请输入受让方名称' },
      { field: 'assignee.1.transferType', message: '请选择转化方式' },
    ]);
    expect(await stored()).toBe(before);
  });

  it('isTransfer defaults to true; with isTransfer false the assignees are not kept', async () => {
    const def = await submit(validPatent(TAG, kygl.deptId));
    expect(def.body.data.isTransfer).toBe(true);
    const res = await submit({ ...validPatent(TAG, kygl.deptId), isTransfer: false, assignee: [{ name: 'x' }] });
    expect(res.status).toBe(200);
    expect(res.body.data.isTransfer).toBe(false);
    expect(res.body.data.assignee).toBeNull();
  });
});

describe('add, update, detail, list, remove', () => {
  let created: Json;

  it('adds a patent and answers the saved record (string id, dates as text, sub-forms kept)', async () => {
    const body: Json = { ...validPatent(`${TAG}-crud`, kygl.deptId), assignee: [{ name: '某粮油科技公司', transferType: '2', transferDate: '2025-08-01', amount: 35.5 }] };
    const res = await submit(body);
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe('操作成功');
    created = res.body.data;
    expect(created.id).toMatch(/^\d{15,19}$/);
    expect(created.tenantId).toBe('000000');
    expect(created.createUser).toBe(kygl.userId);
    expect(created.createDept).toBe(kygl.deptId);
    expect(created.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(created.applyDate).toBe('2024-03-15');
    expect(created.projectSource).toBe(3);
    expect(created.assignee).toEqual([{ name: '某粮油科技公司', transferType: '2', transferDate: '2025-08-01', amount: 35.5 }]);
    expect(created.annex).toEqual(body.annex);
  });

  it('reads it back with detail', async () => {
    const res = await call(s, kygl, 'GET', `/api/basic/patent/detail?id=${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(created);
  });

  it('updates with the id, keeping fields the body leaves out', async () => {
    const res = await submit({ id: created.id, name: `${TAG}-crud 一种低温储粮控制方法（修订）`, createUser: '1', tenantId: '100001' });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe(`${TAG}-crud 一种低温储粮控制方法（修订）`);
    expect(res.body.data.address).toBe('北京市西城区');
    // system fields cannot be set by the client
    expect(res.body.data.createUser).toBe(kygl.userId);
    expect(res.body.data.tenantId).toBe('000000');
    expect(await countRows(s, 'basic_patent', 'id = $1 AND name LIKE $2', [created.id, '%修订%'])).toBe(1);
  });

  it('an update is validated as a whole record: clearing a required field is refused and changes nothing', async () => {
    const res = await submit({ id: created.id, address: '' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('请输入地址');
    const back = await call(s, kygl, 'GET', `/api/basic/patent/detail?id=${created.id}`);
    expect(back.body.data.address).toBe('北京市西城区');
  });

  it('an update of an id that does not exist is 404 and stores nothing', async () => {
    const before = await stored();
    const res = await submit({ ...validPatent(TAG, kygl.deptId), id: '12345' });
    expect(res.status).toBe(404);
    expect(res.body.msg).toBe('数据不存在');
    expect(await stored()).toBe(before);
  });

  it('lists with filters (contains, equal, date range) and paging', async () => {
    const tag = `${TAG}-list`;
    for (let i = 0; i < 12; i++) {
      const res = await submit({ ...validPatent(`${tag}-${String(i).padStart(2, '0')}`, kygl.deptId), type: i % 3 === 0 ? '2' : '1', applyDate: `2023-01-${String(i + 1).padStart(2, '0')}` });
      expect(res.status).toBe(200);
    }
    const all = await call(s, kygl, 'GET', `/api/basic/patent/list?name=${encodeURIComponent(tag)}&size=10`);
    expect(all.body.data).toMatchObject({ total: 12, size: 10, current: 1, pages: 2 });
    expect(all.body.data.records).toHaveLength(10);
    const page2 = await call(s, kygl, 'GET', `/api/basic/patent/page?name=${encodeURIComponent(tag)}&size=10&current=2`);
    expect(page2.body.data.records).toHaveLength(2);
    const ids = new Set([...all.body.data.records, ...page2.body.data.records].map((r: Json) => r.id));
    expect(ids.size).toBe(12);
    const type2 = await call(s, kygl, 'GET', `/api/basic/patent/list?name=${encodeURIComponent(tag)}&type_equal=2&size=30`);
    expect(type2.body.data.total).toBe(4);
    const range = await call(s, kygl, 'GET', `/api/basic/patent/list?name=${encodeURIComponent(tag)}&applyDate_datege=2023-01-03&applyDate_datele=2023-01-05`);
    expect(range.body.data.total).toBe(3);
    const sorted = await call(s, kygl, 'GET', `/api/basic/patent/list?name=${encodeURIComponent(tag)}&ascs=applyDate&size=30`);
    expect(sorted.body.data.records.map((r: Json) => r.applyDate)).toEqual([...sorted.body.data.records.map((r: Json) => r.applyDate)].sort());
    const created = await call(s, kygl, 'GET', `/api/basic/patent/list?name=${encodeURIComponent(tag)}&createTime_dategt=2000-01-01&createTime_datelt=2000-01-02`);
    expect(created.body.data.total).toBe(0);
    const empty = await call(s, kygl, 'GET', `/api/basic/patent/list?name=${encodeURIComponent(tag)}&type=&authorizationCode=`);
    expect(empty.body.data.total).toBe(12);
  });

  it('removes logically: gone from detail and lists, the row stays with is_deleted = 1', async () => {
    const a = (await submit(validPatent(`${TAG}-rm`, kygl.deptId))).body.data;
    const b = (await submit(validPatent(`${TAG}-rm`, kygl.deptId))).body.data;
    const res = await call(s, kygl, 'POST', `/api/basic/patent/remove?ids=${a.id},${b.id}`);
    expect(res.status).toBe(200);
    expect((await call(s, kygl, 'GET', `/api/basic/patent/detail?id=${a.id}`)).status).toBe(404);
    expect((await call(s, kygl, 'GET', `/api/basic/patent/list?name=${TAG}-rm`)).body.data.total).toBe(0);
    expect(await countRows(s, 'basic_patent', 'id = ANY($1::bigint[]) AND is_deleted = 1', [[a.id, b.id]])).toBe(2);
  });

  it('remove is all or nothing: one unknown id removes none', async () => {
    const a = (await submit(validPatent(`${TAG}-rm2`, kygl.deptId))).body.data;
    const res = await call(s, kygl, 'POST', `/api/basic/patent/remove?ids=${a.id},1`);
    expect(res.status).toBe(404);
    expect((await call(s, kygl, 'GET', `/api/basic/patent/detail?id=${a.id}`)).status).toBe(200);
  });

  it('remove without ids says 请选择至少一条数据', async () => {
    const res = await call(s, kygl, 'POST', '/api/basic/patent/remove');
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('请选择至少一条数据');
  });

  it('select answers the options', async () => {
    const res = await call(s, kygl, 'GET', `/api/basic/patent/select?name=${TAG}-crud`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: Json) => r.id)).toContain(created.id);
  });
});
