// @vitest-environment jsdom
/**
 * The onboarding dialog and the password reminder (spec 000 §2.9, §2.10, §4, §5, §8) against a fake server:
 * step 0 with the masked phone, the strict password rule (nothing posted while it fails), the SMS countdown
 * that survives a remount, the two calls of a password change (validate-message, then
 * update-password-by-smscode) and what follows (close, or the personal-info step for a project manager and its
 * 'complete later'); no dialog when nothing is pending; 'I'll think about it, log out' ends the session; the
 * reminder with 'do not remind again' remembered per user.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { OnboardingDialog } from './OnboardingDialog.js';
import { AccountGate } from './PasswordReminder.js';
import { fail, renderApp, setLang, type FakeServer } from '../runtime/test-utils.js';
import { baseServer, signInAs } from '../runtime/fixtures.js';
import { getSession } from '../runtime/session.js';

const INFO = {
  id: '1001', userId: '1001', tenantId: '000000', account: 'u1001', realName: '张三', phone: '13812345678', isPerfect: false, signTemplate: null,
  mustChangePassword: true, roles: [], sex: 1, idcard: null, zcLevel: null, zc: null, zw: null, education: null, job: null, school: null,
};

let server: FakeServer;

beforeEach(() => {
  localStorage.clear();
  setLang('zh');
  signInAs('researcher');
  server = baseServer();
  server.on('GET', '/api/blade-user/info', INFO);
  server.on('POST', '/api/blade-resource/sms/endpoint/send-validate', { id: '555' });
  server.on('POST', '/api/blade-resource/sms/endpoint/validate-message', { code: 'ticket-1' });
  server.on('POST', '/api/blade-user/update-password-by-smscode', true);
  server.on('GET', '/api/blade-auth/oauth/logout', null);
});

const dialog = (onDone = vi.fn()) => renderApp(<MemoryRouter><OnboardingDialog onDone={onDone} /></MemoryRouter>);
const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } });

describe('OnboardingDialog', () => {
  it('step 0: masked phone, strict rule, SMS code, then the two calls and close', async () => {
    server.on('GET', '/api/blade-user/checkInit', { step: 0, hasStep: [0], desc: '请修改初始密码' });
    const onDone = vi.fn();
    dialog(onDone);
    expect(await screen.findByText(/138\*\*\*\*5678/)).toBeTruthy();
    expect(screen.getByText('修改密码')).toBeTruthy();
    expect(screen.queryByText('完善个人信息')).toBeNull();
    // a weak password: the spec's message, nothing posted
    type('新密码', 'abcdefg1');
    type('确认密码', 'abcdefg1');
    type('验证码', '123456');
    fireEvent.click(screen.getByRole('button', { name: '保存并关闭' }));
    expect((await screen.findAllByText('密码长度为8-16位,且必须包含大小写字母、数字和特殊符号')).length).toBeGreaterThan(0);
    expect(server.calls('/api/blade-resource/sms/endpoint/validate-message')).toHaveLength(0);
    // a short code
    type('新密码', 'Abcdef#1');
    type('确认密码', 'Abcdef#1');
    type('验证码', '123');
    fireEvent.click(screen.getByRole('button', { name: '保存并关闭' }));
    expect(await screen.findByText('验证码长度为6位')).toBeTruthy();
    expect(server.calls('/api/blade-resource/sms/endpoint/validate-message')).toHaveLength(0);
    // the code: sent for the account's phone, then the countdown
    fireEvent.click(screen.getByRole('button', { name: /获取验证码$/ }));
    await waitFor(() => expect(server.calls('/api/blade-resource/sms/endpoint/send-validate')).toHaveLength(1));
    expect(server.calls('/api/blade-resource/sms/endpoint/send-validate')[0].body).toEqual({ phone: '13812345678', tenantId: '000000', purpose: 'password', account: 'u1001' });
    expect(await screen.findByRole('button', { name: /秒后重新获取/ })).toHaveProperty('disabled', true);
    type('验证码', '654321');
    fireEvent.click(screen.getByRole('button', { name: '保存并关闭' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(server.calls('/api/blade-resource/sms/endpoint/validate-message')[0].body).toEqual({ id: '555', phone: '13812345678', tenantId: '000000', account: 'u1001', value: '654321' });
    expect(server.calls('/api/blade-user/update-password-by-smscode')[0].body).toEqual({ newPassword: 'Abcdef#1', newPassword1: 'Abcdef#1', account: 'u1001', tenantId: '000000', code: 'ticket-1' });
    await waitFor(() => expect(screen.queryByText(/138\*\*\*\*5678/)).toBeNull());
  });

  it('the countdown survives a remount (a reload), and a failed send re-enables the button with the server\'s message', async () => {
    server.on('GET', '/api/blade-user/checkInit', { step: 0, hasStep: [0], desc: '' });
    const first = dialog();
    fireEvent.click(await screen.findByRole('button', { name: /获取验证码$/ }));
    expect(await screen.findByRole('button', { name: /秒后重新获取/ })).toBeTruthy();
    first.unmount();
    dialog();
    expect(await screen.findByRole('button', { name: /^(5\d|60)秒后重新获取$/ })).toHaveProperty('disabled', true);
    localStorage.clear();
    server.on('POST', '/api/blade-resource/sms/endpoint/send-validate', fail(400, '验证码发送过于频繁,请 30 秒后再试'));
    await waitFor(() => expect(screen.getByRole('button', { name: /获取验证码$/ })).toHaveProperty('disabled', false));
    fireEvent.click(screen.getByRole('button', { name: /获取验证码$/ }));
    await waitFor(() => expect(server.calls('/api/blade-resource/sms/endpoint/send-validate')).toHaveLength(2));
    await waitFor(() => expect(screen.getByRole('button', { name: /获取验证码$/ })).toHaveProperty('disabled', false));
  });

  it('a failed change shows the server\'s message and stays open', async () => {
    server.on('GET', '/api/blade-user/checkInit', { step: 0, hasStep: [0], desc: '' });
    server.on('POST', '/api/blade-resource/sms/endpoint/validate-message', fail(400, '验证码错误'));
    const onDone = vi.fn();
    dialog(onDone);
    await screen.findByLabelText('新密码');
    type('新密码', 'Abcdef#1');
    type('确认密码', 'Abcdef#1');
    type('验证码', '000000');
    fireEvent.click(screen.getByRole('button', { name: '保存并关闭' }));
    await waitFor(() => expect(server.calls('/api/blade-resource/sms/endpoint/validate-message')).toHaveLength(1));
    expect(server.calls('/api/blade-user/update-password-by-smscode')).toHaveLength(0);
    expect(onDone).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: '保存并关闭' })).toBeTruthy();
  });

  it('nothing pending: no dialog', async () => {
    server.on('GET', '/api/blade-user/checkInit', { step: 4, hasStep: [], desc: '已完成' });
    const onDone = vi.fn();
    dialog(onDone);
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("'I'll think about it, log out' ends the session", async () => {
    server.on('GET', '/api/blade-user/checkInit', { step: 0, hasStep: [0], desc: '' });
    dialog();
    fireEvent.click(await screen.findByRole('button', { name: '我再想想,退出登录' }));
    await waitFor(() => expect(getSession().token).toBeUndefined());
    expect(server.calls('/api/blade-auth/oauth/logout')).toHaveLength(1);
  });

  it('a project manager goes on to personal info; complete later sends only id and isPerfect', async () => {
    signInAs('projectManager');
    server.on('GET', '/api/blade-user/checkInit', { step: 0, hasStep: [0, 3], desc: '请修改初始密码；请完善个人信息' });
    server.on('POST', '/api/blade-user/update-info', { ...INFO, isPerfect: true });
    const onDone = vi.fn();
    dialog(onDone);
    expect(await screen.findByText('完善个人信息')).toBeTruthy();
    type('新密码', 'Abcdef#1');
    type('确认密码', 'Abcdef#1');
    fireEvent.click(screen.getByRole('button', { name: /获取验证码$/ }));
    await waitFor(() => expect(server.calls('/api/blade-resource/sms/endpoint/send-validate')).toHaveLength(1));
    type('验证码', '654321');
    fireEvent.click(screen.getByRole('button', { name: '保存并下一步' }));
    // step 3: the personal-info form, research fields shown for projectMan
    expect(await screen.findByRole('button', { name: '稍后完善' })).toBeTruthy();
    expect(screen.getByText('主持或参与的科研项目')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '稍后完善' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(server.calls('/api/blade-user/update-info')[0].body).toEqual({ id: '1001', isPerfect: true });
  });
});

describe('binding (step 1)', () => {
  it('shows the configured provider\'s QR code, then 账号已绑定 once the server no longer lists step 1', async () => {
    server.on('GET', '/api/blade-user/info', { ...INFO, mustChangePassword: false });
    server.on('GET', '/api/blade-user/checkInit', { step: 1, hasStep: [1], desc: '请绑定账号' });
    server.on('GET', '/api/blade-auth/oauth/bind-qrcode', { source: 'keycloak', name: '统一身份认证', url: 'http://x/bind', image: 'data:image/png;base64,AA==', expiresIn: 300 });
    dialog();
    const img = (await screen.findByAltText('请使用手机扫描二维码完成账号绑定')) as HTMLImageElement;
    expect(img.src).toBe('data:image/png;base64,AA==');
    expect(screen.getByText('统一身份认证')).toBeTruthy();
    server.on('GET', '/api/blade-user/checkInit', { step: 4, hasStep: [], desc: '已完成' });
    expect(await screen.findByText('账号已绑定', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByAltText('请使用手机扫描二维码完成账号绑定')).toBeNull();
  });

  it('without a configured provider the server\'s message says so', async () => {
    server.on('GET', '/api/blade-user/info', { ...INFO, mustChangePassword: false });
    server.on('GET', '/api/blade-user/checkInit', { step: 1, hasStep: [1], desc: '请绑定账号' });
    server.on('GET', '/api/blade-auth/oauth/bind-qrcode', fail(400, '未配置第三方登录源,请联系管理员'));
    dialog();
    expect(await screen.findByText('未配置第三方登录源,请联系管理员')).toBeTruthy();
  });
});

describe('password reminder', () => {
  it("shows after password_update_time months; 'do not remind again' is remembered for this user", async () => {
    server.on('GET', '/api/blade-user/checkInit', { step: 4, hasStep: [], desc: '已完成' });
    server.on('GET', '/api/blade-user/checkPasswordTime', { remind: true, months: 3, passwordTime: '2020-01-01 00:00:00' });
    const gate = renderApp(<MemoryRouter><AccountGate /></MemoryRouter>);
    expect(await screen.findByText('您的密码已超过3个月未修改,为了账号安全,请及时修改密码。')).toBeTruthy();
    expect(screen.getByRole('button', { name: '立即修改' })).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: '不再提醒' }));
    fireEvent.click(screen.getByRole('button', { name: '知道了' }));
    expect(localStorage.getItem('kc-pwd-remind-off:000000:1001')).toBe('1');
    gate.unmount();
    signInAs('researcher', '1002');
    renderApp(<MemoryRouter><AccountGate /></MemoryRouter>);
    await waitFor(() => expect(server.calls('/api/blade-user/checkPasswordTime')).toHaveLength(2));
    signInAs('researcher', '1001');
  });
});
