/**
 * The steps of the onboarding dialog (OnboardingDialog.tsx; spec 000 §2.9, §3.4, §4, §5, §8):
 *
 * - `PasswordStep` (step 0): with a phone — the phone masked 3+4, new password and confirmation (all four
 *   character classes), the 6-character SMS code (purpose password) with the 60-second countdown; save =
 *   validate-message then update-password-by-smscode. Without a phone on the account (nothing to send a code
 *   to) the current password stands in for the code (update-password), with the same strict rule. Failures show
 *   the server's message; success calls `onChanged`.
 * - `BindSignStep` (steps 1 and 2): polls checkInit every second with a wait counter; Next (or Finish) is
 *   enabled once the server's step is 3 or more. The signature (step 2) is uploaded as an image or drawn on a
 *   canvas, stored through put-file, and saved as `signTemplate` (update-info); its preview or 'not signed'
 *   shows. Binding (step 1, parameter `onboarding_bind`): the QR code of `GET /api/blade-auth/oauth/bind-qrcode`
 *   — the binding page of the sign-in provider an administrator configured (core/auth/social-routes.ts), opened
 *   on the phone; it is renewed before its ticket expires, and gives way to '已绑定' once checkInit no longer
 *   lists step 1. Without a configured provider the server's message says so.
 */
import React, { useEffect, useRef, useState } from 'react';
import { Alert, Button, Form, Image, Input, Space, Tag, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, get, post, request, toastError } from '../runtime/api.js';
import { useLang } from '../runtime/hooks.js';
import { PASSWORD_MESSAGES } from '../../shared/validators/password.js';
import { changePasswordBySms, checkInit, getInfo, maskPhone, sendCode, updateInfo, type AccountInfo } from './account.js';
import { NewPasswordItems, SmsCodeItem } from './PasswordFields.js';

const UPLOAD_URL = '/api/blade-resource/oss/endpoint/put-file';

export interface PasswordStepProps {
  info: AccountInfo;
  tenantId: string;
  /** The only pending step: the save button says 'save and close'. */
  only: boolean;
  onLogout(): void;
  onChanged(): void;
}

