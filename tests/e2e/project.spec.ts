/**
 * The research project journey (issue 12 'Tests': declare → claim → expert score → approve → task book preview →
 * mid-term report → acceptance, each step by the right user from their to-do list):
 *
 * 1. the declaring unit (sbdw, 华北分公司 仓储管理部) fills a declaration on 项目申报 and submits it (提交申报);
 * 2. research management of its company (kygl_hb) finds the review in 我的待办, claims it (签收) and passes it
 *    (办理 → 同意);
 * 3. research management of the group (kygl) claims and passes it from 我的待办; the review step 专家评审 waits in
 *    their 我的待办 until they pick the expert 陈专 on 评审专家 (then it leaves their list for the expert's);
 * 4. the expert (zj) scores it on 专家评审 (提交评审意见: four indicators and a comment) and completes their part of
 *    the review from 我的待办; the score lands on the project;
 * 5. the group's research management approves it from 我的待办: the project is 已立项;
 * 6. the declaring unit opens the task book (任务书) in the browser's preview page from the project's row;
 * 7. the declaring unit writes the 中期报告 on 项目报告 and submits it; the company's research management passes it
 *    from 我的待办;
 * 8. acceptance: the declaring unit writes the 结题报告 and submits it, research management passes it — the
 *    project is 已结题 — and the acceptance report (验收报告) of the project opens in the preview page.
 */
import type { Locator, Page } from '@playwright/test';
import { button, chooseOption, chooseTreeNode, dialog, expect, formItem, login, openMenu, test, typeDate } from './fixtures.js';

async function logout(page: Page): Promise<void> {
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
}

/**
 * Handles the to-do about `subject` from 我的待办 with 同意 and `comment`; with `claim`, claims it (签收) first;
 * `step`: the to-do of that step (its title names it) when the next step of the same subject also lands here.
 */
async function approveFromTodo(page: Page, subject: string, comment: string, claim = false, step?: string): Promise<void> {
  await openMenu(page, '工作台', '我的待办');
  const rows = page.locator('.ant-table-row', { hasText: subject });
  const row = step ? rows.filter({ hasText: step }) : rows;
  await expect(row).toBeVisible({ timeout: 20_000 });
  if (claim) {
    await button(row, '签收').click();
    const confirm = dialog(page, '签收');
    const claimed = page.waitForResponse((r) => r.url().includes('/api/blade-flow/process/claim-task'));
    await button(confirm, '确定').click();
    expect((await claimed).status()).toBe(200);
    await expect(page.getByText('签收成功')).toBeVisible();
  }
  await button(row, '办理').click();
  const handle = dialog(page, '办理');
  await expect(handle).toBeVisible();
  await formItem(handle, '办理结果').getByText('同意', { exact: true }).click();
  await formItem(handle, '办理意见').locator('textarea').fill(comment);
  const done = page.waitForResponse((r) => r.url().includes('/api/blade-flow/process/complete-task'));
  await button(handle, '确定').click();
  expect((await done).status()).toBe(200);
  await expect(page.getByText('办理成功')).toBeVisible();
  await expect(row).toBeHidden();
}

/** Fills the number input of form item `label` in `form`. */
async function fillNumber(form: Locator, label: string, value: string): Promise<void> {
  const input = formItem(form, label).locator('input');
  await input.fill(value);
  await input.blur();
}

/** Runs the row button `label` of the row holding `text`, confirms, and answers the preview page it opened. */
async function openPreview(page: Page, text: string, label: string): Promise<Page> {
  const row = page.locator('.ant-table-row', { hasText: text });
  await button(row, label).click();
  const confirm = dialog(page, label);
  await expect(confirm).toBeVisible();
  const popup = page.waitForEvent('popup');
  await button(confirm, '确定').click();
  const preview = await popup;
  await preview.waitForLoadState();
  return preview;
}

