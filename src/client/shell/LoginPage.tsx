/**
 * /login (spec 000 §2.6, §7, §8): two ways in, as tabs (LoginTabs.tsx) —
 * - account: tenant (default 000000), account, password and a captcha image that a click refreshes. Logs in
 *   with the captcha grant; the server's message (用户名或密码错误, 验证码不正确 ...) is shown as the server
 *   words it, and a failed attempt fetches a new captcha (each is single use);
 * - phone: phone and SMS code (PhoneLogin.tsx, token-by-phone);
 * and, under them, a button for each social provider an administrator configured for the tenant
 * (SocialLogin.tsx): back from the provider, the page asks for the social grant, signs in, or opens the
 * register dialog for a first-time identity (spec 000 §2.7).
 * The tenant is given by the domain when one is configured for it (`GET /api/blade-system/tenant/info?domain=`):
 * its field is then hidden. 注册账号 opens the register dialog (RegisterDialog.tsx), 忘记密码 the password reset
 * by SMS code (ForgotPasswordDialog.tsx). After login the user's roles are loaded:
 * one role is chosen at once, several go to /home (role selection).
 * Only what the first screen shows is in the login route's code; the phone tab and the dialogs load when first
 * chosen or opened (DESIGN §10: the login route's JavaScript under 250 KB gzip).
 */
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Alert, Button, Form, Space } from 'antd';
// Input and its password field without the rest of antd's Input family (Search, TextArea, OTP): the login
// route's budget (DESIGN §10)
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { LockOutlined, SafetyOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ApiError, get, request, storeToken, TOKEN_URL, type TokenAnswer } from '../runtime/api.js';
import { getSession, updateSession, type SessionRole } from '../runtime/session.js';
import { LangSwitch } from './LangSwitch.js';
import { LoginTabs } from './LoginTabs.js';
import { takeReturn } from './return-to.js';
import { SocialButtons, useSocialReturn } from './SocialLogin.js';

// What the first screen does not show is loaded when first asked for — the phone tab when chosen, the register
// and password dialogs when opened (DESIGN §10: the login route's JavaScript under 250 KB gzip)
const PhoneLogin = lazy(() => import('./PhoneLogin.js').then((m) => ({ default: m.PhoneLogin })));
const RegisterDialog = lazy(() => import('./RegisterDialog.js').then((m) => ({ default: m.RegisterDialog })));
const ForgotPasswordDialog = lazy(() => import('./ForgotPasswordDialog.js').then((m) => ({ default: m.ForgotPasswordDialog })));

interface Captcha {
  key: string;
  image: string;
}

