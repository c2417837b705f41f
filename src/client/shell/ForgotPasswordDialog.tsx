/**
 * 忘记密码 from the login page (issue 10 'password reset by code'; spec 000 §5, §7 Onboarding calls): tenant
 * (hidden when the domain names it), account, the account's phone, the 6-character SMS code (purpose password,
 * 60-second countdown), new password and confirmation with the strict rule (all four character classes, as
 * every password set with a code). Saving trades the code for the one-time code (validate-message) and sets the
 * password (update-password-by-smscode); the server's message shows on failure, 'password changed
 * successfully' on success, and the dialog closes.
 */
import React, { useState } from 'react';
import { Alert, App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../runtime/api.js';
import { useLang } from '../runtime/hooks.js';
import { phoneFault } from '../../shared/validators/index.js';
import { changePasswordBySms, sendCode } from './account.js';
import { NewPasswordItems, SmsCodeItem } from './PasswordFields.js';

export interface ForgotPasswordDialogProps {
  open: boolean;
  tenantId?: string;
  onClose(): void;
}

export function ForgotPasswordDialog({ open, tenantId, onClose }: ForgotPasswordDialogProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [smsId, setSmsId] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const phone: string = Form.useWatch('phone', form) ?? '';
  const account: string = Form.useWatch('account', form) ?? '';
  const tenant: string = Form.useWatch('tenantId', form) ?? tenantId ?? '';

  const submit = async () => {
    let v: Record<string, string>;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await changePasswordBySms({ phone: v.phone, tenantId: tenantId ?? v.tenantId, account: v.account, id: smsId, value: v.value, newPassword: v.newPassword, newPassword1: v.newPassword1 });
      message?.success?.(t('onboarding.passwordChanged'));
      form.resetFields();
      onClose();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={open} title={t('login.forgot')} onCancel={onClose} onOk={() => void submit()} okText={t('common.ok')} cancelText={t('common.cancel')} confirmLoading={saving} destroyOnHidden className="kc-forgot">
      {error && <Alert type="error" showIcon message={error} role="alert" style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" initialValues={{ tenantId: tenantId ?? '000000' }}>
        {!tenantId && (
          <Form.Item name="tenantId" label={t('login.tenant')} rules={[{ required: true, message: t('login.tenantRequired') }]}>
            <Input autoComplete="organization" />
          </Form.Item>
        )}
        <Form.Item name="account" label={t('login.account')} rules={[{ required: true, message: t('login.accountRequired') }]}>
          <Input autoComplete="username" />
        </Form.Item>
        <Form.Item
          name="phone"
          label={t('login.phone')}
          rules={[{ validator: async (_r, v: string | undefined) => { const f = phoneFault(v ?? ''); if (f) throw new Error(f[lang]); } }]}
        >
          <Input maxLength={11} autoComplete="tel" />
        </Form.Item>
        <SmsCodeItem
          label={t('login.smsCode')}
          phone={phone || 'forgot'}
          disabled={phoneFault(phone) !== null || !account}
          send={() => sendCode({ phone, tenantId: tenant, purpose: 'password', account })}
          onSent={setSmsId}
        />
        <NewPasswordItems strength="all" labels={{ newPassword: t('onboarding.newPassword'), newPassword1: t('onboarding.newPassword1') }} />
      </Form>
    </Modal>
  );
}
