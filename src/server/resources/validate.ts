/**
 * The one validation of values against a Formily form (DESIGN §4: the schema is the single source of every
 * rule), used by the generic submit (a whole record against the resource's form) and by the workflow actions
 * (a dialog's values against the dialog's form):
 *
 * 1. `required`, which depends on reactions and on emptiness (`checkRequired`, shared with the client);
 * 2. the derived JSON Schema (ajv, compiled once per form): types, lengths, patterns, formats, ranges, enums;
 *    unknown fields (`additionalProperties`) are reported as 未知字段: <path>;
 * 3. the message of each fault is the schema's own (`ruleMessage`: the x-validator's message, e.g.
 *    请输入专利名称, or one built from the field's title), in zh and en; a field of a shared format
 *    (`format: phone | idcard`, src/shared/validators) without a format message of its own gets the format's
 *    reason for the value (手机号码长度不为11位, 证件号码校验位错误 …).
 *
 * Faults come one per field (the first one found), ordered as the fields are in the form; `assertValid`
 * throws them as one `ValidationError` (400, `data: [{field, message}]`).
 */
import type { ValidateFunction } from 'ajv';
import { ValidationError } from '../core/envelope.js';
import { checkRequired, DATE_FORMAT_TEXT, dataFields, nodeAtPath, ruleMessage, rulesOf, valueJsonSchema } from '../../shared/schema/derive.js';
import { formatFault } from '../../shared/validators/index.js';
import type { FormNode } from '../../shared/schema/types.js';
import { t } from '../../shared/i18n/messages.js';
import { createRecordAjv } from './registry.js';

type Row = Record<string, unknown>;

/** The value at dotted `path` (`a.0.b`) of `values`, or undefined. */
function valueAt(values: Row, path: string): unknown {
  let v: unknown = values;
  for (const k of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Row)[k];
  }
  return v;
}

/** One field's fault: the dotted path (`ownershipDetailForm.0.name`) and the message in both languages. */
export interface FieldFault {
  field: string;
  message: string;
  messageEn: string;
}

/** The faults of `values` against `form`, checked by `validate` (the form's compiled JSON Schema). */
export function validationFaults(form: FormNode, validate: ValidateFunction, values: Row): FieldFault[] {
  // the form's field order, worked out only once a fault needs it (a valid record, e.g. each row of an import, never does)
  let order: string[] | null = null;
  const orderOf = (path: string) => {
    order ??= dataFields(form).map((f) => f.name);
    const i = order.indexOf(path.split('.')[0]);
    return i < 0 ? order.length : i;
  };
  const faults: Array<FieldFault & { order: number }> = [];
  const seen = new Set<string>();
  const push = (field: string, m: { zh: string; en: string }) => {
    if (seen.has(field)) return;
    seen.add(field);
    faults.push({ field, message: m.zh, messageEn: m.en, order: orderOf(field) });
  };
  for (const f of checkRequired(form, values)) push(f.path, ruleMessage(f.node, f.name, 'required'));
  if (!validate(values)) {
    for (const e of validate.errors ?? []) {
      let path = e.instancePath.split('/').filter(Boolean).join('.');
      if (e.keyword === 'additionalProperties') {
        const extra = (e.params as { additionalProperty: string }).additionalProperty;
        path = path ? `${path}.${extra}` : extra;
        push(path, { zh: t('unknownField', 'zh', { field: path }), en: t('unknownField', 'en', { field: path }) });
        continue;
      }
      if (path === 'id') {
        push('id', { zh: t('badParam', 'zh', { param: 'id' }), en: t('badParam', 'en', { param: 'id' }) });
        continue;
      }
      const at = path ? nodeAtPath(form, path) : null;
      if (!at) continue;
      const p = e.params as Record<string, unknown>;
      if (e.keyword === 'format' && typeof p.format === 'string' && !rulesOf(at.node).some((r) => r.format && r.message)) {
        // a shared field format (phone, idcard …) says why this value fails, in the spec's words
        const reason = formatFault(p.format, valueAt(values, path));
        if (reason) {
          push(path, reason);
          continue;
        }
      }
      const fmt = typeof p.format === 'string' ? (DATE_FORMAT_TEXT[p.format.replace(/^kc-/, '')] ?? p.format) : undefined;
      const type = Array.isArray(p.type) ? p.type[0] : p.type;
      push(path, ruleMessage(at.node, at.name, e.keyword, { limit: p.limit, format: fmt, type }));
    }
  }
  faults.sort((a, b) => a.order - b.order);
  return faults.map(({ field, message, messageEn }) => ({ field, message, messageEn }));
}

/** Throws a `ValidationError` listing every fault of `values` against `form`; returns when there is none. */
export function assertValid(form: FormNode, validate: ValidateFunction, values: Row): void {
  const faults = validationFaults(form, validate, values);
  if (faults.length) throw new ValidationError(faults);
}

const dialogAjv = createRecordAjv();
const dialogValidators = new WeakMap<object, ValidateFunction>();

/**
 * The compiled validator of a form that is not a resource's record (a workflow dialog): its values' JSON
 * Schema (`valueJsonSchema`), compiled once per form object (a published schema brings new objects).
 */
export function formValidator(form: FormNode): ValidateFunction {
  let v = dialogValidators.get(form);
  if (!v) {
    v = dialogAjv.compile(valueJsonSchema(form));
    dialogValidators.set(form, v);
  }
  return v;
}
