/**
 * Bad input (issue 2; DESIGN §1.7, §11): wrong types, unknown fields, SQL-looking strings in filters and sort
 * parameters, malformed and oversized bodies, and input the database itself would refuse — NUL characters,
 * ids beyond bigint, numbers beyond their column, impossible dates. Each answers a clear 400 in the envelope
 * (zh, and en with Accept-Language: en) — never a 500 — and stores nothing. Numbers and booleans sent for
 * string fields are taken as their text (DESIGN §6, as Jackson does for the original's clients).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC, call, countRows, login, testServer, validPatent, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let kygl: Session;
let kyry: Session;

beforeAll(async () => {
  s = await testServer({ bodyLimit: 64 * 1024 });
  [kygl, kyry] = await Promise.all([login(s, 'kygl'), login(s, 'kyry')]);
});
afterAll(async () => {
  await s.close();
});

const stored = () => countRows(s, 'basic_patent');
const submit = (body: unknown, headers: Record<string, string> = {}) => call(s, kygl, 'POST', '/api/basic/patent/submit', body, headers);

describe('bodies', () => {
  it('wrong types: 400 naming the field and the expected type, nothing stored', async () => {
    const before = await stored();
    const res = await submit({ ...validPatent('BI', kygl.deptId), name: { zh: '专利' }, isTransfer: 'yes', projectSource: '3' });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([
      { field: 'name', message: '专利名称应为string类型' },
      { field: 'projectSource', message: '项目来源应为integer类型' },
      { field: 'isTransfer', message: '是否转让应为boolean类型' },
    ]);
    const list = await submit({ ...validPatent('BI', kygl.deptId), name: ['12345'] }, { 'accept-language': 'en' });
    expect(list.status).toBe(400);
    expect(list.body.data).toEqual([{ field: 'name', message: 'Patent name must be of type string' }]);
    expect(await stored()).toBe(before);
  });

  it('numbers and booleans sent for string fields are stored as their text (dictionary values, DESIGN §6)', async () => {
    const before = await stored();
    const res = await submit({ ...validPatent('BI', kygl.deptId), name: 12345, type: 2, postcode: 100032, ownershipDetailForm: [{ name: 77, rank: 1 }] });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toMatchObject({ name: '12345', type: '2', postcode: '100032', ownershipDetailForm: [{ name: '77', rank: 1 }] });
    expect(await countRows(s, 'basic_patent', "id = $1 AND name = '12345' AND type = '2' AND postcode = '100032'", [res.body.data.id])).toBe(1);
    expect(await stored()).toBe(before + 1);
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
      ['applyDate_dategt=yesterday', '参数 applyDate_dategt 不是有效的日期，应为 yyyy-MM-dd 或 yyyy-MM-dd HH:mm:ss'],
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

/** The NUL character PostgreSQL refuses in text and jsonb. */
const NUL = '\u0000';
const en = { 'accept-language': 'en' };
const nulParam = (p: string) => `参数 ${p} 不能包含空字符（\\u0000）`;
const nulField = (f: string) => `字段 ${f} 不能包含空字符（\\u0000）`;

