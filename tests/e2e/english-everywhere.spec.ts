/**
 * English everywhere (spec 000 §2.4: Chinese by default, English selectable; every user-facing text exists in zh
 * and en): the administrator, who sees every menu, switches to English and opens each screen of every top menu
 * and, where the screen has one, its 新增 / Add dialog. No UI text may still be Chinese — labels, headers,
 * buttons, tabs, placeholders, empty states, dialog titles, form labels and hints. Data is Chinese and stays so:
 * table cells, tree nodes (departments, regions, catalogues), the tag bar's page titles and the signed-in user's
 * name are left out.
 */
import { expect, login, sessionHeaders, test } from './fixtures.js';

interface Menu {
  path: string | null;
  children?: Menu[];
}

/** The Chinese UI texts on the page (outside the data places above) and, with `inDialogs`, in its open dialogs. */
function chineseTexts(page: import('@playwright/test').Page, inDialogs: boolean, skip: string): Promise<string[]> {
  return page.evaluate(
    ([dialogs, userName]) => {
      const CJK = /[\u4e00-\u9fff]/;
      const seen = new Set<string>();
      const roots = dialogs ? Array.from(document.querySelectorAll<HTMLElement>('.ant-modal, .ant-drawer')) : [document.body];
      for (const root of roots) {
        for (const el of Array.from(root.querySelectorAll<HTMLElement>('*'))) {
          if (el.closest('td, .ant-tree, .ant-select-tree, .kc-tagbar, script, style')) continue;
          if (!dialogs && el.closest('.ant-modal, .ant-drawer, .ant-dropdown, .ant-popover, .ant-tooltip')) continue;
          const own = Array.from(el.childNodes)
            .filter((n) => n.nodeType === Node.TEXT_NODE)
            .map((n) => n.textContent ?? '')
            .join('')
            .trim();
          if (own && CJK.test(own) && own !== userName && (dialogs || el.offsetParent !== null)) seen.add(own.slice(0, 80));
        }
        for (const el of Array.from(root.querySelectorAll<HTMLInputElement>('[placeholder]'))) if (CJK.test(el.placeholder)) seen.add(`placeholder ${el.placeholder}`);
      }
      return [...seen];
    },
    [inDialogs, skip] as const,
  );
}

test('every screen of every menu, and its add dialog, is in English once English is chosen (data aside)', async ({ page, password }) => {
  test.setTimeout(12 * 60_000);
  await login(page, 'admin', password);
  await page.getByRole('button', { name: 'language' }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByRole('button', { name: 'language' })).toHaveText('English');
  const headers = await sessionHeaders(page);
  const userName = await page.evaluate(() => (JSON.parse(localStorage.getItem('kc-session') ?? '{}') as { user?: { realName?: string } }).user?.realName ?? '');
  const tops = (await (await page.request.get('/api/blade-system/menu/top-menu', { headers })).json()).data as Array<{ id: string }>;
  const paths = new Set<string>();
  const walk = (ms: Menu[]) => {
    for (const m of ms) {
      if (m.children?.length) walk(m.children);
      else if (m.path?.startsWith('/')) paths.add(m.path);
    }
  };
  for (const t of tops) walk((await (await page.request.get(`/api/blade-system/menu/routes?topMenuId=${t.id}`, { headers })).json()).data as Menu[]);
  expect(paths.size, 'the administrator has the menus of every part of the platform').toBeGreaterThan(60);

  const faults: string[] = [];
  let dialogs = 0;
  for (const p of paths) {
    await page.goto(p);
    await page.waitForLoadState('networkidle', { timeout: 8_000 }).catch(() => undefined);
    const onPage = await chineseTexts(page, false, userName);
    if (onPage.length) faults.push(`${p}: ${onPage.join(' | ')}`);
    const add = page.getByRole('button', { name: /^(plus )?Add$/ }).first();
    if (!(await add.isVisible())) continue;
    await add.click();
    const open = page.locator('.ant-modal:visible, .ant-drawer:visible').first();
    if (!(await open.waitFor({ timeout: 5_000 }).then(() => true, () => false))) continue;
    await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
    dialogs++;
    const inDialog = await chineseTexts(page, true, userName);
    if (inDialog.length) faults.push(`${p} (Add): ${inDialog.join(' | ')}`);
    await page.keyboard.press('Escape');
  }
  expect(faults).toEqual([]);
  expect(dialogs, 'most lists have an add dialog').toBeGreaterThan(40);
});
