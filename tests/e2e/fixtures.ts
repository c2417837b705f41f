/**
 * What the journeys share: the `test` with the server's address (from global-setup.ts) and the generated demo
 * password (`<DATA_DIR>/initial-password`), logging in through the login page as a person does, and finders
 * for antd / Formily controls by what a person sees (labels, button texts).
 */
import fs from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import { test as base, expect, type Locator, type Page } from '@playwright/test';

export { expect };

function dataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run through `npm run test:e2e` (global-setup.ts starts the server)');
  return dir;
}

// Playwright reads a fixture's dependencies from its first parameter, so fixtures without any take `{}`
/* eslint-disable no-empty-pattern */
export const test = base.extend<{ password: string }>({
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
  page: async ({ page }, use) => {
    await pinClientBuild(page);
    await use(page);
  },
  password: async ({}, use) => {
    await use(fs.readFileSync(path.join(dataDir(), 'initial-password'), 'utf8').trim());
  },
});
/* eslint-enable no-empty-pattern */

/**
 * Keeps the pages on the client build the run started with. The server lists dist/client's files when it starts
 * and answers index.html for any other path (src/server/app.ts), so when another process rebuilds the client
 * during a run (people work on this repository concurrently) the server's new index.html names assets it
 * then serves as HTML, the old ones are gone (404), and every page is blank. With E2E_CLIENT_SNAPSHOT
 * (global-setup.ts copies the build there at the start), documents still come from the server (status, headers
 * such as the CSP) but with the snapshot's index.html as body (or, while a build has removed index.html, the
 * snapshot's alone), and an asset the server no longer has (404, or index.html in its place) comes from the
 * snapshot. Without
 * a concurrent build this changes nothing: the bodies are the same.
 */
async function pinClientBuild(page: Page): Promise<void> {
  const dir = process.env.E2E_CLIENT_SNAPSHOT;
  if (!dir) return;
  const indexHtml = fs.readFileSync(path.join(dir, 'index.html'));
  await page.route(
    // our server's pages only (another origin, such as the OpenID provider of accounts.spec.ts, is left alone)
    (url) => url.origin === new URL(process.env.E2E_BASE_URL ?? 'http://127.0.0.1').origin && !url.pathname.startsWith('/api/'),
    async (route) => {
      const req = route.request();
      const pathname = new URL(req.url()).pathname;
      if (req.method() !== 'GET' || (req.resourceType() !== 'document' && !pathname.startsWith('/assets/'))) return route.continue();
      const res = await route.fetch();
      if (req.resourceType() === 'document') {
        // while a build runs, dist/client/index.html is missing for a moment and the server answers 404
        const html = res.ok() && (res.headers()['content-type'] ?? '').includes('text/html');
        return route.fulfill(html ? { response: res, body: indexHtml.toString('utf8') } : { status: 200, contentType: 'text/html; charset=utf-8', body: indexHtml.toString('utf8') });
      }
      const file = path.join(dir, pathname);
      const missing = !res.ok() || (res.headers()['content-type'] ?? '').includes('text/html');
      if (missing && fs.existsSync(file)) return route.fulfill({ path: file });
      return route.fulfill({ response: res });
    },
  );
}

/**
 * A button by its text. antd writes a two-character Chinese label with a space (新增 → "新 增") unless the
 * button has an icon, so the name is matched with optional spaces between the characters; an icon's own
 * accessible name (antd's `aria-label="plus"`) may come first.
 */
export function button(scope: Page | Locator, text: string): Locator {
  const pattern = [...text].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s*');
  return scope.getByRole('button', { name: new RegExp(`^(?:[a-z-]+ )?\\s*${pattern}\\s*$`) });
}

/** The open (topmost) dialog whose title is `title`. */
export function dialog(page: Page, title: string | RegExp): Locator {
  return page.locator('.ant-modal-content').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });
}

