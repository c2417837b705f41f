/**
 * Achievement statistics and the dashboards (spec 001 §7 'GET achievement/statistics and statisticsByAuthor',
 * 'Dashboards, GET /system/dashborad'; src/server/modules/basic/statistics.ts, modules/dashboard):
 *
 * Test files share one database, so the figures are checked against records of a company of their own: a
 * fresh company 统计测试…公司 under the group, with two researchers (their password is the demo one), who
 * register ten achievements of known types, natural years (1985–1987, and one without a date: the year of
 * registration), authors and examination states. Figures over the whole tenant are checked against counts
 * taken from the database at the same moment.
 *
 * | record | by   | type              | natural date        | authors      | examination     |
 * | ------ | ---- | ----------------- | ------------------- | ------------ | --------------- |
 * | P1     | A    | patent            | 授权公告日 1987-06-20 | 甲, 乙        | draft           |
 * | P2     | A    | patent            | 授权公告日 1986-03-01 | 甲            | rejected (3)    |
 * | T1     | A    | thesis            | 出版年份 1987         | 甲, 甲 (twice) | approved (2)    |
 * | T2     | A    | thesis            | 出版年份 1987         | 丙            | pending (1)     |
 * | B1     | A    | book              | 出版时间 1986-05      | 甲            | draft           |
 * | W1     | A    | softwarecopyright | 开发完成日期 1985-01-20 | 甲           | draft           |
 * | R1     | A    | award             | 获奖年度 1987         | 乙            | draft           |
 * | S1     | A    | standard          | 发布日期 1985-03-01   | 丙            | draft           |
 * | T3     | B    | thesis            | 出版年份 1987         | 乙            | draft           |
 * | B2     | B    | book              | none → this year    | none         | draft           |
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, testServer, type Json, type Session, type TestServer } from './helpers.js';
import { nextId } from '../../src/server/core/ids.js';

let s: TestServer;
let a: Session; // researcher A of the fresh company
let b: Session; // researcher B of the fresh company
let kygl: Session; // research management of the group (the whole tenant)
let zj: Session; // expert: no achievement grants
let other: Session; // administrator of tenant 100001
const TAG = `ST${Date.now().toString(36)}`;
const THIS_YEAR = String(new Date().getFullYear());
const ANNEX = [{ name: '证明材料.pdf', link: '/upload/20250101/a.pdf' }];
const PROJECT = { projectSource: 3, projectName: '智能粮库关键技术研究', projectType: '3' };
const [JIA, YI, BING] = ['甲', '乙', '丙'].map((x) => `作者${TAG}${x}`);
let companyId: string;
let deptId: string;

const STATS = '/api/basic/achievement/statistics';
const AUTHORS = '/api/basic/achievement/statisticsByAuthor';
const DASH = '/api/system/dashborad';

const people = (...names: string[]) => names.map((userName, i) => ({ userName, rank: i + 1 }));

const body = {
  patent: (name: string, authorizationDate: string, names: string[]) => ({
    name: `${TAG} ${name}`, deptId, ...PROJECT, type: '1', region: '中国', address: '北京市西城区', postcode: '100032',
    applyDate: '1984-03-15', authorizationDate, authorizationCode: `ZL${Math.floor(Math.random() * 1e9)}`, code: `第${Math.floor(Math.random() * 1e6)}号`,
    ownershipDetailForm: [{ name: '粮储集团有限公司', rank: 1 }], userNamesDetailForm: people(...names), annex: ANNEX,
  }),
  thesis: (title: string, names: string[]) => ({
    title: `${TAG} ${title}`, ...PROJECT, publish: '粮油食品科技', publishDate: '1987', issueNumber: '4', pageScope: '12-18', level: '5', scope: '2', deptId,
    authorDetailForm: names.map((name, i) => ({ name, rank: i + 1 })), annex: ANNEX,
  }),
  book: (name: string, publishTime: string | undefined, names: string[]) => ({
    name: `${TAG} ${name}`, ...PROJECT, ...(publishTime ? { publishTime } : {}), deptId, userNamesDetailForm: people(...names), annex: ANNEX,
  }),
  softwarecopyright: (name: string, names: string[]) => ({
    name: `${TAG} ${name}`, deptId, ...PROJECT, devEndTime: '1985-01-20', state: '1', code: '1985SR0001', bookCode: '软著登字第1号', getWay: '1', scope: '1',
    ownershipDetailForm: [{ name: '粮储集团有限公司', rank: 1 }], userNamesDetailForm: people(...names), annex: ANNEX,
  }),
  award: (name: string, names: string[]) => ({
    name: `${TAG} ${name}`, ...PROJECT, level: '2', grade: '3', year: '1987', certificateDate: '1987-11-20', deptId, userNamesDetailForm: people(...names), annex: ANNEX,
  }),
  standard: (name: string, names: string[]) => ({
    name: `${TAG} ${name}`, ...PROJECT, code: 'LS/T 1000-1985', category: '2', type: '1', publishTime: '1985-03-01', execTime: '1985-09-01', deptId,
    userNamesDetailForm: people(...names), annex: ANNEX,
  }),
};

async function create(who: Session, type: string, data: Json): Promise<Json> {
  const res = await call(s, who, 'POST', `/api/basic/${type}/submit`, data);
  expect(res.status, `${type}: ${res.body.msg}`).toBe(200);
  return res.body.data;
}

async function act(who: Session, url: string, data: Json): Promise<void> {
  const res = await call(s, who, 'POST', url, data);
  expect(res.status, res.body.msg).toBe(200);
}

/** Adds a user to the fresh department with kyry's password and roles. */
async function addResearcher(account: string, realName: string): Promise<void> {
  const pool = s.kernel.database.pool;
  const id = nextId();
  await pool.query(
    `INSERT INTO blade_user (id, tenant_id, account, password, name, real_name, dept_id)
     SELECT $1::bigint, '000000', $2, password, $3, $3, $4::bigint FROM blade_user WHERE tenant_id = '000000' AND account = 'kyry'`,
    [id, account, realName, deptId],
  );
  const roles = await pool.query(`SELECT ur.role_id FROM blade_user_role ur JOIN blade_user u ON u.id = ur.user_id WHERE u.tenant_id = '000000' AND u.account = 'kyry'`);
  for (const r of roles.rows) await pool.query(`INSERT INTO blade_user_role (id, user_id, role_id) VALUES ($1, $2, $3)`, [nextId(), id, r.role_id]);
}

