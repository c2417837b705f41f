/**
 * Excel templates, export and import (issue 13; spec 002 §2, §4, §5, §7, §8): template CRUD and column
 * moves, exports that equal the list (filters, checked ids, the caller's data scope), imports of a valid file,
 * of a file with faults (nothing written, the error workbook lists row, column and message), overwrite off and
 * on, the upload checks (wrong extension, a renamed non-Excel file, two files, an empty file, the overwrite
 * switch), another tenant's template (404, nothing written), large exports as jobs, and the report list.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, validPatent, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kyry: Session;
let other: Session;
let zj: Session;
let patentTpl: string; // the seeded patent template of 000000
const TAG = `x${Date.now().toString(36)}`;
const T = '/api/system/exceltemplate';

/** A multipart body: text fields, then files. */
function multipart(fields: Record<string, string>, files: Array<{ name: string; content: Buffer }>) {
  const boundary = `----kc${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), f.content, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function importFile(who: Session, files: Array<{ name: string; content: Buffer }>, fields: Record<string, string> = { isCovered: '0', templateId: patentTpl }) {
  const m = multipart(fields, files);
  return call(s, who, 'POST', `${T}/importData`, m.payload, m.headers);
}

/** The rows of the first sheet of an xlsx (header row first), as text. */
async function sheetRows(buf: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as never);
  const out: string[][] = [];
  wb.worksheets[0].eachRow((row) => out.push((row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : v instanceof Date ? v.toISOString().slice(0, 10) : String(v)))));
  return out;
}

/** An xlsx of `rows` (the first is the header). */
async function workbook(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function exportData(who: Session, qs: string) {
  return call(s, who, 'GET', `${T}/exportData?templateId=${patentTpl}${qs}`);
}

const names = (rows: string[][], header: string[]) => rows.slice(1).map((r) => r[header.indexOf('专利名称')]).sort();

async function createPatent(who: Session, name: string): Promise<Json> {
  const res = await call(s, who, 'POST', '/api/basic/patent/submit', { ...validPatent(TAG, who.deptId), name });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

beforeAll(async () => {
  process.env.EXCEL_INLINE_ROWS = '3';
  s = await testServer();
  delete process.env.EXCEL_INLINE_ROWS;
  [admin, kyry, other, zj] = await Promise.all([login(s, 'admin'), login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' }), login(s, 'zj')]);
  const tpl = await call(s, admin, 'GET', `${T}/detailByCode?code=patent`);
  expect(tpl.status, JSON.stringify(tpl.body)).toBe(200);
  patentTpl = tpl.body.data.id;
  for (let i = 1; i <= 3; i++) await createPatent(admin, `${TAG} 管理员专利 ${i}`);
  await createPatent(kyry, `${TAG} 科研人员专利`);
});
afterAll(async () => {
  await s?.close();
});

describe('templates', () => {
  it('seeded templates: detail by code with its columns, the tables and the fields', async () => {
    const tpl = await call(s, admin, 'GET', `${T}/detailByCode?code=patent`);
    expect(tpl.body.data).toMatchObject({ code: 'patent', tableName: 'basic_patent', keyColumns: 'authorizationCode', resource: 'basic/patent' });
    expect(tpl.body.data.columns.map((c: Json) => c.field)).toEqual(expect.arrayContaining(['name', 'type', 'authorizationCode', 'annex']));
    expect(tpl.body.data.columns.map((c: Json) => c.field)).not.toContain('examineStatus'); // server-only
    const tables = await call(s, admin, 'GET', `${T}/getAllTable`);
    expect(tables.body.data.map((t: Json) => t.tableName)).toContain('basic_patent');
    expect(tables.body.data.map((t: Json) => t.tableName)).not.toContain('blade_tenant'); // platform data
    for (const own of ['blade_excel_template', 'blade_excel_template_detail', 'blade_report_file']) expect(tables.body.data.map((t: Json) => t.tableName)).not.toContain(own); // schemas with excel: false
    const cols = await call(s, admin, 'GET', `${T}/getTableColumnByTableName?tableName=basic_patent`);
    expect(cols.body.data.find((c: Json) => c.field === 'type')).toMatchObject({ title: '专利类型', dictCode: 'patent_type', required: true });
    expect((await call(s, admin, 'GET', `${T}/getTableColumnByTableName?tableName=blade_user_x`)).status).toBe(404);
    const used = await call(s, admin, 'GET', `${T}/getTableColumn?templateId=${patentTpl}`);
    expect(used.body.data.find((c: Json) => c.field === 'name').used).toBe(true);
    expect((await call(s, other, 'GET', `${T}/detailByCode?code=patent`)).body.data.id).not.toBe(patentTpl); // 100001 has its own
  });

  it('CRUD and move; a bad table or field is refused with its message and nothing stored', async () => {
    const bad = await call(s, admin, 'POST', `${T}/submit`, { code: `${TAG}_bad`, fileName: '坏模板', tableName: 'no_such_table' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('数据表不存在');
    expect(await countRows(s, 'blade_excel_template', 'code = $1', [`${TAG}_bad`])).toBe(0);
    const badKey = await call(s, admin, 'POST', `${T}/submit`, { code: `${TAG}_k`, fileName: 'k', tableName: 'basic_patent', keyColumns: 'nope' });
    expect(badKey.body.msg).toBe('字段 nope 不存在');
    const created = await call(s, admin, 'POST', `${T}/submit`, { code: `${TAG}_t`, fileName: '测试模板', tableName: 'basic_patent', keyColumns: 'authorizationCode' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id;
    const ids: string[] = [];
    for (const [i, field] of ['name', 'type', 'code'].entries()) {
      const d = await call(s, admin, 'POST', '/api/system/exceltemplatedetail/submit', { templateId: id, field, title: `列${i}`, sort: i });
      expect(d.status, JSON.stringify(d.body)).toBe(200);
      ids.push(d.body.data.id);
    }
    const badField = await call(s, admin, 'POST', '/api/system/exceltemplatedetail/submit', { templateId: id, field: 'examineStatus', title: 'x' });
    expect(badField.body.msg).toBe('字段 examineStatus 不存在');
    expect((await call(s, other, 'POST', '/api/system/exceltemplatedetail/submit', { templateId: id, field: 'name', title: 'x' })).status).toBe(400); // 模板不存在 in 100001
    const order = async () => (await call(s, admin, 'GET', `/api/system/exceltemplatedetail/list?templateId=${id}&size=50`)).body.data.records.map((r: Json) => r.field);
    expect(await order()).toEqual(['name', 'type', 'code']);
    expect((await call(s, admin, 'POST', `/api/system/exceltemplatedetail/move?id=${ids[2]}&direction=up`)).status).toBe(200);
    expect(await order()).toEqual(['name', 'code', 'type']);
    expect((await call(s, admin, 'POST', `/api/system/exceltemplatedetail/move?id=${ids[0]}&direction=down`)).status).toBe(200);
    expect(await order()).toEqual(['code', 'name', 'type']);
    expect((await call(s, admin, 'POST', `/api/system/exceltemplatedetail/move?id=${ids[0]}&direction=sideways`)).body.msg).toBe('移动方向只能是 up 或 down');
    expect((await call(s, other, 'POST', `/api/system/exceltemplatedetail/move?id=${ids[0]}&direction=up`)).status).toBe(404);
    const guarded = await call(s, admin, 'POST', `${T}/remove?ids=${id}`);
    expect(guarded.body.msg).toBe('该模板下还有列，请先删除模板明细');
    expect((await call(s, admin, 'POST', `/api/system/exceltemplatedetail/remove?ids=${ids.join(',')}`)).status).toBe(200);
    expect((await call(s, admin, 'POST', `${T}/remove?ids=${id}`)).status).toBe(200);
    expect((await call(s, admin, 'GET', `${T}/detailByCode?code=${TAG}_t`)).status).toBe(404);
  });
});

describe('export', () => {
  it('with filters equals the list; checked ids export only those; headers and dictionary labels', async () => {
    const res = await exportData(admin, `&name=${encodeURIComponent(TAG + ' 管理员')}`);
    expect(res.status).toBe(200);
    expect(String(res.res.headers['content-disposition'])).toMatch(/filename\*=UTF-8''/);
    expect(decodeURIComponent(String(res.res.headers['content-disposition']))).toMatch(/专利数据\d{14}\.xlsx/);
    const rows = await sheetRows(res.res.rawPayload);
    const header = rows[0];
    expect(header).toEqual(expect.arrayContaining(['专利名称', '专利类型', '授权号/专利号']));
    const list = await call(s, admin, 'GET', `/api/basic/patent/list?name=${encodeURIComponent(TAG + ' 管理员')}&size=500`);
    expect(names(rows, header)).toEqual(list.body.data.records.map((r: Json) => r.name).sort());
    expect(rows[1][header.indexOf('专利类型')]).toBe('发明专利'); // patent_type 1, translated
    expect(rows[1][header.indexOf('是否转让')]).toBe('是');
    const one = list.body.data.records[0];
    const byId = await sheetRows((await exportData(admin, `&ids=${one.id}`)).res.rawPayload);
    expect(names(byId, header)).toEqual([one.name]);
    expect((await exportData(admin, '&nosuchfield=1')).status).toBe(400);
  });

  it("applies the caller's data scope exactly as the list (a researcher sees only their own)", async () => {
    const rows = await sheetRows((await exportData(kyry, `&name=${TAG}`)).res.rawPayload);
    const list = await call(s, kyry, 'GET', `/api/basic/patent/list?name=${TAG}&size=500`);
    expect(names(rows, rows[0])).toEqual(list.body.data.records.map((r: Json) => r.name).sort());
    expect(names(rows, rows[0])).toEqual([`${TAG} 科研人员专利`]);
  });

  it('another tenant gets 404 for the template; a role without the grant gets 403', async () => {
    expect((await call(s, other, 'GET', `${T}/exportData?templateId=${patentTpl}`)).status).toBe(404);
    expect((await call(s, other, 'GET', `${T}/exportTemplate?templateId=${patentTpl}`)).status).toBe(404);
    expect((await exportData(zj, '')).status).toBe(403);
  });

  it('the empty template has the header row only', async () => {
    const res = await call(s, admin, 'GET', `${T}/exportTemplate?templateId=${patentTpl}`);
    const rows = await sheetRows(res.res.rawPayload);
    expect(rows).toHaveLength(1);
    expect(decodeURIComponent(String(res.res.headers['content-disposition']))).toMatch(/专利\d{14}\.xlsx/);
  });

  it('more rows than the inline limit become a job whose file lands in the report list', async () => {
    const res = await exportData(admin, `&name=${TAG}`);
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe('数据较多，已转为后台任务，请稍候查看进度');
    const jobId = res.body.data.jobId;
    let job: Json = {};
    for (let i = 0; i < 100 && !['done', 'failed'].includes(job.status); i++) {
      await new Promise((r) => setTimeout(r, 200));
      job = (await call(s, admin, 'GET', `/api/blade-job/job/detail?id=${jobId}`)).body.data;
    }
    expect(job).toMatchObject({ status: 'done', progress: 100, writtenCount: 4, hasFile: true });
    const file = await call(s, admin, 'GET', `/api/blade-job/job/file?id=${jobId}`);
    expect(await sheetRows(file.res.rawPayload)).toHaveLength(5);
    const reports = await call(s, admin, 'GET', '/api/blade-report/report/rest/list?kind=export');
    const mine = reports.body.data.records.find((r: Json) => r.jobId === jobId);
    expect(mine).toMatchObject({ kind: 'export', rowCount: 4, link: `/api/blade-job/job/file?id=${jobId}` });
    expect((await call(s, kyry, 'POST', `/api/blade-report/report/rest/remove?ids=${mine.id}`)).status).toBe(404);
    expect((await call(s, kyry, 'GET', '/api/blade-report/report/rest/list')).body.data.records.map((r: Json) => r.id)).not.toContain(mine.id);
    expect((await call(s, admin, 'POST', `/api/blade-report/report/rest/remove?ids=${mine.id}`)).status).toBe(200);
    expect((await call(s, admin, 'GET', `/api/blade-job/job/file?id=${jobId}`)).status).toBe(404);
  });
});

describe('import', () => {
  /** The exported workbook of one of admin's patents with its name and patent number replaced. */
  async function fileOf(rowsEdit: (header: string[], rows: string[][]) => unknown[][]): Promise<Buffer> {
    const rows = await sheetRows((await exportData(admin, `&name=${encodeURIComponent(TAG + ' 管理员专利 1')}`)).res.rawPayload);
    return workbook([rows[0], ...rowsEdit(rows[0], rows.slice(1))]);
  }

  it('a valid file: every row added in the caller tenant, with the message', async () => {
    const buf = await fileOf((h, rows) =>
      [1, 2].map((i) => rows[0].map((v, c) => (h[c] === '专利名称' ? `${TAG} 导入 ${i}` : h[c] === '授权号/专利号' ? `${TAG}-IMP-${i}` : v))),
    );
    const res = await importFile(admin, [{ name: '专利.xlsx', content: buf }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.msg).toBe('导入成功：新增 2 条，更新 0 条');
    expect(await countRows(s, 'basic_patent', "name LIKE $1 AND tenant_id = '000000' AND is_deleted = 0", [`${TAG} 导入 %`])).toBe(2);
    const got = await call(s, admin, 'GET', `/api/basic/patent/list?name=${encodeURIComponent(TAG + ' 导入 1')}`);
    expect(got.body.data.records[0]).toMatchObject({ type: '1', authorizationCode: `${TAG}-IMP-1`, examineStatus: '0' });
  });

  it('reads every Chinese character of a long file (the exceljs reader cut characters at chunk boundaries; xlsx-rows.ts decodes in stream mode)', async () => {
    const header = ['专利名称', '登记单位', '项目来源', '项目名称', '成果来源', '专利类型', '国家或地区', '地址', '邮编', '申请日期', '授权公告日', '授权号/专利号', '专利证书号', '附件'];
    const rows = Array.from({ length: 3000 }, (_, i) => [`${TAG} 长文件 低温储粮智能通风控制装置 ${i}`, '集团科技信息部', '无', '智能粮库关键技术研究', '国家级项目', '发明专利', '中华人民共和国', '北京市西城区粮储大厦', '100032', '2024-03-15', '2025-06-20', `${TAG}-LONG-${i}`, `第${i}号`, '[{"name":"证书.pdf","link":"/upload/20250101/a.pdf"}]']);
    const res = await importFile(admin, [{ name: 'long.xlsx', content: await workbook([header, ...rows]) }]);
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.msg).toBe('导入成功：新增 3000 条，更新 0 条');
    expect(await countRows(s, 'basic_patent', "name LIKE $1 AND address = '北京市西城区粮储大厦'", [`${TAG} 长文件 低温储粮智能通风控制装置 %`])).toBe(3000);
  });

  it('a file with faults: nothing written, the message lists them with 、 and the error workbook has row, column and message', async () => {
    const buf = await fileOf((h, rows) => [
      rows[0].map((v, c) => (h[c] === '专利名称' ? `${TAG} 坏 1` : h[c] === '授权号/专利号' ? `${TAG}-BAD-1` : v)),
      rows[0].map((v, c) => (h[c] === '专利名称' ? '' : h[c] === '授权号/专利号' ? `${TAG}-BAD-2` : v)),
      rows[0].map((v, c) => (h[c] === '专利名称' ? `${TAG} 坏 3` : h[c] === '专利类型' ? '不存在的类型' : h[c] === '授权号/专利号' ? `${TAG}-BAD-3` : v)),
    ]);
    const res = await importFile(admin, [{ name: 'bad.xlsx', content: buf }]);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('导入失败，共 2 处错误，未导入任何数据、第3行{专利名称}：请输入专利名称、第4行{专利类型}：值「不存在的类型」不在可选范围内');
    expect(await countRows(s, 'basic_patent', 'authorization_code LIKE $1', [`${TAG}-BAD-%`])).toBe(0);
    const file = await call(s, admin, 'GET', res.body.data.errorFile);
    expect(await sheetRows(file.res.rawPayload)).toEqual([
      ['行号', '列', '错误信息'],
      ['3', '专利名称', '请输入专利名称'],
      ['4', '专利类型', '值「不存在的类型」不在可选范围内'],
    ]);
  });

  it('overwrite off refuses an existing record; on, it updates it by the key field', async () => {
    const before = await call(s, admin, 'GET', `/api/basic/patent/list?name=${encodeURIComponent(TAG + ' 导入 2')}`);
    const rec = before.body.data.records[0];
    const buf = await fileOf((h, rows) => [rows[0].map((v, c) => (h[c] === '专利名称' ? `${TAG} 已覆盖` : h[c] === '授权号/专利号' ? rec.authorizationCode : v))]);
    const off = await importFile(admin, [{ name: 'a.xlsx', content: buf }]);
    expect(off.status).toBe(400);
    expect(off.body.msg).toContain('第2行{授权号/专利号}：数据已存在，如需更新请选择覆盖');
    expect((await call(s, admin, 'GET', `/api/basic/patent/detail?id=${rec.id}`)).body.data.name).toBe(rec.name);
    const count = await countRows(s, 'basic_patent', 'is_deleted = 0');
    const on = await importFile(admin, [{ name: 'a.xlsx', content: buf }], { isCovered: '1', templateId: patentTpl });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body.msg).toBe('导入成功：新增 0 条，更新 1 条');
    expect((await call(s, admin, 'GET', `/api/basic/patent/detail?id=${rec.id}`)).body.data.name).toBe(`${TAG} 已覆盖`);
    expect(await countRows(s, 'basic_patent', 'is_deleted = 0')).toBe(count);
  });

  it('upload checks: wrong extension, renamed non-Excel file, two files, empty file, the overwrite switch; nothing written', async () => {
    const good = await workbook([['专利名称'], [`${TAG} 不该写入`]]);
    const cases: Array<[Array<{ name: string; content: Buffer }>, Record<string, string>, string]> = [
      [[{ name: 'a.csv', content: Buffer.from('a,b\n1,2') }], { isCovered: '0', templateId: patentTpl }, '文件格式错误'],
      [[{ name: 'fake.xlsx', content: Buffer.from('this is plain text, not a workbook') }], { isCovered: '0', templateId: patentTpl }, '文件格式错误'],
      [[{ name: 'a.xlsx', content: good }, { name: 'b.xlsx', content: good }], { isCovered: '0', templateId: patentTpl }, '只能上传一个文件'],
      [[{ name: 'empty.xlsx', content: Buffer.alloc(0) }], { isCovered: '0', templateId: patentTpl }, '上传的文件是空的'],
      [[{ name: 'a.xlsx', content: good }], { templateId: patentTpl }, '请选择是否覆盖数据'],
      [[], { isCovered: '0', templateId: patentTpl }, '请选择要上传的文件'],
    ];
    for (const [files, fields, msg] of cases) {
      const res = await importFile(admin, files, fields);
      expect(res.status, msg).toBe(400);
      expect(res.body.msg).toBe(msg);
    }
    const noRows = await importFile(admin, [{ name: 'h.xlsx', content: await workbook([['专利名称', '专利类型']]) }]);
    expect(noRows.body.msg).toBe('文件中没有数据');
    const otherHeader = await importFile(admin, [{ name: 'h.xlsx', content: await workbook([['甲', '乙'], ['1', '2']]) }]);
    expect(otherHeader.body.msg).toBe('文件的表头与模板不符，请先下载模板');
    expect(await countRows(s, 'basic_patent', 'name = $1', [`${TAG} 不该写入`])).toBe(0);
  });

  it('a damaged workbook (a zip that breaks off, a zip of something else) is the wrong file format; nothing written', async () => {
    const good = await workbook([['专利名称', '授权号/专利号'], [`${TAG} 残缺`, `${TAG}-CUT`]]);
    const cut = good.subarray(0, Math.floor(good.length / 2));
    const garbage = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(2000, 0x41)]);
    for (const content of [cut, garbage]) {
      const res = await importFile(admin, [{ name: 'broken.xlsx', content }]);
      expect(res.status, res.body.msg).toBe(400);
      expect(res.body.msg).toBe('文件格式错误');
    }
    expect(await countRows(s, 'basic_patent', 'name = $1', [`${TAG} 残缺`])).toBe(0);
  });

  it("another tenant's template: 404 and nothing written", async () => {
    const buf = await fileOf((h, rows) => [rows[0].map((v, c) => (h[c] === '专利名称' ? `${TAG} 他人模板` : h[c] === '授权号/专利号' ? `${TAG}-OTHER` : v))]);
    const res = await importFile(other, [{ name: 'a.xlsx', content: buf }]);
    expect(res.status).toBe(404);
    expect(res.body.msg).toBe('导入导出模板不存在');
    expect(await countRows(s, 'basic_patent', 'name = $1', [`${TAG} 他人模板`])).toBe(0);
  });
});
