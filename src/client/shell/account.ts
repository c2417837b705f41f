/**
 * The account calls the shell makes (spec 000 §7 Users/Onboarding; server: src/server/modules/system/account.ts,
 * account-sms.ts, src/server/core/auth/phone-grant.ts) and the small pieces of state the account screens share:
 *
 * - `maskPhone`: the phone masked to its first 3 and last 4 digits (spec 000 §2.9: 138****5678);
 * - the SMS countdown (spec 000 §4 'disabled during a 60-second countdown … survives in local storage … re-enabled
 *   if sending fails'): `useSmsCountdown(key)` keeps the end time in localStorage under `kc-sms-until:<key>`, so
 *   a reload shows the seconds that remain;
 * - the password reminder's 'do not remind again', remembered per user (spec 000 §2.10) in localStorage under
 *   `kc-pwd-remind-off:<tenantId>:<userId>`.
 */
import { useCallback, useEffect, useState } from 'react';
import { get, post, request, type TokenAnswer } from '../runtime/api.js';

/** The user as `GET /api/blade-user/info` answers it. */
export interface AccountInfo {
  id: string;
  userId: string;
  tenantId: string;
  account: string;
  realName: string | null;
  phone: string | null;
  isPerfect: boolean;
  signTemplate: string | null;
  mustChangePassword: boolean;
  roles: Array<{ id: string; roleName: string; roleNameEn?: string | null; roleAlias: string }>;
  [field: string]: unknown;
}

/** Onboarding status (spec 000 §3.4): the first pending step (4 = none), the pending steps, a description. */
export interface InitStatus {
  step: number;
  hasStep: number[];
  desc: string;
}

export const INFO_URL = '/api/blade-user/info';
export const SMS_SEND_URL = '/api/blade-resource/sms/endpoint/send-validate';
export const SMS_VALIDATE_URL = '/api/blade-resource/sms/endpoint/validate-message';
export const TOKEN_BY_PHONE_URL = '/api/blade-auth/oauth/token-by-phone';

export const SMS_SECONDS = 60;

export const getInfo = () => get<AccountInfo>(INFO_URL);
export const checkInit = () => get<InitStatus>('/api/blade-user/checkInit', undefined, { silent: true });
export const checkPasswordTime = () => get<{ remind: boolean; months: number; passwordTime: string }>('/api/blade-user/checkPasswordTime', undefined, { silent: true });
export const updateInfo = (values: Record<string, unknown>) => post<AccountInfo>('/api/blade-user/update-info', values, { silent: true });

/** Sends a code (`purpose` password | login | phone); answers the SMS key. */
export async function sendCode(body: { phone: string; tenantId: string; purpose: 'password' | 'login' | 'phone'; account?: string }): Promise<string> {
  return (await post<{ id: string }>(SMS_SEND_URL, body, { silent: true })).id;
}

/**
 * Onboarding step 0 and 'forgot password' (spec 000 §7 Onboarding): trades the code for the one-time code
 * (validate-message), then sets the password with it (update-password-by-smscode).
 */
export async function changePasswordBySms(v: { phone: string; tenantId: string; account: string; id?: string; value: string; newPassword: string; newPassword1: string }): Promise<void> {
  const { code } = await post<{ code: string }>(SMS_VALIDATE_URL, { id: v.id, phone: v.phone, tenantId: v.tenantId, account: v.account, value: v.value }, { silent: true });
  await post('/api/blade-user/update-password-by-smscode', { newPassword: v.newPassword, newPassword1: v.newPassword1, account: v.account, tenantId: v.tenantId, code }, { silent: true });
}

/** Login by phone and code (spec 000 §2.6): the token answer. */
export function tokenByPhone(v: { phone: string; tenantId: string; key: string; code: string }): Promise<TokenAnswer> {
  return request<TokenAnswer>('POST', TOKEN_BY_PHONE_URL, {
    form: { phone: v.phone, tenantId: v.tenantId },
    headers: { 'Tenant-Id': v.tenantId, 'Sms-Key': v.key, 'Sms-Code': v.code },
    raw: true,
    silent: true,
  });
}

/** `13812345678` → `138****5678`; anything shorter than 7 characters is shown as it is. */
export function maskPhone(phone: string | null | undefined): string {
  if (!phone) return '';
  return phone.length < 7 ? phone : `${phone.slice(0, 3)}${'*'.repeat(phone.length - 7)}${phone.slice(-4)}`;
}

const untilKey = (key: string) => `kc-sms-until:${key}`;

function remaining(key: string, now = Date.now()): number {
  try {
    const until = Number(localStorage.getItem(untilKey(key)) ?? 0);
    return until > now ? Math.ceil((until - now) / 1000) : 0;
  } catch {
    return 0;
  }
}

/**
 * The countdown of the get-code button for `key` (a phone number): `seconds` left (0 = the button is enabled),
 * `start()` when a code was sent, `reset()` when sending failed.
 */
export function useSmsCountdown(key: string): { seconds: number; start: () => void; reset: () => void } {
  const [seconds, setSeconds] = useState(() => remaining(key));
  useEffect(() => {
    setSeconds(remaining(key));
    const timer = setInterval(() => setSeconds(remaining(key)), 1000);
    return () => clearInterval(timer);
  }, [key]);
  const start = useCallback(() => {
    try {
      localStorage.setItem(untilKey(key), String(Date.now() + SMS_SECONDS * 1000));
    } catch {
      /* private mode: the countdown lives as long as the page */
    }
    setSeconds(SMS_SECONDS);
  }, [key]);
  const reset = useCallback(() => {
    try {
      localStorage.removeItem(untilKey(key));
    } catch {
      /* nothing stored */
    }
    setSeconds(0);
  }, [key]);
  return { seconds, start, reset };
}

const remindKey = (tenantId: string, userId: string) => `kc-pwd-remind-off:${tenantId}:${userId}`;

/** True when the user asked not to be reminded of the password's age again. */
export function remindOff(tenantId: string, userId: string): boolean {
  try {
    return localStorage.getItem(remindKey(tenantId, userId)) === '1';
  } catch {
    return false;
  }
}

export function setRemindOff(tenantId: string, userId: string): void {
  try {
    localStorage.setItem(remindKey(tenantId, userId), '1');
  } catch {
    /* private mode */
  }
}
