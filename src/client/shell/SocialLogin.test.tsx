// @vitest-environment jsdom
/**
 * Social sign-in on the login page (spec 000 §2.6, §2.7, §7 social grant; SocialLogin.tsx) against a fake
 * server: the tenant's configured providers offered as buttons (none: nothing shown), a button going to the
 * server's start of the authorization for the tenant, and the way back from the provider — a token signs in, a
 * first-time identity opens the register dialog with its identity and tenant, a refusal or a cancelled sign-in
 * shows its message; zh and en.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { LoginPage } from './LoginPage.js';
import { SocialButtons, isThirdPartyUser, socialStartUrl } from './SocialLogin.js';
import { fail, renderApp, setLang, type FakeServer } from '../runtime/test-utils.js';
import { baseServer } from '../runtime/fixtures.js';
import { clearSession, getSession, updateSession } from '../runtime/session.js';

const TOKEN = '/api/blade-auth/oauth/token';
const SOURCES = '/api/blade-auth/oauth/social-sources';
let server: FakeServer;
let seq = 0;

beforeEach(() => {
  setLang('zh');
  clearSession();
  updateSession({ tenantId: '000000' });
  window.history.replaceState(null, '', '/login');
  server = baseServer();
  server.on('GET', '/api/blade-auth/oauth/captcha', { status: 200, json: { key: 'k', image: 'data:image/png;base64,AA==' } });
  server.on('GET', '/api/blade-system/tenant/info', null);
  server.on('GET', SOURCES, [{ source: 'keycloak', name: '统一身份认证' }]);
});

/** Opens /login as the provider's redirect does (`?social=…&code&state&iss`), with a fresh code each time. */
function back(extra: Record<string, string> = {}) {
  seq++;
  const q = new URLSearchParams({ social: 'keycloak', code: `code-${seq}`, state: `state-${seq}`, iss: 'http://127.0.0.1:9', ...extra });
  window.history.replaceState(null, '', `/login?${q.toString()}`);
  return q;
}

const page = () =>
  renderApp(
    <MemoryRouter initialEntries={['/login']}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/wel/index" element={<div>工作台首页</div>} />
      </Routes>
    </MemoryRouter>,
  );

describe('social sign-in buttons', () => {
  it('offers the tenant\'s providers under 其他登录方式; none configured shows nothing', async () => {
    page();
    expect(await screen.findByRole('button', { name: /统一身份认证/ })).toBeTruthy();
    expect(screen.getByText('其他登录方式')).toBeTruthy();
    expect(server.calls(SOURCES)[0].query).toEqual({ tenantId: '000000' });

    server.on('GET', SOURCES, []);
    fireEvent.change(screen.getAllByLabelText('租户编号')[0], { target: { value: '100001' } });
    await waitFor(() => expect(server.calls(SOURCES).at(-1)?.query).toEqual({ tenantId: '100001' }));
    await waitFor(() => expect(screen.queryByText('其他登录方式')).toBeNull());
  });

  it('a tenant given by the domain hides the tenant fields and names the providers of that tenant', async () => {
    server.on('GET', '/api/blade-system/tenant/info', { tenantId: '100001', tenantName: '华北分公司', domain: 'localhost' });
    page();
    await waitFor(() => expect(server.calls(SOURCES).at(-1)?.query).toEqual({ tenantId: '100001' }));
    expect(server.calls('/api/blade-system/tenant/info')[0].query).toEqual({ domain: 'localhost' });
    // the account form keeps its field hidden (antd's hidden item), the phone form has none
    await waitFor(() => expect(screen.getAllByLabelText('租户编号').every((i) => i.closest('.ant-form-item-hidden'))).toBe(true));
    expect(await screen.findByRole('button', { name: /统一身份认证/ })).toBeTruthy();
  });

  it('a button goes to the server\'s start of the authorization for the tenant and remembers the tenant', async () => {
    const went: string[] = [];
    renderApp(<SocialButtons tenantId="100001" navigate={(u) => went.push(u)} />);
    fireEvent.click(await screen.findByRole('button', { name: /统一身份认证/ }));
    expect(went).toEqual(['/api/blade-auth/oauth/render/keycloak?tenantId=100001']);
    expect(getSession().tenantId).toBe('100001');
    expect(socialStartUrl('a b', '0/0')).toBe('/api/blade-auth/oauth/render/a%20b?tenantId=0%2F0');
  });

  it('tells a first-time identity from a token answer', () => {
    expect(isThirdPartyUser({ user_id: '-1', oauth_id: '5', tenant_id: '000000' })).toBe(true);
    expect(isThirdPartyUser({ user_id: '', oauth_id: '5', tenant_id: '000000' })).toBe(true);
    expect(isThirdPartyUser({ user_id: '12', access_token: 't' } as never)).toBe(false);
  });
});

