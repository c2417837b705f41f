// @vitest-environment jsdom
/**
 * The add / edit dialog with the patent schema (spec 001 §5, 000 §8) against a fake server: the schema's
 * validation messages, the project-source reactions (3 shows the project name, 1 and 2 the project picker),
 * the picker's server error while the project resource does not exist, server field errors on their fields
 * (sub-form paths included) with the save button usable again, and the success messages.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FormDialog } from './FormDialog.js';
import { ResourcePage } from './ResourcePage.js';
import { fail, ok, renderApp, setLang, type FakeServer } from './test-utils.js';
import { baseServer, patentRecord, patentSchema } from './fixtures.js';

let server: FakeServer;

beforeEach(() => {
  setLang('zh');
  server = baseServer();
  server.on('GET', '/api/basic/patent/list', ok({ records: [], total: 0, size: 10, current: 1, pages: 0 }));
});

const saveButton = () => screen.getByRole('button', { name: /保\s*存/ });

describe('FormDialog', () => {
  it('refuses an empty patent with the schema messages and posts nothing', async () => {
    const user = userEvent.setup();
    renderApp(<ResourcePage name="basic/patent" />);
    await user.click(await screen.findByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('专利名称');
    await user.click(saveButton());
    expect(await within(dialog).findByText('请输入专利名称')).toBeTruthy();
    for (const m of ['请选择登记单位', '请选择项目来源', '请选择成果来源', '请选择专利类型', '请输入申请日期', '请上传附件']) expect(within(dialog).getByText(m)).toBeTruthy();
    expect(server.calls('/api/basic/patent/submit')).toHaveLength(0);
    expect(saveButton().className).not.toContain('ant-btn-loading');
    // how many fields need attention, and the first of them brought into view with the focus (issue 18 defect 6)
    const invalid = dialog.querySelectorAll('.ant-formily-item-error').length;
    expect(invalid).toBeGreaterThanOrEqual(7);
    expect(await screen.findByText(`有 ${invalid} 项需要修改，请查看标红的字段`)).toBeTruthy();
    const first = dialog.querySelector('.ant-formily-item-error')!;
    await waitFor(() => expect(first.contains(document.activeElement)).toBe(true));
  });

  it('applies the form properties the designer sets: a disabled form disables its fields', async () => {
    const disabled = { ...patentSchema, form: { ...patentSchema.form, 'x-pattern': 'disabled' as const } };
    renderApp(<FormDialog resource={disabled} open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('专利名称');
    const inputs = [...dialog.querySelectorAll('input.ant-input')] as HTMLInputElement[];
    expect(inputs.length).toBeGreaterThan(3);
    expect(inputs.every((i) => i.disabled)).toBe(true);
  });

  it('shows the project name for source 3 and the project picker for 1, with the server message when projects are missing', async () => {
    const user = userEvent.setup();
    renderApp(<FormDialog resource={patentSchema} open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('专利名称');
    expect(within(dialog).queryByText('项目名称')).toBeNull();
    expect(within(dialog).queryByText('项目')).toBeNull();
    await user.click(within(dialog).getByLabelText('无'));
    expect(await within(dialog).findByText('项目名称')).toBeTruthy();
    expect(within(dialog).queryByText('请选择项目')).toBeNull();
    await user.click(within(dialog).getByLabelText('已在平台申报的项目'));
    expect(await within(dialog).findByText('请选择项目')).toBeTruthy();
    expect(within(dialog).queryByText('项目名称')).toBeNull();
    // the projects cannot be read (here: no such endpoint): the picker shows the server's message
    const selects = [...dialog.querySelectorAll('.ant-select')].filter((s) => s.textContent?.includes('请选择项目'));
    fireEvent.mouseDown(selects[0].querySelector('.ant-select-selector')!);
    expect(await screen.findByText('接口不存在: /api/project/baseinfo/select')).toBeTruthy();
    expect(server.calls('/api/project/baseinfo/select')[0].query).toEqual({ declareStatus: '1' });
    await user.click(within(dialog).getByLabelText('未在平台申报的项目'));
    fireEvent.mouseDown(selects[0].querySelector('.ant-select-selector')!);
    await waitFor(() => expect(server.calls('/api/project/baseinfo/select').at(-1)!.query).toEqual({ declareStatus: '0' }));
  });

  it('fills the project name from the chosen project', async () => {
    server.on('GET', '/api/project/baseinfo/select', ok([{ id: '77', name: '智慧粮库建设', declareStatus: 1 }]));
    let body: Record<string, unknown> = {};
    server.on('POST', '/api/basic/patent/submit', (r: { body: unknown }) => {
      body = r.body as Record<string, unknown>;
      return ok(body);
    });
    const user = userEvent.setup();
    renderApp(<FormDialog resource={patentSchema} open initialValues={patentRecord({ id: undefined, projectSource: 1, projectName: null })} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    const select = await waitFor(() => {
      const s = [...dialog.querySelectorAll('.ant-select')].find((x) => x.textContent?.includes('请选择项目'));
      expect(s).toBeTruthy();
      return s!;
    });
    fireEvent.mouseDown(select.querySelector('.ant-select-selector')!);
    fireEvent.click(await screen.findByText('智慧粮库建设', { selector: '.ant-select-item-option-content' }));
    await user.click(saveButton());
    expect(await screen.findByText('新增成功')).toBeTruthy();
    expect(body).toMatchObject({ projectSource: 1, projectId: '77', projectName: '智慧粮库建设' });
  });

  it('edits a record, shows the server field errors on their fields and saves again', async () => {
    server.on('GET', '/api/basic/patent/detail', (r: { query: Record<string, string> }) => (r.query.id === '9001' ? ok(patentRecord()) : fail(404, '数据不存在')));
    let attempt = 0;
    const bodies: Array<Record<string, unknown>> = [];
    server.on('POST', '/api/basic/patent/submit', (r: { body: unknown }) => {
      bodies.push(r.body as Record<string, unknown>);
      attempt++;
      if (attempt === 1)
        return fail(400, '专利名称已存在', [
          { field: 'name', message: '专利名称已存在' },
          { field: 'assignee.0.name', message: '受让方名称不能超过100个字符' },
          { field: 'nosuchfield', message: '未知字段: nosuchfield' },
        ]);
      return ok(r.body);
    });
    const onSaved = vi.fn();
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderApp(<FormDialog resource={patentSchema} open recordKey="9001" onClose={onClose} onSaved={onSaved} />);
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByDisplayValue('一种粮仓温湿度监测装置')).toBeTruthy();
    expect(within(dialog).getByDisplayValue('甲公司')).toBeTruthy();
    await user.click(saveButton());
    const nameError = await within(dialog).findAllByText('专利名称已存在');
    expect(nameError.some((e) => e.closest('.ant-formily-item')?.textContent?.includes('专利名称'))).toBe(true);
    const cellError = await within(dialog).findByText('受让方名称不能超过100个字符');
    expect(cellError.closest('td')).toBeTruthy();
    expect(within(dialog).getByText(/nosuchfield: 未知字段/)).toBeTruthy();
    expect(bodies[0]).toMatchObject({ id: '9001', name: '一种粮仓温湿度监测装置' });
    // exactly the row's fields: no bookkeeping keys of the table component
    expect(bodies[0].assignee).toEqual([{ name: '甲公司', transferType: '1' }]);
    await waitFor(() => expect(saveButton().className).not.toContain('ant-btn-loading'));
    expect(onClose).not.toHaveBeenCalled();
    // editing the field clears its server error
    const name = within(dialog).getByDisplayValue('一种粮仓温湿度监测装置');
    await user.type(name, '二');
    await waitFor(() => expect(within(dialog).queryAllByText('专利名称已存在').filter((e) => e.closest('.ant-formily-item'))).toHaveLength(0));
    await user.click(saveButton());
    expect(await screen.findByText('更新成功')).toBeTruthy();
    expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ name: '一种粮仓温湿度监测装置二' }), false);
    expect(onClose).toHaveBeenCalled();
  });

  it('says 新增成功 for a new record and shows English messages in English', async () => {
    server.on('POST', '/api/basic/patent/submit', (r: { body: unknown }) => ok({ ...(r.body as object), id: '1' }));
    const user = userEvent.setup();
    const { unmount } = renderApp(<FormDialog resource={patentSchema} open initialValues={patentRecord({ id: undefined })} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByDisplayValue('一种粮仓温湿度监测装置');
    await user.click(saveButton());
    expect(await screen.findByText('新增成功')).toBeTruthy();
    expect(server.calls('/api/basic/patent/submit')[0].body).not.toHaveProperty('id');
    unmount();
    setLang('en');
    renderApp(<FormDialog resource={patentSchema} open onClose={() => {}} />);
    const en = await screen.findByRole('dialog');
    await within(en).findByText('Patent name');
    await user.click(screen.getByRole('button', { name: /Save/ }));
    expect(await within(en).findByText('Please enter the patent name')).toBeTruthy();
    setLang('zh');
  });
});
