/**
 * Excel imports as jobs and the partial-import option (issue 13: 'large files run as a job (DESIGN §8 "Jobs")
 * with a progress bar (rows read, written, failed)'; 'or (a template option) valid rows are written and an
 * error workbook lists row, column and message for the rest'; spec 002 §6 the import button).
 *
 * The server runs with `EXCEL_INLINE_BYTES=1`, so every upload is queued as an `excel-import` job and polled at
 * /api/blade-job/job/detail as the toolbar does: a valid file ends `done` with its counts and message; a file
 * with faults ends `failed` with nothing written, the message, and the error workbook (also in the report
 * list); the imported records reach the `afterCommit` hooks in a follow-up job (then the search index finds them); a template with `partialImport` writes the valid rows and lists the others; only the owner sees the
 * job (list by the template's ref, detail, file). A role that may read patents but holds no `patent_import`
 * button gets 403 and nothing is stored.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextId } from '../../src/server/core/ids.js';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kyry: Session;
let patentTpl: string;
const TAG = `J${Date.now().toString(36)}`;
const T = '/api/system/exceltemplate';
const created = { roles: [] as string[], users: [] as string[], templates: [] as string[] };

const q = async <R extends Json = Json>(text: string, params: unknown[] = []) => (await s.kernel.database.pool.query<R>(text, params)).rows;

/** The patent template's header (zh) and one valid row per name (authorisation number `<name>-NO`). */
const HEADER = ['专利名称', '登记单位', '项目来源', '项目名称', '成果来源', '专利类型', '国家或地区', '地址', '邮编', '申请日期', '授权公告日', '授权号/专利号', '专利证书号', '附件'];
const row = (name: string, type = '发明专利') => [name, '集团科技信息部', '无', '智能粮库关键技术研究', '国家级项目', type, '中华人民共和国', '北京市西城区', '100032', '2024-03-15', '2025-06-20', `${name}-NO`, `第${name}号`, '[{"name":"证书.pdf","link":"/upload/20250101/a.pdf"}]'];

async function workbook(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function sheetRows(buf: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as never);
  const out: string[][] = [];
  wb.worksheets[0].eachRow((r) => out.push((r.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)))));
  return out;
}

