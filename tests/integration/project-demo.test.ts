/**
 * The demo seed's research projects (issue 12: "The demo seed includes a guide, projects in every state, an
 * expert panel and reports, so a new user sees a working platform"; src/server/modules/project/demo.ts):
 *
 * - the run's fresh database has, in tenant 000000, a published guide and a project in each state 0–8 of
 *   dictionary project_status, each with its process where the state needs one (flow_instance rows of the
 *   real runtime, the open task matching the state);
 * - the lists of each role show them: the declaring unit its declarations and the returned one, the
 *   subsidiary's research management its claim list and the pending mid-term report, the group's its claim
 *   list and the approval to-do, the expert the project to score and the submitted review, the project
 *   manager of the same company the company's projects; another tenant sees none of them;
 * - a second run of the seed adds nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';
import { DEMO, seedDemoProjects } from '../../src/server/modules/project/demo.js';

let s: TestServer;
let sbdw: Session, kyglHb: Session, kygl: Session, zj: Session, xmfzr: Session, other: Session;
const API = '/api/project/baseinfo';
const demo = new Map<number, string>(); // state → project id

beforeAll(async () => {
  s = await testServer();
  [sbdw, kyglHb, kygl, zj, xmfzr] = await Promise.all(['sbdw', 'kygl_hb', 'kygl', 'zj', 'xmfzr'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
  const rows = (await s.kernel.database.pool.query(`SELECT id::text AS id, project_status::int AS st FROM project_baseinfo WHERE tenant_id = '000000' AND code = ANY($1) AND is_deleted = 0`, [DEMO.map((d) => d.code)])).rows;
  for (const r of rows) demo.set(r.st, r.id);
});
afterAll(async () => {
  await s?.close();
});

const ids = async (who: Session, url: string) => ((await call(s, who, 'GET', `${url}${url.includes('?') ? '&' : '?'}size=200`)).body.data?.records as Json[] | undefined ?? []);
const businessIds = async (who: Session, url: string) => (await ids(who, url)).map((t) => String(t.businessId ?? t.id));

describe('demo seed', () => {
  it('has a published guide and a project in each state, on the real process', async () => {
    expect(await countRows(s, 'project_guide', `tenant_id = '000000' AND guide_status = '2' AND is_deleted = 0`)).toBeGreaterThanOrEqual(1);
    expect([...demo.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await countRows(s, 'flow_instance', `business_type = 'project/baseinfo' AND business_id = $1`, [demo.get(0)])).toBe(0);
    const open = async (st: number) => (await s.kernel.database.pool.query(
      `SELECT t.task_key FROM flow_task t JOIN flow_instance i ON i.id = t.instance_id WHERE i.business_type = 'project/baseinfo' AND i.business_id = $1 AND t.end_time IS NULL`, [demo.get(st)])).rows.map((r) => r.task_key);
    expect(await open(1)).toEqual(['companyReview']);
    expect(await open(2)).toEqual(['groupReview']);
    expect(await open(3)).toEqual(['expertReview']);
    expect(await open(4)).toEqual(['finalReview']);
    expect(await open(5)).toEqual(['revise']);
    const ended = async (st: number) => (await s.kernel.database.pool.query(`SELECT run_status FROM flow_instance WHERE business_type = 'project/baseinfo' AND business_id = $1`, [demo.get(st)])).rows[0].run_status;
    expect(await ended(6)).not.toBe('running');
    expect(await ended(7)).not.toBe('running');
  });

  it('has an expert review with scores on the scored projects and reports on the approved one', async () => {
    const reviews = (await s.kernel.database.pool.query(`SELECT project_id, review_status::int AS st, total_score::int AS total FROM project_expert WHERE tenant_id = '000000' AND project_id = ANY($1) AND is_deleted = 0`,
      [[demo.get(3), demo.get(4), demo.get(6)]])).rows;
    expect(reviews.find((r) => r.project_id === demo.get(3))).toMatchObject({ st: 0 });
    expect(reviews.find((r) => r.project_id === demo.get(4))).toMatchObject({ st: 1, total: 84 });
    const score = (await s.kernel.database.pool.query(`SELECT expert_score::float AS v FROM project_baseinfo WHERE id = $1`, [demo.get(6)])).rows[0].v;
    expect(score).toBe(84);
    // the seed's own reports (other test files may add reports to the same project)
    const reports = (await s.kernel.database.pool.query(`SELECT r.id::text AS id, r.report_kind AS kind FROM project_report r JOIN project_baseinfo p ON p.id::text = r.project_id
        WHERE r.project_id = $1 AND r.is_deleted = 0 AND r.title IN (p.name || ' 开题报告', p.name || ' 中期报告') ORDER BY r.report_kind`, [demo.get(6)])).rows;
    expect(reports.map((r) => String(r.kind))).toEqual(['1', '2']);
    const runStatus = async (id: string) => (await s.kernel.database.pool.query(`SELECT run_status FROM flow_instance WHERE business_type = 'project/report' AND business_id = $1`, [id])).rows[0]?.run_status;
    expect(await runStatus(reports[0].id)).toBe('completed');
    expect(await runStatus(reports[1].id)).toBe('running');
    expect(await businessIds(kyglHb, '/api/project/report/claim-list')).toContain(reports[1].id);
    // the completed project: its 结题报告 passed (and so it is 已结题)
    const closing = (await s.kernel.database.pool.query(`SELECT id::text AS id FROM project_report WHERE project_id = $1 AND report_kind = '3' AND is_deleted = 0`, [demo.get(8)])).rows;
    expect(closing).toHaveLength(1);
    expect(await runStatus(closing[0].id)).toBe('completed');
  });

  it('shows each role its projects in its lists', async () => {
    const mine = (await ids(sbdw, `${API}/list`)).map((r) => String(r.id));
    for (const id of demo.values()) expect(mine).toContain(id);
    expect(await businessIds(sbdw, `${API}/claim-list-for-sbdw`)).toContain(demo.get(5));
    expect(await businessIds(kyglHb, `${API}/claim-list-for-kygl`)).toContain(demo.get(1));
    expect(await businessIds(kygl, `${API}/claim-list-for-kygl`)).toContain(demo.get(2));
    expect(await businessIds(kygl, `${API}/todo-list`)).toContain(demo.get(4));
    expect(await businessIds(zj, `${API}/expert-todo`)).toContain(demo.get(3));
    expect(await businessIds(zj, `${API}/expert-done`)).toEqual(expect.arrayContaining([demo.get(4), demo.get(6)]));
    const company = (await ids(xmfzr, `${API}/listOfMyCompany`)).map((r) => String(r.id));
    for (const id of demo.values()) expect(company).toContain(id);
    const theirs = (await ids(other, `${API}/list`)).map((r) => String(r.id));
    for (const id of demo.values()) expect(theirs).not.toContain(id);
  });

  it('seeds once: a second run adds nothing', async () => {
    const before = await countRows(s, 'project_baseinfo', `tenant_id = '000000'`);
    expect(await seedDemoProjects(s.app, s.kernel)).toBe(0);
    expect(await countRows(s, 'project_baseinfo', `tenant_id = '000000'`)).toBe(before);
  });
});
