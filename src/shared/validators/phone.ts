/**
 * Mainland China mobile numbers (spec 000 §5 'Phone'): 11 digits starting with 1 and a carrier prefix.
 *
 * Messages are the original's (the Saber/avue `isvalidatemobile` check whose English glosses spec 000 §5 gives):
 * 手机号码不能为空 'phone cannot be empty', 手机号码长度不为11位 'length is not 11', 手机号码格式不正确 'format
 * incorrect'. The spec does not list the prefixes; ours are the mobile number segments of the MIIT numbering plan
 * (电信网码号资源, 2024): 13x, 145–149, 150–153 and 155–159, 162 and 165–167, 170–178, 18x, 190–193 and 195–199
 * (192 is China Broadnet, 199 China Telecom …). IoT-only (140–144, 146 data) segments are not personal phones.
 *
 * Browser-safe (no Node APIs): the server checks records with it (the `phone` format of the record validator,
 * src/server/resources/registry.ts), the client through the same format.
 */
import type { Reason } from './reason.js';

/** The mobile prefixes (first three digits) of the MIIT numbering plan, as a pattern over the whole number. */
export const MOBILE_RE = /^1(?:3\d|4[5-9]|5[0-35-9]|6[25-7]|7[0-8]|8\d|9[0-35-9])\d{8}$/;

export const PHONE_MESSAGES = {
  empty: { zh: '手机号码不能为空', en: 'The phone number cannot be empty' },
  length: { zh: '手机号码长度不为11位', en: 'The phone number is not 11 digits long' },
  format: { zh: '手机号码格式不正确', en: 'The phone number format is incorrect' },
} as const satisfies Record<string, Reason>;

/**
 * Why `value` is not a mainland mobile number, or null when it is one. Surrounding spaces are not trimmed (a
 * stored number has none); an empty value answers the `empty` reason — a caller that allows an empty field
 * checks emptiness first.
 */
export function phoneFault(value: string | null | undefined): Reason | null {
  if (value === null || value === undefined || value === '') return PHONE_MESSAGES.empty;
  if (value.length !== 11) return PHONE_MESSAGES.length;
  if (!MOBILE_RE.test(value)) return PHONE_MESSAGES.format;
  return null;
}
