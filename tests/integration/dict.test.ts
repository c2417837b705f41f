/**
 * Dictionaries as generic resources (spec 000 §5, 002 §3–§7): system (blade-system/dict, platform-wide) and
 * business (blade-system/dict-biz, per tenant) — the required messages of the original with nothing stored,
 * parent and child lists, submitChild, the dictionary tree, the sealed and child rules of removal, who may
 * write, and tenant isolation of the business dictionary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kyry: Session;
let other: Session; // administrator of tenant 100001
const TAG = `dt${Date.now().toString(36)}`;
const DICT = '/api/blade-system/dict';
const BIZ = '/api/blade-system/dict-biz';

beforeAll(async () => {
  s = await testServer();
  [admin, kyry, other] = await Promise.all([login(s, 'admin'), login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' })]);
});
afterAll(async () => {
  await s?.close();
});

const parent = (code: string, extra: Json = {}) => ({ code, dictKey: '-1', dictValue: `${code} 名称`, sort: 1, ...extra });

async function addParent(base: string, who: Session, code: string, extra: Json = {}): Promise<Json> {
  const res = await call(s, who, 'POST', `${base}/submit`, parent(code, extra));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function addChild(base: string, who: Session, parentId: string, dictKey: string, extra: Json = {}): Promise<Json> {
  const res = await call(s, who, 'POST', `${base}/submitChild`, { parentId, dictKey, dictValue: `值${dictKey}`, sort: Number(dictKey) || 0, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

describe('required fields (spec 000 §5: code, name, sort, sealed, dictKey; parent not required)', () => {
  it('an empty submit lists every message of the original, in form order, and stores nothing', async () => {
    const before = await countRows(s, 'blade_dict');
    const { status, body } = await call(s, admin, 'POST', `${DICT}/submit`, { isSealed: null });
    expect(status).toBe(400);
    expect(body.msg).toBe('请输入字典编号');
    expect(body.data).toEqual([
      { field: 'code', message: '请输入字典编号' },
      { field: 'dictKey', message: '请输入字典键值' },
      { field: 'dictValue', message: '请输入字典名称' },
      { field: 'sort', message: '请输入字典排序' },
      { field: 'isSealed', message: '请选择是否封存' },
    ]);
    expect(await countRows(s, 'blade_dict')).toBe(before);
  });

  it('answers in English when asked', async () => {
    const { body } = await call(s, admin, 'POST', `${BIZ}/submit`, { code: `${TAG}en`, dictValue: 'x', sort: 1 }, { 'accept-language': 'en' });
    expect(body.data).toEqual([{ field: 'dictKey', message: 'Please enter the dictionary key' }]);
  });

  it('sort must be a whole number ≥ 0; isSealed only 0 or 1', async () => {
    const neg = await call(s, admin, 'POST', `${DICT}/submit`, parent(`${TAG}neg`, { sort: -1 }));
    expect(neg.status).toBe(400);
    expect(neg.body.data).toEqual([{ field: 'sort', message: '字典排序不能小于 0' }]);
    const sealed = await call(s, admin, 'POST', `${DICT}/submit`, parent(`${TAG}seal`, { isSealed: 2 }));
    expect(sealed.status).toBe(400);
    expect(sealed.body.data[0].field).toBe('isSealed');
    expect(await countRows(s, 'blade_dict', 'code = ANY($1)', [[`${TAG}neg`, `${TAG}seal`]])).toBe(0);
  });

  it('a dictionary without a parent is a top-level one (parentId 0) and isSealed defaults to 0', async () => {
    const d = await addParent(DICT, admin, `${TAG}top`);
    expect(d).toMatchObject({ parentId: '0', code: `${TAG}top`, dictKey: '-1', isSealed: 0, sort: 1 });
    expect(d.id).toMatch(/^\d+$/);
    expect(d).not.toHaveProperty('tenantId');
  });
});

describe('parent-list, child-list, submitChild, dictionary-tree', () => {
  let p: Json;
  let c1: Json;
  let c2: Json;

  beforeAll(async () => {
    p = await addParent(DICT, admin, `${TAG}pc`);
    c2 = await addChild(DICT, admin, p.id, '2');
    c1 = await addChild(DICT, admin, p.id, '1', { dictValueEn: 'One' });
  });

  it('submitChild gives the entry its parent and the parent’s code', () => {
    expect(c1).toMatchObject({ parentId: p.id, code: `${TAG}pc`, dictKey: '1', dictValue: '值1', dictValueEn: 'One', isSealed: 0 });
  });

  it('submitChild requires a parent: 400 请选择上级字典, nothing stored', async () => {
    const before = await countRows(s, 'blade_dict');
    for (const parentId of [undefined, '', '0']) {
      const { status, body } = await call(s, admin, 'POST', `${DICT}/submitChild`, { parentId, dictKey: 'x', dictValue: 'x', sort: 1 });
      expect(status).toBe(400);
      expect(body.msg).toBe('请选择上级字典');
      expect(body.data).toEqual([{ field: 'parentId', message: '请选择上级字典' }]);
    }
    const missing = await call(s, admin, 'POST', `${DICT}/submitChild`, { parentId: '123', dictKey: 'x', dictValue: 'x', sort: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('上级字典不存在');
    expect(await countRows(s, 'blade_dict')).toBe(before);
  });

  it('submit of an entry takes the parent’s code too, whatever code it was sent', async () => {
    const { status, body } = await call(s, admin, 'POST', `${DICT}/submit`, { parentId: p.id, code: 'something_else', dictKey: '3', dictValue: '值3', sort: 3 });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ parentId: p.id, code: `${TAG}pc` });
  });

  it('a key is unique within its dictionary: 400 当前字典键值已存在', async () => {
    const { status, body } = await call(s, admin, 'POST', `${DICT}/submitChild`, { parentId: p.id, dictKey: '1', dictValue: '重复', sort: 9 });
    expect(status).toBe(400);
    expect(body.data).toEqual([{ field: 'dictKey', message: '当前字典键值已存在' }]);
    expect(await countRows(s, 'blade_dict', "parent_id = $1 AND dict_value = '重复'", [p.id])).toBe(0);
  });

  it('a dictionary code is unique among dictionaries: 400 字典编号已存在', async () => {
    const { status, body } = await call(s, admin, 'POST', `${DICT}/submit`, parent(`${TAG}pc`, { dictValue: '另一个' }));
    expect(status).toBe(400);
    expect(body.data).toEqual([{ field: 'code', message: '字典编号已存在' }]);
  });

  it('parent-list pages the dictionaries only (the seeded ones and ours), for any signed-in user', async () => {
    const { status, body } = await call(s, kyry, 'GET', `${DICT}/parent-list?code=${TAG}pc`);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ total: 1, current: 1, size: 10, pages: 1 });
    expect(body.data.records[0]).toMatchObject({ id: p.id, parentId: '0' });
    const seeded = await call(s, kyry, 'GET', `${DICT}/parent-list?code=patent_type`);
    expect(seeded.body.data.records.map((r: Json) => r.dictValue)).toEqual(['专利类型']);
    const all = await call(s, kyry, 'GET', `${DICT}/parent-list?size=200`);
    expect((all.body.data.records as Json[]).every((r) => r.parentId === '0')).toBe(true);
  });

  it('child-list pages the entries under parentId, by sort', async () => {
    const { status, body } = await call(s, kyry, 'GET', `${DICT}/child-list?parentId=${p.id}`);
    expect(status).toBe(200);
    expect(body.data.total).toBe(3);
    expect((body.data.records as Json[]).map((r) => r.dictKey)).toEqual(['1', '2', '3']);
    const paged = await call(s, kyry, 'GET', `${DICT}/child-list?parentId=${p.id}&size=10&current=2`);
    expect(paged.body.data).toMatchObject({ total: 3, records: [] });
    const filtered = await call(s, kyry, 'GET', `${DICT}/child-list?parentId=${p.id}&dictValue=值2`);
    expect((filtered.body.data.records as Json[]).map((r) => r.id)).toEqual([c2.id]);
  });

  it('child-list needs a valid parentId', async () => {
    const none = await call(s, kyry, 'GET', `${DICT}/child-list`);
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('缺少参数 parentId');
    const bad = await call(s, kyry, 'GET', `${DICT}/child-list?parentId=abc`);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('参数 parentId 的值无效');
  });

  it('the generic list filters by parentId (equality on the id column, no 500)', async () => {
    const { status, body } = await call(s, kyry, 'GET', `${DICT}/list?parentId=${p.id}&size=50`);
    expect(status).toBe(200);
    expect(body.data.total).toBe(3);
    const bad = await call(s, kyry, 'GET', `${DICT}/list?parentId=x`);
    expect(bad.status).toBe(400);
  });

  it('dictionary-tree?code= is the dictionary’s entries; without code every dictionary with its entries', async () => {
    const nested = await addChild(DICT, admin, c1.id, '11');
    expect(nested.code).toBe(`${TAG}pc`);
    const { status, body } = await call(s, kyry, 'GET', `${DICT}/dictionary-tree?code=${TAG}pc`);
    expect(status).toBe(200);
    const tree = body.data as Json[];
    expect(tree.map((n) => n.dictKey)).toEqual(['1', '2', '3']);
    expect(tree[0]).toMatchObject({ id: c1.id, hasChildren: true });
    expect(tree[0].children.map((n: Json) => n.dictKey)).toEqual(['11']);
    const all = await call(s, kyry, 'GET', `${DICT}/dictionary-tree`);
    const mine = (all.body.data as Json[]).find((n) => n.id === p.id)!;
    expect(mine.children.map((n: Json) => n.dictKey)).toEqual(['1', '2', '3']);
    const patentType = (all.body.data as Json[]).find((n) => n.code === 'patent_type' && n.parentId === '0')!;
    expect(patentType.children.map((n: Json) => n.dictValue)).toEqual(['发明专利', '实用新型专利', '外观设计专利']);
  });

  it('the generic tree nests the entries under their dictionary', async () => {
    const { body } = await call(s, kyry, 'GET', `${DICT}/tree`);
    const node = (body.data as Json[]).find((n) => n.id === p.id)!;
    expect(node).toMatchObject({ title: `${TAG}pc 名称`, hasChildren: true });
  });

  it('the entries show in dictionary?code= (the form lookups)', async () => {
    const { body } = await call(s, kyry, 'GET', `${DICT}/dictionary?code=${TAG}pc`);
    expect((body.data as Json[]).map((i) => i.dictKey)).toEqual(['1', '2', '3']);
  });

  it('renaming a dictionary carries the new code down to its entries', async () => {
    const q = await addParent(DICT, admin, `${TAG}old`);
    const child = await addChild(DICT, admin, q.id, '1');
    const grandchild = await addChild(DICT, admin, child.id, '2');
    const res = await call(s, admin, 'POST', `${DICT}/submit`, { id: q.id, code: `${TAG}new` });
    expect(res.status).toBe(200);
    expect(await countRows(s, 'blade_dict', 'id = ANY($1::bigint[]) AND code = $2', [[child.id, grandchild.id], `${TAG}new`])).toBe(2);
  });

  it('an entry cannot become its own ancestor', async () => {
    const { status, body } = await call(s, admin, 'POST', `${DICT}/submit`, { id: p.id, parentId: c1.id });
    expect(status).toBe(400);
    expect(body.data).toEqual([{ field: 'parentId', message: '上级字典不能是自己或自己的下级' }]);
  });
});

describe('removal', () => {
  it('a sealed entry cannot be removed: 400 已封存的字典不能删除, and it stays', async () => {
    const p = await addParent(DICT, admin, `${TAG}sealed`);
    const sealed = await addChild(DICT, admin, p.id, '1', { isSealed: 1 });
    const open = await addChild(DICT, admin, p.id, '2');
    const { status, body } = await call(s, admin, 'POST', `${DICT}/remove?ids=${open.id},${sealed.id}`);
    expect(status).toBe(400);
    expect(body).toEqual({ code: 400, success: false, data: null, msg: '已封存的字典不能删除' });
    // all or nothing: the open entry stays too
    expect(await countRows(s, 'blade_dict', 'id = ANY($1::bigint[]) AND is_deleted = 0', [[open.id, sealed.id]])).toBe(2);
    const en = await call(s, admin, 'POST', `${DICT}/remove?ids=${sealed.id}`, undefined, { 'accept-language': 'en' });
    expect(en.body.msg).toBe('A sealed dictionary entry cannot be removed');
    // unsealed, it goes
    expect((await call(s, admin, 'POST', `${DICT}/submit`, { id: sealed.id, isSealed: 0 })).status).toBe(200);
    expect((await call(s, admin, 'POST', `${DICT}/remove?ids=${sealed.id}`)).status).toBe(200);
    expect(await countRows(s, 'blade_dict', 'id = $1 AND is_deleted = 1', [sealed.id])).toBe(1);
  });

  it('a dictionary with live entries cannot be removed alone (请先删除子节点); with them it can', async () => {
    const p = await addParent(BIZ, admin, `${TAG}kids`);
    const c = await addChild(BIZ, admin, p.id, '1');
    const alone = await call(s, admin, 'POST', `${BIZ}/remove?ids=${p.id}`);
    expect(alone.status).toBe(400);
    expect(alone.body.msg).toBe('请先删除子节点');
    const both = await call(s, admin, 'POST', `${BIZ}/remove?ids=${p.id},${c.id}`);
    expect(both.status).toBe(200);
    expect(await countRows(s, 'blade_dict_biz', 'id = ANY($1::bigint[]) AND is_deleted = 1', [[p.id, c.id]])).toBe(2);
  });
});

describe('who may write', () => {
  it('a researcher reads dictionaries but cannot add, edit or remove (403)', async () => {
    const p = await addParent(DICT, admin, `${TAG}ro`);
    expect((await call(s, kyry, 'GET', `${DICT}/detail?id=${p.id}`)).status).toBe(200);
    for (const [url, payload] of [
      [`${DICT}/submit`, parent(`${TAG}ro2`)],
      [`${DICT}/submitChild`, { parentId: p.id, dictKey: '1', dictValue: 'x', sort: 1 }],
      [`${DICT}/submit`, { id: p.id, dictValue: '改' }],
      [`${BIZ}/submit`, parent(`${TAG}ro3`)],
    ] as const) {
      const res = await call(s, kyry, 'POST', url, payload);
      expect(res.status, url).toBe(403);
      // system dictionaries are platform data (scope.platform); business dictionaries need the dictbiz grants
      expect(res.body.msg).toBe(url.startsWith(`${DICT}/`) ? '平台数据只能由平台管理员维护' : '没有权限执行此操作');
    }
    expect((await call(s, kyry, 'POST', `${DICT}/remove?ids=${p.id}`)).status).toBe(403);
    expect(await countRows(s, 'blade_dict', 'code = ANY($1) OR (id = $2 AND dict_value <> $3)', [[`${TAG}ro2`], p.id, p.dictValue])).toBe(0);
    expect(await countRows(s, 'blade_dict_biz', 'code = $1', [`${TAG}ro3`])).toBe(0);
  });

  it('the administrator holds the dict and dictbiz buttons', async () => {
    const { body } = await call(s, admin, 'GET', '/api/blade-system/menu/buttons');
    const codes = JSON.stringify(body.data);
    for (const c of ['dict_add', 'dict_edit', 'dict_delete', 'dictbiz_add', 'dictbiz_edit', 'dictbiz_delete']) expect(codes).toContain(`"${c}"`);
  });

  it('system dictionaries are shared: another tenant’s administrator reads them but cannot change them', async () => {
    const p = await addParent(DICT, admin, `${TAG}shared`);
    const read = await call(s, other, 'GET', `${DICT}/detail?id=${p.id}`);
    expect(read.status).toBe(200);
    const add = await call(s, other, 'POST', `${DICT}/submit`, parent(`${TAG}foreign`));
    expect(add.status).toBe(403);
    expect(add.body.msg).toBe('平台数据只能由平台管理员维护');
    expect((await call(s, other, 'POST', `${DICT}/submit`, { id: p.id, dictValue: '改' })).status).toBe(403);
    expect((await call(s, other, 'POST', `${DICT}/remove?ids=${p.id}`)).status).toBe(403);
    expect(await countRows(s, 'blade_dict', 'id = $1 AND is_deleted = 0 AND dict_value = $2', [p.id, p.dictValue])).toBe(1);
    expect(await countRows(s, 'blade_dict', 'code = $1', [`${TAG}foreign`])).toBe(0);
  });
});

describe('business dictionaries are per tenant', () => {
  let p: Json;
  let c: Json;
  beforeAll(async () => {
    p = await addParent(BIZ, admin, `${TAG}biz`);
    c = await addChild(BIZ, admin, p.id, '1');
  });

  it('rows are stored under the writer’s tenant', async () => {
    expect(p.tenantId).toBe('000000');
    expect(await countRows(s, 'blade_dict_biz', 'id = ANY($1::bigint[]) AND tenant_id = $2', [[p.id, c.id], '000000'])).toBe(2);
  });

  it('tenant 100001’s administrator sees none of them, from any endpoint', async () => {
    for (const url of [
      `${BIZ}/list?code=${TAG}biz`,
      `${BIZ}/page?code=${TAG}biz`,
      `${BIZ}/parent-list?code=${TAG}biz`,
      `${BIZ}/child-list?parentId=${p.id}`,
    ]) {
      const res = await call(s, other, 'GET', url);
      expect(res.status, url).toBe(200);
      expect(res.body.data.total, url).toBe(0);
      expect(res.body.data.records, url).toEqual([]);
    }
    for (const url of [`${BIZ}/select?code=${TAG}biz`, `${BIZ}/dictionary-tree?code=${TAG}biz`, `${BIZ}/dictionary?code=${TAG}biz`]) {
      const res = await call(s, other, 'GET', url);
      expect(res.status, url).toBe(200);
      expect(res.body.data, url).toEqual([]);
    }
    const tree = await call(s, other, 'GET', `${BIZ}/tree`);
    expect(JSON.stringify(tree.body.data)).not.toContain(p.id);
    const all = await call(s, other, 'GET', `${BIZ}/dictionary-tree`);
    expect(JSON.stringify(all.body.data)).not.toContain(p.id);
    for (const id of [p.id, c.id]) {
      const d = await call(s, other, 'GET', `${BIZ}/detail?id=${id}`);
      expect(d.status).toBe(404);
    }
    // while tenant 000000 sees them
    expect((await call(s, kyry, 'GET', `${BIZ}/child-list?parentId=${p.id}`)).body.data.total).toBe(1);
  });

  it('tenant 100001 cannot update, attach entries to, or remove them (404), and nothing changes', async () => {
    const upd = await call(s, other, 'POST', `${BIZ}/submit`, { id: c.id, dictValue: '劫持' });
    expect(upd.status).toBe(404);
    const child = await call(s, other, 'POST', `${BIZ}/submitChild`, { parentId: p.id, dictKey: '9', dictValue: '劫持', sort: 9 });
    expect(child.status).toBe(400);
    expect(child.body.msg).toBe('上级字典不存在');
    const viaSubmit = await call(s, other, 'POST', `${BIZ}/submit`, { parentId: p.id, code: 'x', dictKey: '9', dictValue: '劫持', sort: 9 });
    expect(viaSubmit.status).toBe(400);
    expect(viaSubmit.body.msg).toBe('上级字典不存在');
    const rm = await call(s, other, 'POST', `${BIZ}/remove?ids=${c.id}`);
    expect(rm.status).toBe(404);
    expect(await countRows(s, 'blade_dict_biz', 'id = ANY($1::bigint[]) AND is_deleted = 0', [[p.id, c.id]])).toBe(2);
    expect(await countRows(s, 'blade_dict_biz', "dict_value = '劫持'")).toBe(0);
  });

  it('a sealed entry of another tenant answers 404, not 400 (it is not there for them)', async () => {
    const sealed = await addChild(BIZ, admin, p.id, '2', { isSealed: 1 });
    const rm = await call(s, other, 'POST', `${BIZ}/remove?ids=${sealed.id}`);
    expect(rm.status).toBe(404);
  });

  it('each tenant keeps its own codes: tenant 100001 may use the same code', async () => {
    const theirs = await addParent(BIZ, other, `${TAG}biz`);
    expect(theirs.tenantId).toBe('100001');
    const mine = await call(s, kyry, 'GET', `${BIZ}/parent-list?code=${TAG}biz`);
    expect((mine.body.data.records as Json[]).map((r) => r.id)).toEqual([p.id]);
  });

  it('anonymous callers get 401', async () => {
    for (const url of [`${BIZ}/list`, `${BIZ}/parent-list`, `${DICT}/dictionary-tree`]) {
      expect((await call(s, null, 'GET', url)).status).toBe(401);
    }
    expect((await call(s, null, 'POST', `${BIZ}/submitChild`, {})).status).toBe(401);
  });
});
