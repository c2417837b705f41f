/**
 * Excel export and import on the patent list (spec 002 §2, §4, §5, §8; issue 13): the list's export, import and
 * template buttons (the menu's 导出专利 / 导入专利 entries), exporting what the search selects ('confirm export
 * all data?'), changing a cell of the downloaded workbook, importing it back with overwrite on, and seeing the
 * change in the list; a file that is not .xls/.xlsx is refused in the dialog.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { button, dialog, expect, login, test } from './fixtures.js';

test('export the patent list, change a cell, import with overwrite, see the change', async ({ page, password }) => {
  test.setTimeout(180_000); // an export download and an import round trip
  const tag = `导出导入-${Date.now().toString(36)}`;
  await login(page, 'kygl', password);
  // a patent of our own to export (through the API, as the page itself would save it)
  const saved = await page.evaluate(async (name) => {
    const s = JSON.parse(localStorage.getItem('kc-session') ?? '{}');
    const headers = { 'Content-Type': 'application/json', 'Blade-Auth': `bearer ${s.token}`, Authorization: 'Basic ' + btoa('saber:saber_secret'), 'Tenant-Id': s.tenantId, 'Role-Id': s.currentRoleId ?? '' };
    const depts = await (await fetch('/api/blade-system/dept/tree', { headers })).json();
    const deptId = depts.data[0].children?.find((d: { title: string }) => d.title === '集团科技信息部')?.id ?? depts.data[0].id;
    const body = {
      name, deptId, projectSource: 3, projectName: '粮食仓储物联网应用示范', projectType: '3', type: '1', region: '中国', address: '北京市西城区', postcode: '100032',
      applyDate: '2023-03-15', authorizationDate: '2024-06-20', authorizationCode: `ZL-${name}`, code: `第${Date.now() % 1e6}号`, annex: [{ name: '证书.pdf', link: '/upload/20250101/a.pdf' }],
    };
    const res = await (await fetch('/api/basic/patent/submit', { method: 'POST', headers, body: JSON.stringify(body) })).json();
    return res.code as number;
  }, tag);
  expect(saved).toBe(200);

  await page.goto('/basic/patent'); // the menu item's route (a reload-proof way in)
  await expect(page.getByRole('columnheader', { name: '专利名称' })).toBeVisible({ timeout: 30_000 });
  // the role's menu has 导出专利 / 导入专利: the toolbar shows once the buttons and the template are loaded
  await expect(page.locator('.kc-excel-toolbar')).toBeVisible({ timeout: 30_000 });
  await page.locator('.kc-search').getByRole('textbox').first().fill(tag);
  await button(page, '搜索').click();
  const row = page.locator('.ant-table-row', { hasText: tag });
  await expect(row).toHaveCount(1);

  // export what the search selects
  const exportButton = button(page.locator('.kc-excel-toolbar'), '导出');
  await expect(exportButton).toBeEnabled({ timeout: 30_000 });
  await exportButton.click();
  await expect(page.getByText('确认导出全部数据?')).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定/ }).click()]);
  expect(download.suggestedFilename()).toMatch(/^专利数据\d{14}\.xlsx$/);
  const file = path.join(os.tmpdir(), `kc-e2e-${process.pid}-${Date.now()}.xlsx`);
  await download.saveAs(file);

  // change the name in the workbook
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.worksheets[0];
  const header = (ws.getRow(1).values as unknown[]).map((v) => String(v ?? ''));
  expect(ws.rowCount).toBe(2);
  const col = header.indexOf('专利名称');
  expect(String(ws.getRow(2).getCell(col).value)).toBe(tag);
  ws.getRow(2).getCell(col).value = `${tag} 已修改`;
  await wb.xlsx.writeFile(file);

  // import it with overwrite on
  await button(page.locator('.kc-excel-toolbar'), '导入').click();
  const dlg = dialog(page, '用户数据导入');
  await expect(dlg).toBeVisible();
  const txt = path.join(os.tmpdir(), `kc-e2e-${process.pid}.txt`);
  fs.writeFileSync(txt, 'not a workbook');
  await dlg.locator('input[type=file]').setInputFiles(txt);
  await expect(page.getByText('文件格式错误').first()).toBeVisible();
  await dlg.locator('input[type=file]').setInputFiles(file);
  await dlg.getByRole('switch').click();
  await button(dlg, '开始导入').click();
  await expect(page.getByText('导入成功：新增 0 条，更新 1 条')).toBeVisible();
  await expect(dlg).toBeHidden();
  await expect(page.locator('.ant-table-row', { hasText: `${tag} 已修改` })).toBeVisible();
  fs.rmSync(file, { force: true });
  fs.rmSync(txt, { force: true });
});