export function PasswordStep({ info, tenantId, only, onLogout, onChanged }: PasswordStepProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm();
  const [smsId, setSmsId] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const phone = info.phone ?? '';

  const save = async () => {
    let v: Record<string, string>;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      if (phone) {
        await changePasswordBySms({ phone, tenantId, account: info.account, id: smsId, value: v.value, newPassword: v.newPassword, newPassword1: v.newPassword1 });
      } else {
        await post('/api/blade-user/update-password', { oldPassword: v.oldPassword, newPassword: v.newPassword, newPassword1: v.newPassword1 }, { silent: true });
      }
      onChanged();
    } catch (e) {
      const err = e as ApiError;
      const onForm = err instanceof ApiError ? err.fields.filter((f) => ['oldPassword', 'newPassword', 'newPassword1'].includes(f.field)) : [];
      form.setFields(onForm.map((f) => ({ name: f.field, errors: [f.message] })));
      toastError(err.message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form form={form} layout="vertical" requiredMark={false} className="kc-onboarding-password">
      <Typography.Paragraph>{phone ? t('onboarding.passwordIntro', { phone: maskPhone(phone) }) : t('onboarding.noPhone')}</Typography.Paragraph>
      {!phone && (
        <Form.Item name="oldPassword" label={t('onboarding.oldPassword')} rules={[{ required: true, message: PASSWORD_MESSAGES.oldRequired[lang] }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
      )}
      <NewPasswordItems strength="all" labels={{ newPassword: t('onboarding.newPassword'), newPassword1: t('onboarding.newPassword1') }} />
      {phone && (
        <SmsCodeItem
          label={t('onboarding.code')}
          phone={phone}
          send={() => sendCode({ phone, tenantId, purpose: 'password', account: info.account })}
          onSent={setSmsId}
        />
      )}
      <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
        <Button onClick={onLogout}>{t('onboarding.logout')}</Button>
        <Button type="primary" loading={saving} onClick={() => void save()}>
          {only ? t('onboarding.saveClose') : t('onboarding.saveNext')}
        </Button>
      </Space>
    </Form>
  );
}

export interface BindSignStepProps {
  info: AccountInfo;
  /** The pending steps when the dialog opened. */
  pending: number[];
  showLogout: boolean;
  onLogout(): void;
  onInfo(info: AccountInfo): void;
  onNext(): void;
}

export function BindSignStep({ info, pending, showLogout, onLogout, onInfo, onNext }: BindSignStepProps) {
  const { t } = useTranslation();
  const [serverStep, setServerStep] = useState(0);
  const [waited, setWaited] = useState(0);
  const [polling, setPolling] = useState(true);
  const [bound, setBound] = useState(false);
  const reloaded = useRef(false);

  useEffect(() => {
    if (!polling) return;
    const timer = setInterval(() => {
      setWaited((n) => n + 1);
      checkInit()
        .then((st) => {
          setServerStep(st.step);
          setBound(!st.hasStep.includes(1));
          if (!st.hasStep.includes(2) && !reloaded.current) {
            reloaded.current = true;
            void getInfo().then(onInfo).catch(() => undefined);
          }
        })
        .catch(() => undefined);
    }, 1000);
    return () => clearInterval(timer);
  }, [polling, onInfo]);

  const saveSign = async (blob: Blob, name: string) => {
    try {
      const fd = new FormData();
      fd.append('file', blob, name);
      const saved = await request<{ link: string }>('POST', UPLOAD_URL, { formData: fd, silent: true });
      onInfo(await updateInfo({ signTemplate: saved.link }));
    } catch (e) {
      toastError((e as Error).message);
    }
  };

  const done = serverStep >= 3;
  return (
    <div className="kc-onboarding-bind">
      {pending.includes(1) && <BindQrCode bound={bound} />}
      {pending.includes(2) && (
        <>
          <Typography.Paragraph>{t('onboarding.signHint')}</Typography.Paragraph>
          <Space align="start" wrap>
            {info.signTemplate ? <Image src={info.signTemplate} alt={t('onboarding.signed')} width={200} /> : <Tag>{t('onboarding.notSigned')}</Tag>}
            <Upload accept="image/png,image/jpeg" showUploadList={false} beforeUpload={(file) => (void saveSign(file, file.name), false)}>
              <Button>{t('onboarding.upload')}</Button>
            </Upload>
          </Space>
          <SignaturePad onUse={(blob) => void saveSign(blob, 'signature.png')} />
        </>
      )}
      <Typography.Text type="secondary">{t('onboarding.waiting', { n: waited })}</Typography.Text>
      <Space style={{ width: '100%', justifyContent: 'flex-end', marginTop: 16 }}>
        {showLogout && <Button onClick={onLogout}>{t('onboarding.logout')}</Button>}
        <Button
          type="primary"
          disabled={!done}
          onClick={() => {
            setPolling(false);
            onNext();
          }}
        >
          {showLogout ? t('onboarding.next') : t('onboarding.done')}
        </Button>
      </Space>
    </div>
  );
}

interface BindQr {
  source: string;
  name: string;
  image: string;
  /** Seconds the code's ticket lives. */
  expiresIn: number;
}

/** Onboarding step 1: the binding QR code (see the module comment); `bound` once the server says so. */
function BindQrCode({ bound }: { bound: boolean }) {
  const { t } = useTranslation();
  const [qr, setQr] = useState<BindQr | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    if (bound) return undefined;
    let gone = false;
    let renew: ReturnType<typeof setTimeout> | undefined;
    get<BindQr>('/api/blade-auth/oauth/bind-qrcode', undefined, { silent: true })
      .then((q) => {
        if (gone) return;
        setQr(q);
        setError(null);
        // a new code a little before the ticket expires
        renew = setTimeout(() => setRound((r) => r + 1), Math.max(30, q.expiresIn - 30) * 1000);
      })
      .catch((e: unknown) => !gone && setError(e instanceof ApiError && e.message ? e.message : t('onboarding.bindUnavailable')));
    return () => {
      gone = true;
      clearTimeout(renew);
    };
  }, [round, bound, t]);

  if (bound) return <Alert type="success" showIcon message={t('onboarding.bound')} style={{ marginBottom: 16 }} />;
  if (error) return <Alert type="warning" showIcon message={error} style={{ marginBottom: 16 }} />;
  if (!qr) return null;
  return (
    <Space direction="vertical" align="center" style={{ width: '100%', marginBottom: 16 }} className="kc-onboarding-qr">
      <img src={qr.image} alt={t('onboarding.bindHint')} width={180} height={180} />
      <Typography.Text>{t('onboarding.bindHint')}</Typography.Text>
      <Typography.Text type="secondary">{qr.name}</Typography.Text>
    </Space>
  );
}

/** A canvas to draw a signature on (pointer events: mouse, pen, touch); 'use' hands over a PNG. */
function SignaturePad({ onUse }: { onUse(blob: Blob): void }) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const [drawn, setDrawn] = useState(false);
  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top] as const;
  };
  const ctx = () => canvas.current?.getContext('2d') ?? null;
  return (
    <div style={{ marginTop: 12 }}>
      <Typography.Text>{t('onboarding.draw')}</Typography.Text>
      <canvas
        ref={canvas}
        width={400}
        height={150}
        aria-label={t('onboarding.draw')}
        style={{ display: 'block', border: '1px dashed #bbb', touchAction: 'none', background: '#fff' }}
        onPointerDown={(e) => {
          const c = ctx();
          if (!c) return;
          drawing.current = true;
          c.lineWidth = 2;
          c.lineCap = 'round';
          c.beginPath();
          c.moveTo(...point(e));
        }}
        onPointerMove={(e) => {
          const c = ctx();
          if (!drawing.current || !c) return;
          c.lineTo(...point(e));
          c.stroke();
          setDrawn(true);
        }}
        onPointerUp={() => {
          drawing.current = false;
        }}
      />
      <Space style={{ marginTop: 8 }}>
        <Button
          onClick={() => {
            const c = ctx();
            if (c && canvas.current) c.clearRect(0, 0, canvas.current.width, canvas.current.height);
            setDrawn(false);
          }}
        >
          {t('onboarding.clear')}
        </Button>
        <Button disabled={!drawn} onClick={() => canvas.current?.toBlob((b) => b && onUse(b), 'image/png')}>
          {t('onboarding.useDrawing')}
        </Button>
      </Space>
    </div>
  );
}