/** The Formily form item whose label is exactly `label` (its control, messages and all). */
export function formItem(scope: Locator, label: string): Locator {
  const exact = new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\s*$`);
  return scope.locator('.ant-formily-item').filter({ has: scope.page().locator('.ant-formily-item-label label', { hasText: exact }) });
}

/** The dropdown of a select, tree select or picker that is open now. */
export function openDropdown(page: Page): Locator {
  return page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden), .ant-picker-dropdown:not(.ant-picker-dropdown-hidden)').last();
}

/** Chooses `option` in the antd Select (DictSelect ...) of form item `item`. */
export async function chooseOption(item: Locator, option: string): Promise<void> {
  await item.locator('.ant-select-selector').click();
  await openDropdown(item.page()).locator('.ant-select-item-option', { hasText: option }).first().click();
  await expect(item.locator('.ant-select-selection-item')).toHaveText(option);
}

/** Chooses the node `title` in the antd TreeSelect (DeptTreeSelect ...) of form item `item`. */
export async function chooseTreeNode(item: Locator, title: string): Promise<void> {
  await item.locator('.ant-select-selector').click();
  await openDropdown(item.page()).locator('.ant-select-tree-node-content-wrapper', { hasText: title }).first().click();
  await expect(item.locator('.ant-select-selection-item')).toHaveText(title);
}

/** Types a date (YYYY-MM-DD) into the antd DatePicker of form item `item`. */
export async function typeDate(item: Locator, date: string): Promise<void> {
  const input = item.locator('.ant-picker input');
  await input.click();
  await input.fill(date);
  await input.press('Enter');
  await expect(input).toHaveValue(date);
}

/**
 * Opens /login and answers the captcha text of the captcha the page shows: the text comes from the
 * `X-Test-Captcha` header of the captcha request the page made (a test server only), and the image on the
 * page must be that captcha's. A login page already shown (where a logout leads) is first let to show its own
 * captcha: its answer, arriving while the new page loads, would otherwise be taken for the new page's, and
 * its body is gone once the new page replaces it.
 */
export async function openLogin(page: Page): Promise<string> {
  if (new URL(page.url(), 'http://127.0.0.1').pathname === '/login') await page.locator('img.kc-captcha').waitFor();
  const answer = nextCaptcha(page);
  await page.goto('/login');
  return answer;
}

/** Waits for the page's next captcha request and for its image on the page; answers its text. */
export async function nextCaptcha(page: Page): Promise<string> {
  const res = await page.waitForResponse((r) => r.url().includes('/api/blade-auth/oauth/captcha') && r.request().method() === 'GET');
  expect(res.status()).toBe(200);
  const text = res.headers()['x-test-captcha'];
  expect(text, 'the test server sends X-Test-Captcha').toBeTruthy();
  const { image } = (await res.json()) as { image: string };
  await expect(page.locator('img.kc-captcha')).toHaveAttribute('src', image);
  return text;
}

/** Fills the login form (tenant, account, password, captcha) and submits it. */
export async function submitLogin(page: Page, account: string, password: string, captcha: string, tenant = '000000'): Promise<void> {
  await page.getByLabel('租户编号').fill(tenant);
  await page.getByLabel('账号', { exact: true }).fill(account);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByLabel('验证码', { exact: true }).fill(captcha);
  await button(page, '登录').click();
}

/**
 * Logs `account` in through the login page; with several roles it chooses `role` (its name) on the role page.
 * Ends on the home page (/wel/index).
 */
export async function login(page: Page, account: string, password: string, role?: string): Promise<void> {
  const captcha = await openLogin(page);
  await submitLogin(page, account, password, captcha);
  if (role) {
    await expect(page).toHaveURL(/\/home$/);
    await page.locator('.ant-list-item', { hasText: role }).getByRole('button').click();
  }
  await expect(page).toHaveURL(/\/wel\/index$/);
  await expect(page.getByText(/^欢迎，|^Welcome, /)).toBeVisible();
}

/** The accessible name of a tab or menu item labelled `label`, with or without its to-do badge ("科技成果 1"). */
export function badged(label: string): RegExp {
  return new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s+\\d+\\+?)?$`);
}

