/**
 * The bidding journey (issue 17; spec 002 §2 smart-document screens): a researcher's bidding project with its
 * tender document (a real .docx with chapters and a scoring table) is found under 我的项目, analysed on 项目目录
 * (chapters and scoring items appear), its chapter documents are created, 文件目录 lists them with 编辑 links to
 * the online editor, and 下载合并标书 downloads one .docx holding every chapter's heading in catalogue order.
 */
import JSZip from 'jszip';
import { button, expect, login, openMenu, sessionHeaders, test } from './fixtures.js';
import { tenderDocument } from '../integration/smartdoc-fixtures.js';

const TAG = `e2e${Date.now().toString(36)}`;
const B = '/api/smartdoc/biddingbaseinfo';

test('a bidding project: my projects, the analysed catalogue, chapter documents with editor links, the merged bid', async ({ page, password }) => {
  test.setTimeout(180_000);
  await login(page, 'kyry', password); // a researcher leads this bid (a project manager meets the onboarding dialog first)
  const headers = await sessionHeaders(page);
  const userId = await page.evaluate(() => (JSON.parse(localStorage.getItem('kc-session') ?? '{}') as { user?: { userId?: string } }).user?.userId);
  expect(userId).toBeTruthy();
  const up = await page.request.post('/api/blade-resource/oss/endpoint/put-file', {
    headers, multipart: { file: { name: `${TAG} 招标文件.docx`, mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: await tenderDocument(TAG) } },
  });
  expect(up.status()).toBe(200);
  const tender = (await up.json()).data as { name: string; link: string; originalName: string };
  const name = `${TAG} 华北粮库智能化升级改造项目`;
  const saved = await page.request.post(`${B}/submit`, { headers, data: { projectName: name, leaderId: userId, tenderFile: [tender] } });
  expect(saved.status(), await saved.text()).toBe(200);

  // 投标项目: the switch's 我的项目 lists the projects the user leads
  await openMenu(page, '智能标书', '投标项目');
  await page.locator('.kc-list-scope').getByText('我的项目').click();
  await expect(page.getByRole('cell', { name })).toBeVisible();

  // 项目目录: analyse the tender document, then create the chapter documents
  await page.locator('.kc-sider').getByRole('menuitem', { name: '项目目录' }).click();
  await page.getByRole('combobox', { name: '投标项目' }).click();
  await page.getByTitle(name).click();
  await button(page, '解析招标文件').click();
  await expect(page.getByRole('cell', { name: '第三章 评标办法' })).toBeVisible();
  await expect(page.getByRole('cell', { name: '技术方案' })).toBeVisible();
  await expect(page.getByText('评分项').first()).toBeVisible();
  await button(page, '生成章节文档').click();
  await expect(button(page, '生成章节文档')).toBeEnabled();

  // 文件目录: each chapter document opens the online editor by its file id
  await page.locator('.kc-sider').getByRole('menuitem', { name: '文件目录' }).click();
  await page.getByRole('combobox', { name: '投标项目' }).click();
  await page.getByTitle(name).click();
  const rows = page.locator('.kc-bid-files tbody tr');
  await expect(rows).toHaveCount(8); // 4 chapters and their 4 numbered sections
  const edit = rows.filter({ hasText: '第一章 招标公告' }).getByRole('link', { name: '编辑' });
  await expect(edit).toHaveAttribute('href', /^\/smartdoc\/editor\?fileId=\d+$/);

  // 项目目录 again: the merged bid holds each chapter's heading in catalogue order
  await page.locator('.kc-sider').getByRole('menuitem', { name: '项目目录' }).click();
  await page.getByRole('combobox', { name: '投标项目' }).click();
  await page.getByTitle(name).click();
  const [download] = await Promise.all([page.waitForEvent('download'), button(page, '下载合并标书').click()]);
  expect(download.suggestedFilename()).toBe(`${name}.docx`);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  const xml = await (await JSZip.loadAsync(Buffer.concat(chunks))).file('word/document.xml')!.async('string');
  const text = [...xml.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('\n');
  const order = ['第一章 招标公告', '第二章 投标人须知', '第三章 评标办法', '第四章 投标文件格式'].map((t) => text.indexOf(t));
  expect(order.every((i) => i >= 0)).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);
});