/** POSTs `content` to importData as `who` (multipart: isCovered, templateId, one file). */
async function importFile(who: Session, content: Buffer, templateId = patentTpl, isCovered = '0') {
  const boundary = `----kc${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="isCovered"\r\n\r\n${isCovered}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="templateId"\r\n\r\n${templateId}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="导入.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return call(s, who, 'POST', `${T}/importData`, payload, { 'content-type': `multipart/form-data; boundary=${boundary}` });
}

/** Polls the job as the toolbar does until it ends; answers its last view. */
async function finished(who: Session, jobId: string): Promise<Json> {
  let job: Json = {};
  for (let i = 0; i < 300 && !['done', 'failed'].includes(job.status); i++) {
    await new Promise((r) => setTimeout(r, 200));
    const res = await call(s, who, 'GET', `/api/blade-job/job/detail?id=${jobId}`);
    expect(res.status, res.body.msg).toBe(200);
    job = res.body.data;
  }
  return job;
}

/** Queues `content` and expects the queued answer; answers the job id. */
async function queued(who: Session, content: Buffer, templateId = patentTpl): Promise<string> {
  const res = await importFile(who, content, templateId);
  expect(res.status, res.body.msg).toBe(200);
  expect(res.body.msg).toBe('数据较多，已转为后台任务，请稍候查看进度');
  expect(res.body.data.jobId).toMatch(/^\d+$/);
  return res.body.data.jobId;
}

beforeAll(async () => {
  process.env.EXCEL_INLINE_BYTES = '1';
  s = await testServer();
  delete process.env.EXCEL_INLINE_BYTES;
  [admin, kyry] = await Promise.all([login(s, 'admin'), login(s, 'kyry')]);
  patentTpl = (await call(s, admin, 'GET', `${T}/detailByCode?code=patent`)).body.data.id;
});

afterAll(async () => {
  if (s) {
    await q(`DELETE FROM blade_user_role WHERE user_id = ANY($1::bigint[])`, [created.users]);
    await q(`UPDATE blade_user SET is_deleted = 1 WHERE id = ANY($1::bigint[])`, [created.users]);
    await q(`DELETE FROM blade_role_menu WHERE role_id = ANY($1::bigint[])`, [created.roles]);
    await q(`UPDATE blade_role SET is_deleted = 1 WHERE id = ANY($1::bigint[])`, [created.roles]);
    await q(`UPDATE blade_excel_template_detail SET is_deleted = 1 WHERE template_id = ANY($1::bigint[])`, [created.templates]);
    await q(`UPDATE blade_excel_template SET is_deleted = 1 WHERE id = ANY($1::bigint[])`, [created.templates]);
  }
  await s?.close();
});

describe('imports as jobs', () => {
  it('a valid file: queued, progress and counts (read, written, failed) polled to done, the rows in the caller tenant', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `${TAG} 任务 ${i}`);
    const jobId = await queued(admin, await workbook([HEADER, ...names.map((n) => row(n))]));
    // the toolbar finds the unfinished or finished job again by the template (after a reload)
    const listed = await call(s, admin, 'GET', `/api/blade-job/job/list?ref=${patentTpl}&kind=excel-import`);
    expect(listed.body.data.map((j: Json) => j.id)).toContain(jobId);
    const job = await finished(admin, jobId);
    expect(job).toMatchObject({ kind: 'excel-import', status: 'done', progress: 100, readCount: 30, writtenCount: 30, failedCount: 0, error: null, hasFile: false, title: '专利' });
    expect(job.result).toMatchObject({ read: 30, inserted: 30, updated: 0, failed: 0, message: '导入成功：新增 30 条，更新 0 条' });
    expect(await countRows(s, 'basic_patent', "name LIKE $1 AND tenant_id = '000000' AND is_deleted = 0", [`${TAG} 任务 %`])).toBe(30);
    // the afterCommit hooks run as for a submit, in a follow-up job: then the imported patents are in the search index
    const follow = (await call(s, admin, 'GET', `/api/blade-job/job/list?ref=${jobId}&kind=excel-after-commit`)).body.data;
    expect(follow).toHaveLength(1);
    expect(await finished(admin, follow[0].id)).toMatchObject({ status: 'done', progress: 100, writtenCount: 30 });
    const found = await call(s, admin, 'GET', `/api/basic/patent/searchByEs?keyword=${encodeURIComponent(`${TAG} 任务 7`)}&size=50`);
    expect(found.status, found.body.msg).toBe(200);
    expect(found.body.data.records.map((r: Json) => r.title)).toEqual([`${TAG} 任务 7`]);
    // only the owner sees the job
    expect((await call(s, kyry, 'GET', `/api/blade-job/job/detail?id=${jobId}`)).status).toBe(404);
    expect((await call(s, kyry, 'GET', `/api/blade-job/job/list?ref=${patentTpl}`)).body.data.map((j: Json) => j.id)).not.toContain(jobId);
  });

  it('a file with faults: the job fails, nothing is written, the message lists the faults with 、 and the error workbook is in the report list', async () => {
    const jobId = await queued(admin, await workbook([HEADER, row(`${TAG} 坏甲`), row(`${TAG} 坏乙`, '不存在的类型'), row('')]));
    const job = await finished(admin, jobId);
    expect(job).toMatchObject({ status: 'failed', readCount: 3, writtenCount: 0, failedCount: 2, hasFile: true });
    expect(job.error).toBe('导入失败，共 2 处错误，未导入任何数据、第3行{专利类型}：值「不存在的类型」不在可选范围内、第4行{专利名称}：请输入专利名称');
    expect(await countRows(s, 'basic_patent', 'name LIKE $1', [`${TAG} 坏%`])).toBe(0);
    expect((await call(s, admin, 'GET', `/api/blade-job/job/list?ref=${jobId}&kind=excel-after-commit`)).body.data).toEqual([]); // nothing written, nothing to index
    const file = await call(s, admin, 'GET', `/api/blade-job/job/file?id=${jobId}`);
    expect(file.status).toBe(200);
    expect(await sheetRows(file.res.rawPayload)).toEqual([
      ['行号', '列', '错误信息'],
      ['3', '专利类型', '值「不存在的类型」不在可选范围内'],
      ['4', '专利名称', '请输入专利名称'],
    ]);
    expect((await call(s, kyry, 'GET', `/api/blade-job/job/file?id=${jobId}`)).status).toBe(404);
    const reports = await call(s, admin, 'GET', '/api/blade-report/report/rest/list?kind=import-errors&size=100');
    expect(reports.body.data.records.find((r: Json) => r.jobId === jobId)).toMatchObject({ kind: 'import-errors', rowCount: 2, link: `/api/blade-job/job/file?id=${jobId}` });
  });

  it('a template with partial import: the valid rows are written, the others listed in the message and the error workbook', async () => {
    const tpl = await call(s, admin, 'POST', `${T}/submit`, { code: `${TAG}_partial`, fileName: `${TAG}部分导入`, tableName: 'basic_patent', keyColumns: 'authorizationCode', partialImport: true });
    expect(tpl.status, tpl.body.msg).toBe(200);
    const id = tpl.body.data.id;
    created.templates.push(id);
    const fields = ['name', 'deptId', 'projectSource', 'projectName', 'projectType', 'type', 'region', 'address', 'postcode', 'applyDate', 'authorizationDate', 'authorizationCode', 'code', 'annex'];
    for (const [i, field] of fields.entries()) {
      const d = await call(s, admin, 'POST', '/api/system/exceltemplatedetail/submit', { templateId: id, field, title: HEADER[i], sort: i });
      expect(d.status, d.body.msg).toBe(200);
    }
    const jobId = await queued(admin, await workbook([HEADER, row(`${TAG} 部分甲`), row(`${TAG} 部分乙`, '不存在的类型'), row(`${TAG} 部分丙`)]), id);
    const job = await finished(admin, jobId);
    expect(job).toMatchObject({ status: 'done', readCount: 3, writtenCount: 2, failedCount: 1, hasFile: true });
    expect(job.result.message).toBe('导入完成：成功 2 条，失败 1 条，失败的行见错误文件、第3行{专利类型}：值「不存在的类型」不在可选范围内');
    const stored = await q<{ name: string }>(`SELECT name FROM basic_patent WHERE name LIKE $1 AND tenant_id = '000000' AND is_deleted = 0 ORDER BY name`, [`${TAG} 部分%`]);
    expect(stored.map((r) => r.name)).toEqual([`${TAG} 部分丙`, `${TAG} 部分甲`].sort());
    const file = await call(s, admin, 'GET', `/api/blade-job/job/file?id=${jobId}`);
    expect(await sheetRows(file.res.rawPayload)).toEqual([
      ['行号', '列', '错误信息'],
      ['3', '专利类型', '值「不存在的类型」不在可选范围内'],
    ]);
  });
});

describe('the import button', () => {
  it('a role that reads patents without the patent_import button gets 403 and nothing is stored or queued', async () => {
    const roleId = nextId();
    await q(`INSERT INTO blade_role (id, tenant_id, role_name, role_alias, sort, parent_id) VALUES ($1::bigint, '000000', $2, $3, 99, 0)`, [roleId, `${TAG} 只读`, `${TAG}ro`]);
    created.roles.push(roleId);
    const menus = await q<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE code = ANY($1::text[]) AND is_deleted = 0`, [['achievement', 'patent', 'patent_view', 'patent_export']]);
    expect(menus).toHaveLength(4);
    for (const m of menus) await q(`INSERT INTO blade_role_menu (id, role_id, menu_id) VALUES ($1::bigint, $2::bigint, $3::bigint)`, [nextId(), roleId, m.id]);
    const userId = nextId();
    await q(
      `INSERT INTO blade_user (id, tenant_id, account, password, name, real_name, dept_id)
       SELECT $1::bigint, '000000', $2::varchar, password, $2::varchar, $2::varchar, dept_id FROM blade_user WHERE tenant_id = '000000' AND account = 'kyry'`,
      [userId, `${TAG}ro`],
    );
    await q(`INSERT INTO blade_user_role (id, user_id, role_id) VALUES ($1::bigint, $2::bigint, $3::bigint)`, [nextId(), userId, roleId]);
    created.users.push(userId);
    const reader = await login(s, `${TAG}ro`);
    expect((await call(s, reader, 'GET', `/api/basic/patent/list?size=1`)).status).toBe(200);
    expect((await call(s, reader, 'GET', `${T}/exportData?templateId=${patentTpl}&name=${TAG}`)).status).toBe(200); // holds patent_export
    const jobsBefore = await countRows(s, 'kc_job', 'create_user = $1::bigint', [userId]);
    const res = await importFile(reader, await workbook([HEADER, row(`${TAG} 无权导入`)]));
    expect(res.status).toBe(403);
    expect(await countRows(s, 'basic_patent', 'name = $1', [`${TAG} 无权导入`])).toBe(0);
    expect(await countRows(s, 'kc_job', 'create_user = $1::bigint', [userId])).toBe(jobsBefore);
  });
});
