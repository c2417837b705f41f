/**
 * The first-login onboarding dialog (spec 000 §2.9, §4 Onboarding), driven by `checkInit` (step, hasStep,
 * desc; server: src/server/modules/system/account.ts — which steps a role sees is decided there).
 *
 * A step bar of the pending steps — 修改密码 (0), 账号绑定与完善签名 (1 and 2), 完善个人信息 (3) — then 完成.
 * The dialog cannot be closed or dismissed (no close button, mask or Esc) while a step remains: an account an
 * administrator created or reset must change its password before it can use anything.
 *
 * - Step 0 (OnboardingSteps.PasswordStep): the masked phone, new password and confirmation (all four character
 *   classes), the SMS code with its countdown, 'I'll think about it, log out' and 'save and close' (the only
 *   step) or 'save and go next'. After the change: binding/signature if pending, else personal info if pending,
 *   else close.
 * - Steps 1–2 (OnboardingSteps.BindSignStep): polls checkInit every second with a wait counter; Next is enabled
 *   once the server's step reaches 3 or more; the user info is loaded again once step 2 is done.
 * - Step 3: the personal-info form (UserInfoForm, scene onboarding) with save and 'complete later'; saving
 *   sets isPerfect, 'complete later' sends only id and isPerfect true; both close.
 *
 * `onDone()` is called when the dialog closes with nothing left (the layout then checks the password age).
 */
import React, { useCallback, useEffect, useState } from 'react';
import { App, Modal, Spin, Steps, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { get } from '../runtime/api.js';
import { clearSession, currentRole, useSession } from '../runtime/session.js';
import { checkInit, getInfo, updateInfo, type AccountInfo, type InitStatus } from './account.js';
import { BindSignStep, PasswordStep } from './OnboardingSteps.js';
import { UserInfoForm } from './UserInfoForm.js';

type Stage = 0 | 12 | 3;

/** The stages of the step bar for the pending steps (1 and 2 share one). */
export function stagesOf(hasStep: number[]): Stage[] {
  const out: Stage[] = [];
  if (hasStep.includes(0)) out.push(0);
  if (hasStep.includes(1) || hasStep.includes(2)) out.push(12);
  if (hasStep.includes(3)) out.push(3);
  return out;
}

export function OnboardingDialog({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  const s = useSession();
  const role = currentRole(s);
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [status, setStatus] = useState<InitStatus | null>(null);
  const [info, setInfo] = useState<AccountInfo | null>(null);
  const [stages, setStages] = useState<Stage[]>([]);
  const [stage, setStage] = useState<Stage | null>(null);

  useEffect(() => {
    let gone = false;
    // both at once: the dialog shows as soon as the slower of the two answers (the info is needed for step 0)
    const me = getInfo();
    me.catch(() => undefined);
    checkInit()
      .then(async (st) => {
        if (gone) return;
        const list = stagesOf(st.hasStep);
        if (!list.length) {
          onDone();
          return;
        }
        const info = await me;
        if (gone) return;
        setInfo(info);
        setStatus(st);
        setStages(list);
        setStage(list[0]);
      })
      // a failed status call is ignored (spec 000 §8)
      .catch(() => !gone && onDone());
    return () => {
      gone = true;
    };
    // once per signed-in role
  }, [s.currentRoleId]);

  const logout = useCallback(async () => {
    await get('/api/blade-auth/oauth/logout', undefined, { silent: true }).catch(() => undefined);
    clearSession();
    navigate('/login', { replace: true });
  }, [navigate]);

  const close = useCallback(() => {
    setStage(null);
    onDone();
  }, [onDone]);

  /** Moves on from `from`: the next pending stage, or close. */
  const next = useCallback(
    (from: Stage) => {
      const i = stages.indexOf(from);
      const following = stages[i + 1];
      if (following === undefined) close();
      else setStage(following);
    },
    [stages, close],
  );

  if (stage === null || !status || !info) return null;
  const items = [...stages.map((st) => ({ title: t(st === 0 ? 'onboarding.step0' : st === 12 ? 'onboarding.step12' : 'onboarding.step3') })), { title: t('onboarding.finish') }];
  const remaining = stages.length - stages.indexOf(stage) - 1;

  return (
    <Modal
      open
      title={t('onboarding.title')}
      width={stage === 3 ? 960 : 640}
      closable={false}
      maskClosable={false}
      keyboard={false}
      footer={null}
      destroyOnHidden
      className="kc-onboarding"
    >
      <Steps size="small" current={stages.indexOf(stage)} items={items} style={{ marginBottom: 24 }} />
      {stage === 0 && (
        <PasswordStep
          info={info}
          tenantId={s.tenantId}
          only={stages.length === 1}
          onLogout={() => void logout()}
          onChanged={() => {
            message?.success?.(t('onboarding.passwordChanged'));
            next(0);
          }}
        />
      )}
      {stage === 12 && (
        <BindSignStep
          info={info}
          pending={status.hasStep}
          showLogout={remaining > 0}
          onLogout={() => void logout()}
          onInfo={setInfo}
          onNext={() => next(12)}
        />
      )}
      {stage === 3 &&
        (info ? (
          <>
            <Typography.Paragraph type="secondary">{status.desc}</Typography.Paragraph>
            <UserInfoForm
              info={info}
              scene="onboarding"
              roleAlias={role?.roleAlias}
              onSaved={() => {
                message?.success?.(t('onboarding.infoChanged'));
                close();
              }}
              onLater={() => {
                void updateInfo({ id: info.id, isPerfect: true }).catch(() => undefined).finally(close);
              }}
            />
          </>
        ) : (
          <Spin />
        ))}
    </Modal>
  );
}
