/**
 * Lock screen (spec 000 §2.6, §4 Lock, §5): the lock button asks for a lock password (required: 'lock password
 * cannot be empty') and goes to /lock; /lock unlocks with that password and returns to the page the user
 * was on. While locked every route leads here (the route guard).
 */
import { useState } from 'react';
import { Button, Card, Form, Input, Modal, Space, Typography, message } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { clearSession, getSession, updateSession } from '../runtime/session.js';

export function LockButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm();
  const navigate = useNavigate();
  const location = useLocation();
  // validateFields rejects when the password is empty: the form shows the message, nothing else happens
  // (issue 18 defect 1: the rejection used to escape as an uncaught page error)
  const lock = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const { password } = values as { password: string };
    updateSession({ locked: true, lockPassword: password, lockedFrom: location.pathname });
    setOpen(false);
    form.resetFields();
    navigate('/lock');
  };
  return (
    <>
      <Button type="text" icon={<LockOutlined />} aria-label={t('lock.button')} title={t('lock.button')} onClick={() => setOpen(true)} />
      <Modal title={t('lock.setTitle')} open={open} onOk={() => void lock()} onCancel={() => setOpen(false)} okText={t('common.ok')} cancelText={t('common.cancel')} destroyOnHidden>
        <Form form={form} layout="vertical" onFinish={() => void lock()}>
          <Form.Item name="password" label={t('lock.password')} rules={[{ required: true, message: t('lock.required') }]}>
            <Input.Password autoFocus />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

export function LockPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm();
  const unlock = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const { password } = values as { password: string };
    const s = getSession();
    if (password !== s.lockPassword) {
      void message.error(t('lock.wrong'));
      return;
    }
    updateSession({ locked: false, lockPassword: undefined });
    navigate(s.lockedFrom || '/wel/index', { replace: true });
  };
  return (
    <div className="kc-login">
      <Card className="kc-login-card">
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Title level={4}>
            <LockOutlined /> {getSession().user?.realName}
          </Typography.Title>
          <Typography.Text type="secondary">{t('lock.hint')}</Typography.Text>
          <Form form={form} onFinish={() => void unlock()}>
            <Form.Item name="password" rules={[{ required: true, message: t('lock.required') }]}>
              <Input.Password placeholder={t('lock.password')} autoFocus />
            </Form.Item>
            <Space>
              <Button type="primary" htmlType="submit">
                {t('lock.unlock')}
              </Button>
              <Button
                onClick={() => {
                  clearSession();
                  navigate('/login', { replace: true });
                }}
              >
                {t('lock.logout')}
              </Button>
            </Space>
          </Form>
        </Space>
      </Card>
    </div>
  );
}
