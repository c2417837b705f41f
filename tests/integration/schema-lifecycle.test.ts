/**
 * The schema lifecycle (DESIGN §4, §12; resources/store.ts): a platform administrator saves a draft of the
 * patent schema with a new required field, publishes it — the table gets the column, the detail endpoint
 * serves it, patent submits are validated with it, and a second server node (another app over the same
 * database) follows through LISTEN/NOTIFY — then rolls back: the field leaves the form while the stored
 * value stays in its column. Lossy changes, invalid schemas and non-administrators change nothing. A brand-new
 * resource published at run time is served by the engine's dispatcher.
 *
 * These tests change the shared test database's patent schema: afterAll deletes the store rows, tells every
 * node, and drops the test columns and tables, so the other test files see the folder's schemas again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, validPatent, type Json, type Session, type TestServer } from './helpers.js';

const NAME = 'basic/patent';
const FIELD = 'remark2';
const BASE = '/api/system/schema';
const TAG = `LC${Date.now().toString(36)}`;
const NEW_NAME = `test/lifecycle${Date.now().toString(36)}`;
const NEW_TABLE = `test_lc_${Date.now().toString(36)}`;
const NEW_API = `/api/test-lc/${Date.now().toString(36)}`;

let a: TestServer; // node A: where the administrator works
let b: TestServer; // node B: another API node over the same database
let admin: Session;
let kygl: Session;
let otherAdmin: Session; // administrator of tenant 100001
let columnExisted = false;

beforeAll(async () => {
  a = await testServer();
  b = await testServer();
  admin = await login(a, 'admin');
  kygl = await login(a, 'kygl');
  otherAdmin = await login(a, 'admin', { tenantId: '100001' });
  columnExisted = (await columnType(FIELD)) !== undefined;
});

afterAll(async () => {
  if (!a) return;
  const pool = a.kernel.database.pool;
  for (const name of [NAME, NEW_NAME]) {
    await pool.query('DELETE FROM kc_schema_version WHERE name = $1', [name]);
    await pool.query('DELETE FROM kc_schema_log WHERE name = $1', [name]);
    await pool.query('SELECT pg_notify($1, $2)', ['kc_schema', name]);
    await a.kernel.schemas.reload(name);
    await b?.kernel.schemas.reload(name);
  }
  if (!columnExisted) await pool.query(`ALTER TABLE basic_patent DROP COLUMN IF EXISTS ${FIELD}`);
  await pool.query(`DROP TABLE IF EXISTS ${NEW_TABLE}`);
  await b?.close();
  await a.close();
});

/** The folder's patent schema, as the server loaded it. */
const folderSchema = (): Json => structuredClone(a.kernel.registry.folder.get(NAME)!.schema) as unknown as Json;

/** The patent schema with the required input field remark2 (备注二). */
function withRemark2(): Json {
  const s = folderSchema();
  s.form.properties.grid.properties[FIELD] = {
    type: 'string',
    title: '备注二',
    titleEn: 'Remark 2',
    maxLength: 200,
    'x-decorator': 'FormItem',
    'x-component': 'Input',
    'x-validator': [{ required: true, message: '请输入备注二', messageEn: 'Please enter remark 2' }],
  };
  return s;
}

async function columnType(column: string, table = 'basic_patent'): Promise<string | undefined> {
  const r = await a.kernel.database.pool.query(
    `SELECT data_type, character_maximum_length AS len FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2`,
    [table, column],
  );
  const row = r.rows[0];
  return row ? (row.len ? `${row.data_type}(${row.len})` : row.data_type) : undefined;
}

