/**
 * Achievements and projects in the full-text search (issue 14: "portal content, achievements and projects
 * indexed with jieba …, filtered by tenant and data scope"; src/server/modules/search/index.ts seed): every
 * tenant has a default index per resource with `searchByEs` — the six achievement types and the project
 * declarations among them — built by a job at start and kept by writes; `<api>/searchByEs` answers each caller
 * the records of its data scope only (the group's research management all, a subsidiary's research
 * management its company and below, a researcher their own), another tenant nothing, an anonymous caller 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, testServer, until, validPatent, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kygl: Session; // research management of the group: no data scope
let kyglHb: Session; // research management of 华北分公司: own company and below
let kyry: Session; // researcher of 华北分公司: own records
let other: Session; // administrator of tenant 100001
const TAG = `ss${Date.now().toString(36)}`;
const ids: Record<string, string> = {};

const found = async (who: Session | null, api: string, keyword: string) => {
  const r = await call(s, who, 'GET', `${api}/searchByEs?keyword=${encodeURIComponent(keyword)}`);
  return { status: r.status, ids: r.status === 200 ? (r.body.data.records as Json[]).map((x) => x.id as string).sort() : [], body: r.body };
};

beforeAll(async () => {
  s = await testServer();
  [admin, kygl, kyglHb, kyry, other] = await Promise.all([login(s, 'admin'), login(s, 'kygl'), login(s, 'kygl_hb'), login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' })]);
});
afterAll(async () => {
  await s?.close();
});

describe('achievements and projects in the search', () => {
  it('every tenant has default indexes of the achievements and the project declarations, built by a job', { timeout: 120_000 }, async () => {
    let last = '';
    for (const [name, resource] of [['basic_patent', 'basic/patent'], ['basic_thesis', 'basic/thesis'], ['basic_standard', 'basic/standard'], ['project_baseinfo', 'project/baseinfo']]) {
      const m = await until(`${name} built`, async () => {
        const r = await call(s, admin, 'GET', `/api/es/index/getMapping?indexName=${name}`);
        last = JSON.stringify(r.body).slice(0, 300);
        return r.status === 200 && Number(r.body.data.indexStatus) === 2 && r.body.data;
      }, 60_000).catch((e) => {
        throw new Error(`${(e as Error).message}: ${last}`);
      });
      expect(m, name).toMatchObject({ indexName: name, resource, analyzer: 'jieba' });
      expect((await call(s, other, 'GET', `/api/es/index/getMapping?indexName=${name}`)).status, name).toBe(200);
    }
    // a project the seed wrote before its index existed is found
    const p = await found(kygl, '/api/project/baseinfo', '低温储粮节能');
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect((p.body.data.records as Json[]).map((x) => x.title)).toContain('低温储粮节能控制技术研究');
    expect((await found(other, '/api/project/baseinfo', '低温储粮节能')).ids).toEqual([]);
  });

  it('patents are found as written, each caller seeing its data scope only — once, however many indexes name them', async () => {
    const second = await call(s, admin, 'POST', '/api/es/index/submit', { indexName: `${TAG}_second`, resource: 'basic/patent', titleField: 'name', fields: [{ field: 'name', weight: 'A' }] });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    await until('second index built', async () => Number((await call(s, admin, 'GET', `/api/es/index/detail?id=${second.body.data.id}`)).body.data?.indexStatus) === 2, 60_000);
    for (const [key, who, name] of [['group', kygl, '集团 横向通风储粮工艺'], ['hb', kyglHb, '华北 横向通风储粮装置'], ['mine', kyry, '本人 横向通风储粮系统']] as const) {
      const r = await call(s, who, 'POST', '/api/basic/patent/submit', { ...validPatent(TAG, who.deptId), name: `${TAG} ${name}` });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      ids[key] = r.body.data.id;
    }
    const q = `横向通风 ${TAG}`;
    expect((await found(kygl, '/api/basic/patent', q)).ids).toEqual([ids.group, ids.hb, ids.mine].sort());
    expect((await found(kyglHb, '/api/basic/patent', q)).ids).toEqual([ids.hb, ids.mine].sort());
    expect((await found(kyry, '/api/basic/patent', q)).ids).toEqual([ids.mine]);
    const hit = (await call(s, kygl, 'GET', `/api/basic/patent/searchByEs?keyword=${encodeURIComponent(q)}`)).body.data.records.find((x: Json) => x.id === ids.hb);
    expect(hit.highlight).toContain('<em>横向</em><em>通风</em>');
    expect((await found(other, '/api/basic/patent', q)).ids).toEqual([]);
    expect((await found(null, '/api/basic/patent', q)).status).toBe(401);
    // no public search of achievements: only resources with searchByEs.public
    expect((await call(s, null, 'GET', `/api/es/public/search?tenantId=000000&resource=basic/patent&keyword=${encodeURIComponent(q)}`)).status).toBe(404);
    // a removed patent leaves the search
    expect((await call(s, kygl, 'POST', `/api/basic/patent/remove?ids=${ids.group}`)).status).toBe(200);
    expect((await found(kygl, '/api/basic/patent', q)).ids).toEqual([ids.hb, ids.mine].sort());
    const page = await call(s, kygl, 'GET', `/api/basic/patent/searchByEs?keyword=${encodeURIComponent(q)}&current=1&size=1`);
    expect(page.body.data).toMatchObject({ total: 2, pages: 2 });
    expect((await call(s, admin, 'POST', `/api/es/index/remove?ids=${second.body.data.id}`)).status).toBe(200);
  });
});
