/**
 * The online editor journey (issue 17 "E2e: open a document in the editor, type, save, see version 2, restore
 * version 1"; DESIGN §8 Documents): a researcher opens an uploaded .docx at /smartdoc/editor?fileId=, types into
 * it with @eigenpal/docx-editor-react, saves with Ctrl+S (version 2, holding the typed text), previews and
 * restores version 1 from the version drawer (version 3, byte for byte version 1's bytes at the same link);
 * meanwhile an administrator opening it sees who holds the lock and gets it read-only. The whole journey runs
 * under the app's Content-Security-Policy without a violation (no font or script from elsewhere).
 */
import JSZip from 'jszip';
import type { Page } from '@playwright/test';
import { button, docx, expect, login, sessionHeaders, test } from './fixtures.js';

const TAG = `e2e${Date.now().toString(36)}`;
const B = '/api/onlyoffice/endpoint';

/** The text of a .docx's main part. */
async function textOf(bytes: Buffer): Promise<string> {
  const xml = await (await JSZip.loadAsync(bytes)).file('word/document.xml')!.async('string');
  return [...xml.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');
}

/** Collects the page's CSP violations (securitypolicyviolation events and console reports). */
async function watchCsp(page: Page): Promise<string[]> {
  const found: string[] = [];
  page.on('console', (m) => {
    if (/Content[- ]Security[- ]Policy/i.test(m.text())) found.push(`console: ${m.text()}`);
  });
  await page.exposeFunction('__kcCspViolation', (s: string) => found.push(`event: ${s}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __kcCspViolation: (s: string) => void }).__kcCspViolation(`${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  return found;
}

test('open a .docx in the editor, type, save as version 2, a second user reads it locked, restore version 1 byte for byte', async ({ page, password, browser }) => {
  test.setTimeout(180_000);
  const violations = await watchCsp(page);
  await login(page, 'kyry', password);
  const headers = await sessionHeaders(page);
  const v1 = await docx([`${TAG} 第一章 项目概况`, '本项目面向粮食仓储。']);
  const up = await page.request.post('/api/blade-resource/oss/endpoint/put-file', {
    headers, multipart: { file: { name: `${TAG} 投标文件.docx`, mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: v1 } },
  });
  expect(up.status()).toBe(200);
  const { attachId, link } = (await up.json()).data as { attachId: string; link: string };

  await page.goto(`/smartdoc/editor?fileId=${attachId}`);
  await expect(page.getByRole('heading', { name: `${TAG} 投标文件.docx` })).toBeVisible();
  await expect(page.getByTestId('editor-version')).toHaveText('版本 1');
  await expect(page.getByText('编辑中', { exact: true })).toBeVisible();
  const paragraph = page.locator('.paged-editor__pages').getByText('本项目面向粮食仓储。');
  await expect(paragraph).toBeVisible({ timeout: 30_000 });

  // type at the end of the second paragraph
  await paragraph.click();
  await page.keyboard.press('End');
  await page.keyboard.type(`新增${TAG}`);
  await expect(page.locator('.paged-editor__pages')).toContainText(`新增${TAG}`);
  await expect(page.getByText('未保存', { exact: true })).toBeVisible();
  await page.keyboard.press('Control+s');
  await expect(page.getByText('保存成功')).toBeVisible();
  await expect(page.getByTestId('editor-version')).toHaveText('版本 2');

  // version 2 holds the typed text, read back through the normal download of the same link
  const v2 = await (await page.request.get(link, { headers })).body();
  expect(await textOf(v2)).toContain(`本项目面向粮食仓储。新增${TAG}`);

  // an administrator opening it meanwhile sees who holds the lock, read-only
  const other = await browser.newContext();
  const adminPage = await other.newPage();
  await login(adminPage, 'admin', password);
  await adminPage.goto(`/smartdoc/editor?fileId=${attachId}`);
  await expect(adminPage.getByTestId('editor-banner')).toContainText('刘研 正在编辑此文档');
  await expect(adminPage.getByText('只读', { exact: true })).toBeVisible();
  await expect(adminPage.getByRole('button', { name: /保\s*存/ })).toBeDisabled();
  await other.close();

  // the version drawer: preview version 1, restore it
  await page.getByRole('button', { name: /历史版本/ }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer.getByRole('row')).toHaveCount(3);
  const row1 = drawer.getByRole('row').filter({ hasText: '版本 1' });
  await button(row1, '预览').click();
  const preview = page.getByTestId('version-preview');
  await expect(preview).toContainText('本项目面向粮食仓储。');
  await expect(preview).not.toContainText(`新增${TAG}`);
  await page.locator('.ant-modal-close').click();
  await button(row1, '恢复').click();
  await button(page.locator('.ant-popconfirm'), '确定').click();
  await expect(page.getByText('已恢复到版本 1')).toBeVisible();
  await expect(page.getByTestId('editor-version')).toHaveText('版本 3');
  await expect(drawer.getByRole('row')).toHaveCount(4);
  await expect(drawer.getByRole('row').filter({ hasText: '版本 3' })).toContainText('恢复自版本 1');

  // version 3 is version 1's bytes, byte for byte, at the same link; the editor shows them again
  const now = await (await page.request.get(link, { headers })).body();
  expect(now.equals(v1)).toBe(true);
  const hist = await (await page.request.get(`${B}/file-history-data?fileId=${attachId}&version=3`, { headers })).body();
  expect(hist.equals(v1)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(page.locator('.paged-editor__pages')).not.toContainText(`新增${TAG}`);
  await expect(page.locator('.paged-editor__pages')).toContainText('本项目面向粮食仓储。');

  await page.waitForLoadState('networkidle');
  expect(violations).toEqual([]);
});
