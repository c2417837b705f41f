/**
 * Administration screens rendered from their schemas (schemas/system/dict.json, region.json): the dictionary tree
 * and the administrative regions (GB/T 2260), both lazy trees whose children load when a row is expanded.
 */
import { expect, login, openMenu, test } from './fixtures.js';

test('字典管理 lists the dictionaries from its schema, and a dictionary expands to its entries', async ({ page, password }) => {
  await login(page, 'admin', password);
  await openMenu(page, '系统管理', '字典管理');
  await expect(page).toHaveURL(/\/system\/dict$/);
  const head = page.locator('.ant-table-thead');
  for (const title of ['字典编号', '字典键值', '字典名称', '英文名称', '字典排序', '是否封存', '操作']) await expect(head).toContainText(title);
  await expect(page.locator('.kc-search')).toContainText('字典名称');

  const patentType = page.locator('.ant-table-row', { hasText: 'patent_type' }).first();
  await expect(patentType).toContainText('专利类型');
  await expect(patentType).toContainText('Patent type');
  await patentType.locator('.ant-table-row-expand-icon').click();
  await expect(page.locator('.ant-table-row', { hasText: '实用新型专利' })).toBeVisible();
  await expect(page.locator('.ant-table-row', { hasText: '外观设计专利' })).toContainText('Design patent');
});

test('行政区划 loads the provinces; 北京市 expands to 市辖区, and that to its districts', async ({ page, password }) => {
  await login(page, 'admin', password);
  await openMenu(page, '系统管理', '行政区划');
  await expect(page).toHaveURL(/\/system\/region$/);
  const head = page.locator('.ant-table-thead');
  for (const title of ['区划编号', '区划名称', '区划等级', '排序']) await expect(head).toContainText(title);

  const beijing = page.locator('tr.ant-table-row[data-row-key="11"]');
  await expect(beijing).toContainText('北京市');
  await expect(beijing).toContainText('省份');
  for (const province of ['上海市', '广东省', '新疆维吾尔自治区']) await expect(page.locator('.ant-table-row', { hasText: province })).toHaveCount(1);
  expect(await page.locator('.ant-table-row').count()).toBeGreaterThanOrEqual(31);

  await beijing.locator('.ant-table-row-expand-icon').click();
  const city = page.locator('tr.ant-table-row[data-row-key="1101"]');
  await expect(city).toContainText('市辖区');
  await city.locator('.ant-table-row-expand-icon').click();
  await expect(page.locator('.ant-table-row', { hasText: '东城区' })).toBeVisible();
  await expect(page.locator('.ant-table-row', { hasText: '海淀区' })).toContainText('110108');
});
