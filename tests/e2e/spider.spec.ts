/**
 * The crawler (issue 16 "E2e: configure a task in the UI, run it, view its data"): an administrator adds a
 * crawl task, configures it in the 配置 dialog's form (start URL, pagination, page budget, a list rule with a
 * CSS and an XPath field and their post-processing; a bad start URL refused with the server's message) against a
 * site this spec serves on 127.0.0.1
 * (tests/integration/spider-site.ts: three list pages of three items, a robots.txt forbidding /private/),
 * starts it, waits in the list until it is done, and sees its nine rows in 查看数据, its figures in 任务看板 and
 * its pages in 采集日志. No request leaves 127.0.0.1 (the site counts foreign hosts).
 */
import { startSite, type Site } from '../integration/spider-site.js';
import { button, dialog, expect, formItem, login, openDropdown, test } from './fixtures.js';

let site: Site;

test.beforeAll(async () => {
  site = await startSite();
});
test.afterAll(async () => {
  await site?.close();
});

test('configure a crawl task, run it against a local site, view its data', async ({ page, password }) => {
  test.setTimeout(180_000);
  const tag = `采集-${Date.now().toString(36)}`;
  await login(page, 'admin', password);
  await page.goto('/spider/task');
  await expect(page.getByRole('columnheader', { name: '任务名称' })).toBeVisible({ timeout: 30_000 });

  await button(page, '新增').click();
  const form = dialog(page, '新增');
  await formItem(form, '任务名称').locator('input').fill(tag);
  await button(form, '保存').click();
  await expect(form).toBeHidden();
  const row = page.locator('.ant-table-row', { hasText: tag });
  await expect(row).toContainText('未运行');

  // the 配置 dialog: start URL (a tag), pagination, page budget, one list rule with two fields (CSS and XPath)
  await button(row, '配置').click();
  const cfg = dialog(page, '配置');
  const urls = formItem(cfg, '起始地址');
  const addUrl = async (u: string) => {
    await urls.locator('.ant-select-selector').click();
    await urls.locator('input').fill(u);
    await urls.locator('input').press('Enter');
    await expect(urls.locator('.ant-select-selection-item', { hasText: u })).toBeVisible();
  };
  await addUrl('ftp://127.0.0.1/x');
  await formItem(cfg, '翻页选择器').locator('input').fill('a.next');
  await cfg.getByRole('tab', { name: '采集限制' }).click();
  await formItem(cfg, '最大页数').locator('input').fill('10');
  await cfg.getByRole('tab', { name: '页面规则' }).click();
  await button(cfg, '添加页面规则').click();
  await formItem(cfg, '规则名称').locator('input').fill('list');
  await formItem(cfg, '地址匹配（正则）').locator('input').fill('/list\\?');
  await formItem(cfg, '行选择器（CSS）').locator('input').fill('li.item');
  const fields = formItem(cfg, '字段');
  const cell = (r: number, c: number) => fields.locator('.ant-table-row').nth(r).locator('td').nth(c);
  const choose = async (r: number, label: string) => {
    await cell(r, 5).locator('.ant-select-selector').click();
    await openDropdown(page).locator('.ant-select-item-option', { hasText: label }).click();
    await cell(r, 5).locator('.ant-select-selector').press('Escape');
  };
  await button(fields, '添加').click();
  await cell(0, 1).locator('input').fill('title');
  await cell(0, 2).locator('input').fill('a');
  await choose(0, '去首尾空白');
  await button(fields, '添加').click();
  await cell(1, 1).locator('input').fill('price');
  await cell(1, 3).locator('input').fill('./span[@class="price"]');
  await choose(1, '提取数字');
  // the server refuses the ftp address with its message; the dialog stays open
  await button(cfg, '确定').click();
  await expect(page.getByText('请填写 1 至 50 个以 http:// 或 https:// 开头的起始地址')).toBeVisible();
  await expect(cfg).toBeVisible();
  await cfg.getByRole('tab', { name: '基本设置' }).click();
  await urls.locator('.ant-select-selection-item-remove').click();
  await addUrl(`${site.base}/list?page=1`);
  await button(cfg, '确定').click();
  await expect(cfg).toBeHidden();
  await expect(page.getByText('配置已保存')).toBeVisible();

  await button(row, '启动').click();
  await button(dialog(page, '启动'), '确定').click();
  await expect(page.getByText('任务已启动')).toBeVisible();
  // the crawl runs as a job: load the list again until the task is done
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText('已完成', { timeout: 10_000 });
  }).toPass({ timeout: 90_000 });

  await button(row, '查看数据').click();
  const data = dialog(page, '查看数据');
  const table = data.getByTestId('kc-remote-table');
  await expect(table.getByRole('columnheader', { name: 'title' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'price' })).toBeVisible();
  await expect(table.locator('.ant-table-row')).toHaveCount(9);
  for (let k = 1; k <= 9; k++) await expect(table.locator('.ant-table-row', { hasText: `通知 ${k}` })).toContainText(`120${k}.5`);
  await button(data, '关闭').click();
  await expect(data).toBeHidden();

  await button(row, '任务看板').click();
  const board = dialog(page, '任务看板');
  const figures = board.locator('[data-chart="stat"]');
  await expect(figures).toHaveAttribute('data-series', JSON.stringify([{ title: '进度', value: 100 }, { title: '已采页数', value: 3 }, { title: '数据条数', value: 9 }, { title: '错误数', value: 0 }, { title: '待采页数', value: 0 }]));
  await expect(board.locator('[data-chart="line"]')).toBeVisible();
  await button(board, '关闭').click();

  await button(row, '采集日志').click();
  const log = dialog(page, '采集日志').getByTestId('kc-remote-table');
  await expect(log.locator('.ant-table-row')).toHaveCount(3);
  await expect(log).toContainText(`${site.base}/list?page=3`);
  expect(site.foreign).toBe(0);
  expect(site.hits.get('/list?page=1')).toBe(1);
});