describe('NUL characters (DESIGN §11): 400 naming the parameter or field, on every route', () => {
  it('in query parameters: list filters, detail, remove, a tree, a name, in zh and en', async () => {
    const before = await countRows(s, 'basic_patent', 'is_deleted = 0');
    const cases: Array<[string, string]> = [
      [`/api/basic/patent/list?name=${encodeURIComponent(`a${NUL}b`)}`, 'name'],
      [`/api/basic/patent/list?authorizationCode_equal=${encodeURIComponent(NUL)}`, 'authorizationCode_equal'],
      [`/api/basic/patent/page?current=1&descs=${encodeURIComponent(`name${NUL}`)}`, 'descs'],
      [`/api/basic/patent/detail?id=${encodeURIComponent(`1${NUL}`)}`, 'id'],
      [`/api/blade-system/region/lazy-tree?parentCode=${encodeURIComponent(`11${NUL}`)}`, 'parentCode'],
      [`/api/basic/patent/list?${encodeURIComponent(`na${NUL}me`)}=1`, 'na\\u0000me'],
    ];
    for (const [url, param] of cases) {
      const res = await call(s, kygl, 'GET', url);
      expect(res.status, url).toBe(400);
      expect(res.body.msg, url).toBe(nulParam(param));
    }
    const removed = await call(s, kygl, 'POST', `/api/basic/patent/remove?ids=${encodeURIComponent(`1${NUL}`)}`);
    expect(removed.status).toBe(400);
    expect(removed.body.msg).toBe(nulParam('ids'));
    const inEn = await call(s, kygl, 'GET', `/api/basic/patent/list?name=${encodeURIComponent(NUL)}`, undefined, en);
    expect(inEn.status).toBe(400);
    expect(inEn.body.msg).toBe('Parameter name must not contain NUL characters (\\u0000)');
    expect(await countRows(s, 'basic_patent', 'is_deleted = 0')).toBe(before);
  });

  it('in a submitted body, nested fields and keys too: the field is named, nothing stored', async () => {
    const before = await stored();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: `一种${NUL}方法` }, 'name'],
      [{ ownershipDetailForm: [{ name: '粮储集团', rank: 1 }, { name: `B${NUL}`, rank: 2 }] }, 'ownershipDetailForm.1.name'],
      [{ annex: [{ name: 'a.pdf', link: '/upload/a.pdf', [`x${NUL}`]: 1 }] }, 'annex.0.x\\u0000'],
    ];
    for (const [change, field] of cases) {
      const res = await submit({ ...validPatent('NUL', kygl.deptId), ...change });
      expect(res.status, field).toBe(400);
      expect(res.body.data, field).toEqual([{ field, message: nulField(field) }]);
      expect(res.body.msg, field).toBe(nulField(field));
    }
    const inEn = await submit({ ...validPatent('NUL', kygl.deptId), address: NUL }, en);
    expect(inEn.body).toMatchObject({ code: 400, msg: 'Field address must not contain NUL characters (\\u0000)' });
    expect(await stored()).toBe(before);
  });

  it('in a workflow action and in the form body of the token endpoint', async () => {
    const action = await call(s, kygl, 'POST', '/api/basic/examine/submit', { businessId: '1', businessType: `patent${NUL}` });
    expect(action.status).toBe(400);
    expect(action.body.data).toEqual([{ field: 'businessType', message: nulField('businessType') }]);
    const token = await s.app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      headers: { authorization: BASIC, 'tenant-id': '000000', 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'password', username: `kygl${NUL}`, password: 'x' }).toString(),
    });
    expect(token.statusCode).toBe(400);
    expect(token.json().msg).toBe(nulField('username'));
  });

  it('multipart: a file holding NUL bytes is fine, a text field holding NUL is refused and nothing is stored', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\n', 'latin1'), Buffer.from([0, 0, 0xff]), Buffer.from('\n%%EOF\n')]);
    const form = (extra: Record<string, string>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(extra)) f.append(k, v);
      f.append('file', new Blob([new Uint8Array(pdf)]), '证书.pdf');
      return new Response(f);
    };
    const send = async (extra: Record<string, string>, headers: Record<string, string> = {}) => {
      const r = form(extra);
      return call(s, kygl, 'POST', '/api/blade-resource/oss/endpoint/put-file', Buffer.from(await r.arrayBuffer()), { 'content-type': r.headers.get('content-type')!, ...headers });
    };
    const rows = await countRows(s, 'blade_attach');
    const okRes = await send({ note: '证书' });
    expect(okRes.status, okRes.body.msg).toBe(200);
    expect(await countRows(s, 'blade_attach')).toBe(rows + 1);
    const bad = await send({ note: `证${NUL}书` });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toEqual([{ field: 'note', message: nulField('note') }]);
    const badEn = await send({ [`n${NUL}`]: 'x' }, en);
    expect(badEn.body.msg).toBe('Field n\\u0000 must not contain NUL characters (\\u0000)');
    expect(await countRows(s, 'blade_attach')).toBe(rows + 1);
  });
});

const BIG = '9999999999999999999'; // 19 digits, beyond bigint's 9223372036854775807