const storeRows = () => countRows(a, 'kc_schema_version', 'name = $1', [NAME]);
const submitSchema = (body: unknown, who: Session = admin, node: TestServer = a) => call(node, who, 'POST', `${BASE}/submit`, body);
const publish = (version: number, who: Session = admin, name = NAME) => call(a, who, 'POST', `${BASE}/publish?name=${encodeURIComponent(name)}&version=${version}`);
const rollback = (version: number, who: Session = admin, name = NAME) => call(a, who, 'POST', `${BASE}/rollback?name=${encodeURIComponent(name)}&version=${version}`);
const detail = async (node: TestServer, name = NAME) => (await call(node, admin, 'GET', `${BASE}/detail?name=${encodeURIComponent(name)}`)).body.data as Json;
const versions = async (name = NAME) => (await call(a, admin, 'GET', `${BASE}/versions?name=${encodeURIComponent(name)}`)).body.data as Json[];
const hasRemark2 = (schema: Json) => FIELD in (schema?.form?.properties?.grid?.properties ?? {});
const submitPatent = (body: Json, node: TestServer = a) => call(node, kygl, 'POST', '/api/basic/patent/submit', body);
const patents = () => countRows(a, 'basic_patent', 'name LIKE $1', [`${TAG}%`]);

/** Polls `read` until `done` holds (another node reacts to NOTIFY asynchronously); fails after `ms`. */
async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 3000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${JSON.stringify(v)?.slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('before anything is published', () => {
  it('versions lists the folder version (0) as the current one', async () => {
    const { status, body } = await call(a, kygl, 'GET', `${BASE}/versions?name=${NAME}`);
    expect(status).toBe(200);
    expect(body.data).toEqual([
      {
        name: NAME, version: 0, state: 'published', current: true, source: 'folder', remark: 'schemas/basic/patent.json',
        createUser: null, createUserName: null, createTime: null, updateTime: null, publishUser: null, publishUserName: null, publishTime: null,
      },
    ]);
    expect(hasRemark2(await detail(a))).toBe(false);
    expect(await columnType(FIELD)).toBeUndefined();
  });

  it('versions and history: 404 for an unknown name, 400 without one, 401 without a user', async () => {
    const unknown = await call(a, kygl, 'GET', `${BASE}/versions?name=basic/nothing`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toBe('资源定义 basic/nothing 不存在');
    expect((await call(a, kygl, 'GET', `${BASE}/history?name=basic/nothing`)).status).toBe(404);
    const missing = await call(a, kygl, 'GET', `${BASE}/versions`);
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('缺少参数 name');
    expect((await call(a, null, 'GET', `${BASE}/versions?name=${NAME}`)).status).toBe(401);
  });
});

describe('who may change schemas', () => {
  const refusals: Array<[string, () => Session]> = [
    ['kygl (not an administrator)', () => kygl],
    ['the administrator of tenant 100001 (schemas are platform-wide)', () => otherAdmin],
  ];
  for (const [who, session] of refusals) {
    it(`${who}: 403 on submit, publish and rollback, nothing stored`, async () => {
      const before = await storeRows();
      for (const res of [await submitSchema({ schema: withRemark2() }, session()), await publish(1, session()), await rollback(0, session())]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ code: 403, success: false, data: null, msg: '只有平台管理员可以保存、发布或回滚资源定义' });
      }
      expect(await storeRows()).toBe(before);
      expect(hasRemark2(await detail(a))).toBe(false);
    });
  }

  it('401 without a user', async () => {
    expect((await submitSchema({ schema: withRemark2() }, null as unknown as Session)).status).toBe(401);
    expect((await call(a, null, 'POST', `${BASE}/publish?name=${NAME}&version=1`)).status).toBe(401);
  });

  it('reading stays open to every signed-in user, of every tenant', async () => {
    for (const who of [kygl, otherAdmin]) {
      const res = await call(a, who, 'GET', `${BASE}/detail?name=${NAME}`);
      expect(res.status).toBe(200);
      expect(res.body.data.name).toBe(NAME);
    }
  });
});

