/**
 * The reports' own Excel calls (issue 12; spec 001 §7 /project/report: import-report, export-report,
 * export-excel-report), served through the Excel module with the tenant's seeded template project_report
 * (schema key `excelCalls`, src/server/modules/excel/aliases.ts):
 *
 * - export-excel-report: the empty template, its header the report form's titles;
 * - export-report: the reports the caller's list shows (the demo project's 中期报告 for its declaring unit), the
 *   list's filters applied;
 * - import-report: a filled template adds the report; a file without the overwrite choice, or no file at all,
 *   is refused with the message and nothing stored;
 * - the expert (no grant on reports) 403 for each; another tenant exports only its own rows, and without its
 *   template gets 404 导入导出模板不存在.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let sbdw: Session, zj: Session, other: Session;
let projectId = '';
const API = '/api/project/report';
const TAG = `RX${Date.now().toString(36)}`;
const q = (text: string, params: unknown[] = []) => s.kernel.database.pool.query(text, params);

function multipart(fields: Record<string, string>, files: Array<{ name: string; content: Buffer }>) {
  const boundary = `----kc${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), f.content, Buffer.from('\r\n'));
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function sheetRows(buf: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as never);
  const out: string[][] = [];
  wb.worksheets[0].eachRow((row) => out.push((row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : v instanceof Date ? v.toISOString().slice(0, 10) : String(v)))));
  return out;
}

beforeAll(async () => {
  s = await testServer();
  [sbdw, zj] = await Promise.all(['sbdw', 'zj'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
  const p = await call(s, sbdw, 'POST', '/api/project/baseinfo/submit', { name: `${TAG} 报告导入项目`, code: `${TAG}-1`, type: '3', deptId: sbdw.deptId, leader: '王申', startDate: '2026-01-01', endDate: '2026-12-31' });
  expect(p.status, p.body.msg).toBe(200);
  projectId = String(p.body.data.id);
  const rep = await call(s, sbdw, 'POST', `${API}/submit`, { title: `${TAG} 中期报告`, projectId, reportKind: '2', reportDate: '2026-06-30', workDone: '完成中期任务。' });
  expect(rep.status, rep.body.msg).toBe(200);
});
afterAll(async () => {
  await s?.close();
});

describe('project/report Excel calls', () => {
  it('export-excel-report: the empty template with the form’s titles', async () => {
    const res = await call(s, sbdw, 'GET', `${API}/export-excel-report`);
    expect(res.status).toBe(200);
    expect(res.res.headers['content-type']).toContain('spreadsheetml');
    const rows = await sheetRows(res.res.rawPayload);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual(expect.arrayContaining(['报告标题', '所属项目', '报告类型', '报告日期', '主要工作与进展']));
  });

  it('export-report: what the list shows, its filters applied', async () => {
    const all = await sheetRows((await call(s, sbdw, 'GET', `${API}/export-report`)).res.rawPayload);
    const col = all[0].indexOf('报告标题');
    expect(all.slice(1).map((r) => r[col])).toContain(`${TAG} 中期报告`);
    const res = await call(s, sbdw, 'GET', `${API}/export-report?title=${encodeURIComponent(TAG)}`);
    expect(res.status).toBe(200);
    const some = await sheetRows(res.res.rawPayload);
    expect(some.slice(1).map((r) => r[col])).toEqual([`${TAG} 中期报告`]);
    expect(some.slice(1)[0][some[0].indexOf('报告类型')]).toBe('中期报告');
  });

  it('import-report: a filled template adds the report; bad uploads are refused with the message, nothing stored', async () => {
    const header = (await sheetRows((await call(s, sbdw, 'GET', `${API}/export-excel-report`)).res.rawPayload))[0];
    const values: Record<string, unknown> = { 报告标题: `${TAG} 结题报告`, 所属项目: projectId, 报告类型: '结题报告', 报告日期: '2026-12-20', 主要工作与进展: '全部任务完成。' };
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sheet1');
    ws.addRow(header);
    ws.addRow(header.map((h) => values[h] ?? null));
    const file = Buffer.from(await wb.xlsx.writeBuffer());

    const noCover = multipart({}, [{ name: 'reports.xlsx', content: file }]);
    const refused = await call(s, sbdw, 'POST', `${API}/import-report`, noCover.payload, noCover.headers);
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('请选择是否覆盖数据');
    const none = multipart({ isCovered: '0' }, []);
    expect((await call(s, sbdw, 'POST', `${API}/import-report`, none.payload, none.headers)).body.msg).toBe('请选择要上传的文件');
    expect((await call(s, sbdw, 'POST', `${API}/import-report`, { isCovered: '0' })).body.msg).toBe('请选择要上传的文件');
    expect(await countRows(s, 'project_report', 'title = $1', [`${TAG} 结题报告`])).toBe(0);

    const m = multipart({ isCovered: '0' }, [{ name: 'reports.xlsx', content: file }]);
    const res = await call(s, sbdw, 'POST', `${API}/import-report`, m.payload, m.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.msg).toContain('导入成功');
    const row = (await q(`SELECT project_id, report_kind::text AS kind, tenant_id FROM project_report WHERE title = $1 AND is_deleted = 0`, [`${TAG} 结题报告`])).rows;
    expect(row).toEqual([{ project_id: projectId, kind: '3', tenant_id: '000000' }]);
  });

  it('the expert has no grant (403, nothing stored); another tenant exports only its own rows, and without its template 404', async () => {
    expect((await call(s, zj, 'GET', `${API}/export-report`)).status).toBe(403);
    expect((await call(s, zj, 'GET', `${API}/export-excel-report`)).status).toBe(403);
    const template = (await call(s, sbdw, 'GET', `${API}/export-excel-report`)).res.rawPayload;
    const m = multipart({ isCovered: '0' }, [{ name: 'reports.xlsx', content: template }]);
    expect((await call(s, zj, 'POST', `${API}/import-report`, m.payload, m.headers)).status).toBe(403);
    expect(await countRows(s, 'project_report', "tenant_id = '000000' AND create_user = $1", [zj.userId])).toBe(0);

    const theirs = await call(s, other, 'GET', `${API}/export-report`);
    expect(theirs.status).toBe(200);
    expect(JSON.stringify(await sheetRows(theirs.res.rawPayload))).not.toContain(TAG);
    await q(`UPDATE blade_excel_template SET is_deleted = 1 WHERE tenant_id = '100001' AND code = 'project_report'`);
    try {
      const gone = await call(s, other, 'GET', `${API}/export-report`);
      expect(gone.status).toBe(404);
      expect(gone.body.msg).toBe('导入导出模板不存在');
    } finally {
      await q(`UPDATE blade_excel_template SET is_deleted = 0 WHERE tenant_id = '100001' AND code = 'project_report'`);
    }
  });
});
