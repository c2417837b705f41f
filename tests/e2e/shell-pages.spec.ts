/**
 * Pages of the shell (spec 000 §2.2, §2.3; issue 18): the public diagnostic pages /userAgent and /test/index,
 * the public help centre, /previewFile for each kind of file (docx, pdf, image, text) under the real CSP, and
 * the two dictionary layouts /dict-horizontal/index and /dict-vertical/index over the dictionary API.
 *
 * With KC_SHOTS=<folder> the last journey also photographs these screens at 1280 and 1920 px in zh and en.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { button, dialog, docx, expect, fillPatent, formItem, login, openMenu, sessionHeaders, test, tinyPdf } from './fixtures.js';

const TAG = `sp${Date.now().toString(36)}`;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** Uploads a file as the signed-in user of `page`; answers its link (and remembers its attachment id in `ids`). */
async function upload(page: Page, name: string, mimeType: string, buffer: Buffer): Promise<string> {
  const res = await page.request.post('/api/blade-resource/oss/endpoint/put-file', { headers: await sessionHeaders(page), multipart: { file: { name, mimeType, buffer } } });
  expect(res.status(), await res.text()).toBe(200);
  const data = ((await res.json()) as { data: { link: string; attachId: string } }).data;
  ids.set(data.link, data.attachId);
  return data.link;
}
const ids = new Map<string, string>();

/** Collects the page's CSP violations and page errors. */
function watch(page: Page): string[] {
  const faults: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) faults.push(m.text());
  });
  page.on('pageerror', (e) => faults.push(e.message));
  return faults;
}

test('public pages without signing in: /userAgent, /test/index, the help centre; a file asks for the login', async ({ page }) => {
  const faults = watch(page);
  await page.goto('/userAgent');
  await expect(page.getByText('浏览器信息')).toBeVisible();
  const ua = await page.evaluate(() => navigator.userAgent);
  await expect(page.locator('.kc-diag')).toContainText(ua);
  await expect(page.locator('.kc-diag')).toContainText(await page.evaluate(() => `${window.innerWidth} × ${window.innerHeight}`));
  await expect(page).toHaveURL(/\/userAgent$/); // no redirect to the login

  await page.goto('/test/index');
  await expect(page.getByText('系统自检')).toBeVisible();
  await expect(page.getByText(/接口正常 · \d+ ms/)).toBeVisible();
  await expect(page.getByText('语言 · 主题 · 缩放')).toBeVisible();
  await expect(page).toHaveURL(/\/test\/index$/);

  await page.goto('/helpCenter?code=basic_patent');
  await expect(page).toHaveURL(/\/helpCenter\?code=basic_patent$/);
  await expect(page.getByText('专利登记说明')).toBeVisible();
  await expect(page.getByText(/授权号和授权公告日/)).toBeVisible(); // the article of ?code= is open
  await expect(page.getByText('科技成果登记指南')).toBeVisible();
  await expect(page.locator('.kc-help-tip')).toContainText('找不到答案？'); // the website tip, read anonymously
  await page.getByRole('searchbox', { name: '搜索帮助' }).fill('ISBN');
  await expect(page.getByText('著作登记说明')).toBeVisible();
  await expect(page.getByText('专利登记说明')).toBeHidden();

  await page.goto(`/previewFile?url=${encodeURIComponent('/api/blade-resource/oss/endpoint/file/upload/20261125/none.pdf')}`);
  await expect(page.getByText('请登录后查看该文件')).toBeVisible();
  expect(faults).toEqual([]);
});