describe('an invalid draft', () => {
  const cases: Array<[string, (s: Json) => unknown, string]> = [
    ['a field of type strng', (s) => (s.form.properties.grid.properties[FIELD].type = 'strng'), `资源定义 basic/patent 不合法: /form/properties/grid/properties/${FIELD}/type: must be equal to one of the allowed values`],
    ['a list column naming a missing field', (s) => s.list.columns.push({ field: 'nope' }), '资源定义 basic/patent 不合法: /list/columns: no field "nope"'],
    ['an unknown top-level key', (s) => (s.colour = 'red'), '资源定义 basic/patent 不合法: /: unknown key "colour"'],
    ['an invalid regular expression', (s) => (s.form.properties.grid.properties[FIELD].pattern = '(['), '资源定义 basic/patent 不合法: '],
    ['another table', (s) => (s.table = 'basic_patent_copy'), '资源定义 basic/patent 的 table 不能修改（basic_patent → basic_patent_copy）'],
    ['another api', (s) => (s.api = '/api/basic/patent2'), '资源定义 basic/patent 的 api 不能修改（/api/basic/patent → /api/basic/patent2）'],
    ['the api of another resource', (s) => ((s.name = 'basic/patent-copy'), (s.table = 'basic_patent_copy')), 'api "/api/basic/patent" is already used by'],
  ];
  for (const [what, spoil, message] of cases) {
    it(`${what}: 400 naming the fault, nothing stored`, async () => {
      const s = withRemark2();
      spoil(s);
      const res = await submitSchema({ schema: s });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.msg).toContain(message);
      expect(await storeRows()).toBe(0);
    });
  }

  it('a renamed resource: 400 when the draft names the resource it edits', async () => {
    const s = withRemark2();
    s.name = 'basic/patent-renamed';
    const res = await submitSchema({ name: NAME, schema: s });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('资源定义 basic/patent 的 name 不能修改（basic/patent → basic/patent-renamed）');
  });

  it('a body without a schema: 400 缺少参数 schema; the en text names the fault too', async () => {
    const res = await submitSchema({ remark: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('缺少参数 schema');
    const s = withRemark2();
    s.form.properties.grid.properties[FIELD].type = 'strng';
    const en = await call(a, admin, 'POST', `${BASE}/submit`, { schema: s }, { 'accept-language': 'en' });
    expect(en.body.msg).toBe(`Resource schema basic/patent is invalid: /form/properties/grid/properties/${FIELD}/type: must be equal to one of the allowed values (string, number, integer, boolean, array, object, void)`);
    expect(await storeRows()).toBe(0);
  });
});

describe('draft, publish, rollback', () => {
  let recordId: string;

  it('submit saves a draft (version 1) that is not served yet; a second submit overwrites it', async () => {
    const first = await submitSchema({ schema: withRemark2() });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ name: NAME, version: 1, state: 'draft', current: false, source: 'store', createUser: admin.userId, createUserName: '系统管理员' });
    expect(hasRemark2(first.body.data.schema)).toBe(true);
    const again = await submitSchema({ schema: withRemark2(), remark: '增加备注二' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ version: 1, state: 'draft', remark: '增加备注二' });
    expect(await storeRows()).toBe(1);
    expect(hasRemark2(await detail(a))).toBe(false); // a draft is not served
    const v1 = await call(a, kygl, 'GET', `${BASE}/detail?name=${NAME}&version=1`);
    expect(hasRemark2(v1.body.data)).toBe(true);
    // the stored schema keeps the key order of the form (json, not jsonb): fields stay in their order on screen
    expect(Object.keys(v1.body.data.form.properties.grid.properties)).toEqual(Object.keys(withRemark2().form.properties.grid.properties));
    expect((await versions()).map((v) => [v.version, v.state, v.current])).toEqual([[1, 'draft', false], [0, 'published', true]]);
    expect(await columnType(FIELD)).toBeUndefined();
  });

  it('publish: the column is added, detail serves the version, submits are validated with it', async () => {
    const res = await publish(1);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: NAME, version: 1, state: 'published', current: true, publishUser: admin.userId, publishUserName: '系统管理员' });
    expect(res.body.data.sync.added).toEqual([{ table: 'basic_patent', column: FIELD }]);
    expect(await columnType(FIELD)).toBe('character varying(200)');
    expect(hasRemark2(await detail(a))).toBe(true);

    const without = await submitPatent(validPatent(TAG, kygl.deptId));
    expect(without.status).toBe(400);
    expect(without.body.msg).toBe('请输入备注二');
    expect(without.body.data).toEqual([{ field: FIELD, message: '请输入备注二' }]);
    expect(await patents()).toBe(0);

    const withIt = await submitPatent({ ...validPatent(TAG, kygl.deptId), [FIELD]: '备注二的内容' });
    expect(withIt.status).toBe(200);
    expect(withIt.body.data[FIELD]).toBe('备注二的内容');
    recordId = withIt.body.data.id;
    const row = await a.kernel.database.pool.query(`SELECT ${FIELD} AS v FROM basic_patent WHERE id = $1`, [recordId]);
    expect(row.rows[0].v).toBe('备注二的内容');
    const read = await call(a, kygl, 'GET', `/api/basic/patent/detail?id=${recordId}`);
    expect(read.body.data[FIELD]).toBe('备注二的内容');

    expect((await versions()).map((v) => [v.version, v.state, v.current])).toEqual([[1, 'published', true], [0, 'archived', false]]);
    const history = await call(a, kygl, 'GET', `${BASE}/history?name=${NAME}`);
    expect(history.body.data).toHaveLength(1);
    expect(history.body.data[0]).toMatchObject({ action: 'publish', version: 1, fromVersion: 0, userId: admin.userId, tenantId: '000000' });
  });

  it('the other node serves the published version within seconds and validates with it (LISTEN/NOTIFY)', async () => {
    const started = Date.now();
    await eventually(() => detail(b), hasRemark2);
    expect(Date.now() - started).toBeLessThan(3000);
    const without = await submitPatent(validPatent(TAG, kygl.deptId), b);
    expect(without.status).toBe(400);
    expect(without.body.msg).toBe('请输入备注二');
    const withIt = await submitPatent({ ...validPatent(TAG, kygl.deptId), [FIELD]: '在节点二保存' }, b);
    expect(withIt.status).toBe(200);
    expect(withIt.body.data[FIELD]).toBe('在节点二保存');
    const list = await call(b, kygl, 'GET', `/api/basic/patent/list?name=${TAG}&size=50`);
    expect(list.body.data.records.every((r: Json) => FIELD in r)).toBe(true);
  });

  it('a lossy change (name narrower, or another type) is refused naming the field; nothing changes', async () => {
    const narrower = withRemark2();
    narrower.form.properties.grid.properties.name.maxLength = 10;
    const draft = await submitSchema({ schema: narrower, remark: 'narrower' });
    expect(draft.status).toBe(200);
    expect(draft.body.data.version).toBe(2); // the latest was published: a new version number
    const res = await publish(2);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('表 basic_patent 的字段 name 从 character varying(100) 改为 character varying(10) 会丢失数据，已拒绝');
    expect(res.body.data).toEqual({ field: 'name' });

    const retyped = withRemark2();
    retyped.form.properties.grid.properties.name.type = 'number';
    delete retyped.form.properties.grid.properties.name.maxLength;
    const overwritten = await submitSchema({ schema: retyped });
    expect(overwritten.body.data.version).toBe(2); // the caller's newest draft is overwritten
    const en = await call(a, admin, 'POST', `${BASE}/publish?name=${NAME}&version=2`, undefined, { 'accept-language': 'en' });
    expect(en.status).toBe(400);
    expect(en.body.msg).toBe('Changing column name of table basic_patent from character varying(100) to numeric would lose data: refused');

    expect(await columnType('name')).toBe('character varying(100)');
    expect((await versions()).map((v) => [v.version, v.state, v.current])).toEqual([[2, 'draft', false], [1, 'published', true], [0, 'archived', false]]);
    expect((await detail(a)).form.properties.grid.properties.name.maxLength).toBe(100);
    expect((await call(a, kygl, 'GET', `${BASE}/history?name=${NAME}`)).body.data).toHaveLength(1);
  });

  it('publish and rollback: 404 for an unknown version, 400 for a bad one', async () => {
    const unknown = await publish(99);
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toBe('资源定义 basic/patent 没有版本 99');
    const missing = await call(a, admin, 'POST', `${BASE}/publish?name=${NAME}`);
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('缺少参数 version');
    const bad = await call(a, admin, 'POST', `${BASE}/rollback?name=${NAME}&version=abc`);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('参数 version 的值无效');
    const noName = await call(a, admin, 'POST', `${BASE}/publish?name=basic/nothing&version=1`);
    expect(noName.status).toBe(404);
  });

  it('rollback only goes to a version published before', async () => {
    for (const version of [2, 1]) {
      const res = await rollback(version); // 2 is a draft, 1 is the current one
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('只能回滚到以前发布过的版本（当前为版本 1）');
    }
  });

  it('rollback to the folder version: the field leaves the form, the stored value stays in its column', async () => {
    const res = await rollback(0);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ version: 0, source: 'folder', state: 'published', current: true });
    expect(res.body.data.sync.added).toEqual([]);
    expect(hasRemark2(await detail(a))).toBe(false);
    expect(await detail(a)).toEqual(folderSchema());

    const without = await submitPatent(validPatent(TAG, kygl.deptId));
    expect(without.status).toBe(200);
    expect(without.body.data).not.toHaveProperty(FIELD);
    // the field is unknown again: sending it is refused like any unknown field
    const withIt = await submitPatent({ ...validPatent(TAG, kygl.deptId), [FIELD]: 'x' });
    expect(withIt.status).toBe(400);

    expect(await columnType(FIELD)).toBe('character varying(200)');
    const row = await a.kernel.database.pool.query(`SELECT ${FIELD} AS v FROM basic_patent WHERE id = $1`, [recordId]);
    expect(row.rows[0].v).toBe('备注二的内容');
    const read = await call(a, kygl, 'GET', `/api/basic/patent/detail?id=${recordId}`);
    expect(read.status).toBe(200);
    expect(read.body.data).not.toHaveProperty(FIELD);
    // an update through the old form leaves the column alone
    const updated = await submitPatent({ ...read.body.data, projectName: '更新后的项目' });
    expect(updated.status).toBe(200);
    const after = await a.kernel.database.pool.query(`SELECT ${FIELD} AS v, project_name FROM basic_patent WHERE id = $1`, [recordId]);
    expect(after.rows[0]).toEqual({ v: '备注二的内容', project_name: '更新后的项目' });

    expect((await versions()).map((v) => [v.version, v.state, v.current])).toEqual([[2, 'draft', false], [1, 'archived', false], [0, 'published', true]]);
    const history = (await call(a, kygl, 'GET', `${BASE}/history?name=${NAME}`)).body.data as Json[];
    expect(history[0]).toMatchObject({ action: 'rollback', version: 0, fromVersion: 1 });
  });

  it('the other node follows the rollback', async () => {
    await eventually(() => detail(b), (s) => !hasRemark2(s));
    const res = await submitPatent(validPatent(TAG, kygl.deptId), b);
    expect(res.status).toBe(200);
  });

  it('rolling forward to version 1 serves the field again, with the value it kept', async () => {
    const res = await rollback(1);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ version: 1, state: 'published', current: true });
    expect(res.body.data.sync.added).toEqual([]);
    const read = await call(a, kygl, 'GET', `/api/basic/patent/detail?id=${recordId}`);
    expect(read.body.data[FIELD]).toBe('备注二的内容');
    await eventually(() => detail(b), hasRemark2);
    // and back to the folder's, as the rest of the suite expects
    expect((await rollback(0)).status).toBe(200);
    await eventually(() => detail(b), (s) => !hasRemark2(s));
  });

  it('publishing the current version again changes nothing', async () => {
    expect((await publish(1)).status).toBe(200);
    const events = (await call(a, kygl, 'GET', `${BASE}/history?name=${NAME}`)).body.data.length;
    const again = await publish(1);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ version: 1, current: true, sync: { created: [], added: [], widened: [] } });
    expect((await call(a, kygl, 'GET', `${BASE}/history?name=${NAME}`)).body.data).toHaveLength(events);
    expect((await rollback(0)).status).toBe(200);
    await eventually(() => detail(b), (s) => !hasRemark2(s));
  });

  it('a node that missed a notification catches up on its periodic resync', async () => {
    // let the notifications of the earlier publishes arrive and be handled first
    await new Promise((r) => setTimeout(r, 300));
    await Promise.all([a.kernel.schemas.reload(NAME), b.kernel.schemas.reload(NAME)]);
    // version 1 made current behind the nodes' backs: no NOTIFY
    await a.kernel.database.pool.query(`UPDATE kc_schema_version SET state = 'published' WHERE name = $1 AND version = 1`, [NAME]);
    expect(hasRemark2(await detail(b))).toBe(false);
    expect(await b.kernel.schemas.resync()).toEqual([NAME]);
    expect(hasRemark2(await detail(b))).toBe(true);
    expect(await b.kernel.schemas.resync()).toEqual([]);
    await a.kernel.database.pool.query(`UPDATE kc_schema_version SET state = 'archived' WHERE name = $1 AND version = 1`, [NAME]);
    expect(await b.kernel.schemas.resync()).toEqual([NAME]);
    await a.kernel.schemas.resync();
    expect(hasRemark2(await detail(b))).toBe(false);
    expect(hasRemark2(await detail(a))).toBe(false);
  });

  it('a node started now serves the store\'s current version (the folder\'s again)', async () => {
    expect((await publish(1)).status).toBe(200);
    const c = await testServer();
    try {
      expect(c.kernel.registry.get(NAME).version).toBe(1);
      expect(hasRemark2(await detail(c))).toBe(true);
    } finally {
      await c.close();
    }
    expect((await rollback(0)).status).toBe(200);
  });
});

