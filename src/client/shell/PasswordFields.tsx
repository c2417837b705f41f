/**
 * Form pieces the account screens share (antd Form items), with the shared rules of src/shared/validators so
 * the browser says what the server says (spec 000 §5):
 *
 * - `NewPasswordItems`: newPassword and newPassword1 — required, 8–16 characters with two character classes
 *   (`strength: 'two'`, the personal info page) or all four (`'all'`, onboarding), and equal;
 * - `SmsCodeItem`: the 6-character code with the get-code button (disabled during the 60-second countdown,
 *   labelled 'N seconds to get again'; the countdown survives a reload; re-enabled when sending fails).
 */
import React, { useState } from 'react';
import { Button, Form, Input, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { useLang } from '../runtime/hooks.js';
import { ApiError, toastError } from '../runtime/api.js';
import { passwordFault, PASSWORD_MESSAGES, type PasswordStrength } from '../../shared/validators/password.js';
import { useSmsCountdown } from './account.js';

/** antd rules of a new password (and, with `confirmOf`, of its confirmation). */
export function passwordRules(strength: PasswordStrength, lang: 'zh' | 'en', confirmOf?: string): Rule[] {
  const required = confirmOf ? PASSWORD_MESSAGES.confirmRequired : PASSWORD_MESSAGES.newRequired;
  return [
    { required: true, message: required[lang] },
    {
      validator: async (_r, v: unknown) => {
        if (v === undefined || v === null || v === '') return;
        const fault = passwordFault(v, strength);
        if (fault) throw new Error(fault[lang]);
      },
    },
    ...(confirmOf
      ? [
          ({ getFieldValue }: { getFieldValue: (n: string) => unknown }) => ({
            validator: async (_r: unknown, v: unknown) => {
              if (v && v !== getFieldValue(confirmOf)) throw new Error(PASSWORD_MESSAGES.mismatch[lang]);
            },
          }),
        ]
      : []),
  ];
}

export function NewPasswordItems({ strength, labels }: { strength: PasswordStrength; labels: { newPassword: string; newPassword1: string } }) {
  const lang = useLang();
  return (
    <>
      <Form.Item name="newPassword" label={labels.newPassword} rules={passwordRules(strength, lang)} hasFeedback>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="newPassword1" label={labels.newPassword1} dependencies={['newPassword']} rules={passwordRules(strength, lang, 'newPassword')} hasFeedback>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}

/** The code rules (spec 000 §5): required, exactly 6 characters. */
export function codeRules(t: (k: string) => string): Rule[] {
  return [
    { required: true, message: t('sms.required') },
    { len: 6, message: t('sms.length') },
  ];
}

export interface SmsCodeItemProps {
  /** Field name of the code (default `value`). */
  name?: string;
  label: string;
  /** The countdown's key: the phone the code goes to. */
  phone: string;
  /** Sends a code; resolves with its key. */
  send(): Promise<string>;
  /** Called with the key of the code sent. */
  onSent(id: string): void;
  disabled?: boolean;
}

export function SmsCodeItem({ name = 'value', label, phone, send, onSent, disabled }: SmsCodeItemProps) {
  const { t } = useTranslation();
  const { seconds, start, reset } = useSmsCountdown(phone);
  const [sending, setSending] = useState(false);
  const click = async () => {
    setSending(true);
    try {
      const id = await send();
      // the countdown starts once the code is sent (and stored): its label tells the code is on its way
      start();
      onSent(id);
    } catch (e) {
      reset();
      toastError(e instanceof ApiError || e instanceof Error ? e.message : String(e));
    } finally {
      setSending(false);
    }
  };
  return (
    <Form.Item label={label} required>
      <Space.Compact style={{ width: '100%' }}>
        <Form.Item name={name} noStyle rules={codeRules(t)}>
          <Input maxLength={6} autoComplete="one-time-code" aria-label={label} />
        </Form.Item>
        <Button onClick={() => void click()} disabled={disabled || seconds > 0} loading={sending}>
          {seconds > 0 ? t('sms.again', { n: seconds }) : t('sms.get')}
        </Button>
      </Space.Compact>
    </Form.Item>
  );
}
