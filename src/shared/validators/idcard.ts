/**
 * Resident identity card numbers of the People's Republic of China (spec 000 §5 'ID card', §9; spec 002 §5),
 * as GB 11643-1999 《公民身份号码》 defines them:
 *
 * - 18 characters: a 6-digit address code (GB/T 2260; its first two digits are the province), the birth date
 *   yyyyMMdd, a 3-digit sequence (odd = male, even = female) and a check character. The check character is
 *   ISO 7064 MOD 11-2: with weights Wi = 2^(17−i) mod 11 (7 9 10 5 8 4 2 1 6 3 7 9 10 5 8 4 2), S = Σ ai·Wi,
 *   the check is '10X98765432'[S mod 11] (GB 11643-1999 §7.2; the 'X' stands for 10, an 'x' is taken as 'X').
 * - 15 characters: the first-generation number (GB 11643-1989, still accepted where spec 000 §5 says '15 or
 *   18'): address code, birth date yyMMdd of the 1900s, 3-digit sequence, no check digit.
 *
 * Checked in this order, each with the original's message (the Saber/avue `cardid` check, whose English
 * glosses spec 000 §5 gives): empty 证件号码不能为空; length neither 15 nor 18 证件号码长度不为18位 ('length not
 * 18'); not 17 digits + digit or X (or 15 digits) 证件号码格式错误 ('format error'); province not one of GB/T 2260's
 * 地址编码错误 ('address code error'); then — our addition, the spec shows none — a birth date that is not a real
 * day between 1800-01-01 (the standard's own example is born in 1880) and today 证件号码出生日期错误; last the check digit 证件号码校验位错误 ('check digit error').
 *
 * Browser-safe: used by the record validator on the server (format `idcard`) and by the client.
 */
import type { Reason } from './reason.js';

export const IDCARD_MESSAGES = {
  empty: { zh: '证件号码不能为空', en: 'The ID number cannot be empty' },
  length: { zh: '证件号码长度不为18位', en: 'The ID number is not 18 (or 15) characters long' },
  format: { zh: '证件号码格式错误', en: 'The ID number format is wrong' },
  province: { zh: '地址编码错误', en: 'The address code of the ID number is wrong' },
  birthday: { zh: '证件号码出生日期错误', en: 'The birth date in the ID number is wrong' },
  check: { zh: '证件号码校验位错误', en: 'The check digit of the ID number is wrong' },
} as const satisfies Record<string, Reason>;

/**
 * Province-level codes of GB/T 2260 (the first two digits of the address code): the 31 provinces, autonomous
 * regions and municipalities, 71 Taiwan, 81 Hong Kong, 82 Macao, 83 (residence permits of Taiwan residents,
 * GB 11643 as applied since 2018) and 91 (abroad, kept from the original's list).
 */
export const PROVINCE_CODES: ReadonlySet<string> = new Set([
  '11', '12', '13', '14', '15', '21', '22', '23', '31', '32', '33', '34', '35', '36', '37', '41', '42', '43', '44', '45', '46',
  '50', '51', '52', '53', '54', '61', '62', '63', '64', '65', '71', '81', '82', '83', '91',
]);

/** The weights Wi = 2^(17−i) mod 11 of GB 11643-1999 §7.2, i = 0…16. */
const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK = '10X98765432';

/** The check character of the first 17 digits of an 18-character number (ISO 7064 MOD 11-2). */
export function idCardCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * WEIGHTS[i];
  return CHECK[sum % 11];
}

/** True when y-m-d is a real day between 1800-01-01 and `today` (both inclusive). */
function realBirthDate(y: number, m: number, d: number, today: Date): boolean {
  if (y < 1800 || m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > days) return false;
  const ymd = y * 10000 + m * 100 + d;
  const now = today.getFullYear() * 10000 + (today.getMonth() + 1) * 100 + today.getDate();
  return ymd <= now;
}

/** The birth date (yyyy-MM-dd) and sex (1 male, 2 female, spec 002 §3 codes) a well-formed number carries. */
export interface IdCardInfo {
  birthday: string;
  sex: 1 | 2;
}

function parts(v: string): { y: number; m: number; d: number; seq: number } {
  if (v.length === 18) return { y: Number(v.slice(6, 10)), m: Number(v.slice(10, 12)), d: Number(v.slice(12, 14)), seq: Number(v.slice(14, 17)) };
  return { y: 1900 + Number(v.slice(6, 8)), m: Number(v.slice(8, 10)), d: Number(v.slice(10, 12)), seq: Number(v.slice(12, 15)) };
}

/**
 * Why `value` is not a valid ID number (see the module comment for the order and the messages), or null when
 * it is one. `allow15` (default true) accepts the 15-character numbers; `today` (default now) bounds the birth
 * date. A lowercase 'x' check character is accepted (normalise with `normaliseIdCard` before storing).
 */
export function idCardFault(value: string | null | undefined, opts: { allow15?: boolean; today?: Date } = {}): Reason | null {
  if (value === null || value === undefined || value === '') return IDCARD_MESSAGES.empty;
  const allow15 = opts.allow15 ?? true;
  if (value.length !== 18 && !(allow15 && value.length === 15)) return IDCARD_MESSAGES.length;
  if (value.length === 18 ? !/^\d{17}[\dXx]$/.test(value) : !/^\d{15}$/.test(value)) return IDCARD_MESSAGES.format;
  if (!PROVINCE_CODES.has(value.slice(0, 2))) return IDCARD_MESSAGES.province;
  const { y, m, d } = parts(value);
  if (!realBirthDate(y, m, d, opts.today ?? new Date())) return IDCARD_MESSAGES.birthday;
  if (value.length === 18 && idCardCheckChar(value) !== value[17].toUpperCase()) return IDCARD_MESSAGES.check;
  return null;
}

/** A valid number as stored: the check character 'x' upper-cased. */
export function normaliseIdCard(value: string): string {
  return value.toUpperCase();
}

/** Birth date and sex of a valid number (spec 000 §5: derived from it), or null when `value` is not valid. */
export function idCardInfo(value: string, opts: { today?: Date } = {}): IdCardInfo | null {
  if (idCardFault(value, opts) !== null) return null;
  const { y, m, d, seq } = parts(value);
  const two = (n: number) => String(n).padStart(2, '0');
  return { birthday: `${y}-${two(m)}-${two(d)}`, sex: seq % 2 === 1 ? 1 : 2 };
}
