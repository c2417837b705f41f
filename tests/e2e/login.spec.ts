/**
 * Logging in (spec 000 §2.6, §6, §7): the login page with tenant, account, password and captcha; a wrong
 * password is refused with the server's words; one role goes straight to the home page, several to role
 * selection first.
 */
import { button, expect, nextCaptcha, openLogin, submitLogin, test } from './fixtures.js';

test('a wrong password is refused on the page, the right one logs in (one role: straight to the home page)', async ({ page, password }) => {
  const captcha = await openLogin(page);
  await expect(page.getByText('科创管理平台')).toBeVisible();
  await expect(page.getByLabel('租户编号')).toHaveValue('000000');

  // a failed attempt shows the server's message and loads a new captcha (each is single use)
  const fresh = nextCaptcha(page);
  await submitLogin(page, 'kygl', password + 'x', captcha);
  await expect(page.getByRole('alert')).toHaveText('用户名或密码错误');
  await expect(page).toHaveURL(/\/login$/);
  const second = await fresh;

  await submitLogin(page, 'kygl', password, second);
  await expect(page).toHaveURL(/\/wel\/index$/);
  await expect(page.getByText('欢迎，李科')).toBeVisible();
  await expect(page.getByText('当前角色：科研管理人员')).toBeVisible();
});

test('the login form asks for what is missing', async ({ page }) => {
  await openLogin(page);
  await button(page, '登录').click();
  await expect(page.getByText('请输入账号')).toBeVisible();
  await expect(page.getByText('请输入密码')).toBeVisible();
  await expect(page.getByText('请输入验证码')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('a user with two roles chooses one on the role page, then sees the home page', async ({ page, password }) => {
  const captcha = await openLogin(page);
  await submitLogin(page, 'duo', password, captcha);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByText('请选择要使用的角色')).toBeVisible();
  await expect(page.locator('.ant-list-item')).toHaveCount(2);
  await expect(page.locator('.ant-list-item', { hasText: '科研人员' })).toBeVisible();
  await expect(page.locator('.ant-list-item', { hasText: '项目负责人' })).toBeVisible();

  await page.locator('.ant-list-item', { hasText: '项目负责人' }).getByRole('button').click();
  await expect(page).toHaveURL(/\/wel\/index$/);
  await expect(page.getByText('欢迎，赵多')).toBeVisible();
  await expect(page.getByText('当前角色：项目负责人')).toBeVisible();
  await expect(page.locator('.kc-header').getByText('项目负责人')).toBeVisible();
});

test('without a session a page leads to /login; after logging in it opens, and a reload keeps the session', async ({ page, password }) => {
  const captcha = nextCaptcha(page);
  await page.goto('/basic/patent');
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, 'kygl', password, await captcha);
  // the page that was asked for, not the home page (issue 18 defect 8)
  await expect(page).toHaveURL(/\/basic\/patent$/);
  await page.reload();
  await expect(page).toHaveURL(/\/basic\/patent$/);
  await page.goto('/wel/index');
  await expect(page.getByText('欢迎，李科')).toBeVisible();
});
