/**
 * The designer's rules (spec 002 §4–§5), as plain functions over schema nodes so that the canvas (drops and
 * clicks, through Designable's `allowDrop`), the settings panel and the tests share them:
 *
 * - `dropRefusal(source, chain)`: why `source` may not go into the container whose chain of props (the
 *   container first, then its ancestors up to the root) is `chain`, or null. The rules are data of the
 *   component registrations (`designer: { inSubform, nestsInItself, subform }`, see
 *   src/client/components/catalog.tsx): a sub-form, rich text, map or group cannot go into a sub-form; a
 *   group cannot go into a group (anywhere inside one). Layout nodes that are not fields (title, grid, other
 *   void containers) cannot go into a sub-form either: a sub-form's row is a table row whose cells are fields
 *   (the runtime makes each of its properties a column).
 * - `requiredRule(node, name, on)` / `patternRule(...)`: the rules the required switch and the pattern add,
 *   with the spec's messages: label + 必须填写 (请输入 + label for arrays), 请选择 + label for choices (the
 *   kinds whose registration says `designer: { choice: true }`),
 *   label + 格式不匹配 for a pattern; each with its English twin (`messageEn`).
 * - `duplicateOptionValue(options)`: the first value used twice in an option list or tree (→ 'value重复').
 * - `validName(name)`, `HISTORY_STEPS`, the limits of §9.
 */
import { SETTINGS_LIMITS } from '../src/client/components/registry.js';
import { kindOf, kindSpec } from './palette.js';
import type { FieldRule, FormNode } from '../src/shared/schema/types.js';

type AnyNode = Record<string, any>;

/** At most this many steps of history (spec 002 §4, §9). */
export const HISTORY_STEPS = 20;
/** The limits of spec 002 §9 (one definition, shared with the registrations' settings). */
export const LIMITS = SETTINGS_LIMITS;

export type Refusal = { key: 'dz.rule.notInSubform' | 'dz.rule.nested' | 'dz.rule.refused'; kind: string };

/**
 * Why `source` cannot be put into the container `chain[0]` (ancestors follow, root last), or null when it can.
 * `chain[i + 1]` is the parent of `chain[i]`.
 */
export function dropRefusal(source: AnyNode, chain: AnyNode[]): Refusal | null {
  const kind = kindOf(source);
  const rules = kindSpec(kind).designer;
  const kinds = chain.map((p, i) => kindOf(p, chain[i + 1]));
  const inSubform = kinds.some((k) => kindSpec(k).designer.subform);
  if (inSubform && rules.inSubform === false) return { key: 'dz.rule.notInSubform', kind };
  if (rules.nestsInItself === false && kinds.includes(kind)) return { key: 'dz.rule.nested', kind };
  return null;
}

/** A property key the runtime, the database and the meta-schema accept. */
export const validName = (name: string) => /^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name);

const rulesOf = (node: AnyNode): FieldRule[] => {
  const v = node['x-validator'];
  return !v ? [] : Array.isArray(v) ? [...v] : [v];
};

const labels = (node: AnyNode, name: string) => ({ zh: (node.title as string) || name, en: (node.titleEn as string) || (node.title as string) || name });

/** The required rule of `node` (spec 002 §5 messages). */
export function requiredRule(node: AnyNode, name: string, parent?: AnyNode): FieldRule {
  const l = labels(node, name);
  if (kindSpec(kindOf(node, parent)).designer.choice) return { required: true, message: `请选择${l.zh}`, messageEn: `Please select ${l.en}` };
  if (node.type === 'array') return { required: true, message: `请输入${l.zh}`, messageEn: `Please enter ${l.en}` };
  return { required: true, message: `${l.zh}必须填写`, messageEn: `${l.en} is required` };
}

/** The pattern rule of `node` (label + 格式不匹配). */
export function patternRule(node: AnyNode, name: string, pattern: string): FieldRule {
  const l = labels(node, name);
  return { pattern, message: `${l.zh}格式不匹配`, messageEn: `${l.en} does not match the format` };
}

/** `x-validator` of `node` with its required rule switched on or off (other rules kept). */
export function withRequired(node: AnyNode, name: string, on: boolean, parent?: AnyNode): FieldRule[] | undefined {
  const rest = rulesOf(node).filter((r) => !r.required);
  const next = on ? [requiredRule(node, name, parent), ...rest] : rest;
  return next.length ? next : undefined;
}

/** `x-validator` of `node` with its pattern rule replaced (or removed for an empty pattern). */
export function withPattern(node: AnyNode, name: string, pattern: string | undefined): FieldRule[] | undefined {
  const rest = rulesOf(node).filter((r) => r.pattern === undefined);
  const next = pattern ? [...rest, patternRule(node, name, pattern)] : rest;
  return next.length ? next : undefined;
}

/** `x-validator` with the messages of generated rules following a new label (hand-written messages kept). */
export function relabel(node: AnyNode, name: string, before: AnyNode, parent?: AnyNode): FieldRule[] | undefined {
  const rules = rulesOf(node);
  if (!rules.length) return undefined;
  const was = (r: FieldRule) => {
    if (r.required) return r.message === requiredRule(before, name, parent).message;
    if (r.pattern !== undefined) return r.message === patternRule(before, name, r.pattern).message;
    return false;
  };
  return rules.map((r) => (!was(r) ? r : r.required ? requiredRule(node, name, parent) : patternRule(node, name, r.pattern!)));
}

export const isRequired = (node: AnyNode) => node.required === true || rulesOf(node).some((r) => r.required);
export const patternOf = (node: AnyNode): string | undefined => rulesOf(node).find((r) => r.pattern !== undefined)?.pattern ?? (node.pattern as string | undefined);

export interface OptionNode {
  label: string;
  labelEn?: string;
  value: string | number | boolean;
  children?: OptionNode[];
}

/** The first value that appears twice in `options` (children included), or undefined. */
export function duplicateOptionValue(options: OptionNode[]): OptionNode['value'] | undefined {
  const seen = new Set<string>();
  const walk = (list: OptionNode[]): OptionNode['value'] | undefined => {
    for (const o of list) {
      const k = String(o.value);
      if (seen.has(k)) return o.value;
      seen.add(k);
      const d = o.children?.length ? walk(o.children) : undefined;
      if (d !== undefined) return d;
    }
    return undefined;
  };
  return walk(options);
}

/** The problem of an option entry being added or edited (spec 002 §5: 请输入label, 请输入value, value重复). */
export function optionProblem(entry: { label?: string; value?: string }, others: OptionNode[]): 'dz.opt.labelRequired' | 'dz.opt.valueRequired' | 'dz.opt.duplicate' | null {
  if (!entry.label?.trim()) return 'dz.opt.labelRequired';
  if (entry.value === undefined || String(entry.value).trim() === '') return 'dz.opt.valueRequired';
  if (duplicateOptionValue([...others, { label: entry.label, value: entry.value }]) !== undefined) return 'dz.opt.duplicate';
  return null;
}

/** A fresh property key for a node of `kind` that is not in `taken`. */
export function freshName(kind: string, taken: Set<string>): string {
  const base = /^[a-z]/.test(kind) ? kind : 'field';
  for (let i = 1; ; i++) {
    const n = `${base}${i}`;
    if (!taken.has(n)) return n;
  }
}

export type { FormNode };
