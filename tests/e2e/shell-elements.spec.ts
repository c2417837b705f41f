/**
 * Elements of the shell (spec 000 §2.5, §2.8; issue 18): the sidebar's version number and its drawer.
 */
import { button, expect, login, openMenu, sessionHeaders, test } from './fixtures.js';

test('an administrator releases a version; a user sees its number in the sidebar and opens it', async ({ page, password }) => {
  await login(page, 'admin', password);
  const headers = await sessionHeaders(page);
  const son = Math.floor(Math.random() * 999) + 1;
  const stage = Date.now() % 1000;
  const submit = await page.request.post('/api/basic/version/submit', {
    headers,
    data: { product: 'kechuang', mainVersion: 9, sonVersion: son, stageVersion: stage, time: '2026-11-20', description: '主题与屏幕缩放\n菜单搜索支持拼音首字母' },
  });
  expect(submit.status()).toBe(200);
  const saved = (await submit.json()).data as { id: string };
  const start = await page.request.post(`/api/basic/version/startVersion?id=${saved.id}`, { headers });
  expect(start.status()).toBe(200);
  await page.getByRole('button', { name: 'user' }).hover();
  await page.getByRole('menuitem', { name: '退出登录' }).click();
  await button(page.locator('.ant-modal-confirm'), '确定').click();

  await login(page, 'kygl', password);
  await openMenu(page, '科技成果', '专利');
  const number = page.locator('.kc-sider .kc-version');
  await expect(number).toHaveText(`V9.${son}.${stage}`);
  await number.click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer).toContainText('版本信息');
  await expect(drawer).toContainText('已更新到最新版本');
  await expect(drawer).toContainText(`版本 V9.${son}.${stage} [2026-11-20]`);
  await expect(drawer).toContainText('菜单搜索支持拼音首字母');
  await expect(drawer).toContainText('Ctrl+F5');
});

test('help: the top bar opens the help centre at the guide, it searches; the patent form shows its tip; the console', async ({ page, password }) => {
  await login(page, 'kygl', password);
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: '帮助中心' }).click();
  const help = await popup;
  await expect(help).toHaveURL(/\/helpCenter\?code=003$/);
  await expect(help.getByText('科技成果登记指南')).toBeVisible();
  await expect(help.getByText(/保存后成果为“草稿”/)).toBeVisible();
  await help.getByRole('searchbox', { name: '搜索帮助' }).fill('ISBN');
  await expect(help.getByText('著作登记说明')).toBeVisible();
  await expect(help.getByText('科技成果登记指南')).toBeHidden();
  await help.close();

  await openMenu(page, '科技成果', '专利');
  await button(page, '新增').click();
  await expect(page.locator('.ant-modal .kc-help-tip')).toContainText('专利登记说明');
  // closed with its ×: Escape reaches the dialog only when the focus is inside it
  await page.locator('.ant-modal-close').click();
  await expect(page.locator('.ant-modal-wrap')).toBeHidden();

  await page.getByRole('button', { name: 'user' }).hover();
  await page.getByRole('menuitem', { name: '控制台' }).click();
  await expect(page).toHaveURL(/\/wel\/dashboard$/);
  await expect(page.locator('.kc-console')).toContainText('我的数字');
  await expect(page.locator('.kc-console')).toContainText('我登记的成果');
  await expect(page.locator('.kc-tagbar')).toContainText('控制台');
});