describe('a resource that is new at run time', () => {
  const fresh = (): Json => ({
    name: NEW_NAME,
    title: '生命周期测试',
    titleEn: 'Lifecycle test',
    api: NEW_API,
    table: NEW_TABLE,
    endpoints: ['list', 'detail', 'submit'],
    form: {
      type: 'object',
      properties: {
        title: { type: 'string', title: '标题', maxLength: 50, 'x-component': 'Input', 'x-validator': [{ required: true, message: '请输入标题' }] },
      },
    },
    list: { columns: [{ field: 'title' }] },
  });

  it('may not take over an existing table', async () => {
    const res = await submitSchema({ schema: { ...fresh(), table: 'kc_captcha' } });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('表 kc_captcha 已存在，不能作为新资源的表');
  });

  it('is served by the dispatcher on every node once published; an endpoint a later version drops answers 404', async () => {
    expect((await call(a, admin, 'GET', `${NEW_API}/list`)).status).toBe(404);
    const draft = await submitSchema({ schema: fresh() });
    expect(draft.status).toBe(200);
    const pub = await publish(1, admin, NEW_NAME);
    expect(pub.status).toBe(200);
    expect(pub.body.data.sync.created).toEqual([NEW_TABLE]);

    const bad = await call(a, admin, 'POST', `${NEW_API}/submit`, {});
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('请输入标题');
    const saved = await call(a, admin, 'POST', `${NEW_API}/submit`, { title: '第一条' });
    expect(saved.status).toBe(200);
    const list = await call(a, admin, 'GET', `${NEW_API}/list`);
    expect(list.body.data.records.map((r: Json) => r.title)).toEqual(['第一条']);
    expect((await call(a, null, 'GET', `${NEW_API}/list`)).status).toBe(401);
    expect((await call(a, admin, 'GET', `${NEW_API}/submit`)).status).toBe(404); // wrong method

    const onB = await eventually(() => call(b, admin, 'GET', `${NEW_API}/detail?id=${saved.body.data.id}`), (r) => r.status === 200);
    expect(onB.body.data.title).toBe('第一条');

    const v2 = fresh();
    v2.endpoints = ['list', 'submit'];
    expect((await submitSchema({ schema: v2 })).body.data.version).toBe(2);
    expect((await publish(2, admin, NEW_NAME)).status).toBe(200);
    expect((await call(a, admin, 'GET', `${NEW_API}/detail?id=${saved.body.data.id}`)).status).toBe(404);
    expect((await call(a, admin, 'GET', `${NEW_API}/list`)).status).toBe(200);
    const list0 = await call(a, admin, 'GET', `${BASE}/list`);
    expect(list0.body.data.map((r: Json) => r.name)).toContain(NEW_NAME);
  });
});