beforeAll(async () => {
  s = await testServer();
  const pool = s.kernel.database.pool;
  const group = (await pool.query(`SELECT id FROM blade_dept WHERE tenant_id = '000000' AND parent_id = 0 AND is_deleted = 0`)).rows[0].id as string;
  companyId = nextId();
  deptId = nextId();
  await pool.query(
    `INSERT INTO blade_dept (id, tenant_id, parent_id, ancestors, dept_category, dept_name, full_name, sort) VALUES
       ($1, '000000', $2, $3, 1, $4, $4, 99), ($5, '000000', $1, $6, 2, '统计测试部', '统计测试部', 1)`,
    [companyId, group, `0,${group}`, `统计测试${TAG}公司`, deptId, `0,${group},${companyId}`],
  );
  s.kernel.org.invalidate('000000');
  await addResearcher(`${TAG}a`.toLowerCase(), '统计甲');
  await addResearcher(`${TAG}b`.toLowerCase(), '统计乙');
  [a, b, kygl, zj] = await Promise.all([`${TAG}a`.toLowerCase(), `${TAG}b`.toLowerCase(), 'kygl', 'zj'].map((x) => login(s, x)));
  other = await login(s, 'admin', { tenantId: '100001' });

  await create(a, 'patent', body.patent('P1 控温储粮方法', '1987-06-20', [JIA, YI]));
  const p2 = await create(a, 'patent', body.patent('P2 粮堆测温装置', '1986-03-01', [JIA]));
  const t1 = await create(a, 'thesis', body.thesis('T1 稻谷储藏品质', [JIA, JIA]));
  const t2 = await create(a, 'thesis', body.thesis('T2 小麦呼吸强度', [BING]));
  await create(a, 'book', body.book('B1 粮食储藏学', '1986-05', [JIA]));
  await create(a, 'softwarecopyright', body.softwarecopyright('W1 粮情分析软件', [JIA]));
  await create(a, 'award', body.award('R1 储粮技术进步奖', [YI]));
  await create(a, 'standard', body.standard('S1 平房仓气密性', [BING]));
  await create(b, 'thesis', body.thesis('T3 玉米干燥', [YI]));
  await create(b, 'book', body.book('B2 无出版时间', undefined, []));

  await act(a, '/api/basic/examine/submit', { businessId: t1.id, businessType: 'thesis' });
  await act(kygl, '/api/basic/examinerecord/submit', { businessId: t1.id, businessType: 'thesis', action: 'approve' });
  await act(a, '/api/basic/examine/submit', { businessId: t2.id, businessType: 'thesis' });
  await act(a, '/api/basic/examine/submit', { businessId: p2.id, businessType: 'patent' });
  await act(kygl, '/api/basic/examinerecord/submit', { businessId: p2.id, businessType: 'patent', action: 'reject', opinion: '请补充证书' });
});
afterAll(async () => {
  await s.close();
});

