/**
 * Scalar coercion before validation (DESIGN §6 API contract).
 *
 * The original platform's server is Java: Jackson binds a JSON number or boolean sent for a `String` property
 * to its text (`2` → `"2"`, `true` → `"true"`), and its clients rely on it — dictionary values (states, types,
 * sources: `state: 2`) are strings in the contract, yet clients send them as numbers. Refusing them with
 * 「状态应为string类型」 would break those clients, so before the record is validated every number or boolean
 * sent for a string-typed field is replaced by `String(value)`.
 *
 * Only that: a string sent for a number field stays a string (and is refused by validation), objects and
 * arrays sent for a string field stay (refused with the type message), null and missing values stay, and a
 * value that is already one of the field's `enum` values as sent is left alone.
 */
import { dataFields } from './derive.js';
import type { FormNode } from './types.js';

type Values = Record<string, unknown>;

const isPlainObject = (v: unknown): v is Values => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `v` as the value of a string-typed `node`: numbers and booleans become their text, anything else stays. */
function coerceScalar(node: FormNode, v: unknown): unknown {
  if (typeof v !== 'number' && typeof v !== 'boolean') return v;
  const enumValues = node.enum?.map((e) => (typeof e === 'object' && e !== null ? e.value : e));
  if (enumValues?.includes(v)) return v;
  return String(v);
}

/** Coerces the value of one field (`node`), descending into sub-form objects and array items. */
function coerceValue(node: FormNode, v: unknown): unknown {
  const type = node.type ?? 'string';
  if (type === 'string') return coerceScalar(node, v);
  if (type === 'object' && node.properties && isPlainObject(v)) coerceScalars(node, v);
  else if (type === 'array' && node.items && Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = coerceValue(node.items, v[i]);
  }
  return v;
}

/**
 * Replaces, in place, every number or boolean that `values` carries for a string-typed data field of `form`
 * (an object node: a resource's form, a sub-form, a dialog) by its text, looking through layout (`void`)
 * nodes and into nested objects and array items (`ownershipDetailForm.0.name`, a list of strings). Fields
 * without a `type` are strings, as in the derived JSON Schema. Answers `values`.
 *
 * Example: `coerceScalars(patent.form, { type: 2, isTransfer: true, name: 12345 })` leaves
 * `{ type: '2', isTransfer: true, name: '12345' }` (isTransfer is a boolean field, kept).
 */
export function coerceScalars(form: FormNode, values: Values): Values {
  for (const f of dataFields(form)) {
    if (!Object.hasOwn(values, f.name)) continue;
    values[f.name] = coerceValue(f.node, values[f.name]);
  }
  return values;
}
