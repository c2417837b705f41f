/**
 * Unified social credit codes of legal persons and other organisations (统一社会信用代码), as GB 32100-2015
 * 《法人和其他组织统一社会信用代码编码规则》 defines them — the code a supplier applies with (issue 17; spec 001
 * §3 "Supplier"):
 *
 * - 18 characters from the standard's 31-character set: the digits and the capital letters except I, O, Z, S
 *   and V (GB 32100-2015 Table 2, values 0–30 in the order 0–9 A B C D E F G H J K L M N P Q R T U W X Y);
 * - position 1 the registration authority code, position 2 the organisation kind (both from the set);
 * - positions 3–8 the administrative division code of the registration authority (GB/T 2260, digits);
 * - positions 9–17 the organisation code (GB 11714) and position 18 the check character: with weights
 *   Wi = 3^(i−1) mod 31 (1 3 9 27 19 26 16 17 20 29 25 13 8 24 10 30 28) and Ci the value of character i,
 *   C18 = 31 − (Σ Ci·Wi mod 31), 31 read as 0 (GB 32100-2015 §5 and Appendix A).
 *
 * Lower-case input is taken as upper case (users type it so); blanks around the code are the caller's to trim.
 * Checked in this order, each with its own message: empty, length, characters / division code, check character.
 * Browser-safe: the record validator's format `creditCode` (src/shared/validators/index.ts) and the client.
 */
import type { Reason } from './reason.js';

export const CREDIT_CODE_MESSAGES = {
  empty: { zh: '统一社会信用代码不能为空', en: 'The unified social credit code cannot be empty' },
  length: { zh: '统一社会信用代码长度不为18位', en: 'The unified social credit code is not 18 characters long' },
  format: { zh: '统一社会信用代码格式错误', en: 'The unified social credit code format is wrong' },
  check: { zh: '统一社会信用代码校验位错误', en: 'The check character of the unified social credit code is wrong' },
} as const satisfies Record<string, Reason>;

/** GB 32100-2015 Table 2: the code characters in value order (index = value 0–30). */
export const CREDIT_CODE_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
const SHAPE = /^[0-9A-HJ-NP-RTUW-Y]{2}[0-9]{6}[0-9A-HJ-NP-RTUW-Y]{10}$/;

/** The check character (position 18) of the first 17 characters, upper case; throws on a character outside the set. */
export function creditCodeCheckChar(first17: string): string {
  if (first17.length !== 17) throw new Error('creditCodeCheckChar needs 17 characters');
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const v = CREDIT_CODE_CHARS.indexOf(first17[i].toUpperCase());
    if (v < 0) throw new Error(`not a credit code character: ${first17[i]}`);
    sum += v * WEIGHTS[i];
  }
  return CREDIT_CODE_CHARS[(31 - (sum % 31)) % 31];
}

/** Why `value` is not a valid unified social credit code, or null when it is one. */
export function creditCodeFault(value: string | null | undefined): Reason | null {
  if (value === null || value === undefined || value === '') return CREDIT_CODE_MESSAGES.empty;
  const code = value.toUpperCase();
  if (code.length !== 18) return CREDIT_CODE_MESSAGES.length;
  if (!SHAPE.test(code)) return CREDIT_CODE_MESSAGES.format;
  if (creditCodeCheckChar(code.slice(0, 17)) !== code[17]) return CREDIT_CODE_MESSAGES.check;
  return null;
}