const get = async (who: Session, url: string) => {
  const res = await call(s, who, 'GET', url);
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data as Json;
};
const typeTotals = (byType: Json[]) => Object.fromEntries(byType.map((t) => [t.type, t.total]));
const TYPES = ['patent', 'thesis', 'softwarecopyright', 'book', 'award', 'standard'];
const TABLE: Record<string, string> = Object.fromEntries(TYPES.map((t) => [t, `basic_${t}`]));

describe('dashboard: myBasicAchievements', () => {
  it('counts the records I registered, per type and examination status', async () => {
    const mine = await get(a, `${DASH}/myBasicAchievements`);
    expect(mine.total).toBe(8);
    expect(mine.byStatus).toEqual({ '0': 5, '1': 1, '2': 1, '3': 1 });
    expect(typeTotals(mine.byType)).toEqual({ patent: 2, thesis: 2, softwarecopyright: 1, book: 1, award: 1, standard: 1 });
    expect(mine.byType.find((t: Json) => t.type === 'patent')).toEqual({
      type: 'patent', resource: 'basic/patent', name: '专利', nameEn: 'Patent', total: 2, byStatus: { '0': 1, '1': 0, '2': 0, '3': 1 },
    });
    expect(mine.byType.find((t: Json) => t.type === 'thesis').byStatus).toEqual({ '0': 0, '1': 1, '2': 1, '3': 0 });
    const theirs = await get(b, `${DASH}/myBasicAchievements`);
    expect(theirs.total).toBe(2);
    expect(typeTotals(theirs.byType)).toMatchObject({ thesis: 1, book: 1, patent: 0 });
  });

  it('filters: approved only, one type', async () => {
    const approved = await get(a, `${DASH}/myBasicAchievements?examineStatus=2`);
    expect(approved.total).toBe(1);
    expect(typeTotals(approved.byType)).toMatchObject({ thesis: 1, patent: 0 });
    const theses = await get(a, `${DASH}/myBasicAchievements?type=thesis,basic/patent`);
    expect(theses.byType.map((t: Json) => t.type)).toEqual(['patent', 'thesis']);
    expect(theses.total).toBe(4);
  });

  it('a role without achievements gets zeros, not an error', async () => {
    const none = await get(zj, `${DASH}/myBasicAchievements`);
    expect(none).toEqual({ total: 0, byStatus: {}, byType: [] });
  });
});

describe('dashboard: companyBasicAchievements', () => {
  it('counts my company’s records per type and per year (natural date, else the registration year)', async () => {
    const co = await get(a, `${DASH}/companyBasicAchievements`);
    expect(co).toMatchObject({ companyId, companyName: `统计测试${TAG}公司`, total: 10 });
    expect(typeTotals(co.byType)).toEqual({ patent: 2, thesis: 3, softwarecopyright: 1, book: 2, award: 1, standard: 1 });
    expect(co.byStatus).toEqual({ '0': 7, '1': 1, '2': 1, '3': 1 });
    expect(co.byYear).toEqual([
      { year: '1985', total: 2, byType: { patent: 0, thesis: 0, softwarecopyright: 1, book: 0, award: 0, standard: 1 } },
      { year: '1986', total: 2, byType: { patent: 1, thesis: 0, softwarecopyright: 0, book: 1, award: 0, standard: 0 } },
      { year: '1987', total: 5, byType: { patent: 1, thesis: 3, softwarecopyright: 0, book: 0, award: 1, standard: 0 } },
      { year: THIS_YEAR, total: 1, byType: { patent: 0, thesis: 0, softwarecopyright: 0, book: 1, award: 0, standard: 0 } },
    ]);
  });

  it('yearBy=createTime counts every record in the year it was registered; year= filters', async () => {
    const co = await get(b, `${DASH}/companyBasicAchievements?yearBy=createTime`);
    expect(co.byYear).toEqual([{ year: THIS_YEAR, total: 10, byType: { patent: 2, thesis: 3, softwarecopyright: 1, book: 2, award: 1, standard: 1 } }]);
    const y1987 = await get(b, `${DASH}/companyBasicAchievements?year=1987`);
    expect(y1987.total).toBe(5);
  });

  it('another company’s staff do not see these records in their company figures', async () => {
    const kyry = await login(s, 'kyry');
    const north = await get(kyry, `${DASH}/companyBasicAchievements?year=1985`);
    expect(north.companyName).toBe('华北分公司');
    expect(north.total).toBe(0);
  });
});