describe('back from the provider', () => {
  it('a bound identity signs in: the social grant with the provider\'s answer, then the work page', async () => {
    const q = back();
    server.on('POST', TOKEN, { status: 200, json: { access_token: 'tok', refresh_token: 'ref', token_type: 'bearer', expires_in: 3600, tenant_id: '000000', user_id: '1001', account: 'u1001' } });
    server.on('GET', '/api/blade-auth/oauth/user-info', { roles: [{ id: 'r1', roleName: '科研人员', roleAlias: 'researcher' }] });
    page();
    expect(await screen.findByText('工作台首页')).toBeTruthy();
    const body = new URLSearchParams(String(server.calls(TOKEN)[0].body));
    expect(Object.fromEntries(body)).toEqual({ grant_type: 'social', source: 'keycloak', code: q.get('code'), state: q.get('state'), iss: q.get('iss') });
    expect(getSession().token).toBe('tok');
    expect(window.location.search).toBe('');
  });

  it('a first-time identity gets the register dialog with its identity and tenant; registering sends oauth_id', async () => {
    back();
    server.on('POST', TOKEN, { status: 200, json: { user_id: '-1', oauth_id: '55', tenant_id: '100001', source: 'keycloak', account: 'bob', user_name: 'bob', nick_name: '鲍勃' } });
    server.on('POST', '/api/blade-user/register-guest', true);
    page();
    const dialog = (await screen.findByText('账号注册')).closest('.ant-modal') as HTMLElement;
    expect(within(dialog).queryByLabelText('租户编号')).toBeNull();
    expect((within(dialog).getByLabelText('姓名') as HTMLInputElement).value).toBe('鲍勃');
    expect((within(dialog).getByLabelText('账号') as HTMLInputElement).value).toBe('bob');
    fireEvent.click(within(dialog).getByRole('button', { name: /提\s?交/ }));
    expect(await within(dialog).findByText('请先输入密码')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('密码'), { target: { value: 'abcdefg1' } });
    fireEvent.change(within(dialog).getByLabelText('确认密码'), { target: { value: 'abcdefg1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /提\s?交/ }));
    expect(await screen.findByText('注册申请已提交,请耐心等待管理员通过!')).toBeTruthy();
    expect(server.calls('/api/blade-user/register-guest')[0].body).toEqual({ tenantId: '100001', name: '鲍勃', account: 'bob', password: 'abcdefg1', password2: 'abcdefg1', oauth_id: '55' });
    expect(getSession().token).toBeFalsy();
  });

  it('a refusal shows the server\'s message; a cancelled sign-in says so, in the chosen language', async () => {
    back();
    server.on('POST', TOKEN, fail(400, '注册申请已提交,请耐心等待管理员通过!'));
    const first = page();
    expect((await screen.findByRole('alert')).textContent).toContain('注册申请已提交,请耐心等待管理员通过!');
    expect(getSession().token).toBeFalsy();
    first.unmount();

    setLang('en');
    back({ error: 'access_denied', code: '' });
    page();
    expect((await screen.findByRole('alert')).textContent).toContain('The third-party sign-in was cancelled: please sign in again');
    expect(server.calls(TOKEN)).toHaveLength(1);
  });
});