/** Loads the roles of the signed-in user; chooses the only one. Answers where to go next. */
export async function afterLogin(): Promise<string> {
  const info = await get<{ roles: SessionRole[] }>('/api/blade-auth/oauth/user-info');
  const roles = info.roles ?? [];
  updateSession({ roles, currentRoleId: roles.length === 1 ? roles[0].id : undefined, locked: false, tags: [] });
  // one role: straight to the page asked for before the login, if any (return-to.ts); several: the choice first
  return roles.length === 1 ? takeReturn('/wel/index') : '/home';
}

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [form] = Form.useForm();
  const [domainTenant, setDomainTenant] = useState<string | null>(null);
  const [registering, setRegistering] = useState(false);
  const [forgot, setForgot] = useState(false);
  // the dialogs opened so far: a dialog's code is loaded when it is first opened, then it stays mounted
  const [opened, setOpened] = useState({ register: false, forgot: false, social: false });
  const typedTenant: string | undefined = Form.useWatch('tenantId', form);
  const social = useSocialReturn(async () => navigate(await afterLogin(), { replace: true }));
  if (social.registration !== null && !opened.social) setOpened((o) => ({ ...o, social: true }));

  // the tenant serving this domain, when one is configured (spec 000 §7 'tenant info by domain')
  useEffect(() => {
    let gone = false;
    get<{ tenantId: string } | null>('/api/blade-system/tenant/info', { domain: window.location.hostname }, { silent: true })
      .then((r) => {
        if (gone || !r?.tenantId) return;
        setDomainTenant(r.tenantId);
        form.setFieldValue('tenantId', r.tenantId);
      })
      .catch(() => undefined);
    return () => {
      gone = true;
    };
  }, [form]);

  const refresh = useCallback(async () => {
    try {
      const c = await request<Captcha>('GET', '/api/blade-auth/oauth/captcha', { raw: true, silent: true });
      setCaptcha(c);
      form.setFieldValue('code', '');
    } catch (e) {
      setError((e as Error).message);
    }
  }, [form]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  // spec 000 §2.1: the login page's title is 登录
  useEffect(() => {
    document.title = t('route.login');
  }, [t]);

  const onFinish = async (v: { tenantId: string; username: string; password: string; code: string }) => {
    setLoading(true);
    setError(null);
    updateSession({ tenantId: v.tenantId });
    try {
      const tok = await request<TokenAnswer>('POST', TOKEN_URL, {
        form: { grant_type: 'captcha', username: v.username, password: v.password, tenantId: v.tenantId },
        headers: { 'Captcha-Key': captcha?.key ?? '', 'Captcha-Code': v.code },
        raw: true,
        silent: true,
      });
      storeToken(tok);
      navigate(await afterLogin(), { replace: true });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      void refresh();
    } finally {
      setLoading(false);
    }
  };

  return (
    <div className="kc-login">
      <div className="kc-login-lang">
        <LangSwitch />
      </div>
      <div className="kc-login-card">
        <div className="kc-login-title">
          <h3>{t('app.name')}</h3>
          <span>{t('app.subtitle')}</span>
        </div>
        {social.error && <Alert type="error" showIcon message={social.error} style={{ marginBottom: 16 }} role="alert" />}
        <LoginTabs
          defaultActiveKey="account"
          items={[
            {
              key: 'account',
              label: t('login.byAccount'),
              children: (
                <>
                {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
                <Form form={form} layout="vertical" initialValues={{ tenantId: getSession().tenantId || '000000' }} onFinish={onFinish} requiredMark={false}>
                  <Form.Item name="tenantId" label={t('login.tenant')} rules={[{ required: true, message: t('login.tenantRequired') }]} hidden={domainTenant !== null}>
                    <Input prefix={<TeamOutlined />} autoComplete="organization" />
                  </Form.Item>
                  <Form.Item name="username" label={t('login.account')} rules={[{ required: true, message: t('login.accountRequired') }]}>
                    <Input prefix={<UserOutlined />} autoComplete="username" />
                  </Form.Item>
                  <Form.Item name="password" label={t('login.password')} rules={[{ required: true, message: t('login.passwordRequired') }]}>
                    <Password prefix={<LockOutlined />} autoComplete="current-password" />
                  </Form.Item>
                  <Form.Item label={t('login.captcha')} required htmlFor="login-code">
                    <Space.Compact style={{ width: '100%' }}>
                      <Form.Item name="code" noStyle rules={[{ required: true, message: t('login.captchaRequired') }]}>
                        <Input id="login-code" prefix={<SafetyOutlined />} maxLength={5} autoComplete="off" />
                      </Form.Item>
                      {captcha && (
                        <img src={captcha.image} alt={t('login.captcha')} title={t('login.captchaRefresh')} className="kc-captcha" onClick={() => void refresh()} />
                      )}
                    </Space.Compact>
                  </Form.Item>
                  <Button type="primary" htmlType="submit" block size="large" loading={loading}>
                    {t('login.submit')}
                  </Button>
                </Form>
                </>
              ),
            },
            {
              key: 'phone',
              label: t('login.byPhone'),
              children: (
                <Suspense fallback={null}>
                  <PhoneLogin
                    tenantId={domainTenant ?? (getSession().tenantId || '000000')}
                    tenantKnown={domainTenant !== null}
                    onLoggedIn={async () => navigate(await afterLogin(), { replace: true })}
                  />
                </Suspense>
              ),
            },
          ]}
        />
        <SocialButtons tenantId={domainTenant ?? typedTenant ?? (getSession().tenantId || '000000')} />
        <div className="kc-login-links">
          <Button type="link" onClick={() => (setRegistering(true), setOpened((o) => ({ ...o, register: true })))}>
            {t('login.register')}
          </Button>
          <Button type="link" onClick={() => (setForgot(true), setOpened((o) => ({ ...o, forgot: true })))}>
            {t('login.forgot')}
          </Button>
        </div>
        <Suspense fallback={null}>
          {opened.register && <RegisterDialog open={registering} tenantId={domainTenant ?? undefined} onClose={() => setRegistering(false)} />}
          {opened.social && (
            <RegisterDialog
              open={social.registration !== null}
              tenantId={social.registration?.tenantId}
              oauthId={social.registration?.oauthId}
              initialValues={{ name: social.registration?.name, account: social.registration?.account }}
              onClose={social.closeRegistration}
            />
          )}
          {opened.forgot && <ForgotPasswordDialog open={forgot} tenantId={domainTenant ?? undefined} onClose={() => setForgot(false)} />}
        </Suspense>
      </div>
    </div>
  );
}
