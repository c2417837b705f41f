/**
 * Screenshots of every theme (issue 18: "Screenshots of every theme in docs/screenshots/"): the patent list of
 * the research management account, at 1440×900, once per theme of spec 000 §2.5, chosen with the top bar's
 * theme picker as a person would, into docs/screenshots/theme-<name>.png. Starts the server as the browser
 * tests do (server.ts) and stops it afterwards.
 *
 *   npx tsx tests/e2e/theme-screenshots.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, repoRoot, startServer } from './server.js';
import { loginThroughPage, seedPatents } from './browser.js';
import { THEME_NAMES, THEMES } from '../../src/client/shell/themes.js';

const OUT = path.join(repoRoot, 'docs/screenshots');

function tinyPdf(): Buffer {
  return Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
}

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const server = process.env.KC_BASE_URL ? null : await startServer();
  const baseURL = server?.baseURL ?? process.env.KC_BASE_URL!;
  const password = server?.password ?? process.env.KC_PASSWORD!;
  const browser = await chromium.launch(CHROMIUM);
  try {
    await seedPatents(baseURL, password, 4, tinyPdf());
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
    const page = await context.newPage();
    await loginThroughPage(page, baseURL, 'kygl', password);
    await page.locator('.kc-app-tabs').getByRole('button', { name: /^科技成果/ }).click();
    await page.waitForURL(/\/basic\/patent$/);
    for (const name of THEME_NAMES) {
      await page.getByRole('button', { name: '主题' }).click();
      await page.getByRole('menuitem', { name: THEMES[name].label.zh }).click();
      await page.waitForFunction((n) => document.documentElement.dataset.theme === n, name);
      await page.keyboard.press('Escape');
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(700);
      const file = path.join(OUT, `theme-${name}.png`);
      await page.screenshot({ path: file });
      console.log(`[screenshots] ${path.relative(repoRoot, file)}`);
    }
  } finally {
    await browser.close();
    await server?.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
