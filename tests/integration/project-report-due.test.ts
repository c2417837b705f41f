/**
 * Reports due by the report rules become to-dos (issue 12: "report rules say which report is due when; overdue
 * reports appear in to-dos"; src/server/modules/project/report-due.ts), on the demo's approved project (its
 * 开题 and 中期 reports exist, no 结题 report):
 *
 * - before the reminder window nothing; inside it the registrant (sbdw) has one to-do 待提交结题报告：<project>
 *   linked to /project/report, listed by the to-do API; a second pass adds nothing; past the due date the same
 *   to-do says 已逾期; a kind that has its report gives none;
 * - once the report is written the to-do is done; a disabled rule, and another tenant, give none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';
import { DEMO } from '../../src/server/modules/project/demo.js';
import { remindDueReports } from '../../src/server/modules/project/report-due.js';

let s: TestServer;
let sbdw: Session, kygl: Session, other: Session;
let project: { id: string; name: string; start: string };
const tag = `RD${Date.now().toString(36)}`;

beforeAll(async () => {
  s = await testServer();
  [sbdw, kygl] = await Promise.all(['sbdw', 'kygl'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
  project = (await s.kernel.database.pool.query(`SELECT id::text AS id, name, start_date::text AS start FROM project_baseinfo WHERE tenant_id = '000000' AND code = ANY($1) AND project_status = 6`, [DEMO.map((d) => d.code)])).rows[0];
});
afterAll(async () => {
  await s?.close();
});

const day = (iso: string, days: number) => new Date(Date.parse(`${iso.slice(0, 10)}T12:00:00Z`) + days * 86_400_000);
const todos = async () => (await s.kernel.database.pool.query(`SELECT id::text AS id, title, content, path, state::int AS state FROM basic_todo WHERE tenant_id = '000000' AND business_id = $1 AND path = '/project/report' AND is_deleted = 0`, [project.id])).rows;

describe('report reminders', () => {
  it('a due 结题 report becomes the registrant’s to-do, then overdue, then done once written', async () => {
    const rule = await call(s, kygl, 'POST', '/api/project/reportrule/submit', { name: `${tag} 结题规则`, reportKind: '3', basis: 'start', offsetMonths: 0, remindDays: 30, enabled: true });
    expect(rule.status, rule.body.msg).toBe(200);
    const midterm = await call(s, kygl, 'POST', '/api/project/reportrule/submit', { name: `${tag} 中期规则`, reportKind: '2', basis: 'start', offsetMonths: 0, remindDays: 30, enabled: true });
    expect(midterm.status).toBe(200);

    await remindDueReports(s.kernel.database.db, day(project.start, -31));
    expect(await todos()).toEqual([]);
    await remindDueReports(s.kernel.database.db, day(project.start, -10));
    let list = await todos();
    expect(list).toHaveLength(1); // the 中期 report exists: no to-do for it
    expect(list[0]).toMatchObject({ title: `待提交结题报告：${project.name}`, content: `应于 ${project.start.slice(0, 10)} 前提交（${tag} 结题规则）`, state: 0 });
    const mine = (await call(s, sbdw, 'GET', '/api/basic/todo/list?size=200')).body.data.records as Json[];
    expect(mine.map((t) => String(t.id))).toContain(list[0].id);
    const counts = (await call(s, sbdw, 'GET', '/api/basic/todo/countNumber')).body.data as Json;
    expect(counts['/project/report']).toBeGreaterThanOrEqual(1);
    await remindDueReports(s.kernel.database.db, day(project.start, -9));
    expect(await todos()).toHaveLength(1);
    await remindDueReports(s.kernel.database.db, day(project.start, 5));
    list = await todos();
    expect(list[0].content).toBe(`已逾期：应于 ${project.start.slice(0, 10)} 前提交（${tag} 结题规则）`);
    expect(await countRows(s, 'basic_todo', `tenant_id = '100001' AND path = '/project/report'`)).toBe(0);

    const report = await call(s, sbdw, 'POST', '/api/project/report/submit', { title: `${tag} 结题报告`, projectId: project.id, reportKind: '3', reportDate: '2026-11-25', progress: 100, workDone: '完成全部研究内容。' });
    expect(report.status, report.body.msg).toBe(200);
    await remindDueReports(s.kernel.database.db, day(project.start, 6));
    expect((await todos()).map((t) => t.state)).toEqual([1]);
    expect((await call(s, other, 'GET', '/api/project/reportrule/list')).body.data?.records?.map((r: Json) => r.name) ?? []).not.toContain(`${tag} 结题规则`);
  });

  it('a disabled rule gives no to-do', async () => {
    await s.kernel.database.pool.query(`UPDATE basic_todo SET is_deleted = 1 WHERE business_id = $1 AND path = '/project/report'`, [project.id]);
    await s.kernel.database.pool.query(`UPDATE project_report SET is_deleted = 1 WHERE project_id = $1 AND report_kind = '3'`, [project.id]);
    await s.kernel.database.pool.query(`UPDATE project_reportrule SET enabled = false WHERE name LIKE $1`, [`${tag}%`]);
    await remindDueReports(s.kernel.database.db, day(project.start, 10));
    expect(await todos()).toEqual([]);
  });
});
