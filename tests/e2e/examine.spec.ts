/**
 * The examination of an achievement (issue 5, spec 001 §7), on 论文 (schemas/basic/thesis.json `actions`):
 * a researcher registers a thesis and submits it; the research management of the same company sees it 待审核,
 * rejects it (an opinion is required), the researcher reads the opinion in the review history, edits and
 * resubmits, the examiner approves, and the history shows every step in order. A researcher of another company
 * does not see the record, and the research management of one subsidiary cannot act on another's records.
 */
import { button, chooseOption, chooseTreeNode, dialog, expect, formItem, login, openMenu, sessionHeaders, test, tinyPdf, typeDate } from './fixtures.js';
import type { Page } from '@playwright/test';

const CAPTURE = '/api/basic/thesis/submit';

async function openTheses(page: Page): Promise<void> {
  await openMenu(page, '科技成果', '论文');
  await expect(page).toHaveURL(/\/basic\/thesis$/);
  await expect(page.locator('.ant-table-thead')).toContainText('论文名称');
}

async function logout(page: Page): Promise<void> {
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
}

test('a thesis is submitted, rejected with an opinion, resubmitted and approved; the history shows every step', async ({ page, password }) => {
  test.setTimeout(180_000);
  const title = `储粮害虫绿色防控技术研究-${Date.now().toString(36)}`;
  const opinion = '期号与页码范围不一致，请核对后重新提交';
  const row = page.locator('.ant-table-row', { hasText: title });

  // kyry (researcher, 华北分公司 仓储管理部) registers a thesis
  await login(page, 'kyry', password);
  await openTheses(page);
  await button(page, '新增').click();
  const form = dialog(page, '新增');
  await expect(form).toBeVisible();
  await formItem(form, '论文名称').locator('input').fill(title);
  await formItem(form, '项目来源').getByText('无', { exact: true }).click();
  await formItem(form, '项目名称').locator('input').fill('低温储粮节能控制技术研究');
  await chooseOption(formItem(form, '成果来源'), '集团公司项目');
  await formItem(form, '发表刊物/论文集').locator('input').fill('粮食储藏');
  await typeDate(formItem(form, '出版年份'), '2024');
  await formItem(form, '期号').locator('input').fill('3');
  await formItem(form, '页码范围').locator('input').fill('12-18');
  await chooseOption(formItem(form, '刊物级别'), 'EI');
  await chooseOption(formItem(form, '发表类型'), '期刊论文');
  await chooseTreeNode(formItem(form, '承担单位'), '仓储管理部');
  const upload = page.waitForResponse((r) => r.url().includes('/api/blade-resource/oss/endpoint/put-file'));
  await formItem(form, '附件').locator('input[type=file]').setInputFiles({ name: '论文全文.pdf', mimeType: 'application/pdf', buffer: tinyPdf() });
  expect((await upload).status()).toBe(200);
  await expect(formItem(form, '附件').getByText('论文全文.pdf')).toBeVisible();
  const saved = page.waitForResponse((r) => r.url().includes(CAPTURE) && r.request().method() === 'POST');
  await button(form, '保存').click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByText('新增成功')).toBeVisible();
  await expect(form).toBeHidden();
  await expect(row).toBeVisible();
  await expect(row).toContainText('草稿');

  // the record's id, for the API checks at the end
  const headersKyry = await sessionHeaders(page);
  const listed = await page.request.get(`/api/basic/thesis/page?current=1&size=50&title=${encodeURIComponent(title)}`, { headers: headersKyry });
  const found = ((await listed.json()).data.records as Array<{ id: string; title: string }>).find((r) => r.title === title);
  expect(found, 'the new thesis is in kyry’s page').toBeTruthy();
  const id = found!.id;

  // 提交审核 asks to confirm, then the record is 待审核 and can no longer be edited
  await button(row, '提交审核').click();
  const confirmSubmit = dialog(page, '提交审核');
  await expect(confirmSubmit).toContainText('确定提交审核？');
  await button(confirmSubmit, '确定').click();
  await expect(page.getByText('提交成功')).toBeVisible();
  await expect(row).toContainText('待审核');
  await expect(button(row, '编辑')).toHaveCount(0);
  await expect(button(row, '提交审核')).toHaveCount(0);

  // kygl_hb (research management of 华北分公司) sees it 待审核 and rejects it
  await logout(page);
  await login(page, 'kygl_hb', password);
  await openTheses(page);
  await expect(row).toBeVisible();
  await expect(row).toContainText('待审核');
  await button(row, '驳回').click();
  const reject = dialog(page, '驳回');
  await expect(reject).toBeVisible();
  await button(reject, '确定').click();
  await expect(reject.getByText('请输入审核意见')).toBeVisible();
  await expect(reject).toBeVisible();
  await formItem(reject, '审核意见').locator('textarea').fill(opinion);
  await button(reject, '确定').click();
  await expect(page.getByText('已驳回').first()).toBeVisible();
  await expect(reject).toBeHidden();
  await expect(row).toContainText('已驳回');

  // kyry reads the opinion in the detail's review history, edits and resubmits
  await logout(page);
  await login(page, 'kyry', password);
  await openTheses(page);
  await expect(row).toContainText('已驳回');
  await button(row, '查看').click();
  let detail = dialog(page, '查看');
  await expect(detail).toBeVisible();
  let steps = detail.getByTestId('examine-step');
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText('提交审核');
  await expect(steps.nth(1)).toContainText('驳回');
  await expect(steps.nth(1)).toContainText(opinion);
  await expect(steps.nth(1)).toContainText('周审');
  await button(detail, '关闭').click();
  await expect(detail).toBeHidden();

  await button(row, '编辑').click();
  const edit = dialog(page, '编辑');
  await expect(edit).toBeVisible();
  await expect(formItem(edit, '期号').locator('input')).toHaveValue('3');
  await formItem(edit, '期号').locator('input').fill('4');
  await formItem(edit, '页码范围').locator('input').fill('21-27');
  await button(edit, '保存').click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('已驳回');

  await button(row, '重新提交').click();
  const again = dialog(page, '重新提交');
  await expect(again).toBeVisible();
  await formItem(again, '修改说明').locator('textarea').fill('已核对期号与页码');
  await button(again, '确定').click();
  await expect(again).toBeHidden();
  await expect(row).toContainText('待审核');

  // kygl_hb approves it
  await logout(page);
  await login(page, 'kygl_hb', password);
  await openTheses(page);
  const hbHeaders = await sessionHeaders(page);
  await expect(row).toContainText('待审核');
  await button(row, '查看').click();
  detail = dialog(page, '查看');
  await expect(formItem(detail, '期号')).toContainText('4');
  await expect(formItem(detail, '页码范围')).toContainText('21-27');
  await button(detail, '审核通过').click();
  const approve = dialog(page, '审核通过');
  await expect(approve).toBeVisible();
  await formItem(approve, '审核意见').locator('textarea').fill('同意');
  await button(approve, '确定').click();
  await expect(approve).toBeHidden();

  // the history, oldest first: submit, reject (with the opinion), resubmit, approve
  steps = detail.getByTestId('examine-step');
  await expect(steps).toHaveCount(4);
  await expect(steps.nth(0)).toContainText('提交审核');
  await expect(steps.nth(0)).toContainText('刘研');
  await expect(steps.nth(1)).toContainText('驳回');
  await expect(steps.nth(1)).toContainText(opinion);
  await expect(steps.nth(2)).toContainText('重新提交');
  await expect(steps.nth(2)).toContainText('已核对期号与页码');
  await expect(steps.nth(3)).toContainText('审核通过');
  await expect(steps.nth(3)).toContainText('周审');
  await expect(button(detail, '审核通过')).toHaveCount(0);
  await expect(button(detail, '驳回')).toHaveCount(0);
  await button(detail, '关闭').click();
  await expect(row).toContainText('审核通过');

  // duo (researcher of 华东分公司) does not see it
  await logout(page);
  await login(page, 'duo', password, '科研人员');
  await openTheses(page);
  await expect(page.locator('.kc-list-page')).toBeVisible();
  await expect(row).toHaveCount(0);
  const duoHeaders = await sessionHeaders(page);
  const duoPage = await page.request.get(`/api/basic/thesis/page?current=1&size=200`, { headers: duoHeaders });
  expect(((await duoPage.json()).data.records as Array<{ id: string }>).map((r) => r.id)).not.toContain(id);

  // kygl_hb cannot act on a record of 华东分公司: duo's own thesis, submitted for review through the API
  const put = await page.request.post('/api/blade-resource/oss/endpoint/put-file', {
    headers: duoHeaders,
    multipart: { file: { name: '论文全文.pdf', mimeType: 'application/pdf', buffer: tinyPdf() } },
  });
  const file = (await put.json()).data as { link: string; name: string; originalName: string };
  const eastTitle = `${title}-华东`;
  const created = await page.request.post('/api/basic/thesis/submit', {
    headers: duoHeaders,
    data: {
      title: eastTitle, projectSource: 3, projectName: '粮情监测数据平台建设', projectType: '1', publish: '粮油食品科技', publishDate: '2024',
      issueNumber: '2', pageScope: '5-9', level: '3', scope: '1', deptId: await deptOf(page, duoHeaders, '科技发展部'),
      annex: [{ name: file.name, link: file.link, originalName: file.originalName }],
    },
  });
  expect((await created.json()).code).toBe(200);
  const duoList = await page.request.get(`/api/basic/thesis/page?current=1&size=50&title=${encodeURIComponent(eastTitle)}`, { headers: duoHeaders });
  const eastId = ((await duoList.json()).data.records as Array<{ id: string; title: string }>).find((r) => r.title === eastTitle)!.id;
  const submitted = await page.request.post('/api/basic/examine/submit', { headers: duoHeaders, data: { businessId: eastId, businessType: 'basic/thesis', action: 'submitExamine' } });
  expect((await submitted.json()).code).toBe(200);
  const refused = await page.request.post('/api/basic/examinerecord/submit', {
    headers: hbHeaders,
    data: { businessId: eastId, businessType: 'basic/thesis', action: 'reject', opinion: '越权驳回' },
  });
  // outside 华北 research management's data scope (own company and below): not found
  expect(refused.status()).toBe(404);
  expect((await refused.json()).msg).toBe('数据不存在');
});

async function deptOf(page: Page, headers: Record<string, string>, title: string): Promise<string | undefined> {
  const res = await page.request.get('/api/blade-system/dept/tree', { headers });
  const find = (nodes: Array<{ title: string; value: string; children?: unknown[] }>): string | undefined => {
    for (const n of nodes) {
      if (n.title === title) return n.value;
      const below = find((n.children ?? []) as typeof nodes);
      if (below) return below;
    }
    return undefined;
  };
  return find((await res.json()).data);
}
