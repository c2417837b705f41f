/**
 * Password rules (spec 000 §5 'New password', §8 onboarding, §9 'Password length 8-16'), shared by the server
 * (update-password, update-password-by-smscode, register-guest: src/server/modules/system/account*.ts) and the
 * client forms (personal info page, onboarding dialog, register dialog), so both say the same.
 *
 * - length 8–16 characters;
 * - character classes: digit, lower-case letter, upper-case letter, symbol (any other visible character);
 *   - `'two'` (the personal info page): at least two classes;
 *   - `'all'` (onboarding, and every password set with an SMS code): all four — the spec's message
 *     'password must be 8-16 characters and contain upper and lower case letters, digits and special symbols';
 * - no white space (ours: a password with spaces is a typing accident more often than a choice).
 *
 * The zh texts are ours where the spec gives only the English gloss (the en texts are the spec's words).
 */
import type { Reason } from './reason.js';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 16;

export const PASSWORD_MESSAGES = {
  oldRequired: { zh: '请输入原密码', en: 'please enter old password' },
  newRequired: { zh: '请输入新密码', en: 'please enter new password' },
  confirmRequired: { zh: '请输入确认密码', en: 'please enter confirm password' },
  mismatch: { zh: '两次输入密码不一致', en: 'the two passwords do not match' },
  weakTwo: {
    zh: '密码长度为8-16位,且至少包含数字、小写字母、大写字母、特殊符号中的两种',
    en: 'password must be 8-16 characters and contain at least two of digits, lower case letters, upper case letters and symbols',
  },
  weakAll: {
    zh: '密码长度为8-16位,且必须包含大小写字母、数字和特殊符号',
    en: 'password must be 8-16 characters and contain upper and lower case letters, digits and special symbols',
  },
  space: { zh: '密码不能包含空格', en: 'The password cannot contain spaces' },
} as const satisfies Record<string, Reason>;

export type PasswordStrength = 'two' | 'all';

/** The number of character classes (digit, lower, upper, symbol) `value` uses. */
export function passwordClasses(value: string): number {
  return [/\d/, /[a-z]/, /[A-Z]/, /[^A-Za-z0-9\s]/].filter((re) => re.test(value)).length;
}

/** Why `value` is not an acceptable new password under `strength`, or null. Empty → newRequired. */
export function passwordFault(value: unknown, strength: PasswordStrength): Reason | null {
  if (typeof value !== 'string' || value === '') return PASSWORD_MESSAGES.newRequired;
  if (/\s/.test(value)) return PASSWORD_MESSAGES.space;
  const weak = strength === 'all' ? PASSWORD_MESSAGES.weakAll : PASSWORD_MESSAGES.weakTwo;
  const len = [...value].length;
  if (len < PASSWORD_MIN || len > PASSWORD_MAX) return weak;
  if (passwordClasses(value) < (strength === 'all' ? 4 : 2)) return weak;
  return null;
}

/**
 * The first fault of a new password and its confirmation, in the spec's order: the new password (required,
 * rule), the confirmation (required, same rule), then equality ('the two passwords do not match'). Answers the
 * field it concerns (`newPassword` or `newPassword1`) with the reason, or null when both are good.
 */
export function newPasswordFault(newPassword: unknown, newPassword1: unknown, strength: PasswordStrength): { field: 'newPassword' | 'newPassword1'; reason: Reason } | null {
  const first = passwordFault(newPassword, strength);
  if (first) return { field: 'newPassword', reason: first };
  if (typeof newPassword1 !== 'string' || newPassword1 === '') return { field: 'newPassword1', reason: PASSWORD_MESSAGES.confirmRequired };
  const second = passwordFault(newPassword1, strength);
  if (second) return { field: 'newPassword1', reason: second };
  if (newPassword !== newPassword1) return { field: 'newPassword1', reason: PASSWORD_MESSAGES.mismatch };
  return null;
}
