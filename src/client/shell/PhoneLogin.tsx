/**
 * Login by phone and SMS code (spec 000 §2.6, §4, §5; server: send-validate with purpose login, then
 * POST /api/blade-auth/oauth/token-by-phone with headers Sms-Key and Sms-Code). Fields: tenant (hidden when the
 * domain names it), phone (11 digits, mainland prefixes: the shared validator's messages), the 6-character code
 * with the 60-second countdown. The server's message is shown as it words it.
 */
import React, { useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { MobileOutlined, TeamOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ApiError, storeToken } from '../runtime/api.js';
import { updateSession } from '../runtime/session.js';
import { useLang } from '../runtime/hooks.js';
import { phoneFault } from '../../shared/validators/index.js';
import { sendCode, tokenByPhone } from './account.js';
import { SmsCodeItem } from './PasswordFields.js';

export function PhoneLogin({ tenantId, tenantKnown, onLoggedIn }: { tenantId: string; tenantKnown: boolean; onLoggedIn(): Promise<void> }) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm();
  const [key, setKey] = useState<string>('');
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const phone: string = Form.useWatch('phone', form) ?? '';
  const tenant: string = Form.useWatch('tenantId', form) ?? tenantId;

  const finish = async (v: { tenantId?: string; phone: string; value: string }) => {
    const tid = tenantKnown ? tenantId : (v.tenantId ?? tenantId);
    setLoading(true);
    setError(null);
    updateSession({ tenantId: tid });
    try {
      storeToken(await tokenByPhone({ phone: v.phone, tenantId: tid, key, code: v.value }));
      await onLoggedIn();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setLoading(false);
    }
  };

  return (
    <Form form={form} layout="vertical" initialValues={{ tenantId }} onFinish={(v) => void finish(v)} requiredMark={false} className="kc-phone-login">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
      {!tenantKnown && (
        <Form.Item name="tenantId" label={t('login.tenant')} rules={[{ required: true, message: t('login.tenantRequired') }]}>
          <Input prefix={<TeamOutlined />} autoComplete="organization" />
        </Form.Item>
      )}
      <Form.Item
        name="phone"
        label={t('login.phone')}
        rules={[{ validator: async (_r, v: string | undefined) => { const f = phoneFault(v ?? ''); if (f) throw new Error(f[lang]); } }]}
      >
        <Input prefix={<MobileOutlined />} maxLength={11} autoComplete="tel" />
      </Form.Item>
      <SmsCodeItem
        label={t('login.smsCode')}
        phone={phone || 'login'}
        disabled={phoneFault(phone) !== null}
        send={() => sendCode({ phone, tenantId: tenantKnown ? tenantId : tenant, purpose: 'login' })}
        onSent={setKey}
      />
      <Button type="primary" htmlType="submit" block size="large" loading={loading}>
        {t('login.submit')}
      </Button>
    </Form>
  );
}
