/**
 * The seeded Excel templates and the lists they serve (issue 13: 'the achievement lists and the project lists
 * have seeded templates'; 'users export and import through the same machinery'; spec 002 §2 'the template is
 * looked up by the button's path'):
 *
 * - every menu button whose code ends in export / import names (by its path, else its menu's code) a template
 *   that exists in each seeded tenant — so no list shows an Excel toolbar without its template;
 * - the project declarations' template exports exactly the project list (filters) in the caller's tenant;
 * - users: the `user` template exports the user list and imports users through the user rules (a generated
 *   password to change at the first login, the department by name, a unique account, overwrite by the account,
 *   the caller's tenant only; another tenant's template is 404 and writes nothing).
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kygl: Session;
let other: Session;
const TAG = `s${Date.now().toString(36)}`;
const T = '/api/system/exceltemplate';

const q = async <R extends Json = Json>(text: string, params: unknown[] = []) => (await s.kernel.database.pool.query<R>(text, params)).rows;

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

async function importFile(who: Session, content: Buffer, templateId: string, isCovered = '0') {
  const boundary = `----kc${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="isCovered"\r\n\r\n${isCovered}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="templateId"\r\n\r\n${templateId}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="users.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return call(s, who, 'POST', `${T}/importData`, payload, { 'content-type': `multipart/form-data; boundary=${boundary}` });
}

const templateOf = async (who: Session, code: string): Promise<Json> => {
  const res = await call(s, who, 'GET', `${T}/detailByCode?code=${code}`);
  expect(res.status, `${code}: ${res.body.msg}`).toBe(200);
  return res.body.data;
};

beforeAll(async () => {
  s = await testServer();
  [admin, kygl, other] = await Promise.all([login(s, 'admin'), login(s, 'kygl'), login(s, 'admin', { tenantId: '100001' })]);
});
afterAll(async () => {
  if (s) await q(`UPDATE blade_user SET is_deleted = 1 WHERE account LIKE $1`, [`${TAG}%`]);
  if (s) await q(`UPDATE project_baseinfo SET is_deleted = 1 WHERE name LIKE $1`, [`${TAG}%`]);
  await s?.close();
});

describe('seeded templates', () => {
  it('every export / import button of a menu names a template that exists, with columns, in each seeded tenant', async () => {
    const buttons = await q<{ code: string; path: string | null; menu: string }>(
      `SELECT b.code, b.path, m.code AS menu FROM blade_menu b JOIN blade_menu m ON m.id = b.parent_id
        WHERE b.category = 2 AND b.is_deleted = 0 AND m.is_deleted = 0 AND (b.code LIKE '%export' OR b.code LIKE '%import') ORDER BY b.code`,
    );
    const codes = [...new Set(buttons.map((b) => b.path || b.menu))];
    expect(codes).toEqual(expect.arrayContaining(['patent', 'thesis', 'softwarecopyright', 'book', 'award', 'standard']));
    // with the templates of the project declarations and the users (the spec's other lists with Excel buttons)
    for (const who of [admin, other]) {
      for (const code of new Set([...codes, 'project_baseinfo', 'user'])) {
        const t = await templateOf(who, code);
        expect(t.columns.length, code).toBeGreaterThan(2);
      }
    }
    const project = await templateOf(admin, 'project_baseinfo');
    expect(project).toMatchObject({ tableName: 'project_baseinfo', resource: 'project/baseinfo' });
    const user = await templateOf(admin, 'user');
    expect(user).toMatchObject({ tableName: 'blade_user', resource: 'system/user', keyColumns: 'account' });
    expect(user.columns.map((c: Json) => c.field)).toEqual(expect.arrayContaining(['account', 'realName', 'deptId', 'phone']));
    expect(user.columns.map((c: Json) => c.field)).not.toContain('isExpert'); // server-only
    expect((await templateOf(other, 'user')).id).not.toBe(user.id); // each tenant its own
  });

  it("the project declarations' template exports exactly the project list (filters, the caller's tenant), and an exported row imports back", async () => {
    const t = await templateOf(kygl, 'project_baseinfo');
    const list = await call(s, kygl, 'GET', '/api/project/baseinfo/list?size=500');
    expect(list.status, list.body.msg).toBe(200);
    const total = list.body.data.total as number;
    expect(total).toBeGreaterThan(0);
    const res = await call(s, kygl, 'GET', `${T}/exportData?templateId=${t.id}`);
    expect(res.status, res.body.msg).toBe(200);
    const rows = await sheetRows(res.res.rawPayload);
    const nameCol = rows[0].indexOf(t.columns.find((c: Json) => c.field === 'name').title);
    expect(nameCol).toBeGreaterThanOrEqual(0);
    expect(rows.slice(1).map((r) => r[nameCol]).sort()).toEqual(list.body.data.records.map((r: Json) => r.name ?? '').sort());
    // a filter: the same rows as the list with it
    const one = list.body.data.records[0].name as string;
    const filtered = await call(s, kygl, 'GET', `/api/project/baseinfo/list?name=${encodeURIComponent(one)}&size=500`);
    const exp = await sheetRows((await call(s, kygl, 'GET', `${T}/exportData?templateId=${t.id}&name=${encodeURIComponent(one)}`)).res.rawPayload);
    expect(exp.slice(1).map((r) => r[nameCol]).sort()).toEqual(filtered.body.data.records.map((r: Json) => r.name).sort());
    // another tenant cannot use the template
    expect((await call(s, other, 'GET', `${T}/exportData?templateId=${t.id}`)).status).toBe(404);
    // an exported declaration, renamed, imports back as a new one of the caller's tenant
    const copy = exp[1].map((v, i) => (i === nameCol ? `${TAG} 导入项目` : v === '' ? null : v));
    const res2 = await importFile(kygl, await workbook([exp[0], copy]), t.id);
    expect(res2.status, res2.body.msg).toBe(200);
    expect(res2.body.msg).toBe('导入成功：新增 1 条，更新 0 条');
    const back = await call(s, kygl, 'GET', `/api/project/baseinfo/list?name=${encodeURIComponent(`${TAG} 导入项目`)}`);
    const orig = filtered.body.data.records[0];
    expect(back.body.data.records).toHaveLength(1);
    expect(back.body.data.records[0]).toMatchObject({ code: orig.code, startDate: orig.startDate, endDate: orig.endDate, deptId: orig.deptId });
    expect(await countRows(s, 'project_baseinfo', "name = $1 AND tenant_id = '000000' AND is_deleted = 0", [`${TAG} 导入项目`])).toBe(1);
  });
});

describe('users through the Excel template', () => {
  const header = ['登录账号', '用户昵称', '用户姓名', '所属部门', '手机号码', '电子邮箱'];
  const phone = (i: number) => `139${String(Date.now() % 1e7).padStart(7, '0')}${i}`;

  it('imports users: generated password to change at the first login, the department by name, in the caller tenant', async () => {
    const t = await templateOf(admin, 'user');
    const dept = (await q<{ name: string; id: string }>(`SELECT dept_name AS name, id::text AS id FROM blade_dept WHERE tenant_id = '000000' AND is_deleted = 0 ORDER BY id LIMIT 1`))[0];
    const file = await workbook([header, [`${TAG}a`, '甲', '导入甲', dept.name, phone(1), 'a@example.com'], [`${TAG}b`, '乙', '导入乙', dept.name, phone(2), '']]);
    const res = await importFile(admin, file, t.id);
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.msg).toBe('导入成功：新增 2 条，更新 0 条');
    const rows = await q<Json>(`SELECT account, real_name, dept_id::text AS dept, tenant_id, password IS NOT NULL AS has_password, must_change_password FROM blade_user WHERE account LIKE $1 AND is_deleted = 0 ORDER BY account`, [`${TAG}%`]);
    expect(rows).toEqual([
      { account: `${TAG}a`, real_name: '导入甲', dept: dept.id, tenant_id: '000000', has_password: true, must_change_password: true },
      { account: `${TAG}b`, real_name: '导入乙', dept: dept.id, tenant_id: '000000', has_password: true, must_change_password: true },
    ]);
    // the user list and the template's export agree
    const list = await call(s, admin, 'GET', `/api/blade-user/list?account=${TAG}&size=50`);
    const exp = await sheetRows((await call(s, admin, 'GET', `${T}/exportData?templateId=${t.id}&account=${TAG}`)).res.rawPayload);
    const acc = exp[0].indexOf('登录账号');
    expect(exp.slice(1).map((r) => r[acc]).sort()).toEqual(list.body.data.records.map((r: Json) => r.account).sort());
    expect(exp[1][exp[0].indexOf('所属部门')]).toBe(dept.name);
  });

  it('an existing account is refused without overwrite and updated with it; a bad account is listed; nothing half-written', async () => {
    const t = await templateOf(admin, 'user');
    const dept = (await q<{ name: string }>(`SELECT dept_name AS name FROM blade_dept WHERE tenant_id = '000000' AND is_deleted = 0 ORDER BY id LIMIT 1`))[0];
    const again = await workbook([header, [`${TAG}a`, '甲', '改名甲', dept.name, phone(1), '']]);
    const off = await importFile(admin, again, t.id);
    expect(off.status).toBe(400);
    expect(off.body.msg).toBe('导入失败，共 1 处错误，未导入任何数据、第2行{登录账号}：数据已存在，如需更新请选择覆盖');
    const on = await importFile(admin, again, t.id, '1');
    expect(on.status, on.body.msg).toBe(200);
    expect(on.body.msg).toBe('导入成功：新增 0 条，更新 1 条');
    expect((await q(`SELECT real_name FROM blade_user WHERE account = $1 AND is_deleted = 0`, [`${TAG}a`]))[0].real_name).toBe('改名甲');
    const bad = await workbook([header, [`${TAG}c`, '丙', '导入丙', dept.name, phone(3), ''], ['有 空格', '丁', '导入丁', dept.name, phone(4), '']]);
    const res = await importFile(admin, bad, t.id);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('导入失败，共 1 处错误，未导入任何数据、第3行{登录账号}：登录账号只能包含字母、数字和 _ . @ -');
    expect(await countRows(s, 'blade_user', 'account = $1', [`${TAG}c`])).toBe(0);
  });

  it('a workbook of blade-user/export-user, edited, imports back through the user template (overwrite by account)', async () => {
    const t = await templateOf(admin, 'user');
    const res = await call(s, admin, 'GET', `/api/blade-user/export-user?account=${TAG}b`);
    expect(res.status).toBe(200);
    const rows = await sheetRows(res.res.rawPayload);
    expect(rows).toHaveLength(2);
    const name = rows[0].indexOf('用户姓名');
    rows[1][name] = '改名乙';
    // the columns the template does not know (roles, locked, created) are left aside
    const back = await importFile(admin, await workbook(rows), t.id, '1');
    expect(back.status, back.body.msg).toBe(200);
    expect(back.body.msg).toBe('导入成功：新增 0 条，更新 1 条');
    expect((await q(`SELECT real_name FROM blade_user WHERE account = $1 AND is_deleted = 0`, [`${TAG}b`]))[0].real_name).toBe('改名乙');
  });

  it("another tenant's user template is 404 and writes nothing", async () => {
    const t = await templateOf(admin, 'user');
    const dept = (await q<{ name: string }>(`SELECT dept_name AS name FROM blade_dept WHERE tenant_id = '100001' AND is_deleted = 0 ORDER BY id LIMIT 1`))[0];
    const res = await importFile(other, await workbook([header, [`${TAG}x`, '外', '外租户', dept.name, phone(5), '']]), t.id);
    expect(res.status).toBe(404);
    expect(res.body.msg).toBe('导入导出模板不存在');
    expect(await countRows(s, 'blade_user', 'account = $1', [`${TAG}x`])).toBe(0);
  });
});

describe('languages and access of the template endpoints', () => {
  it('an English export has the English headers and labels, and that file imports back (headers and labels matched in either language)', async () => {
    const t = await templateOf(admin, 'user');
    const en = { 'accept-language': 'en' };
    const exp = await call(s, admin, 'GET', `${T}/exportData?templateId=${t.id}&account=${TAG}a`, undefined, en);
    expect(exp.status).toBe(200);
    const rows = await sheetRows(exp.res.rawPayload);
    expect(rows[0]).toEqual(expect.arrayContaining(['Account', 'Nickname', 'Name', 'Department', 'Phone']));
    expect(rows).toHaveLength(2);
    // the same row as a new account, imported with the English headers
    const acc = rows[0].indexOf('Account');
    const copy = rows[1].map((v, i) => (i === acc ? `${TAG}en` : v));
    const res = await importFile(admin, await workbook([rows[0], copy]), t.id);
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.msg).toBe('导入成功：新增 1 条，更新 0 条');
    const [a, b] = await Promise.all([`${TAG}a`, `${TAG}en`].map(async (account) => (await q(`SELECT real_name, dept_id::text AS d, phone FROM blade_user WHERE account = $1 AND is_deleted = 0`, [account]))[0]));
    expect(b).toEqual(a);
    // the same file again: the fault in the caller's language (the English header, the English message)
    const boundary = '----kcen';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="isCovered"\r\n\r\n0\r\n--${boundary}\r\nContent-Disposition: form-data; name="templateId"\r\n\r\n${t.id}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="u.xlsx"\r\n\r\n`),
      await workbook([rows[0], copy]),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const again = await call(s, admin, 'POST', `${T}/importData`, body, { ...en, 'content-type': `multipart/form-data; boundary=${boundary}` });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('Import failed: 1 error, nothing was imported、Row 2 {Account}: The record already exists: choose overwrite to update it');
  });

  it('a role without the Excel template menu reads templates but gets 403 on the table catalogue and every write, storing nothing; another tenant sees none of ours', async () => {
    const kyry = await login(s, 'kyry');
    const t = await templateOf(admin, 'patent');
    // every signed-in user reads the templates (the Excel toolbar of any list); the table catalogue is the designer's
    for (const r of ['detailByCode?code=patent', `detail?id=${t.id}`]) expect((await call(s, kyry, 'GET', `${T}/${r}`)).status, r).toBe(200);
    for (const r of ['getAllTable', 'getTableColumnByTableName?tableName=basic_patent', `getTableColumn?templateId=${t.id}`]) expect((await call(s, kyry, 'GET', `${T}/${r}`)).status, r).toBe(403);
    const sub = await call(s, kyry, 'POST', `${T}/submit`, { code: `${TAG}_no`, fileName: 'x', tableName: 'basic_patent' });
    expect(sub.status).toBe(403);
    expect(await countRows(s, 'blade_excel_template', 'code = $1', [`${TAG}_no`])).toBe(0);
    const col = t.columns[0];
    const detailId = (await q<{ id: string }>(`SELECT id::text AS id FROM blade_excel_template_detail WHERE template_id = $1::bigint AND field = $2 AND is_deleted = 0`, [t.id, col.field]))[0].id;
    expect((await call(s, kyry, 'POST', `/api/system/exceltemplatedetail/move?id=${detailId}&direction=down`)).status).toBe(403);
    expect((await call(s, kyry, 'POST', `/api/system/exceltemplatedetail/remove?ids=${detailId}`)).status).toBe(403);
    expect((await call(s, kyry, 'POST', `${T}/remove?ids=${t.id}`)).status).toBe(403);
    expect(await countRows(s, 'blade_excel_template_detail', 'id = $1::bigint AND is_deleted = 0', [detailId])).toBe(1);
    // another tenant: our template and column are not there
    expect((await call(s, other, 'GET', `${T}/detail?id=${t.id}`)).status).toBe(404);
    expect((await call(s, other, 'GET', `${T}/list?code=patent&size=50`)).body.data.records.map((r: Json) => r.id)).not.toContain(t.id);
    expect((await call(s, other, 'GET', `/api/system/exceltemplatedetail/detail?id=${detailId}`)).status).toBe(404);
    expect((await call(s, other, 'POST', `/api/system/exceltemplatedetail/remove?ids=${detailId}`)).status).toBe(404);
    expect((await call(s, other, 'POST', `${T}/remove?ids=${t.id}`)).status).toBe(404);
    expect(await countRows(s, 'blade_excel_template', 'id = $1::bigint AND is_deleted = 0', [t.id])).toBe(1);
  });
});