describe('ids beyond the bigint range (DESIGN §11): 400 wherever an id is read', () => {
  it('in list filters: the key, createUser, a bigint-stored string (parentId); the maximum itself is fine', async () => {
    const cases: Array<[string, string]> = [
      [`/api/basic/patent/list?id_equal=${BIG}`, '参数 id_equal 超出允许范围'],
      [`/api/basic/patent/list?createUser=${BIG}`, '参数 createUser 超出允许范围'],
      [`/api/basic/patent/myList?createDept_notequal=9223372036854775808`, '参数 createDept_notequal 超出允许范围'],
      [`/api/blade-system/dict/list?parentId=${BIG}`, '参数 parentId 超出允许范围'],
    ];
    for (const [url, msg] of cases) {
      const res = await call(s, kyry, 'GET', url);
      expect(res.status, url).toBe(400);
      expect(res.body.msg, url).toBe(msg);
    }
    const inEn = await call(s, kygl, 'GET', `/api/basic/patent/list?createUser=${BIG}`, undefined, en);
    expect(inEn.body.msg).toBe('Parameter createUser is out of range');
    const max = await call(s, kygl, 'GET', '/api/basic/patent/list?id_equal=9223372036854775807');
    expect(max.status).toBe(200);
    expect(max.body.data.total).toBe(0);
  });

  it('in detail, remove, submit, a tree and a workflow action; nothing changes', async () => {
    const mine = await submit(validPatent('BIGID', kygl.deptId));
    expect(mine.status).toBe(200);
    const live = await countRows(s, 'basic_patent', 'is_deleted = 0');
    const before = await stored();
    const detail = await call(s, kygl, 'GET', `/api/basic/patent/detail?id=${BIG}`);
    expect([detail.status, detail.body.msg]).toEqual([400, '参数 id 的值无效']);
    const remove = await call(s, kygl, 'POST', `/api/basic/patent/remove?ids=${mine.body.data.id},${BIG}`);
    expect([remove.status, remove.body.msg]).toEqual([400, '参数 ids 的值无效']);
    const update = await submit({ ...validPatent('BIGID', kygl.deptId), id: BIG });
    expect(update.status).toBe(400);
    expect(update.body.msg).toBe('参数 id 的值无效');
    const updateEn = await submit({ ...validPatent('BIGID', kygl.deptId), id: BIG }, en);
    expect(updateEn.body.msg).toBe('Invalid value for parameter id');
    const tree = await call(s, kygl, 'GET', `/api/blade-system/dept/lazy-tree?parentId=${BIG}`);
    expect([tree.status, tree.body.msg]).toEqual([400, '参数 parentId 的值无效']);
    const action = await call(s, kygl, 'POST', '/api/basic/examine/submit', { businessId: BIG, businessType: 'patent' });
    expect([action.status, action.body.msg]).toEqual([400, '参数 businessId 的值无效']);
    expect(await countRows(s, 'basic_patent', 'is_deleted = 0')).toBe(live);
    expect(await stored()).toBe(before);
    expect(await countRows(s, 'basic_examine', 'business_id = $1', [mine.body.data.id])).toBe(0);
  });
});

describe('numbers beyond their column (DESIGN §11)', () => {
  const raw = (body: Record<string, unknown>, replacements: Record<string, string>, headers: Record<string, string> = {}) => {
    let text = JSON.stringify(body);
    for (const [k, v] of Object.entries(replacements)) text = text.replace(JSON.stringify(k), v);
    return submit(text, { 'content-type': 'application/json', ...headers });
  };

  it('in bodies: 1e400 (Infinity to JSON.parse) and integers beyond 2^53 read <label>超出允许范围, nothing stored', async () => {
    const before = await stored();
    const nested = await raw({ ...validPatent('NUM', kygl.deptId), ownershipDetailForm: [{ name: 'A', rank: '@big' }] }, { '@big': '1e400' });
    expect(nested.status).toBe(400);
    expect(nested.body.data).toEqual([{ field: 'ownershipDetailForm.0.rank', message: '排名超出允许范围' }]);
    const unsafe = await raw({ ...validPatent('NUM', kygl.deptId), userNamesDetailForm: [{ userName: '刘研', rank: '@big' }] }, { '@big': '9007199254740993' }, en);
    expect(unsafe.body.data).toEqual([{ field: 'userNamesDetailForm.0.rank', message: 'Rank is out of range' }]);
    const top = await raw({ ...validPatent('NUM', kygl.deptId), projectSource: '@big' }, { '@big': '-1e400' });
    expect(top.status).toBe(400);
    expect(top.body.data.map((f: { field: string }) => f.field)).toEqual(['projectSource']);
    expect(await stored()).toBe(before);
  });

  it('in list filters: beyond the column (bigint, integer, numeric), 1e400, NaN and Infinity', async () => {
    const cases: Array<[string, string]> = [
      ['/api/basic/patent/list?projectSource=99999999999999999999', '参数 projectSource 超出允许范围'],
      ['/api/basic/patent/list?projectSource_ge=9007199254740992', '参数 projectSource_ge 超出允许范围'],
      ['/api/basic/patent/list?projectSource=1e400', '参数 projectSource 的值无效'],
      ['/api/basic/patent/list?status=3000000000', '参数 status 超出允许范围'],
      ['/api/basic/patent/list?status_lt=-2147483649', '参数 status_lt 超出允许范围'],
      ['/api/basic/book/list?wordsNumber=1e400', '参数 wordsNumber 超出允许范围'],
      ['/api/basic/book/list?wordsNumber_gt=NaN', '参数 wordsNumber_gt 的值无效'],
      ['/api/basic/book/list?wordsNumber=Infinity', '参数 wordsNumber 的值无效'],
      ['/api/basic/book/list?wordsNumber=0x10', '参数 wordsNumber 的值无效'],
    ];
    for (const [url, msg] of cases) {
      const res = await call(s, kygl, 'GET', url);
      expect(res.status, url).toBe(400);
      expect(res.body.msg, url).toBe(msg);
    }
    expect((await call(s, kygl, 'GET', '/api/basic/book/list?wordsNumber_le=1.5e3&status=0')).status).toBe(200);
  });
});

