/**
 * The content portal (issue 14): research management writes an article in the content editor (channel, title,
 * rich text), submits it for publishing, approves and releases it from the list; searchByEs finds it, and so does
 * the 全文检索 screen; the public site opens it without logging in (a fresh browser context, no session), takes a
 * visitor's comment (waiting for moderation), and its search box finds it.
 * The channel and the site are set up by an administrator through the API (password grant).
 * A content model is designed in the form designer (its list's 设计: one 单行文本 field titled 期刊ISSN, saved
 * back to the model) and a channel carrying it gives the content editor that field, stored as an attribute.
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

test('a content model designed in the form designer gives the content editor its field', async ({ page, password }) => {
  test.setTimeout(180_000);
  const tag = `pm${Date.now().toString(36)}`;
  await login(page, 'admin', password);
  const admin = await sessionHeaders(page);
  const m = await page.request.post('/api/portal/model/submit', { headers: admin, data: { name: `${tag} 期刊模型`, code: 'journal' } });
  expect(m.status()).toBe(200);
  const modelId = (await m.json()).data.id as string;
  const ch = await page.request.post('/api/portal/channel/submit', { headers: admin, data: { title: `${tag} 期刊论文`, path: tag, modelIds: [modelId] } });
  expect(ch.status()).toBe(200);

  // 内容模型 → 设计: the designer on the model's (empty) field design
  await page.goto('/portal/model');
  const row = page.locator('.ant-table-row', { hasText: `${tag} 期刊模型` });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.getByRole('link', { name: '设计' }).click();
  await expect(page.locator('.kc-dz-title')).toContainText(`表单设计 · 内容模型 · ${tag} 期刊模型`, { timeout: 60_000 });
  const canvas = page.locator('.dn-viewport');
  await expect(canvas).toContainText('从左侧点击或拖动组件到这里');
  await page.locator('[data-palette-key="input"]').click();
  // the new field is on the canvas and selected: its properties are the settings form's
  await expect(canvas).toContainText('单行文本');
  await expect(page.getByLabel('标题', { exact: true })).toHaveValue('单行文本');
  await page.getByLabel('标题', { exact: true }).fill('期刊ISSN');
  await expect(canvas).toContainText('期刊ISSN');
  const toolbar = page.locator('.kc-dz-toolbar');
  await expect(button(toolbar, '发布')).toHaveCount(0);
  await button(toolbar, '保存').click();
  await expect(page.getByText('保存成功', { exact: true })).toBeVisible();
  const stored = (await (await page.request.get(`/api/portal/model/detail?id=${modelId}`, { headers: admin })).json()).data;
  const designed = Object.entries(stored.form.properties as Record<string, { title?: string; 'x-component'?: string }>);
  expect(designed.map(([, f]) => [f.title, f['x-component']])).toEqual([['期刊ISSN', 'Input']]);
  const attr = designed[0][0];

  // the content editor of a channel carrying the model asks for 期刊ISSN and stores it as the content's attribute
  await page.goto('/portal/content');
  await expect(page.getByRole('columnheader', { name: '标题' })).toBeVisible({ timeout: 30_000 });
  await button(page, '新增').click();
  const form = dialog(page, '新增');
  await chooseTreeNode(formItem(form, '所属栏目'), `${tag} 期刊论文`);
  await expect(formItem(form, '期刊ISSN')).toBeVisible();
  await formItem(form, '期刊ISSN').locator('input').fill('1007-2640');
  await formItem(form, '标题').locator('input').first().fill(`${tag} 储粮期刊论文`);
  await formItem(form, '正文').locator('[contenteditable=true]').fill('期刊论文摘要。');
  await button(form, '保存').click();
  await expect(form).toBeHidden();
  const list = (await (await page.request.get(`/api/portal/content/list?title=${encodeURIComponent(tag)}`, { headers: admin })).json()).data.records as Array<{ id: string }>;
  expect(list).toHaveLength(1);
  const content = (await (await page.request.get(`/api/portal/content/detail?id=${list[0].id}`, { headers: admin })).json()).data;
  expect(content.attrs).toEqual(expect.arrayContaining([expect.objectContaining({ attr, val: '1007-2640' })]));
});
