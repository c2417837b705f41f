/**
 * The form designer end to end (issue 4, spec 002): the administrator adds an input 备注二 to the patent form
 * (dragged from the palette onto the canvas), makes it required, saves and publishes; the patent screen then
 * asks for it (备注二必须填写), stores it (the detail shows it, the API answers it), and after a rollback to the
 * folder's schema (version 0) the form no longer has it while the stored value stays in the table (it comes
 * back when the version that has the field is published again). The run's server is shared, so the schema is
 * rolled back to version 0 in any case at the end.
 */
import type { APIRequestContext } from '@playwright/test';
import { button, dialog, expect, fillPatent, formItem, login, sessionHeaders, test } from './fixtures.js';

const NAME = 'basic/patent';

async function schemaCall(request: APIRequestContext, headers: Record<string, string>, action: 'publish' | 'rollback', version: number | string) {
  const res = await request.post(`/api/system/schema/${action}?name=${encodeURIComponent(NAME)}&version=${version}`, { headers });
  const json = (await res.json()) as { code: number; msg: string };
  expect(json.code, `${action} ${version}: ${json.msg}`).toBe(200);
}

async function detailOf(request: APIRequestContext, headers: Record<string, string>, id: string): Promise<Record<string, unknown>> {
  const res = await request.get(`/api/basic/patent/detail?id=${id}`, { headers });
  const json = (await res.json()) as { code: number; data: Record<string, unknown>; msg: string };
  expect(json.code, json.msg).toBe(200);
  return json.data;
}


test('designer: a required 备注二 is added to patents, published, asked for, stored, and gone after a rollback', async ({ page, password }) => {
  test.setTimeout(180_000);
  const patentName = `一种粮面平整机器人-${Date.now().toString(36)}`;
  const remark = '设计器新增字段的值';
  await login(page, 'admin', password);
  const admin = await sessionHeaders(page);
  let published = false;
  try {
    // the designer on 专利
    await page.goto('/designer/basic/patent');
    await expect(page.locator('.kc-dz-title')).toContainText('表单设计 · 专利 (basic/patent)');
    const canvas = page.locator('.dn-viewport');
    await expect(canvas).toContainText('专利名称');
    const fields = canvas.locator('[data-designer-node-id]');
    const before = await fields.count();

    // drag 单行文本 from the palette onto the lower half of 邮编 on the canvas: it goes in after it
    const source = page.locator('[data-palette-key="input"]');
    await expect(source).toHaveText('单行文本');
    const from = (await source.boundingBox())!;
    const to = (await fields.filter({ hasText: '邮编' }).last().boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 20, from.y + from.height / 2 + 5, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height * 0.75, { steps: 20 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height * 0.8, { steps: 3 });
    await page.mouse.up();
    await expect(fields).toHaveCount(before + 1);

    // its properties: the label 备注二, required
    await expect(page.getByRole('tab', { name: '字段属性' })).toBeVisible();
    const label = page.getByLabel('标题', { exact: true });
    await label.fill('备注二');
    await expect(canvas).toContainText('备注二');
    const fieldName = await page.getByLabel('属性值', { exact: true }).inputValue();
    expect(fieldName).toMatch(/^[A-Za-z_]\w*$/);
    await page.getByRole('switch', { name: '是否必填' }).click();
    await expect(page.getByRole('switch', { name: '是否必填' })).toBeChecked();

    // save a draft, then publish it
    const toolbar = page.locator('.kc-dz-toolbar');
    await button(toolbar, '保存').click();
    const savedMsg = page.getByText(/^保存成功，版本 \d+$/);
    await expect(savedMsg).toBeVisible();
    const version = Number((await savedMsg.textContent())!.match(/\d+/)![0]);
    await button(toolbar, '发布').click();
    const confirm = page.locator('.ant-modal-confirm');
    await expect(confirm).toContainText(`确定发布版本 ${version} 吗？`);
    await button(confirm, '确定').click();
    await expect(page.getByText(`发布成功，版本 ${version}`)).toBeVisible();
    published = true;

    // 专利 asks for 备注二
    await page.goto('/basic/patent');
    await expect(page.locator('.ant-table-thead')).toContainText('专利名称');
    await button(page, '新增').click();
    const form = dialog(page, '新增');
    await expect(formItem(form, '备注二')).toBeVisible();
    await fillPatent(page, form, patentName);
    await button(form, '保存').click();
    await expect(formItem(form, '备注二')).toContainText('备注二必须填写');
    await expect(form).toBeVisible();
    await formItem(form, '备注二').locator('input').fill(remark);
    await button(form, '保存').click();
    await expect(page.getByText('新增成功')).toBeVisible();
    await expect(form).toBeHidden();
    const row = page.locator('.ant-table-row', { hasText: patentName });
    await expect(row).toBeVisible();

    // stored: the detail shows it, the API answers it
    await row.getByRole('button', { name: /查\s*看/ }).click();
    const detail = dialog(page, '查看');
    await expect(formItem(detail, '备注二')).toContainText(remark);
    await button(detail, '关闭').click();
    const listed = await page.request.get(`/api/basic/patent/page?current=1&size=20&name=${encodeURIComponent(patentName)}`, { headers: admin });
    const id = ((await listed.json()).data.records as Array<{ id: string; name: string }>).find((r) => r.name === patentName)!.id;
    expect((await detailOf(page.request, admin, id))[fieldName]).toBe(remark);

    // roll back to the folder's schema: the form no longer has 备注二, the API no longer answers it
    await schemaCall(page.request, admin, 'rollback', 0);
    published = false;
    await page.reload();
    await expect(page.locator('.ant-table-thead')).toContainText('专利名称');
    await button(page, '新增').click();
    const again = dialog(page, '新增');
    await expect(formItem(again, '专利名称')).toBeVisible();
    await expect(formItem(again, '备注二')).toHaveCount(0);
    await expect(again).not.toContainText('备注二');
    await button(again, '取消').click();
    expect(await detailOf(page.request, admin, id)).not.toHaveProperty(fieldName);

    // the stored value stayed in the table: publishing the version with the field again shows it
    await schemaCall(page.request, admin, 'rollback', version);
    published = true;
    expect((await detailOf(page.request, admin, id))[fieldName]).toBe(remark);
  } finally {
    // leave the shared server with the folder's schema
    if (published) await schemaCall(page.request, admin, 'rollback', 0);
  }
});
