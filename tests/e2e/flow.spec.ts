/**
 * The workflow journey (issue 11 'Tests'): the administrator uploads a BPMN file on 流程模型 (a new version of
 * the leave process, renamed so that its to-dos show it is the one running); a researcher requests leave on
 * 请假申请; research management sees the to-do badge on the 工作台 tab and on 请假申请, follows it to the to-do
 * list and approves the request; the researcher opens the request's detail and sees the diagram with the path
 * taken (finished nodes marked, nothing current) and the step handled with its comment.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { badged, button, dialog, expect, formItem, login, openMenu, sessionHeaders, test } from './fixtures.js';
import type { Locator, Page } from '@playwright/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function logout(page: Page): Promise<void> {
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
}

/** Types a date-time (YYYY-MM-DD HH:mm:ss) into the DatePicker of form item `item` and confirms it. */
async function typeDateTime(item: Locator, value: string): Promise<void> {
  const input = item.locator('.ant-picker input');
  await input.click();
  await input.fill(value);
  await input.press('Enter');
  await expect(input).toHaveValue(value);
}

test('an uploaded process runs a leave request that research management approves from the to-do badge; the diagram shows the path', async ({ page, password }) => {
  test.setTimeout(240_000);
  const tag = Date.now().toString(36);
  const processName = `请假流程（上传${tag}）`;
  const reason = `E2E 请假 ${tag}`;
  const xml = fs.readFileSync(path.join(root, 'schemas/flows/leave.bpmn'), 'utf8').replace('name="请假流程"', `name="${processName}"`);

  // the administrator uploads the file as a new version of the leave process
  await login(page, 'admin', password);
  await openMenu(page, '工作台', '流程模型');
  await button(page, '上传部署').click();
  const up = dialog(page, '上传部署');
  await expect(up).toBeVisible();
  await formItem(up, '分类').locator('input').fill('e2e');
  await formItem(up, '流程文件').locator('input[type=file]').setInputFiles({ name: 'leave-e2e.bpmn', mimeType: 'application/xml', buffer: Buffer.from(xml) });
  await expect(formItem(up, '流程文件').getByText('leave-e2e.bpmn')).toBeVisible();
  const deployed = page.waitForResponse((r) => r.url().includes('/api/blade-flow/manager/deploy-upload'));
  await button(up, '确定').click();
  expect((await deployed).status()).toBe(200);
  await expect(page.getByText('部署成功')).toBeVisible();
  await openMenu(page, '工作台', '流程部署');
  await expect(page.locator('.ant-table-row', { hasText: processName })).toBeVisible();

  // a researcher requests leave
  await logout(page);
  await login(page, 'kyry', password);
  await openMenu(page, '工作台', '请假申请');
  await button(page, '发起请假').click();
  const form = dialog(page, '发起请假');
  await expect(form).toBeVisible();
  await typeDateTime(formItem(form, '开始时间'), '2026-12-21 09:00:00');
  await typeDateTime(formItem(form, '结束时间'), '2026-12-22 18:00:00');
  await formItem(form, '请假天数').locator('input').fill('2');
  await formItem(form, '请假理由').locator('textarea').fill(reason);
  const started = page.waitForResponse((r) => r.url().includes('/api/blade-desk/process/leave/start-process'));
  await button(form, '确定').click();
  expect((await started).status()).toBe(200);
  await expect(page.getByText('已提交')).toBeVisible();
  await expect(page.locator('.ant-table-row', { hasText: reason })).toBeVisible();

  // research management follows the badge: 工作台 → 请假申请 carries it; the to-do list holds the task
  await logout(page);
  await login(page, 'kygl', password);
  const tab = page.locator('.kc-app-tabs').getByRole('button', { name: /^工作台\s+\d+\+?$/ });
  await expect(tab).toBeVisible({ timeout: 20_000 });
  await tab.click();
  await expect(page.locator('.kc-sider').getByRole('menuitem', { name: /^请假申请\s+\d+\+?$/ })).toBeVisible({ timeout: 20_000 });
  await page.locator('.kc-sider').getByRole('menuitem', { name: badged('我的待办') }).click();
  const row = page.locator('.ant-table-row', { hasText: reason });
  await expect(row).toBeVisible();
  await expect(row).toContainText(`${processName}：领导审批`);
  await button(row, '办理').click();
  const handle = dialog(page, '办理');
  await expect(handle).toBeVisible();
  await formItem(handle, '办理结果').getByText('同意', { exact: true }).click();
  await formItem(handle, '办理意见').locator('textarea').fill('同意，注意交接');
  const done = page.waitForResponse((r) => r.url().includes('/api/blade-flow/process/complete-task'));
  await button(handle, '确定').click();
  expect((await done).status()).toBe(200);
  await expect(page.getByText('办理成功')).toBeVisible();
  await expect(row).toBeHidden();

  // the researcher sees the diagram of the request with the path taken
  await logout(page);
  await login(page, 'kyry', password);
  await openMenu(page, '工作台', '请假申请');
  const mine = page.locator('.ant-table-row', { hasText: reason });
  await button(mine, '查看').click();
  const viewer = page.getByTestId('bpmn-viewer');
  await expect(viewer).toBeVisible();
  await expect(viewer).toHaveAttribute('data-current', '[]');
  const finished = JSON.parse((await viewer.getAttribute('data-finished')) ?? '[]') as string[];
  expect(finished).toEqual(expect.arrayContaining(['applied', 'managerApprove', 'decision', 'approved']));
  expect(finished).not.toContain('hrFile');
  await expect(viewer.locator('.djs-element.kc-bpmn-done[data-element-id="managerApprove"]')).toBeVisible({ timeout: 30_000 });
  await expect(viewer.locator('.djs-element.kc-bpmn-done[data-element-id="approved"]')).toBeVisible();
  await expect(viewer.locator('.djs-element.kc-bpmn-done[data-element-id="hrFile"]')).toHaveCount(0);
  await expect(viewer).toContainText('李科');
  await expect(viewer).toContainText('同意，注意交接');
});

test('a to-do on the home page opens its own handling page: the request, the diagram and the handling form', async ({ page, password }) => {
  const reason = `首页待办${Date.now().toString(36)}`;
  await login(page, 'kyry', password);
  const started = await page.request.post('/api/blade-desk/process/leave/start-process', {
    headers: await sessionHeaders(page),
    data: { startTime: '2026-12-30 09:00:00', endTime: '2026-12-30 18:00:00', days: 1, reason },
  });
  expect(started.status()).toBe(200);
  await logout(page);
  await login(page, 'kygl', password);
  await page.goto('/wel/index');
  const card = page.getByTestId('todo-card-0');
  await expect(card.getByText(reason)).toBeVisible({ timeout: 20_000 });
  // the newest to-do is this one: follow it
  await card.locator('.ant-list-item', { hasText: reason }).getByRole('link').click();
  await expect(page).toHaveURL(/\/work\/todo\/\d+$/);
  // on the handling page itself (the home page may stay cached behind it, a push notice may say the same)
  await expect(page.locator('.kc-todo-task').getByText(reason)).toBeVisible();
  await expect(page.getByTestId('bpmn-viewer')).toBeVisible();
  // the outcome's radio (the diagram also reads 同意 on its flow once drawn)
  await page.locator('label.ant-radio-wrapper', { hasText: '同意' }).click();
  const done = page.waitForResponse((r) => r.url().includes('/api/blade-desk/process/leave/complete-task'));
  await page.getByRole('button', { name: /确\s*定/ }).click();
  expect((await done).status()).toBe(200);
  await expect(page.getByText('办理成功')).toBeVisible();
});