/** Writes a report of `kind` on the project `project` as the signed-in declaring unit and submits it for review. */
async function writeReport(page: Page, project: string, title: string, kind: string, work: string): Promise<void> {
  await openMenu(page, '科研项目', '项目报告');
  await button(page, '新增').click();
  const form = dialog(page, '新增');
  await expect(form).toBeVisible();
  await formItem(form, '报告标题').locator('input').fill(title);
  await chooseOption(formItem(form, '所属项目'), project);
  await chooseOption(formItem(form, '报告类型'), kind);
  await typeDate(formItem(form, '报告日期'), '2026-11-25');
  await formItem(form, '主要工作与进展').locator('textarea').fill(work);
  await button(form, '保存').click();
  await expect(page.getByText('新增成功')).toBeVisible();
  const row = page.locator('.ant-table-row', { hasText: title });
  await expect(row).toBeVisible();
  await button(row, '提交审核').click();
  const confirm = dialog(page, '提交审核');
  const started = page.waitForResponse((r) => r.url().includes('/api/project/report/start-process'));
  await button(confirm, '确定').click();
  expect((await started).status()).toBe(200);
  await expect(page.getByText('已提交审核')).toBeVisible();
}

test('a project goes from declaration to acceptance, each step taken by its user from their to-do list', async ({ page, password }) => {
  test.setTimeout(600_000);
  const tag = Date.now().toString(36).toUpperCase();
  const name = `粮堆温湿度联动控制研究${tag}`;

  // 1. the declaring unit declares
  await login(page, 'sbdw', password);
  await openMenu(page, '科研项目', '项目申报');
  await button(page, '新增').click();
  const form = dialog(page, '新增');
  await expect(form).toBeVisible();
  await formItem(form, '项目名称').locator('input').fill(name);
  await formItem(form, '项目编号').locator('input').fill(`E2E-${tag}`);
  await chooseOption(formItem(form, '项目级别'), '企业级');
  await chooseTreeNode(formItem(form, '承担单位'), '仓储管理部');
  await formItem(form, '项目负责人').locator('input').fill('王申');
  await typeDate(formItem(form, '开始日期'), '2027-01-01');
  await typeDate(formItem(form, '结束日期'), '2027-12-31');
  await formItem(form, '研究内容').locator('textarea').fill('研究粮堆温度与湿度的联动控制方法，开展库点示范。');
  await formItem(form, '研究目标').locator('textarea').fill('形成可推广的粮堆温湿度联动控制技术。');
  await formItem(form, '考核指标').locator('textarea').fill('综合能耗降低10%；申请发明专利1项。');
  await fillNumber(form, '总经费（万元）', '10');
  await fillNumber(form, '拨款经费（万元）', '6');
  await fillNumber(form, '自筹经费（万元）', '4');
  await fillNumber(form, '设备费（万元）', '10');
  await button(form, '保存').click();
  await expect(page.getByText('新增成功')).toBeVisible();
  const mine = page.locator('.ant-table-row', { hasText: name });
  await expect(mine).toContainText('草稿');
  await button(mine, '提交申报').click();
  const declare = dialog(page, '提交申报');
  await button(declare, '确定').click();
  await expect(page.getByText('申报已提交')).toBeVisible();
  await expect(mine).toContainText('单位审核中');

  // 2. the company's research management passes it from the to-do list
  await logout(page);
  await login(page, 'kygl_hb', password);
  await approveFromTodo(page, name, '同意，报集团审核。', true);

  // 3. the group's research management passes it and picks the expert
  await logout(page);
  await login(page, 'kygl', password);
  await approveFromTodo(page, name, '同意，送专家评审。', true, '集团科研管理审核');
  // no expert picked yet: the review step waits in the group's research management's to-do list
  const waiting = page.locator('.ant-table-row', { hasText: name }).filter({ hasText: '专家评审' });
  await expect(waiting).toBeVisible();
  await openMenu(page, '科研项目', '评审专家');
  await button(page, '新增').click();
  const pick = dialog(page, '新增');
  await expect(pick).toBeVisible();
  await chooseOption(formItem(pick, '评审项目'), name);
  await chooseOption(formItem(pick, '评审专家'), '陈专（专家委员会）');
  await typeDate(formItem(pick, '评审截止日期'), '2026-12-31');
  await button(pick, '保存').click();
  await expect(page.getByText('新增成功')).toBeVisible();
  await expect(page.locator('.ant-table-row', { hasText: name })).toContainText('陈专');
  // the list as answered after the pick (not an empty table before it loaded): the step is now the expert's
  const listed = page.waitForResponse((r) => /\/api\/basic\/todo\/(list|myList|page)\b/.test(r.url()) && r.ok());
  await openMenu(page, '工作台', '我的待办');
  await listed;
  await expect(page.locator('.ant-table-tbody')).toBeVisible();
  await expect(page.locator('.ant-table-row', { hasText: name })).toHaveCount(0);

  // 4. the expert scores it on 专家评审, then completes the review step from the to-do list
  await logout(page);
  await login(page, 'zj', password);
  await openMenu(page, '科研项目', '专家评审');
  const review = page.locator('.ant-table-row', { hasText: name });
  await expect(review).toBeVisible();
  await button(review, '提交评审意见').click();
  const score = dialog(page, '提交评审意见');
  await expect(score).toBeVisible();
  await fillNumber(score, '创新性（30分）', '26');
  await fillNumber(score, '技术可行性（30分）', '25');
  await fillNumber(score, '预期效益（20分）', '17');
  await fillNumber(score, '团队与条件（20分）', '18');
  await formItem(score, '评审意见').locator('textarea').fill('技术路线清晰，指标可考核，建议立项。');
  const scored = page.waitForResponse((r) => r.url().includes('/api/project/expert/submitComment'));
  await button(score, '确定').click();
  expect((await scored).status()).toBe(200);
  await expect(page.getByText('评审意见已提交').first()).toBeVisible();
  await expect(review).toContainText('86');
  await expect(button(review, '提交评审意见')).toHaveCount(0);
  await approveFromTodo(page, name, '评审完成。');

  // 5. the group's research management approves it
  await logout(page);
  await login(page, 'kygl', password);
  await approveFromTodo(page, name, '同意立项。');
  await openMenu(page, '科研项目', '项目申报');
  const approved = page.locator('.ant-table-row', { hasText: name });
  await expect(approved).toContainText('已立项');
  await expect(approved).toContainText('86');

  // 6. the declaring unit opens the task book in the preview page
  await logout(page);
  await login(page, 'sbdw', password);
  await openMenu(page, '科研项目', '项目申报');
  await expect(page.locator('.ant-table-row', { hasText: name })).toContainText('已立项');
  const taskBook = await openPreview(page, name, '任务书');
  await expect(taskBook).toHaveURL(/\/previewTaskBook\?token=/);
  await expect(taskBook.getByTestId('document-body')).toContainText(name, { timeout: 30_000 });
  await expect(taskBook.getByTestId('document-body')).toContainText('研究粮堆温度与湿度的联动控制方法');
  await taskBook.close();

  // 7. the mid-term report, passed by the company's research management from the to-do list
  await writeReport(page, name, `${name} 中期报告`, '中期报告', '完成两个库点的联动控制部署，运行稳定。');
  await logout(page);
  await login(page, 'kygl_hb', password);
  await approveFromTodo(page, `${name} 中期报告`, '中期进展符合计划。');

  // 8. acceptance: the final report passed, then the acceptance report of the project
  await logout(page);
  await login(page, 'sbdw', password);
  await writeReport(page, name, `${name} 结题报告`, '结题报告', '全部研究任务完成，考核指标均已达到。');
  await logout(page);
  await login(page, 'kygl_hb', password);
  await approveFromTodo(page, `${name} 结题报告`, '同意结题验收。');
  await logout(page);
  await login(page, 'sbdw', password);
  await openMenu(page, '科研项目', '项目申报');
  await expect(page.locator('.ant-table-row', { hasText: name })).toContainText('已结题');
  const acceptance = await openPreview(page, name, '验收报告');
  await expect(acceptance).toHaveURL(/\/previewAcceptReport\?token=/);
  await expect(acceptance.getByTestId('document-body')).toContainText(name, { timeout: 30_000 });
  await acceptance.close();
});
