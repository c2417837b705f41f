/**
 * The patent screen (spec 002 §2), rendered from schemas/basic/patent.json: menu 科技成果 → 专利, the list, the
 * add dialog with its validation messages, saving a complete record (department tree, project source, dictionary
 * selects, dates, an uploaded PDF), the detail view, and deleting.
 */
import { button, dialog, expect, fillPatent, formItem, login, openMenu, test } from './fixtures.js';

test('add a patent: empty form refused, complete form saved, listed after a reload, viewed, deleted', async ({ page, password }) => {
  const name = `一种粮仓温湿度智能监测装置-${Date.now().toString(36)}`;
  await login(page, 'kygl', password);
  await openMenu(page, '科技成果', '专利');
  await expect(page).toHaveURL(/\/basic\/patent$/);
  await expect(page.locator('.ant-table-thead')).toContainText('专利名称');
  await expect(page.locator('.kc-tagbar')).toContainText('专利');

  // the empty form is refused with the schema's messages
  await button(page, '新增').click();
  const form = dialog(page, '新增');
  await expect(form).toBeVisible();
  await button(form, '保存').click();
  await expect(form.getByText('请输入专利名称')).toBeVisible();
  await expect(form.getByText('请选择登记单位')).toBeVisible();
  await expect(form.getByText('请上传附件')).toBeVisible();
  await expect(form).toBeVisible();

  // a complete record
  await fillPatent(page, form, name, { authorizationCode: 'ZL202310123456.7', code: '第6543210号' });
  await expect(form.getByText('请输入专利名称')).toBeHidden();

  await button(form, '保存').click();
  await expect(page.getByText('新增成功')).toBeVisible();
  await expect(form).toBeHidden();
  const row = page.locator('.ant-table-row', { hasText: name });
  await expect(row).toBeVisible();
  await expect(row).toContainText('发明专利');
  await expect(row).toContainText('ZL202310123456.7');
  await expect(row).toContainText('2023-03-15');
  await expect(row).toContainText('粮食仓储物联网应用示范');

  // it is stored: still there after a reload
  await page.reload();
  await expect(page).toHaveURL(/\/basic\/patent$/);
  await expect(row).toBeVisible();

  // the detail view shows the values as labels
  await row.getByRole('button', { name: /查\s*看/ }).click();
  const detail = dialog(page, '查看');
  await expect(detail).toBeVisible();
  await expect(formItem(detail, '专利名称')).toContainText(name);
  await expect(formItem(detail, '登记单位')).toContainText('集团科技信息部');
  await expect(formItem(detail, '项目来源')).toContainText('无');
  await expect(formItem(detail, '项目名称')).toContainText('粮食仓储物联网应用示范');
  await expect(formItem(detail, '成果来源')).toContainText('集团公司项目');
  await expect(formItem(detail, '专利类型')).toContainText('发明专利');
  await expect(formItem(detail, '国家或地区')).toContainText('中国');
  await expect(formItem(detail, '地址')).toContainText('北京市西城区粮储大厦');
  await expect(formItem(detail, '邮编')).toContainText('100032');
  await expect(formItem(detail, '申请日期')).toContainText('2023-03-15');
  await expect(formItem(detail, '授权公告日')).toContainText('2024-06-20');
  await expect(formItem(detail, '授权号/专利号')).toContainText('ZL202310123456.7');
  await expect(formItem(detail, '专利证书号')).toContainText('第6543210号');
  await expect(formItem(detail, '附件')).toContainText('专利证书.pdf');
  await button(detail, '关闭').click();
  await expect(detail).toBeHidden();

  // delete it: select the row, 删除, confirm
  await row.locator('.ant-checkbox-input').check();
  await button(page.locator('.kc-list-page'), '删除').first().click();
  const confirm = page.locator('.ant-modal-confirm');
  await expect(confirm).toContainText('确定将选择数据删除?');
  await button(confirm, '确定').click();
  await expect(page.getByText('删除成功')).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.reload();
  await expect(page.locator('.ant-table-thead')).toContainText('专利名称');
  await expect(page.locator('.ant-table-row', { hasText: name })).toHaveCount(0);
});

test('deleting with nothing selected asks to select a record first', async ({ page, password }) => {
  await login(page, 'kygl', password);
  await openMenu(page, '科技成果', '专利');
  await expect(page.locator('.ant-table-thead')).toContainText('专利名称');
  await button(page.locator('.kc-list-page'), '删除').first().click();
  await expect(page.getByText('请选择至少一条数据')).toBeVisible();
  await expect(page.locator('.ant-modal-confirm')).toHaveCount(0);
});