describe('impossible dates and times (DESIGN §11)', () => {
  it('in list filters: 400 saying what a date looks like, in zh and en', async () => {
    const dateMsg = (p: string) => `参数 ${p} 不是有效的日期，应为 yyyy-MM-dd 或 yyyy-MM-dd HH:mm:ss`;
    for (const [qs, param] of [
      ['applyDate_dategt=2024-02-30', 'applyDate_dategt'],
      ['applyDate=2023-02-29', 'applyDate'],
      ['applyDate_datele=2024-13-01', 'applyDate_datele'],
      ['applyDate_datege=0000-01-01', 'applyDate_datege'],
      ['createTime_datelt=2024-01-01 24:61:61', 'createTime_datelt'],
      ['createTime_dategt=2024-01-01 23:60', 'createTime_dategt'],
    ]) {
      const res = await call(s, kygl, 'GET', `/api/basic/patent/list?${qs.replace(' ', '%20')}`);
      expect(res.status, qs).toBe(400);
      expect(res.body.msg, qs).toBe(dateMsg(param));
    }
    // a module's own list with a date range (my to-dos) checks the same way
    for (const qs of ['createTime_dategt=2024-02-30', 'createTime_datelt=2024-01-01%2024:00:00']) {
      const res = await call(s, kygl, 'GET', `/api/basic/todo/list?${qs}`);
      expect(res.status, qs).toBe(400);
      expect(res.body.msg, qs).toBe(dateMsg(qs.split('=')[0]));
    }
    expect((await call(s, kygl, 'GET', '/api/basic/todo/list?createTime_dategt=2024-02-29&createTime_datelt=2099-12-31%2023:59:59')).status).toBe(200);
    const inEn = await call(s, kygl, 'GET', '/api/basic/patent/list?applyDate=2024-02-30', undefined, en);
    expect(inEn.body.msg).toBe('Parameter applyDate is not a valid date: use yyyy-MM-dd or yyyy-MM-dd HH:mm:ss');
    expect((await call(s, kygl, 'GET', '/api/basic/patent/list?applyDate_datege=2024-02-29&createTime_datelt=2099-12-31%2023:59:59')).status).toBe(200);
  });

  it('in bodies: nested dates, months and years in the field’s words, nothing stored', async () => {
    const before = await stored();
    const nested = await submit({ ...validPatent('DATE', kygl.deptId), isTransfer: true, assignee: [{ name: '某公司', transferType: '1', transferDate: '2023-02-29' }] });
    expect(nested.status).toBe(400);
    expect(nested.body.data).toEqual([{ field: 'assignee.0.transferDate', message: '转让日期格式不正确，应为 yyyy-MM-dd' }]);
    expect(await stored()).toBe(before);
    const books = await countRows(s, 'basic_book');
    for (const [publishTime, ok] of [['2024-13', false], ['0000-01', false], ['2024-12', true]] as const) {
      const res = await call(s, kygl, 'POST', '/api/basic/book/submit', { publishTime }, en);
      expect(res.status).toBe(400); // the other required fields are missing
      const fault = (res.body.data as Array<{ field: string; message: string }>).find((f) => f.field === 'publishTime');
      expect(fault, publishTime).toEqual(ok ? undefined : { field: 'publishTime', message: 'Publication month must be in the format yyyy-MM' });
    }
    expect(await countRows(s, 'basic_book')).toBe(books);
  });
});
