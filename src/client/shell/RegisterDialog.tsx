/**
 * The register dialog 账号注册 (spec 000 §2.7, §3.4 register form, §4 'closes on success, then notice, then
 * logout', §5 order of checks, §8 messages; server: POST /api/blade-user/register-guest, account-sms.ts).
 *
 * Fields: tenantId (hidden when the tenant is already known), name, account, password, password2, and the
 * third-party identity `oauthId` when a social sign-in opened it. Checked in the spec's order, one message at a
 * time: 请先输入租户编号, 请先输入账号名称, 请先输入密码, 两次密码输入不一致. On success the dialog closes, the
 * notice 注册提示 / 注册申请已提交,请耐心等待管理员通过! shows, and the session is cleared (back to /login);
 * on failure the server's message, or 提交失败.
 */
import React, { useState } from 'react';
import { Alert, App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, post } from '../runtime/api.js';
import { clearSession } from '../runtime/session.js';

export interface RegisterValues {
  tenantId?: string;
  name?: string;
  account?: string;
  password?: string;
  password2?: string;
}

/** The first failing check of spec 000 §5 (a text key), or null. */
export function registerFault(v: RegisterValues): string | null {
  if (!v.tenantId?.trim()) return 'register.tenantRequired';
  if (!v.account?.trim()) return 'register.accountRequired';
  if (!v.password || !v.password2) return 'register.passwordRequired';
  if (v.password !== v.password2) return 'register.mismatch';
  return null;
}

export interface RegisterDialogProps {
  open: boolean;
  /** The tenant when it is known (by domain, or the third-party answer): its field is hidden. */
  tenantId?: string;
  oauthId?: string;
  /** Values the form opens with (a social sign-in's name and account). */
  initialValues?: RegisterValues;
  onClose(): void;
}

export function RegisterDialog({ open, tenantId, oauthId, initialValues, onClose }: RegisterDialogProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [form] = Form.useForm<RegisterValues>();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    const v = { ...form.getFieldsValue(), ...(tenantId ? { tenantId } : {}) };
    const fault = registerFault(v);
    if (fault) {
      setError(t(fault));
      return;
    }
    setError(null);
    setSaving(true);
    try {
      await post('/api/blade-user/register-guest', { ...v, tenantId: v.tenantId?.trim(), account: v.account?.trim(), ...(oauthId ? { oauth_id: oauthId } : {}) }, { silent: true });
      form.resetFields();
      onClose();
      const notice = { title: t('register.noticeTitle'), content: t('register.done'), okText: t('common.ok') };
      if (modal?.success) modal.success(notice);
      else Modal.success(notice);
      clearSession();
    } catch (e) {
      setError(e instanceof ApiError && e.message ? e.message : t('register.failed'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('register.title')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('register.submit')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      destroyOnHidden
      className="kc-register"
    >
      {error && <Alert type="error" showIcon message={error} role="alert" style={{ marginBottom: 16 }} />}
      {/* named: its field ids (register_password …) differ from the login page's own form behind it */}
      <Form form={form} name="register" layout="vertical" requiredMark initialValues={initialValues}>
        {!tenantId && (
          <Form.Item name="tenantId" label={t('register.tenant')} required>
            <Input autoComplete="organization" />
          </Form.Item>
        )}
        <Form.Item name="name" label={t('register.name')}>
          <Input maxLength={20} autoComplete="name" />
        </Form.Item>
        <Form.Item name="account" label={t('register.account')} required>
          <Input maxLength={45} autoComplete="username" />
        </Form.Item>
        <Form.Item name="password" label={t('register.password')} required>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="password2" label={t('register.password2')} required>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
