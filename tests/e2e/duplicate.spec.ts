/**
 * Duplicate checking (issue 15): research management uploads two documents as files to check (the add form's
 * upload, a folder of our own), runs a task checking the second against that folder, waits for it to finish in
 * the task list, and opens its result: the two texts side by side with the copied passage highlighted in both;
 * the report downloads as .docx.
 */
import fs from 'node:fs';
import { button, dialog, expect, formItem, login, test } from './fixtures.js';

const PASSAGE = '采用间歇式横向通风处理四十二天后表层粮温明显降低百分之十八，仓内湿度保持平稳，未发现储粮害虫';
const BASE = `低温储粮技术研究报告。本课题在华北地区三个直属库开展试验。${PASSAGE}。试验仓装粮五千吨，堆高六米。`;
const FRESH = `新申报书。针对南方高温高湿地区的储粮特点，提出了膜下环流控温方案。${PASSAGE}。项目拟形成技术规程两项。`;

test('upload two documents, run a task, see the highlighted passages', async ({ page, password }) => {
  test.setTimeout(180_000);
  const tag = `查重-${Date.now().toString(36)}`;
  await login(page, 'kygl', password);
  await page.goto('/duplicate/file');
  await expect(page.getByRole('columnheader', { name: '文件名' })).toBeVisible({ timeout: 30_000 });
  for (const [name, text] of [
    [`${tag}-基准.txt`, BASE],
    [`${tag}-新稿.txt`, FRESH],
  ]) {
    await button(page, '新增').click();
    const form = dialog(page, '新增');
    const upload = page.waitForResponse((r) => r.url().includes('/api/blade-resource/oss/endpoint/put-file'));
    await formItem(form, '文件').locator('input[type=file]').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text, 'utf8') });
    expect((await upload).status()).toBe(200);
    await formItem(form, '文件夹').locator('input').fill(tag);
    await button(form, '保存').click();
    await expect(form).toBeHidden();
    await expect(page.locator('.ant-table-row', { hasText: name })).toBeVisible();
  }

  await page.goto('/duplicate/duplicatetask');
  await expect(page.getByRole('columnheader', { name: '任务名称' })).toBeVisible({ timeout: 30_000 });
  await button(page, '新增').click();
  const form = dialog(page, '新增');
  await formItem(form, '任务名称').locator('input').fill(tag);
  await form.locator('.ant-tree-treenode', { hasText: `${tag}-新稿.txt` }).locator('.ant-tree-checkbox').click();
  await formItem(form, '文件夹').locator('input').fill(tag);
  await button(form, '保存').click();
  await expect(form).toBeHidden();

  const row = page.locator('.ant-table-row', { hasText: tag });
  // the task runs as a job: load the list again until it shows the task finished
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText('已完成', { timeout: 10_000 });
  }).toPass({ timeout: 90_000 });

  await row.getByRole('button', { name: /查\s*看/ }).click();
  const detail = dialog(page, '查看');
  await expect(detail.getByTestId('duplicate-result')).toBeVisible();
  await expect(detail.getByText(`${tag}-基准.txt`).first()).toBeVisible();
  const left = detail.getByTestId('duplicate-left').locator('mark');
  const right = detail.getByTestId('duplicate-right').locator('mark');
  await expect(left).toHaveCount(1);
  await expect(right).toHaveCount(1);
  // the stored texts are normalised (NFKC: the full-width comma becomes ',')
  await expect(left).toHaveText(PASSAGE.normalize('NFKC'));
  await expect(right).toHaveText(PASSAGE.normalize('NFKC'));

  // the report downloads as .docx (a zip package: PK)
  const download = page.waitForEvent('download');
  await detail.getByRole('button', { name: /下载报告/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.docx$/);
  const bytes = fs.readFileSync((await file.path())!);
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
});
