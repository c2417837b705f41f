/**
 * Bad input (issue 2; DESIGN §1.7): wrong types, unknown fields, SQL-looking strings in filters and sort
 * parameters, malformed and oversized bodies. Each answers a clear 400 in the envelope — never a 500 — and
 * stores nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, validPatent, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let kygl: Session;

beforeAll(async () => {
  s = await testServer({ bodyLimit: 64 * 1024 });
  kygl = await login(s, 'kygl');
});
afterAll(async () => {
  await s.close();
});

const stored = () => countRows(s, 'basic_patent');
const submit = (body: unknown, headers: Record<string, string> = {}) => call(s, kygl, 'POST', '/api/basic/patent/submit', body, headers);

describe('bodies', () => {
  it('wrong types: 400 naming the field and the expected type, nothing stored', async () => {
    const before = await stored();
    const res = await submit({ ...validPatent('BI', kygl.deptId), name: 12345, isTransfer: 'yes', projectSource: '3' });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([
      { field: 'name', message: '专利名称应为string类型' },
      { field: 'projectSource', message: '项目来源应为integer类型' },
      { field: 'isTransfer', message: '是否转让应为boolean类型' },
    ]);
    expect(await stored()).toBe(before);
  });

  it('unknown fields: 400 未知字段, at the top level and inside sub-forms', async () => {
    const before = await stored();
    const res = await submit({ ...validPatent('BI', kygl.deptId), secretColumn: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([{ field: 'secretColumn', message: '未知字段: secretColumn' }]);
    const nested = await submit({ ...validPatent('BI', kygl.deptId), ownershipDetailForm: [{ name: 'A', drop: 1 }] });
    expect(nested.body.data).toEqual([{ field: 'ownershipDetailForm.0.drop', message: '未知字段: ownershipDetailForm.0.drop' }]);
    expect(await stored()).toBe(before);
  });

  it('a body that is not an object, malformed JSON, or an id that is not a number: 400', async () => {
    const before = await stored();
    for (const payload of [[1, 2], 'text']) {
      const res = await call(s, kygl, 'POST', '/api/basic/patent/submit', JSON.stringify(payload), { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('请求体必须是 JSON 对象');
    }
    const broken = await call(s, kygl, 'POST', '/api/basic/patent/submit', '{"name": ', { 'content-type': 'application/json' });
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ code: 400, success: false, msg: '请求体不是有效的 JSON' });
    const id = await submit({ ...validPatent('BI', kygl.deptId), id: "1 OR 1=1" });
    expect(id.status).toBe(400);
    expect(await stored()).toBe(before);
  });

  it('impossible dates are a 400 in the field’s words, not a database error', async () => {
    const before = await stored();
    for (const d of ['2024-02-30', '2023-02-29', '0000-01-01', '2024-13-01']) {
      const res = await submit({ ...validPatent('BI', kygl.deptId), applyDate: d });
      expect(res.status, d).toBe(400);
      expect(res.body.data, d).toEqual([{ field: 'applyDate', message: '申请日期格式不正确，应为 yyyy-MM-dd' }]);
    }
    expect((await submit({ ...validPatent('BI', kygl.deptId), applyDate: '2024-02-29' })).status).toBe(200);
    expect(await stored()).toBe(before + 1);
  });

  it('an oversized body: 400 请求体过大, nothing stored', async () => {
    const before = await stored();
    const res = await submit({ ...validPatent('BI', kygl.deptId), name: 'x'.repeat(100 * 1024) });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('请求体过大，最大 65536 字节');
    expect(await stored()).toBe(before);
  });

  it('SQL-looking text is stored as text', async () => {
    const name = "'); DROP TABLE basic_patent; --";
    const res = await submit({ ...validPatent('BI', kygl.deptId), name });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe(name);
    expect(await countRows(s, 'basic_patent', 'name = $1', [name])).toBe(1);
  });
});

describe('query parameters', () => {
  it('SQL-looking filter values match literally and break nothing', async () => {
    for (const v of ["' OR '1'='1", '%', '_', '\\', "x'; DELETE FROM basic_patent; --"]) {
      const res = await call(s, kygl, 'GET', `/api/basic/patent/list?authorizationCode=${encodeURIComponent(v)}`);
      expect(res.status, v).toBe(200);
      expect(res.body.data.total, v).toBe(0);
    }
    expect(await stored()).toBeGreaterThan(0);
  });

  it('sort parameters must name sortable fields', async () => {
    for (const v of ['name;DROP TABLE basic_patent', 'name desc', 'password', 'tenant_id', 'annex']) {
      const res = await call(s, kygl, 'GET', `/api/basic/patent/list?descs=${encodeURIComponent(v)}`);
      expect(res.status, v).toBe(400);
      expect(res.body.msg).toMatch(/^不能按字段 .+ 排序$/);
    }
    expect((await call(s, kygl, 'GET', '/api/basic/patent/list?descs=applyDate,name&ascs=create_time')).status).toBe(200);
  });

  it('unknown filters, repeated parameters and malformed values are 400 naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['password=1', '未知的查询条件: password'],
      ['tenantId=100001', '未知的查询条件: tenantId'],
      ['name=a&name=b', '参数 name 的值无效'],
      ['projectSource=abc', '参数 projectSource 的值无效'],
      ['applyDate_dategt=yesterday', '参数 applyDate_dategt 的值无效'],
      ['name_dategt=2020-01-01', '参数 name_dategt 的值无效'],
      ['createUser=1 OR 1=1', '参数 createUser 的值无效'],
      ['size=0', '参数 size 的值无效'],
      ['size=100000', '参数 size 的值无效'],
      ['current=-1', '参数 current 的值无效'],
      ['current=abc', '参数 current 的值无效'],
    ];
    for (const [qs, msg] of cases) {
      const res = await call(s, kygl, 'GET', `/api/basic/patent/list?${qs}`);
      expect(res.status, qs).toBe(400);
      expect(res.body.msg, qs).toBe(msg);
    }
  });

  it('detail and remove check their ids', async () => {
    expect((await call(s, kygl, 'GET', '/api/basic/patent/detail')).body.msg).toBe('缺少参数 id');
    expect((await call(s, kygl, 'GET', '/api/basic/patent/detail?id=abc')).status).toBe(400);
    const before = await countRows(s, 'basic_patent', 'is_deleted = 0');
    const res = await call(s, kygl, 'POST', `/api/basic/patent/remove?ids=${encodeURIComponent('1) OR (1=1')}`);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('参数 ids 的值无效');
    expect(await countRows(s, 'basic_patent', 'is_deleted = 0')).toBe(before);
  });

  it('-1 and empty values are dropped (spec 000 §9)', async () => {
    const a = await call(s, kygl, 'GET', '/api/basic/patent/list?projectSource=-1&name=');
    const b = await call(s, kygl, 'GET', '/api/basic/patent/list');
    expect(a.status).toBe(200);
    expect(a.body.data.total).toBe(b.body.data.total);
  });
});

describe('counting is bounded', () => {
  it('past the bound, total stops at the bound and says so', async () => {
    const small = await testServer({ countBound: 3 });
    try {
      const me = await login(small, 'kygl');
      for (let i = 0; i < 4; i++) await call(small, me, 'POST', '/api/basic/patent/submit', validPatent('BOUND', me.deptId));
      const res = await call(small, me, 'GET', '/api/basic/patent/list?size=10');
      expect(res.body.data.total).toBe(3);
      expect(res.body.data.totalBounded).toBe(true);
      const exact = await call(small, me, 'GET', `/api/basic/patent/list?name=${encodeURIComponent("'); DROP")}`);
      expect(exact.body.data.total).toBe(1);
      expect(exact.body.data.totalBounded).toBeUndefined();
    } finally {
      await small.close();
    }
  });
});
