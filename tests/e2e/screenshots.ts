/**
 * `npm run screenshots`: the login page, the patent list (a few seeded rows) and the patent add form, in Chinese
 * and in English, at 1440×900, into docs/screenshots/ (login-zh.png, login-en.png, patent-list-zh.png,
 * patent-list-en.png, patent-form-zh.png, patent-form-en.png). Starts the server as the browser tests do
 * (server.ts) and stops it afterwards. The language is chosen with the switch on the login page, as a person would.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM, repoRoot, startServer } from './server.js';
import { loginThroughPage, seedPatents, switchLanguage } from './browser.js';

const OUT = path.join(repoRoot, 'docs/screenshots');
const PATENTS = 6;

function tinyPdf(): Buffer {
  return Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
}

/** Waits until no request is in flight and fonts are ready, then a frame more (antd animations end). */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(600);
}

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const server = await startServer();
  const browser = await chromium.launch(CHROMIUM);
  const made: string[] = [];
  try {
    await seedPatents(server.baseURL, server.password, PATENTS, tinyPdf());
    for (const lang of ['zh', 'en'] as const) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: lang === 'en' ? 'en-US' : 'zh-CN', timezoneId: 'Asia/Shanghai' });
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error(`[${lang}] page error: ${e.message}`));
      const shot = async (name: string) => {
        const file = path.join(OUT, `${name}-${lang}.png`);
        await settle(page);
        await page.screenshot({ path: file });
        made.push(path.relative(repoRoot, file));
      };

      // the login page, in the chosen language, with the tenant and account filled in
      await page.goto(`${server.baseURL}/login`);
      await page.locator('img.kc-captcha').waitFor();
      if (lang === 'en') await switchLanguage(page, 'en');
      await page.locator('#username').fill('kygl');
      await page.locator('#username').blur();
      await shot('login');

      await loginThroughPage(page, server.baseURL, 'kygl', server.password);
      await page.locator('.kc-app-tabs').getByRole('button', { name: lang === 'en' ? 'Achievements' : '科技成果' }).click();
      await page.waitForURL(/\/basic\/patent$/);
      await page.locator('.ant-table-tbody tr.ant-table-row').nth(PATENTS - 1).waitFor();
      await shot('patent-list');

      await page.locator('.kc-list-page button', { hasText: lang === 'en' ? /^\s*Add\s*$/ : /新\s*增/ }).first().click();
      await page.locator('.ant-modal .ant-formily-item').first().waitFor();
      await shot('patent-form');
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  for (const f of made) console.log(`wrote ${f}`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
