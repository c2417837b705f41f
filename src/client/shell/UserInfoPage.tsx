/**
 * The personal info page /userCenter/userinfo (spec 000 §2.11, §3.3, §3.4, §5, §8):
 *
 * - the personal-info form of the page schema schemas/_pages/userinfo.json (UserInfoForm, scene page), saved
 *   with update-info ('information modified successfully');
 * - the password form: oldPassword, newPassword, newPassword1 — 8–16 characters with at least two character
 *   classes, equal — saved with update-password ('password changed successfully'); the server's field errors
 *   go onto the fields;
 * - the phone number, read-only in the form, changes here with a code sent to the new number
 *   (send-validate purpose phone, then update-phone-by-smscode);
 * - the message settings (system/usermsgsetting: which notices reach me by site message, SMS, e-mail), the
 *   caller's own row through getMySetting / saveMySetting (runtime/MyRecordForm).
 */
import React, { useState } from 'react';
import { App, Button, Card, Form, Input, Modal, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { ApiError, post, toastError } from '../runtime/api.js';
import { useLang } from '../runtime/hooks.js';
import { currentRole, useSession } from '../runtime/session.js';
import { phoneFault } from '../../shared/validators/index.js';
import { PASSWORD_MESSAGES } from '../../shared/validators/password.js';
import { getInfo, INFO_URL, sendCode, type AccountInfo } from './account.js';
import { NewPasswordItems, SmsCodeItem } from './PasswordFields.js';
import { UserInfoForm } from './UserInfoForm.js';
import { MyRecordForm } from '../runtime/MyRecordForm.js';

export function UserInfoPage() {
  const { t } = useTranslation();
  const s = useSession();
  const { message } = App.useApp();
  const { data, mutate } = useSWR(INFO_URL, () => getInfo());
  if (!data) return <Spin />;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} className="kc-userinfo">
      <Card title={t('userinfo.title')} extra={<PhoneChange info={data} onChanged={() => void mutate()} />}>
        <UserInfoForm
          info={data}
          scene="page"
          roleAlias={currentRole(s)?.roleAlias}
          onSaved={(saved) => {
            message?.success?.(t('onboarding.infoChanged'));
            void mutate(saved, { revalidate: false });
          }}
        />
      </Card>
      <Card title={t('userinfo.password')}>
        <PasswordForm />
      </Card>
      <Card title={t('userinfo.messages')}>
        <MyRecordForm name="system/usermsgsetting" load="/api/system/usermsgsetting/getMySetting" save="/api/system/usermsgsetting/saveMySetting" />
      </Card>
    </Space>
  );
}

function PasswordForm() {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const save = async (v: { oldPassword: string; newPassword: string; newPassword1: string }) => {
    setSaving(true);
    try {
      await post('/api/blade-user/update-password', v, { silent: true });
      form.resetFields();
      message?.success?.(t('onboarding.passwordChanged'));
    } catch (e) {
      const err = e as ApiError;
      const known = err instanceof ApiError ? err.fields.filter((f) => ['oldPassword', 'newPassword', 'newPassword1'].includes(f.field)) : [];
      if (known.length) form.setFields(known.map((f) => ({ name: f.field, errors: [f.message] })));
      else toastError(err.message);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Form form={form} layout="horizontal" labelCol={{ flex: '130px' }} style={{ maxWidth: 560 }} onFinish={(v) => void save(v)} className="kc-password-form">
      <Form.Item name="oldPassword" label={t('userinfo.oldPassword')} rules={[{ required: true, message: PASSWORD_MESSAGES.oldRequired[lang] }]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <NewPasswordItems strength="two" labels={{ newPassword: t('onboarding.newPassword'), newPassword1: t('onboarding.newPassword1') }} />
      <Form.Item label=" " colon={false}>
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('userinfo.password')}
        </Button>
      </Form.Item>
    </Form>
  );
}

function PhoneChange({ info, onChanged }: { info: AccountInfo; onChanged(): void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm();
  const [smsId, setSmsId] = useState<string | undefined>();
  const phone: string = Form.useWatch('phone', form) ?? '';
  const submit = async () => {
    let v: { phone: string; value: string };
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    try {
      await post('/api/blade-user/update-phone-by-smscode', { phone: v.phone, value: v.value, id: smsId }, { silent: true });
      message?.success?.(t('userinfo.phoneChanged'));
      setOpen(false);
      form.resetFields();
      onChanged();
    } catch (e) {
      toastError((e as Error).message);
    }
  };
  return (
    <>
      <Button onClick={() => setOpen(true)}>{t('userinfo.changePhone')}</Button>
      <Modal open={open} title={t('userinfo.changePhone')} onCancel={() => setOpen(false)} onOk={() => void submit()} okText={t('common.ok')} cancelText={t('common.cancel')} destroyOnHidden>
        <Form form={form} layout="vertical">
          <Form.Item
            name="phone"
            label={t('userinfo.newPhone')}
            rules={[{ validator: async (_r, v: string | undefined) => { const f = phoneFault(v ?? ''); if (f) throw new Error(f[lang]); } }]}
          >
            <Input maxLength={11} />
          </Form.Item>
          <SmsCodeItem
            label={t('login.smsCode')}
            phone={phone || 'new-phone'}
            disabled={phoneFault(phone) !== null}
            send={() => sendCode({ phone, tenantId: info.tenantId, purpose: 'phone' })}
            onSent={setSmsId}
          />
        </Form>
      </Modal>
    </>
  );
}
