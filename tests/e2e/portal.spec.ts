/**
 * The content portal (issue 14): research management writes an article in the content editor (channel, title,
 * rich text), submits it for publishing, approves and releases it from the list; searchByEs finds it, and so does
 * the 全文检索 screen; the public site opens it without logging in (a fresh browser context, no session), takes a
 * visitor's comment (waiting for moderation), and its search box finds it.
 * The channel and the site are set up by an administrator through the API (password grant).
 */
import { button, chooseTreeNode, dialog, expect, formItem, login, sessionHeaders, test } from './fixtures.js';

test('write, examine, release an article, find it by search, open it publicly without login', async ({ page, password, browser, baseURL }) => {
  test.setTimeout(240_000); // sized for a loaded machine: a login, three workflow steps, a search and the public pages
  const tag = `pe${Date.now().toString(36)}`;
  const basic = 'Basic ' + Buffer.from('saber:saber_secret').toString('base64');
  const token = await page.request.post('/api/blade-auth/oauth/token', {
    headers: { Authorization: basic, 'Tenant-Id': '000000' },
    form: { grant_type: 'password', username: 'admin', password },
  });
  expect(token.status()).toBe(200);
  const admin = { Authorization: basic, 'Tenant-Id': '000000', 'Blade-Auth': `bearer ${(await token.json()).access_token}` };
  const ch = await page.request.post('/api/portal/channel/submit', { headers: admin, data: { title: `${tag} 科技动态`, path: tag } });
  expect(ch.status()).toBe(200);
  const channelId = (await ch.json()).data.id as string;
  const site = await page.request.post('/api/portal/site/submit', { headers: admin, data: { title: `${tag} 粮储门户`, channelIds: [channelId] } });
  expect(site.status()).toBe(200);
  const siteId = (await site.json()).data.id as string;

  await login(page, 'kygl', password);
  await page.goto('/portal/content');
  await expect(page.getByRole('columnheader', { name: '标题' })).toBeVisible({ timeout: 30_000 });
  await button(page, '新增').click();
  const form = dialog(page, '新增');
  await chooseTreeNode(formItem(form, '所属栏目'), `${tag} 科技动态`);
  await formItem(form, '标题').locator('input').first().fill(`${tag} 低温储粮技术在浅圆仓的应用`);
  await formItem(form, '正文').locator('[contenteditable=true]').fill('采用谷冷机降温，仓温保持在十五度以下。');
  await button(form, '保存').click();
  await expect(form).toBeHidden();
  const row = page.locator('.ant-table-row', { hasText: tag });
  await expect(row).toContainText('草稿');

  await button(row, '提交发布').click();
  await button(dialog(page, '提交发布'), '确定').click();
  await expect(row).toContainText('待审核');
  await button(row, '审核通过').click();
  await button(dialog(page, '审核通过'), '确定').click();
  await expect(row).toContainText('待发布');
  await button(row, '发布').click();
  await button(dialog(page, '发布'), '确定').click();
  await expect(row).toContainText('已发布');

  const kygl = await sessionHeaders(page);
  const found = await page.request.get(`/api/portal/content/searchByEs?keyword=${encodeURIComponent(`低温储粮 ${tag}`)}`, { headers: kygl });
  const hits = (await found.json()).data.records as Array<{ id: string; title: string }>;
  expect(hits.map((h) => h.title)).toEqual([`${tag} 低温储粮技术在浅圆仓的应用`]);
  // the back office's search screen (全文检索) finds it too, the query's words highlighted
  await page.goto('/es/search');
  const box = page.getByPlaceholder('请输入关键词，多个词以空格分隔');
  await expect(box).toBeVisible({ timeout: 30_000 });
  await box.fill(`低温储粮 ${tag}`);
  await box.press('Enter');
  const hit = page.locator('.ant-list-item', { hasText: `${tag} 低温储粮技术在浅圆仓的应用` });
  await expect(hit).toBeVisible({ timeout: 30_000 });
  await expect(hit.locator('.kc-search-highlight em').first()).toBeVisible();

  const anonymous = await browser.newContext({ baseURL });
  const pub = await anonymous.newPage();
  await pub.goto(`/site/${siteId}`);
  await expect(pub.getByRole('heading', { name: `${tag} 粮储门户` })).toBeVisible();
  await pub.getByRole('link', { name: `${tag} 低温储粮技术在浅圆仓的应用` }).click();
  await expect(pub.getByRole('heading', { name: `${tag} 低温储粮技术在浅圆仓的应用` })).toBeVisible();
  await expect(pub.getByText('采用谷冷机降温')).toBeVisible();
  // a visitor's comment waits for moderation
  await pub.locator('input[name=nickname]').fill('粮友');
  await pub.locator('textarea[name=comment]').fill(`${tag} 很实用`);
  await pub.getByRole('button', { name: '提交' }).click();
  await expect(pub.getByText('评论已提交，审核通过后显示')).toBeVisible();
  await expect(pub.getByText(`${tag} 很实用`)).toHaveCount(0);
  await pub.locator('input[name=q]').fill(`浅圆仓 ${tag}`);
  await pub.getByRole('button', { name: '搜索' }).click();
  await expect(pub.locator('ul.list a', { hasText: `${tag} 低温储粮技术在浅圆仓的应用` })).toBeVisible();
  await anonymous.close();
});