test('/previewFile shows a docx, a pdf, an image and a text file under the CSP; another site is refused', async ({ page, password }) => {
  const faults = watch(page);
  await login(page, 'kyry', password);
  const links = {
    docx: await upload(page, `${TAG} 可行性研究报告.docx`, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', await docx([`${TAG} 第一章 项目概况`, '本项目面向粮食仓储的智能通风控制。'])),
    pdf: await upload(page, `${TAG} 专利证书.pdf`, 'application/pdf', tinyPdf()),
    png: await upload(page, `${TAG} 证书扫描件.png`, 'image/png', PNG),
    txt: await upload(page, `${TAG} 说明.txt`, 'text/plain', Buffer.from('第一行：粮情监测\n第二行：低温储粮\n', 'utf8')),
  };
  const open = (link: string) => page.goto(`/previewFile?url=${encodeURIComponent(link)}`);

  await open(links.docx);
  await expect(page.getByRole('heading', { name: `${TAG} 可行性研究报告.docx` })).toBeVisible();
  await expect(page.getByTestId('document-body')).toContainText(`${TAG} 第一章 项目概况`);
  await expect(page.getByTestId('document-body')).toContainText('本项目面向粮食仓储的智能通风控制。');
  const saved = page.waitForEvent('download');
  await button(page, '下载').click();
  expect((await saved).suggestedFilename()).toBe(`${TAG} 可行性研究报告.docx`);

  await open(links.pdf);
  const frame = page.getByTestId('pdf-frame');
  await expect(frame).toBeVisible();
  expect(await frame.getAttribute('src')).toMatch(/^blob:/);
  // the frame loaded the blob (a CSP refusal of frame-src would be logged and fail `faults` below)
  await expect.poll(() => page.frames().some((f) => f.url().startsWith('blob:'))).toBe(true);

  await open(links.png);
  const img = page.getByRole('img', { name: `${TAG} 证书扫描件.png` });
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((e: HTMLImageElement) => e.naturalWidth)).toBe(1);

  await open(links.txt);
  await expect(page.getByTestId('text-body')).toHaveText('第一行：粮情监测\n第二行：低温储粮\n');

  // by the attachment's id
  await page.goto(`/previewFile?id=${ids.get(links.txt)}`);
  await expect(page.getByRole('heading', { name: `${TAG} 说明.txt` })).toBeVisible();
  await expect(page.getByTestId('text-body')).toHaveText('第一行：粮情监测\n第二行：低温储粮\n');

  await page.goto(`/previewFile?url=${encodeURIComponent('https://example.com/x.pdf')}`);
  await expect(page.getByText('只能预览本站的文件')).toBeVisible();
  await open(`${links.pdf}x`);
  await expect(page.locator('.ant-result')).toBeVisible();
  expect(faults).toEqual([]);
});

test("a record's attachment opens in /previewFile from its detail (预览, a new window)", async ({ page, password }) => {
  const faults = watch(page);
  await login(page, 'kygl', password);
  await openMenu(page, '科技成果', '专利');
  await button(page, '新增').click();
  const form = dialog(page, '新增');
  const name = `${TAG} 粮仓通风预览专利`;
  await fillPatent(page, form, name);
  await button(form, '保存').click();
  await expect(page.getByText('新增成功')).toBeVisible();
  const row = page.locator('.ant-table-row', { hasText: name });
  await row.getByRole('button', { name: /查\s*看/ }).click();
  const detail = dialog(page, '查看');
  const files = formItem(detail, '附件');
  await expect(files).toContainText('专利证书.pdf');
  const popup = page.waitForEvent('popup');
  await files.getByRole('link', { name: '预览' }).click();
  const preview = await popup;
  const previewFaults = watch(preview);
  await expect(preview).toHaveURL(/\/previewFile\?url=/);
  await expect(preview.getByRole('heading', { name: '专利证书.pdf' })).toBeVisible();
  await expect(preview.getByTestId('pdf-frame')).toBeVisible();
  await expect.poll(() => preview.frames().some((f) => f.url().startsWith('blob:'))).toBe(true);
  expect([...faults, ...previewFaults]).toEqual([]);
});

