// @vitest-environment jsdom
/**
 * The personal info page (spec 000 §2.11, §3.3, §5) and the register dialog (§2.7, §5, §8) against a fake
 * server: the form of schemas/_pages/userinfo.json filled from `info`, read-only fields, a required field left
 * empty (its message, nothing posted), the ID number giving sex and birthday, a server field error on its
 * field, the research fields for project managers only, the password form's rules; the register dialog's
 * checks in the spec's order and its success notice; the forgotten-password dialog.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { UserInfoPage } from './UserInfoPage.js';
import { RegisterDialog, registerFault } from './RegisterDialog.js';
import { ForgotPasswordDialog } from './ForgotPasswordDialog.js';
import { fail, ok, renderApp, setLang, type FakeServer } from '../runtime/test-utils.js';
import { baseServer, signInAs } from '../runtime/fixtures.js';
import { getSession } from '../runtime/session.js';

const INFO = {
  id: '1001', userId: '1001', tenantId: '000000', account: 'u1001', realName: '张三', phone: '13812345678', companyName: '粮储集团有限公司',
  deptName: '集团科技信息部', email: 'z@example.com', sex: 1, idcard: null, birthday: null, zcLevel: null, zc: '工程师', zw: '科员', education: null,
  job: '粮食储藏', school: null, graduationDate: null, address: null, postalCode: null, remark: null, researchProject: null, awards: null, thesis: null,
  isPerfect: false, signTemplate: null, mustChangePassword: false, roles: [],
};

let server: FakeServer;

beforeEach(() => {
  setLang('zh');
  signInAs('researcher');
  server = baseServer();
  server.on('GET', '/api/blade-user/info', INFO);
  server.on('POST', '/api/blade-user/update-info', (r: { body: unknown }) => ok({ ...INFO, ...(r.body as object) }));
});

const page = () => renderApp(<MemoryRouter><UserInfoPage /></MemoryRouter>);
const field = (label: string) => {
  const item = screen.getByText(label, { selector: 'label, .ant-formily-item-label *' }).closest('.ant-formily-item') as HTMLElement;
  return item;
};

describe('UserInfoPage', () => {
  it('shows the info; read-only fields cannot change; an empty required field is refused before posting', async () => {
    page();
    expect(await screen.findByDisplayValue('张三')).toBeTruthy();
    expect(screen.getByDisplayValue('u1001')).toHaveProperty('readOnly', true);
    expect(screen.getByDisplayValue('13812345678')).toHaveProperty('readOnly', true);
    expect(screen.queryByText('主持或参与的科研项目')).toBeNull();
    fireEvent.change(screen.getByDisplayValue('张三'), { target: { value: '' } });
    fireEvent.click(screen.getAllByRole('button', { name: /^保\s?存$/ })[0]);
    expect(await screen.findByText('请输入用户姓名')).toBeTruthy();
    expect(server.calls('/api/blade-user/update-info')).toHaveLength(0);
  });

  it('a valid ID number fills sex and birthday; a bad one says why; a server field error lands on its field', async () => {
    server.on('GET', '/api/blade-user/info', { ...INFO, zcLevel: '4', education: '4' });
    page();
    await screen.findByDisplayValue('张三');
    const idcard = within(field('身份证号')).getByRole('textbox');
    fireEvent.change(idcard, { target: { value: '110105194912310021' } });
    fireEvent.blur(idcard);
    expect(await screen.findByText('证件号码校验位错误')).toBeTruthy();
    fireEvent.change(idcard, { target: { value: '110105491231002' } });
    expect(await screen.findByText('证件号码长度不为18位')).toBeTruthy();
    fireEvent.change(idcard, { target: { value: '11010519491231002X' } });
    await waitFor(() => expect(screen.getByDisplayValue('1949-12-31')).toBeTruthy());
    expect((within(field('性别')).getByLabelText('女') as HTMLInputElement).checked).toBe(true);
    server.on('POST', '/api/blade-user/update-info', fail(400, '职称级别不存在', [{ field: 'zcLevel', message: '职称级别不存在' }]));
    fireEvent.click(screen.getAllByRole('button', { name: /^保\s?存$/ })[0]);
    expect(await within(field('职称级别')).findByText('职称级别不存在')).toBeTruthy();
    expect(server.calls('/api/blade-user/update-info')[0].body).toMatchObject({ idcard: '11010519491231002X', sex: 2, birthday: '1949-12-31', zcLevel: '4' });
  });

  it('the research fields show for a project manager', async () => {
    signInAs('projectManager');
    page();
    await screen.findByDisplayValue('张三');
    expect(screen.getByText('主持或参与的科研项目')).toBeTruthy();
    expect(screen.getByText('获奖情况')).toBeTruthy();
    expect(screen.getByText('发表论文')).toBeTruthy();
  });

  it('the password form: required old password, two character classes, the two must match', async () => {
    server.on('POST', '/api/blade-user/update-password', fail(400, '原密码不正确', [{ field: 'oldPassword', message: '原密码不正确' }]));
    page();
    await screen.findByDisplayValue('张三');
    const submit = screen.getByRole('button', { name: '修改密码' });
    fireEvent.change(screen.getByLabelText('新密码'), { target: { value: 'abcdefgh' } });
    fireEvent.change(screen.getByLabelText('确认密码'), { target: { value: 'abcdefgx' } });
    fireEvent.click(submit);
    expect(await screen.findByText('请输入原密码')).toBeTruthy();
    expect(await screen.findAllByText('密码长度为8-16位,且至少包含数字、小写字母、大写字母、特殊符号中的两种')).toHaveLength(2);
    fireEvent.change(screen.getByLabelText('新密码'), { target: { value: 'abcdefg1' } });
    fireEvent.change(screen.getByLabelText('确认密码'), { target: { value: 'abcdefg2' } });
    fireEvent.change(screen.getByLabelText('原密码'), { target: { value: 'wrong' } });
    fireEvent.click(submit);
    expect(await screen.findByText('两次输入密码不一致')).toBeTruthy();
    expect(server.calls('/api/blade-user/update-password')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('确认密码'), { target: { value: 'abcdefg1' } });
    fireEvent.click(submit);
    expect(await screen.findByText('原密码不正确')).toBeTruthy();
    expect(server.calls('/api/blade-user/update-password')[0].body).toEqual({ oldPassword: 'wrong', newPassword: 'abcdefg1', newPassword1: 'abcdefg1' });
  });
});

describe('RegisterDialog', () => {
  it('checks in the spec\'s order', () => {
    expect(registerFault({ account: 'a', password: 'x', password2: 'x' })).toBe('register.tenantRequired');
    expect(registerFault({ tenantId: '000000', password: 'x', password2: 'x' })).toBe('register.accountRequired');
    expect(registerFault({ tenantId: '000000', account: 'a', password: 'x' })).toBe('register.passwordRequired');
    expect(registerFault({ tenantId: '000000', account: 'a', password: 'x', password2: 'y' })).toBe('register.mismatch');
    expect(registerFault({ tenantId: '000000', account: 'a', password: 'x', password2: 'x' })).toBeNull();
  });

  it('shows the first failing check, then the server\'s message; success closes, notifies and signs out', async () => {
    server.on('POST', '/api/blade-user/register-guest', fail(400, '账号已存在'));
    let closed = false;
    renderApp(<RegisterDialog open oauthId="77" onClose={() => (closed = true)} />);
    expect(await screen.findByText('账号注册')).toBeTruthy();
    const ok_ = () => screen.getByRole('button', { name: /提\s?交/ });
    fireEvent.click(ok_());
    expect(await screen.findByText('请先输入租户编号')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('租户编号'), { target: { value: '000000' } });
    fireEvent.click(ok_());
    expect(await screen.findByText('请先输入账号名称')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('账号'), { target: { value: 'newbie' } });
    fireEvent.click(ok_());
    expect(await screen.findByText('请先输入密码')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'abcdefg1' } });
    fireEvent.change(screen.getByLabelText('确认密码'), { target: { value: 'abcdefg2' } });
    fireEvent.click(ok_());
    expect(await screen.findByText('两次密码输入不一致')).toBeTruthy();
    expect(server.calls('/api/blade-user/register-guest')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('确认密码'), { target: { value: 'abcdefg1' } });
    fireEvent.click(ok_());
    expect(await screen.findByText('账号已存在')).toBeTruthy();
    expect(server.calls('/api/blade-user/register-guest')[0].body).toEqual({ tenantId: '000000', account: 'newbie', password: 'abcdefg1', password2: 'abcdefg1', oauth_id: '77' });
    server.on('POST', '/api/blade-user/register-guest', true);
    fireEvent.click(ok_());
    expect(await screen.findByText('注册申请已提交,请耐心等待管理员通过!')).toBeTruthy();
    expect(screen.getAllByText('注册提示').length).toBeGreaterThan(0);
    expect(closed).toBe(true);
    expect(getSession().token).toBeUndefined();
  });
});

describe('ForgotPasswordDialog', () => {
  it('sends a password code for the account\'s phone, then changes the password with the strict rule', async () => {
    server.on('POST', '/api/blade-resource/sms/endpoint/send-validate', { id: '9' });
    server.on('POST', '/api/blade-resource/sms/endpoint/validate-message', { code: 't-9' });
    server.on('POST', '/api/blade-user/update-password-by-smscode', true);
    let closed = false;
    renderApp(<ForgotPasswordDialog open onClose={() => (closed = true)} />);
    fireEvent.change(await screen.findByLabelText('账号'), { target: { value: 'kyry' } });
    fireEvent.change(screen.getByLabelText('手机号码'), { target: { value: '13812345678' } });
    await waitFor(() => expect(screen.getByRole('button', { name: /获取验证码$/ })).toHaveProperty('disabled', false));
    fireEvent.click(screen.getByRole('button', { name: /获取验证码$/ }));
    await waitFor(() => expect(server.calls('/api/blade-resource/sms/endpoint/send-validate')).toHaveLength(1));
    expect(server.calls('/api/blade-resource/sms/endpoint/send-validate')[0].body).toEqual({ phone: '13812345678', tenantId: '000000', purpose: 'password', account: 'kyry' });
    fireEvent.change(screen.getByLabelText('短信验证码'), { target: { value: '123456' } });
    fireEvent.change(screen.getByLabelText('新密码'), { target: { value: 'abcdefg1' } });
    fireEvent.change(screen.getByLabelText('确认密码'), { target: { value: 'abcdefg1' } });
    fireEvent.click(within(document.querySelector('.kc-forgot') as HTMLElement).getByRole('button', { name: /确\s?定/ }));
    expect((await screen.findAllByText('密码长度为8-16位,且必须包含大小写字母、数字和特殊符号')).length).toBeGreaterThan(0);
    expect(server.calls('/api/blade-resource/sms/endpoint/validate-message')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('新密码'), { target: { value: 'Abcdef#1' } });
    fireEvent.change(screen.getByLabelText('确认密码'), { target: { value: 'Abcdef#1' } });
    fireEvent.click(within(document.querySelector('.kc-forgot') as HTMLElement).getByRole('button', { name: /确\s?定/ }));
    await waitFor(() => expect(closed).toBe(true));
    expect(server.calls('/api/blade-user/update-password-by-smscode')[0].body).toEqual({ newPassword: 'Abcdef#1', newPassword1: 'Abcdef#1', account: 'kyry', tenantId: '000000', code: 't-9' });
  });
});