/**
 * Opens the application tab `tab` of the top bar — from 更多应用 / More applications when the bar has no room for it
 * (shell/fit-tabs.ts: on a 1440 px window the last applications of an administrator go there).
 */
export async function openTab(page: Page, tab: string): Promise<void> {
  const bar = page.locator('.kc-app-tabs');
  await expect(bar.getByRole('button').first()).toBeVisible();
  const button = bar.getByRole('button', { name: badged(tab) });
  if ((await button.count()) > 0) return button.click();
  await bar.getByRole('button', { name: /更多应用|More applications/ }).hover();
  await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: badged(tab) }).click();
}

/** Opens a menu: the application tab in the top bar, then the item in the sidebar (either may carry a to-do badge). */
export async function openMenu(page: Page, tab: string, item: string): Promise<void> {
  await openTab(page, tab);
  await page.locator('.kc-sider').getByRole('menuitem', { name: badged(item) }).click();
}

/** A small valid PDF (one empty page), for the upload control. */
export function tinyPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/**
 * The headers the client sends for the signed-in session of `page` (from localStorage `kc-session`): for calling
 * the API with `page.request` as that user and role.
 */
export async function sessionHeaders(page: Page): Promise<Record<string, string>> {
  const s = await page.evaluate(() => JSON.parse(localStorage.getItem('kc-session') ?? '{}') as { token?: string; tenantId?: string; currentRoleId?: string });
  expect(s.token, 'signed in (kc-session has a token)').toBeTruthy();
  const headers: Record<string, string> = {
    Authorization: 'Basic ' + Buffer.from('saber:saber_secret').toString('base64'),
    'Tenant-Id': s.tenantId ?? '000000',
    'Blade-Auth': `bearer ${s.token}`,
  };
  if (s.currentRoleId) headers['Role-Id'] = s.currentRoleId;
  return headers;
}

/**
 * Fills every required field of the patent add form (schemas/basic/patent.json) as a person does, including an
 * uploaded PDF; `codes` sets the grant and certificate numbers (they show in the list).
 */
export async function fillPatent(
  page: Page,
  form: Locator,
  name: string,
  codes: { authorizationCode: string; code: string } = { authorizationCode: 'ZL202310765432.1', code: '第7654321号' },
): Promise<void> {
  await formItem(form, '专利名称').locator('input').fill(name);
  await formItem(form, '专利名称').locator('input').blur(); // the schema validates on blur
  await chooseTreeNode(formItem(form, '登记单位'), '集团科技信息部');
  await formItem(form, '项目来源').getByText('无', { exact: true }).click();
  await formItem(form, '项目名称').locator('input').fill('粮食仓储物联网应用示范');
  await chooseOption(formItem(form, '成果来源'), '集团公司项目');
  await chooseOption(formItem(form, '专利类型'), '发明专利');
  await formItem(form, '国家或地区').locator('input').fill('中国');
  await formItem(form, '地址').locator('input').fill('北京市西城区粮储大厦');
  await formItem(form, '邮编').locator('input').fill('100032');
  await typeDate(formItem(form, '申请日期'), '2023-03-15');
  await typeDate(formItem(form, '授权公告日'), '2024-06-20');
  await formItem(form, '授权号/专利号').locator('input').fill(codes.authorizationCode);
  await formItem(form, '专利证书号').locator('input').fill(codes.code);
  const upload = page.waitForResponse((r) => r.url().includes('/api/blade-resource/oss/endpoint/put-file'));
  await formItem(form, '附件').locator('input[type=file]').setInputFiles({ name: '专利证书.pdf', mimeType: 'application/pdf', buffer: tinyPdf() });
  expect((await upload).status()).toBe(200);
  await expect(formItem(form, '附件').getByText('专利证书.pdf')).toBeVisible();
}

/** A real .docx whose body is `paragraphs`. */
export async function docx(paragraphs: string[]): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
  zip.file('_rels/.rels', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${p}</w:t></w:r></w:p>`).join('');
  zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr></w:body></w:document>`);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}
