/**
 * Elements of the shell (spec 000 §2.5, §2.8; issue 18): the sidebar's version number and its drawer; help and the
 * console; the home page's shortcut panel (default and own); the top-menu variant.
 */
import { badged, button, dialog, expect, login, openMenu, sessionHeaders, test } from './fixtures.js';

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

test('the shortcut panel on the home page: an administrator sets the default, a researcher orders and saves their own', async ({ page, password }) => {
  await login(page, 'admin', password);
  const panel = page.getByTestId('menu-panel');
  await expect(panel).toBeVisible();
  await panel.getByTestId('menu-panel-edit').click();
  const editor = dialog(page, '编辑快捷菜单');
  const pick = async (name: string) => {
    await editor.getByTestId('menu-panel-select').click();
    await page.keyboard.type(name);
    await page.locator(`.ant-select-item-option[title="${name}"]`).click();
    await page.keyboard.press('Escape');
  };
  await pick('专利');
  await pick('论文');
  await expect(editor.locator('.ant-list-item')).toHaveText(['专利', '论文']);
  await editor.getByTestId('menu-panel-set-default').click();
  await expect(page.getByText('已设为默认快捷菜单')).toBeVisible();
  await page.getByRole('button', { name: 'user' }).hover();
  await page.getByRole('menuitem', { name: '退出登录' }).click();
  await button(page.locator('.ant-modal-confirm'), '确定').click();

  // the researcher sees the default (marked), each shortcut opening its screen
  await login(page, 'kyry', password);
  await expect(panel).toHaveAttribute('data-default', 'true');
  await expect(panel.getByTestId('menu-panel-item')).toHaveText(['专利', '论文']);
  await panel.getByTestId('menu-panel-item').filter({ hasText: '论文' }).click();
  await expect(page).toHaveURL(/\/basic\/thesis$/);
  await page.goto('/wel/index');
  // their own order, saved and kept over a reload; no longer the default
  await panel.getByTestId('menu-panel-edit').click();
  await editor.getByRole('button', { name: '下移' }).first().click();
  await expect(editor.locator('.ant-list-item')).toHaveText(['论文', '专利']);
  await editor.getByTestId('menu-panel-save').click();
  await expect(page.getByText('快捷菜单已保存')).toBeVisible();
  await expect(panel).toHaveAttribute('data-default', 'false');
  await page.reload();
  await expect(panel.getByTestId('menu-panel-item')).toHaveText(['论文', '专利']);
  await expect(panel.getByText('默认', { exact: true })).toBeHidden();
});

test('the top-menu variant: chosen in the theme picker, the menu on top with 首页 and the top menus, kept over a reload', async ({ page, password }) => {
  await login(page, 'kyry', password);
  await page.getByRole('button', { name: '主题' }).click();
  await page.getByRole('menuitem', { name: '顶部菜单' }).click();
  await page.locator('.kc-app-tabs').getByRole('button', { name: badged('科技成果') }).click();
  const bar = page.getByTestId('kc-topmenu');
  await expect(bar).toBeVisible();
  await expect(page.locator('.kc-sider')).toHaveCount(0);
  await expect(bar.getByRole('menuitem').first()).toHaveText('首页');
  await bar.getByRole('menuitem', { name: badged('论文') }).click();
  await expect(page).toHaveURL(/\/basic\/thesis$/);
  await expect(bar.locator('.ant-menu-item-selected')).toHaveText(badged('论文'));
  await page.reload();
  await expect(page.getByTestId('kc-topmenu')).toBeVisible();
  await expect(page.locator('.kc-sider')).toHaveCount(0);
  // the top menu 科研管理 drops down the tabs it holds; one opens its first screen
  await page.getByTestId('kc-topmenu').getByText('科研管理').hover();
  await page.locator('.ant-menu-submenu-popup').getByRole('menuitem', { name: badged('科技成果') }).click();
  await expect(page).toHaveURL(/\/basic\/patent$/);
  await expect(page.getByTestId('kc-topmenu').getByText('系统管理')).toHaveCount(0); // none of its tabs is the researcher's
  await page.getByTestId('kc-topmenu').getByRole('menuitem', { name: '首页' }).click();
  await expect(page).toHaveURL(/\/wel\/index$/);
  // back to the sidebar
  await page.getByRole('button', { name: '主题' }).click();
  await page.getByRole('menuitem', { name: '侧边菜单' }).click();
  await openMenu(page, '科技成果', '专利');
  await expect(page.locator('.kc-sider')).toBeVisible();
  await expect(page.getByTestId('kc-topmenu')).toHaveCount(0);
});
