/**
 * The cross-field rules of a resource schema (`rules`, DESIGN §4) that compare values: one implementation for
 * the server's write path (src/server/resources/write.ts), the Excel import (modules/excel/import.ts) and any
 * client that wants to say the same thing before a round trip. Browser-safe: no server imports.
 *
 * Kinds checked here (the `clear` kind empties fields and is applied by write.ts before validation):
 * - `before: [a, b]` — when both are present, `a` may not come after `b` (numbers as numbers, anything else
 *   — dates `yyyy-MM-dd[ HH:mm:ss]`, years — as texts, which order like their dates). Reported on `field`
 *   (default `b`) with the rule's message.
 * - `sum: [f1, f2, …], equals: total` — when `total` has a value, Σ fᵢ must equal it, compared after rounding
 *   both to `scale` decimals (default 2: money in 万元 to the cent, 科技项目经费预算 practice). A summand is a
 *   field (absent or empty = 0) or `list.prop`, the sum of `prop` over the rows of the array field `list`
 *   (a budget's detail rows). Reported on `field` (default `total`); `{sum}` and `{total}` in the message are
 *   replaced by the two figures with `scale` decimals (预算科目合计（110.00万元）与总经费（100.00万元）不一致).
 *   A value that is not a number (text that does not parse) is left to the field's own type check.
 *
 * Answers the faults in rule order, `[]` when every rule holds; never throws.
 */
import type { RecordRule } from './types.js';

type Row = Record<string, unknown>;

/** One rule broken: the field it is reported on and the message in both languages. */
export interface RuleFault {
  field: string;
  message: string;
  messageEn: string;
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/** A number from a stored or submitted value; `null` for absent, NaN for text that is not a number. */
function num(v: unknown): number | null {
  if (!present(v)) return null;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return Number(v.trim());
  return NaN;
}

/** Σ of one summand over `values` (see the module comment): `null` when a value is not a number. */
function summand(path: string, values: Row): number | null {
  const dot = path.indexOf('.');
  if (dot < 0) {
    const n = num(values[path]);
    return n === null ? 0 : Number.isFinite(n) ? n : null;
  }
  const rows = values[path.slice(0, dot)];
  if (!Array.isArray(rows)) return 0;
  const prop = path.slice(dot + 1);
  let s = 0;
  for (const row of rows) {
    const n = row && typeof row === 'object' ? num((row as Row)[prop]) : null;
    if (n === null) continue;
    if (!Number.isFinite(n)) return null;
    s += n;
  }
  return s;
}

/** The faults of `rules` (kinds `before` and `sum`) over the record `values`; see the module comment. */
export function ruleFaults(rules: readonly RecordRule[], values: Row): RuleFault[] {
  const out: RuleFault[] = [];
  for (const rule of rules) {
    if ('before' in rule) {
      const [lo, hi] = rule.before;
      const a = values[lo];
      const b = values[hi];
      if (!present(a) || !present(b)) continue;
      const wrong = typeof a === 'number' && typeof b === 'number' ? b < a : String(b) < String(a);
      if (wrong) out.push({ field: rule.field ?? hi, message: rule.message, messageEn: rule.messageEn });
    } else if ('sum' in rule) {
      const total = num(values[rule.equals]);
      if (total === null || !Number.isFinite(total)) continue;
      const parts = rule.sum.map((p) => summand(p, values));
      if (parts.some((p) => p === null)) continue;
      const scale = rule.scale ?? 2;
      const unit = 10 ** scale;
      const sum = (parts as number[]).reduce((s, p) => s + p, 0);
      if (Math.round(sum * unit) === Math.round(total * unit)) continue;
      const fill = (m: string) => m.replaceAll('{sum}', sum.toFixed(scale)).replaceAll('{total}', total.toFixed(scale));
      out.push({ field: rule.field ?? rule.equals, message: fill(rule.message), messageEn: fill(rule.messageEn) });
    }
  }
  return out;
}
