/**
 * The password reminder (spec 000 §2.10, §3.4 parameter password_update_time) and `AccountGate`, which the main
 * layout mounts once per signed-in role: first the onboarding dialog (OnboardingDialog.tsx) when checkInit
 * reports pending steps, then — with nothing pending — the reminder when checkPasswordTime says the password is
 * older than `password_update_time` months and the user has not ticked 'do not remind again' (remembered per
 * user: account.ts `remindOff`). Buttons: 'got it' closes; 'change now' goes to /userCenter/userinfo. A failed
 * check is ignored (spec 000 §8).
 */
import React, { useEffect, useState } from 'react';
import { Button, Checkbox, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../runtime/session.js';
import { checkPasswordTime, remindOff, setRemindOff } from './account.js';
import { OnboardingDialog } from './OnboardingDialog.js';

/** Users reminded since this page loaded: the layout remounts between routes, the reminder shows once. */
const reminded = new Set<string>();

export function PasswordReminder() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const s = useSession();
  const [months, setMonths] = useState<number | null>(null);
  const [never, setNever] = useState(false);
  const tenantId = s.user?.tenantId ?? s.tenantId;
  const userId = s.user?.userId ?? '';

  useEffect(() => {
    const who = `${tenantId}:${userId}`;
    if (!userId || remindOff(tenantId, userId) || reminded.has(who)) return;
    let gone = false;
    checkPasswordTime()
      .then((r) => {
        if (gone || !r.remind) return;
        reminded.add(who);
        setMonths(r.months);
      })
      .catch(() => undefined);
    return () => {
      gone = true;
    };
  }, [tenantId, userId]);

  const close = (then?: () => void) => {
    if (never) setRemindOff(tenantId, userId);
    setMonths(null);
    then?.();
  };

  return (
    <Modal open={months !== null} title={t('reminder.title')} closable={false} maskClosable={false} footer={null} className="kc-password-reminder">
      <Typography.Paragraph>{t('reminder.text', { months: months ?? 0 })}</Typography.Paragraph>
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Checkbox checked={never} onChange={(e) => setNever(e.target.checked)}>
          {t('reminder.never')}
        </Checkbox>
        <Space>
          <Button onClick={() => close()}>{t('reminder.gotIt')}</Button>
          <Button type="primary" onClick={() => close(() => navigate('/userCenter/userinfo'))}>
            {t('reminder.changeNow')}
          </Button>
        </Space>
      </Space>
    </Modal>
  );
}

/** Onboarding first, then the password reminder (see the module comment). */
export function AccountGate() {
  const s = useSession();
  const [phase, setPhase] = useState<'onboarding' | 'reminder'>('onboarding');
  useEffect(() => setPhase('onboarding'), [s.currentRoleId]);
  if (!s.token || !s.currentRoleId) return null;
  return phase === 'onboarding' ? <OnboardingDialog key={s.currentRoleId} onDone={() => setPhase('reminder')} /> : <PasswordReminder />;
}