describe('GET /api/basic/achievement/statistics', () => {
  it('research management: the tenant’s counts by type and status equal the database’s; our company as created', async () => {
    const st = await get(kygl, STATS);
    const pool = s.kernel.database.pool;
    for (const t of TYPES) {
      const db = (await pool.query(`SELECT count(*)::int AS n FROM ${TABLE[t]} WHERE tenant_id = '000000' AND is_deleted = 0`)).rows[0].n;
      expect(st.byType.find((x: Json) => x.type === t).total, t).toBe(db);
    }
    const pending = await pool.query(
      `SELECT count(*)::int AS n FROM (${TYPES.map((t) => `SELECT 1 FROM ${TABLE[t]} WHERE tenant_id = '000000' AND is_deleted = 0 AND examine_status = '1'`).join(' UNION ALL ')}) x`,
    );
    expect(st.byStatus['1']).toBe(pending.rows[0].n);
    expect(st.total).toBe(st.byType.reduce((n: number, t: Json) => n + t.total, 0));
    expect(st.yearBy).toBe('natural');
    const ours = st.byCompany.find((c: Json) => c.companyId === companyId);
    expect(ours).toEqual({ companyId, companyName: `统计测试${TAG}公司`, total: 10, byType: { patent: 2, thesis: 3, softwarecopyright: 1, book: 2, award: 1, standard: 1 } });
    expect(st.byYear.map((y: Json) => y.year)).toEqual([...st.byYear.map((y: Json) => y.year)].sort());
  });

  it('filters by year, examination status and type', async () => {
    const ours = async (q: string) => (await get(kygl, `${STATS}?${q}`)).byCompany.find((c: Json) => c.companyId === companyId);
    expect((await ours('year=1987')).total).toBe(5);
    expect((await ours('year=1986&type=book')).byType).toEqual({ book: 1 });
    expect((await ours('examineStatus=1,3')).total).toBe(2);
    expect((await ours('examineStatus=2')).byType).toMatchObject({ thesis: 1, patent: 0 });
  });

  it('a researcher counts through their data scope (their own records only)', async () => {
    const st = await get(a, STATS);
    expect(st.total).toBe(8);
    expect(st.byCompany).toEqual([{ companyId, companyName: `统计测试${TAG}公司`, total: 8, byType: { patent: 2, thesis: 2, softwarecopyright: 1, book: 1, award: 1, standard: 1 } }]);
  });

  it('another tenant sees its own figures only; a role without achievements is refused', async () => {
    const st = await get(other, STATS);
    expect(st.byCompany.find((c: Json) => c.companyId === companyId)).toBeUndefined();
    const pool = s.kernel.database.pool;
    let total = 0;
    for (const t of TYPES) total += (await pool.query(`SELECT count(*)::int AS n FROM ${TABLE[t]} WHERE tenant_id = '100001' AND is_deleted = 0`)).rows[0].n;
    expect(st.total).toBe(total);
    const denied = await call(s, zj, 'GET', STATS);
    expect(denied.status).toBe(403);
  });

  it('refuses bad parameters with the parameter named', async () => {
    for (const [q, msg] of [
      ['year=87', '参数 year 的值无效'],
      ['type=nosuch', '参数 type 的值无效'],
      ['yearBy=month', '参数 yearBy 的值无效'],
      ['examineStatus=%27x', '参数 examineStatus 的值无效'],
      ['foo=1', '未知的查询条件: foo'],
    ]) {
      const res = await call(s, kygl, 'GET', `${STATS}?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.msg).toBe(msg);
    }
  });
});

describe('GET /api/basic/achievement/statisticsByAuthor', () => {
  it('counts the records naming each author (once per record), most first', async () => {
    const st = await get(kygl, `${AUTHORS}?name=${TAG}`);
    expect(st.authors).toBe(3);
    expect(st.records).toEqual([
      { name: JIA, total: 5, byType: { patent: 2, thesis: 1, softwarecopyright: 1, book: 1, award: 0, standard: 0 } },
      { name: YI, total: 3, byType: { patent: 1, thesis: 1, softwarecopyright: 0, book: 0, award: 1, standard: 0 } },
      { name: BING, total: 2, byType: { patent: 0, thesis: 1, softwarecopyright: 0, book: 0, award: 0, standard: 1 } },
    ]);
  });

  it('top N, type and status filters, data scope and tenant', async () => {
    const top = await get(kygl, `${AUTHORS}?name=${TAG}&top=2`);
    expect(top.records.map((r: Json) => r.name)).toEqual([JIA, YI]);
    expect(top.authors).toBe(3);
    const theses = await get(kygl, `${AUTHORS}?name=${TAG}&type=thesis`);
    // ties are ordered by name (the database's collation): compare as sets
    expect(theses.records.map((r: Json) => `${r.name}:${r.total}`).sort()).toEqual([`${BING}:1`, `${YI}:1`, `${JIA}:1`].sort());
    const approved = await get(kygl, `${AUTHORS}?name=${TAG}&examineStatus=2`);
    expect(approved.records).toEqual([{ name: JIA, total: 1, byType: { patent: 0, thesis: 1, softwarecopyright: 0, book: 0, award: 0, standard: 0 } }]);
    const own = await get(a, `${AUTHORS}?name=${TAG}`);
    expect(own.records[0]).toMatchObject({ name: JIA, total: 5 });
    expect(own.records.slice(1).map((r: Json) => `${r.name}:${r.total}`).sort()).toEqual([`${BING}:2`, `${YI}:2`].sort());
    const tenant = await get(other, `${AUTHORS}?name=${TAG}`);
    expect(tenant).toEqual({ authors: 0, top: 10, records: [] });
    expect((await call(s, kygl, 'GET', `${AUTHORS}?top=0`)).body.msg).toBe('参数 top 的值无效');
    expect((await call(s, zj, 'GET', AUTHORS)).status).toBe(403);
  });
});

describe('dashboard: index', () => {
  it('summarises what my lists show, mine, my company, and the examinations', async () => {
    const idx = await get(a, `${DASH}/index`);
    expect(idx.achievements.total).toBe(8); // a researcher's lists show their own records
    expect(idx.mine).toEqual({ total: 8, byStatus: { '0': 5, '1': 1, '2': 1, '3': 1 } });
    expect(idx.company).toEqual({ companyId, companyName: `统计测试${TAG}公司`, total: 10, byStatus: { '0': 7, '1': 1, '2': 1, '3': 1 } });
    expect(idx.examine).toEqual({ pending: null, submitted: { '0': 0, '1': 1, '2': 1, '3': 1 } });
  });

  it('research management sees the examinations waiting for its decision', async () => {
    const idx = await get(kygl, `${DASH}/index`);
    const n = (await s.kernel.database.pool.query(`SELECT count(*)::int AS n FROM basic_examine WHERE tenant_id = '000000' AND is_deleted = 0 AND examine_status = '1'`)).rows[0].n;
    expect(n).toBeGreaterThanOrEqual(1);
    expect(idx.examine.pending).toBe(n);
    const listed = await get(kygl, '/api/basic/examine/list?examineStatus=1');
    expect(listed.total).toBe(n);
    // a subsidiary's research management counts its company's only: none of ours
    const hb = await get(await login(s, 'kygl_hb'), `${DASH}/index`);
    const hbListed = await get(await login(s, 'kygl_hb'), '/api/basic/examine/list?examineStatus=1');
    expect(hb.examine.pending).toBe(hbListed.total);
    expect(hbListed.records.every((e: Json) => e.companyName === '华北分公司')).toBe(true);
  });

  it('an expert without achievements gets an empty summary', async () => {
    const idx = await get(zj, `${DASH}/index`);
    expect(idx.achievements).toEqual({ total: 0, byStatus: {}, byType: [] });
    expect(idx.examine.pending).toBeNull();
  });
});