test('dictionary layouts: the tree beside or above the entries; an entry added under the chosen dictionary', async ({ page, password }) => {
  await login(page, 'admin', password);
  const headers = await sessionHeaders(page);
  const made = await page.request.post('/api/blade-system/dict/submit', { headers, data: { code: TAG, dictKey: '-1', dictValue: `${TAG} 仓型`, dictValueEn: `${TAG} Granary type`, sort: 99, isSealed: 0 } });
  expect(made.status()).toBe(200);
  const parentId = ((await made.json()) as { data: { id: string } }).data.id;
  const child = await page.request.post('/api/blade-system/dict/submitChild', { headers, data: { parentId, dictKey: '1', dictValue: '平房仓', dictValueEn: 'Warehouse', sort: 1, isSealed: 0 } });
  expect(child.status()).toBe(200);

  await page.goto('/dict-horizontal/index');
  await expect(page.locator('.kc-tagbar')).toContainText('字典管理（左右布局）');
  await expect(page.getByText('请在左侧选择字典')).toBeVisible();
  const tree = page.locator('.kc-tree-list-tree');
  await tree.getByPlaceholder('输入关键字过滤').fill(TAG);
  await tree.getByText(`${TAG} 仓型`).click();
  await expect(page.getByText(`「${TAG} 仓型」的字典项`)).toBeVisible();
  const items = page.locator('.kc-tree-list-items');
  await expect(items.getByRole('cell', { name: '平房仓' })).toBeVisible();
  // beside: the tree's box ends left of the list's
  const [t1, l1] = [await tree.boundingBox(), await items.boundingBox()];
  expect(t1!.x + t1!.width).toBeLessThanOrEqual(l1!.x);

  await button(items, '新增').click();
  const form = dialog(page, '新增');
  await expect(formItem(form, '字典编号').locator('input')).toHaveValue(TAG);
  await formItem(form, '字典键值').locator('input').fill('2');
  await formItem(form, '字典名称').locator('input').fill('浅圆仓');
  await formItem(form, '字典排序').locator('input').fill('2');
  await button(form, '保存').click();
  await expect(page.getByText('新增成功')).toBeVisible();
  await expect(items.getByRole('cell', { name: '浅圆仓' })).toBeVisible();
  const entries = await page.request.get(`/api/blade-system/dict/dictionary?code=${TAG}`, { headers });
  expect(((await entries.json()) as { data: Array<{ dictValue: string; parentId: string }> }).data.map((e) => [e.dictValue, e.parentId])).toEqual([
    ['平房仓', parentId],
    ['浅圆仓', parentId],
  ]);

  await page.goto('/dict-vertical/index');
  await expect(page.getByText('请在上方选择字典')).toBeVisible();
  await tree.getByPlaceholder('输入关键字过滤').fill(TAG);
  await tree.getByText(`${TAG} 仓型`).click();
  await expect(items.getByRole('cell', { name: '浅圆仓' })).toBeVisible();
  // above: the tree's box ends above the list's
  const [t2, l2] = [await tree.boundingBox(), await items.boundingBox()];
  expect(t2!.y + t2!.height).toBeLessThanOrEqual(l2!.y);

  // a website tip where a page schema asks for one: the console's (websiteTip wel_dashboard)
  await page.goto('/wel/dashboard');
  await expect(page.locator('.kc-console .kc-help-tip')).toContainText('控制台说明');
  await expect(page.locator('.kc-console .kc-help-tip')).toContainText('我的待审核');
});

test('screenshots of these screens at 1280 and 1920 px, zh and en (KC_SHOTS)', async ({ page, password }) => {
  const dir = process.env.KC_SHOTS;
  test.skip(!dir, 'set KC_SHOTS to a folder to take them');
  test.setTimeout(300_000);
  fs.mkdirSync(dir!, { recursive: true });
  await login(page, 'admin', password);
  const link = await upload(page, `${TAG} 可行性研究报告.docx`, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', await docx(['第一章 项目概况', '本项目面向粮食仓储的智能通风控制。']));
  for (const lang of ['zh', 'en'] as const) {
    await page.evaluate((l) => {
      const s = JSON.parse(localStorage.getItem('kc-session') ?? '{}');
      localStorage.setItem('kc-session', JSON.stringify({ ...s, lang: l }));
    }, lang);
    for (const width of [1280, 1920]) {
      await page.setViewportSize({ width, height: width === 1280 ? 800 : 1080 });
      for (const [name, url] of [
        ['dict-horizontal', '/dict-horizontal/index'],
        ['dict-vertical', '/dict-vertical/index'],
        ['preview-docx', `/previewFile?url=${encodeURIComponent(link)}`],
        ['help-center', '/helpCenter?code=003'],
        ['user-agent', '/userAgent'],
        ['test-index', '/test/index'],
      ] as const) {
        await page.goto(url);
        if (name.startsWith('dict')) {
          await page.locator('.kc-tree-list-tree .ant-tree-title').first().click();
          await page.locator('.kc-tree-list-items .ant-table-row').first().waitFor();
        }
        if (name === 'preview-docx') await expect(page.getByTestId('document-body')).toContainText('第一章 项目概况');
        await page.waitForTimeout(600);
        await page.screenshot({ path: path.join(dir!, `${name}-${lang}-${width}.png`) });
      }
    }
  }
});
