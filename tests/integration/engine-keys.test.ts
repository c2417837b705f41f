/**
 * The schema keys the engine enforces for every resource (DESIGN §1.3, §4), shown on a resource that exists
 * only because an administrator published it through the schema store a moment ago — no module code names it:
 *
 * - `x-server-only` (and `actions.statusField`): a client can write the status neither on insert nor update;
 * - `actions.locked`: a record in a locked status can be neither edited nor removed, with the status's label;
 * - `rules`: `before` (cross-field order, the rule's message, nothing stored), `sum` (parts add up to a total)
 *   and `clear` (emptied unless);
 * - `x-ref`: a department from another tenant, or one that does not exist, is refused;
 * - `stats`: the resource joins the statistics of its group (`achievement`);
 * - tenants: another tenant's administrator sees none of the records.
 *
 * And `scope.platform`: regions and system dictionaries are readable by everyone and writable only by the
 * administrators of tenant 000000 (a tenant's own administrator and the platform's research managers get 403).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

const SUFFIX = Date.now().toString(36);
const NAME = `test/keys${SUFFIX}`;
const TABLE = `test_keys_${SUFFIX}`;
const API = `/api/test-keys/${SUFFIX}`;
const SHORT = `keys${SUFFIX}`;

let s: TestServer;
let admin: Session;
let kyry: Session;
let kygl: Session;
let otherAdmin: Session;

const schema = (): Json => ({
  name: NAME,
  title: '键测试',
  titleEn: 'Keys test',
  api: API,
  table: TABLE,
  endpoints: ['list', 'detail', 'submit', 'remove'],
  permissions: { read: null, add: null, edit: null, remove: null },
  form: {
    type: 'object',
    properties: {
      title: { type: 'string', title: '标题', titleEn: 'Title', maxLength: 50, 'x-component': 'Input', 'x-validator': [{ required: true, message: '请输入标题', messageEn: 'Please enter the title' }] },
      state: { type: 'string', title: '状态', titleEn: 'Status', maxLength: 2, default: '0', 'x-server-only': true, 'x-component': 'Input' },
      startDate: { type: 'string', format: 'date', title: '开始日期', titleEn: 'Start date', 'x-component': 'DatePicker' },
      endDate: { type: 'string', format: 'date', title: '结束日期', titleEn: 'End date', 'x-component': 'DatePicker' },
      kind: { type: 'string', title: '类别', titleEn: 'Kind', maxLength: 2, 'x-component': 'Input' },
      detailText: { type: 'string', title: '说明', titleEn: 'Details', maxLength: 100, 'x-component': 'Input' },
      total: { type: 'number', title: '合计', titleEn: 'Total', 'x-component': 'NumberPicker' },
      parts: {
        type: 'array',
        title: '分项',
        'x-component': 'ArrayTable',
        items: { type: 'object', properties: { amount: { type: 'number', title: '金额', 'x-component': 'NumberPicker' } } },
      },
      deptId: { type: 'string', title: '所属部门', titleEn: 'Department', maxLength: 32, 'x-component': 'DeptTreeSelect', 'x-ref': 'dept' },
      authors: {
        type: 'array',
        title: '作者',
        'x-component': 'ArrayTable',
        items: { type: 'object', properties: { userName: { type: 'string', title: '姓名', maxLength: 20, 'x-component': 'Input' } } },
      },
    },
  },
  rules: [
    { before: ['startDate', 'endDate'], message: '结束日期不能早于开始日期', messageEn: 'The end date may not be before the start date' },
    { clear: ['detailText'], unless: "{{$values.kind === '1'}}" },
    { sum: ['parts.amount'], equals: 'total', message: '分项合计（{sum}）与合计（{total}）不一致', messageEn: 'The parts add up to {sum}, not {total}' },
  ],
  stats: { group: 'achievement', yearField: 'startDate', authorField: 'authors.userName' },
  actions: {
    statusField: 'state',
    statusDict: 'examine_status',
    locked: ['1', '2'],
    items: [{ key: 'noop', label: '无操作', labelEn: 'No-op', endpoint: '/api/basic/examine/submit', from: ['9'], to: '9', roles: ['administrator'] }],
  },
});

const rows = (where = 'TRUE', params: unknown[] = []) => countRows(s, TABLE, where, params);
const submit = (who: Session, body: Json) => call(s, who, 'POST', `${API}/submit`, body);

beforeAll(async () => {
  s = await testServer();
  admin = await login(s, 'admin');
  kyry = await login(s, 'kyry');
  kygl = await login(s, 'kygl');
  otherAdmin = await login(s, 'admin', { tenantId: '100001' });
  const draft = await call(s, admin, 'POST', '/api/system/schema/submit', { schema: schema() });
  expect(draft.status, JSON.stringify(draft.body)).toBe(200);
  const pub = await call(s, admin, 'POST', `/api/system/schema/publish?name=${encodeURIComponent(NAME)}&version=${draft.body.data.version}`);
  expect(pub.status, JSON.stringify(pub.body)).toBe(200);
});

afterAll(async () => {
  if (!s) return;
  const pool = s.kernel.database.pool;
  await pool.query('DELETE FROM kc_schema_version WHERE name = $1', [NAME]);
  await pool.query('DELETE FROM kc_schema_log WHERE name = $1', [NAME]);
  await s.kernel.schemas.reload(NAME);
  await pool.query(`DROP TABLE IF EXISTS ${TABLE}`);
  await s.close();
});

describe('a resource published a minute ago', () => {
  it('never lets a client write its server-only status, on insert or update', async () => {
    const saved = await submit(kyry, { title: 'S1', state: '2' });
    expect(saved.status).toBe(200);
    expect(saved.body.data.state).toBe('0');
    const id = saved.body.data.id;
    const again = await submit(kyry, { id, title: 'S1 changed', state: '2' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ title: 'S1 changed', state: '0' });
    expect(await rows(`id = $1 AND state = '0'`, [id])).toBe(1);
  });

  it('refuses to edit or remove a record in a locked status, naming the status, and changes nothing', async () => {
    const saved = await submit(kyry, { title: 'L1' });
    const id = saved.body.data.id;
    await s.kernel.database.pool.query(`UPDATE ${TABLE} SET state = '1' WHERE id = $1`, [id]);
    const edit = await submit(kyry, { id, title: 'L1 changed' });
    expect(edit.status).toBe(400);
    expect(edit.body.msg).toBe('当前状态为「待审核」，不能修改');
    const en = await call(s, kyry, 'POST', `${API}/submit`, { id, title: 'L1 changed' }, { 'accept-language': 'en' });
    expect(en.body.msg).toBe('The record is pending review and cannot be changed');
    const remove = await call(s, kyry, 'POST', `${API}/remove?ids=${id}`);
    expect(remove.status).toBe(400);
    expect(remove.body.msg).toBe('当前状态为「待审核」，不能删除');
    expect(await rows(`id = $1 AND title = 'L1' AND is_deleted = 0`, [id])).toBe(1);
  });

  it('checks its cross-field order rule with the rule’s message, storing nothing', async () => {
    const before = await rows();
    const bad = await submit(kyry, { title: 'R1', startDate: '2024-05-02', endDate: '2024-05-01' });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toEqual([{ field: 'endDate', message: '结束日期不能早于开始日期' }]);
    expect(await rows()).toBe(before);
    const same = await submit(kyry, { title: 'R1', startDate: '2024-05-01', endDate: '2024-05-01' });
    expect(same.status).toBe(200);
  });

  it('clears a field its clear rule says the record cannot have', async () => {
    const cleared = await submit(kyry, { title: 'C1', kind: '2', detailText: 'left behind' });
    expect(cleared.body.data.detailText).toBeNull();
    const kept = await submit(kyry, { title: 'C2', kind: '1', detailText: 'kept' });
    expect(kept.body.data.detailText).toBe('kept');
  });

  it('refuses parts that do not add up to the total (sum rule), storing nothing; zh and en', async () => {
    const before = await rows();
    const bad = await submit(kyry, { title: 'S1', total: 10, parts: [{ amount: 4 }, { amount: 5.5 }] });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toEqual([{ field: 'total', message: '分项合计（9.50）与合计（10.00）不一致' }]);
    const en = await call(s, kyry, 'POST', `${API}/submit`, { title: 'S1', total: 10, parts: [{ amount: 4 }] }, { 'accept-language': 'en' });
    expect(en.body.msg).toBe('The parts add up to 4.00, not 10.00');
    expect(await rows()).toBe(before);
    const good = await submit(kyry, { title: 'S2', total: 10, parts: [{ amount: 4.5 }, { amount: 5.5 }] });
    expect(good.status).toBe(200);
    expect(await rows()).toBe(before + 1);
  });

  it('refuses a department that does not exist in the caller’s tenant, storing nothing', async () => {
    const other = await s.kernel.database.pool.query(`SELECT id::text AS id FROM blade_dept WHERE tenant_id = '100001' AND is_deleted = 0 LIMIT 1`);
    const before = await rows();
    for (const deptId of [other.rows[0].id, '123', 'x1']) {
      const bad = await submit(kyry, { title: 'D1', deptId });
      expect(bad.status).toBe(400);
      expect(bad.body.data).toEqual([{ field: 'deptId', message: '所属部门不存在' }]);
    }
    expect(await rows()).toBe(before);
    const ok = await submit(kyry, { title: 'D2', deptId: kyry.deptId });
    expect(ok.status).toBe(200);
  });

  it('joins the statistics of its group, counted by its year and author fields', async () => {
    await submit(kyry, { title: 'T1', startDate: '2019-03-01', authors: [{ userName: '键作者' }] });
    const stats = await call(s, admin, 'GET', `/api/basic/achievement/statistics?type=${SHORT}`);
    expect(stats.status).toBe(200);
    expect(stats.body.data.byType.map((t: Json) => t.type)).toEqual([SHORT]);
    expect(stats.body.data.byYear.find((y: Json) => y.year === '2019')?.total).toBe(1);
    const authors = await call(s, admin, 'GET', `/api/basic/achievement/statisticsByAuthor?type=${SHORT}`);
    expect(authors.body.data.records).toEqual([{ name: '键作者', total: 1, byType: { [SHORT]: 1 } }]);
  });

  it('shows another tenant nothing', async () => {
    const mine = await call(s, kyry, 'GET', `${API}/list?size=200`);
    expect(mine.body.data.total).toBeGreaterThan(0);
    const theirs = await call(s, otherAdmin, 'GET', `${API}/list?size=200`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.total).toBe(0);
    const one = mine.body.data.records[0].id;
    expect((await call(s, otherAdmin, 'GET', `${API}/detail?id=${one}`)).status).toBe(404);
    expect((await call(s, otherAdmin, 'POST', `${API}/remove?ids=${one}`)).status).toBe(404);
  });
});

describe('platform resources (scope.platform)', () => {
  const cases = [
    { name: 'regions', api: '/api/blade-system/region', table: 'blade_region', list: '/api/blade-system/region/lazy-tree?parentCode=00', body: { parentCode: '00', code: '98', name: '测试区划' }, where: `code = '98'` },
    { name: 'system dictionaries', api: '/api/blade-system/dict', table: 'blade_dict', list: '/api/blade-system/dict/list', body: { parentId: '0', code: `t_${SUFFIX}`, dictKey: '-1', dictValue: '测试字典', sort: 1 }, where: `code = 't_${SUFFIX}'` },
  ];
  for (const c of cases) {
    it(`${c.name}: readable by every tenant, written only by the platform's administrators`, async () => {
      expect((await call(s, otherAdmin, 'GET', c.list)).status).toBe(200);
      expect((await call(s, kyry, 'GET', c.list)).status).toBe(200);
      for (const who of [otherAdmin, kygl, kyry]) {
        const res = await call(s, who, 'POST', `${c.api}/submit`, c.body);
        expect(res.status).toBe(403);
        expect(res.body.msg).toBe('平台数据只能由平台管理员维护');
      }
      expect(await countRows(s, c.table, c.where)).toBe(0);
      const made = await call(s, admin, 'POST', `${c.api}/submit`, c.body);
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const key = made.body.data.id ?? made.body.data.code;
      for (const who of [otherAdmin, kygl]) {
        const rename = await call(s, who, 'POST', `${c.api}/submit`, { ...made.body.data, [c.name === 'regions' ? 'name' : 'dictValue']: '改名' });
        expect(rename.status).toBe(403);
        const remove = await call(s, who, 'POST', `${c.api}/remove?ids=${key}`);
        expect(remove.status).toBe(403);
        expect(remove.body.msg).toBe('平台数据只能由平台管理员维护');
      }
      expect(await countRows(s, c.table, `${c.where} AND is_deleted = 0`)).toBe(1);
      expect((await call(s, admin, 'POST', `${c.api}/remove?ids=${key}`)).status).toBe(200);
      await s.kernel.database.pool.query(`DELETE FROM ${c.table} WHERE ${c.where}`);
    });
  }
});
