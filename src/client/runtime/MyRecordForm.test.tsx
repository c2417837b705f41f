// @vitest-environment jsdom
/**
 * The caller's own record edited in place (MyRecordForm) through the real message-settings schema: loaded from
 * getMySetting, saved to saveMySetting with the changed channels, a refused field shown on that field.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import settingJson from '../../../schemas/system/usermsgsetting.json';
import type { ResourceSchema } from '../../shared/schema/types.js';
import { MyRecordForm } from './MyRecordForm.js';
import { fail, ok, renderApp, setLang, type FakeServer } from './test-utils.js';
import { baseServer } from './fixtures.js';

const LOAD = '/api/system/usermsgsetting/getMySetting';
const SAVE = '/api/system/usermsgsetting/saveMySetting';
let server: FakeServer;

beforeEach(() => {
  setLang('zh');
  server = baseServer([settingJson as unknown as ResourceSchema]);
  server.on('GET', LOAD, { userId: '1001', todo: ['site'], examine: ['site', 'sms'], notice: ['site'], account: ['sms'] });
});

const form = () => renderApp(<MyRecordForm name="system/usermsgsetting" load={LOAD} save={SAVE} />);
const item = (label: string) => screen.getByText(label).closest('.ant-formily-item') as HTMLElement;

describe('MyRecordForm', () => {
  it('shows the stored channels and saves what was changed', async () => {
    server.on('POST', SAVE, (r: { body: unknown }) => ok(r.body));
    form();
    await screen.findByText('待办提醒');
    expect((within(item('审核结果')).getByLabelText('短信') as HTMLInputElement).checked).toBe(true);
    // the stored values are in the form before it is changed (on a loaded machine the answer can come late)
    await waitFor(() => expect((within(item('待办提醒')).getByLabelText('站内信') as HTMLInputElement).checked).toBe(true));
    fireEvent.click(within(item('待办提醒')).getByLabelText('邮件'));
    await waitFor(() => expect((within(item('待办提醒')).getByLabelText('邮件') as HTMLInputElement).checked).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(server.calls(SAVE)).toHaveLength(1));
    expect(server.calls(SAVE)[0].body).toMatchObject({ todo: ['site', 'email'], examine: ['site', 'sms'] });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it('puts a refused field’s message on that field', async () => {
    server.on('POST', SAVE, fail(400, '请选择正确的接收方式', [{ field: 'notice', message: '请选择正确的接收方式' }]));
    form();
    await screen.findByText('通知公告');
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await within(item('通知公告')).findByText('请选择正确的接收方式')).toBeTruthy();
    // and says how many fields need attention (issue 18 defect 6)
    expect(await screen.findByText('有 1 项需要修改，请查看标红的字段')).toBeTruthy();
  });
});
