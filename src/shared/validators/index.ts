/**
 * Field validators shared by server and client (DESIGN §3 `src/shared`: validators — ID card, phone, credit code), each a
 * named string format a resource schema gives a field (`"format": "phone"`, `"format": "idcard"`):
 *
 * - the server's record validator (ajv, src/server/resources/registry.ts `createRecordAjv`) registers every
 *   format of `FIELD_FORMATS`, and validate.ts answers a failure with the format's own message for the value
 *   (手机号码长度不为11位, 证件号码校验位错误 …) rather than one generic text;
 * - the client registers the same functions as Formily validation rules, so the form says the same before
 *   posting.
 *
 * An empty value passes a format (emptiness is the `required` rule's business).
 */
import { phoneFault } from './phone.js';
import { idCardFault } from './idcard.js';
import { creditCodeFault } from './creditcode.js';
import type { Reason } from './reason.js';

export type { Reason } from './reason.js';
export { phoneFault, PHONE_MESSAGES, MOBILE_RE } from './phone.js';
export { creditCodeFault, creditCodeCheckChar, CREDIT_CODE_MESSAGES, CREDIT_CODE_CHARS } from './creditcode.js';
export { idCardFault, idCardInfo, idCardCheckChar, normaliseIdCard, IDCARD_MESSAGES, PROVINCE_CODES } from './idcard.js';

/** A named format: `fault(value)` is null for a good value, else the reason in both languages. */
export interface FieldFormat {
  fault(value: string): Reason | null;
}

/** The formats a schema field may name, by name. */
export const FIELD_FORMATS: Readonly<Record<string, FieldFormat>> = {
  phone: { fault: (v) => (v === '' ? null : phoneFault(v)) },
  idcard: { fault: (v) => (v === '' ? null : idCardFault(v)) },
  creditCode: { fault: (v) => (v === '' ? null : creditCodeFault(v)) },
};

/** The reason `value` fails the named format, or null (also for an unknown format or a non-string value). */
export function formatFault(format: string, value: unknown): Reason | null {
  const f = Object.hasOwn(FIELD_FORMATS, format) ? FIELD_FORMATS[format] : undefined;
  if (!f || typeof value !== 'string') return null;
  return f.fault(value);
}
