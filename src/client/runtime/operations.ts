/**
 * List operations on the client (DESIGN §4 `list.operations`, shared/schema/types.ts `ListOperation`): buttons
 * that call an endpoint on the checked rows (toolbar) or on one row (row), for what is not a status change —
 * granting roles, resetting passwords, unlocking, exporting. The server checks the permission again; the client
 * only hides what the current role's buttons do not grant.
 *
 * - `operationsFor(resource, placement, can, row?)`: the operations shown there (placement, button `code`
 *   granted, and for a row its `visible` expression — the shared safe evaluator over `$record`);
 * - `resolveRefs(refs, ctx)`: a `params` / `body` / `initial.params` map with its references replaced:
 *   `$keys` (the rows' keys: a comma list in query parameters, an array in a body), `$row.<field>` (the one
 *   row's field, '' when absent), `$query` (query parameters only: the list's current filters, spread);
 *   anything else is a literal;
 * - `selectionFault(op, count)`: the i18n key of the warning when the checked rows do not fit the operation's
 *   `selection` (spec 002 §2: 请选择至少一条数据), or null;
 * - `initialValues(op, ctx, answer)`: the dialog's first values — `initial.values` from the row, then the
 *   `initial.endpoint`'s answer mapped through `initial.map`;
 * - `withRowRefs(dialog, ctx)`: the dialog with string `x-component-props` values `$row.<field>` (at any depth
 *   of the props: `params.id`) replaced by the one row's field — a view dialog's components read the row's
 *   data (`result: 'view'`).
 */
import type { ListOperation, ResourceSchema } from '../../shared/schema/types.js';
import { evaluate, isTemplate } from '../../shared/schema/expression.js';

type Row = Record<string, unknown>;

/** What references resolve against: the chosen rows' keys, the one row, the list's filters. */
export interface OperationContext {
  keys: string[];
  row?: Row;
  query?: Record<string, string>;
}

/** The operations shown in `placement` for the current role (and, for a row, that row). */
export function operationsFor(resource: ResourceSchema, placement: 'toolbar' | 'row', can?: (code: string) => boolean, row?: Row): ListOperation[] {
  return (resource.list?.operations ?? []).filter((op) => {
    if (!op.placement.includes(placement)) return false;
    if (op.code && can && !can(op.code)) return false;
    if (row && op.visible) return visibleFor(op.visible, row);
    return true;
  });
}

/** True when the `visible` expression holds for `row` (an expression that fails to evaluate hides the button). */
function visibleFor(expr: string, row: Row): boolean {
  try {
    const src = isTemplate(expr) ? expr.trim().slice(2, -2) : expr;
    return !!evaluate(src, { $record: row, $values: row });
  } catch {
    return false;
  }
}

const rowField = (ref: string, row?: Row): unknown => {
  const v = row?.[ref.slice('$row.'.length)];
  return v === undefined || v === null ? '' : v;
};

/**
 * `refs` with references resolved (see the module comment): `as: 'params'` gives strings (keys joined by
 * commas, `$query` spread), `as: 'body'` keeps arrays.
 */
export function resolveRefs(refs: Record<string, string> | undefined, ctx: OperationContext, as: 'params' | 'body'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, ref] of Object.entries(refs ?? {})) {
    if (ref === '$query') {
      if (as === 'params') Object.assign(out, ctx.query ?? {});
    } else if (ref === '$keys') out[name] = as === 'params' ? ctx.keys.join(',') : [...ctx.keys];
    else if (ref.startsWith('$row.')) out[name] = as === 'params' ? String(rowField(ref, ctx.row)) : rowField(ref, ctx.row);
    else out[name] = ref;
  }
  return out;
}

/** The warning key when `count` checked rows do not fit the operation, else null. */
export function selectionFault(op: ListOperation, count: number): 'rt.selectOne' | 'rt.selectExactlyOne' | null {
  const need = op.selection ?? 'many';
  if (need === 'many' && count === 0) return 'rt.selectOne';
  if (need === 'one' && count !== 1) return 'rt.selectExactlyOne';
  return null;
}

/**
 * The dialog's first values: `initial.values` (`{ field: '$row.<field>' }`, only with one row), then the
 * `initial.endpoint` answer's properties mapped by `initial.map` (`{ field: answerProperty }`, a dotted path into
 * the answer — `config.startUrls` — allowed; unmapped or absent = none).
 * A comma-separated string answered for an array field of the dialog is split (`roleId` '1,2' → ['1', '2']).
 */
export function initialValues(op: ListOperation, ctx: OperationContext, answer?: unknown): Row {
  const out: Row = {};
  const props = op.dialog?.properties ?? {};
  const shape = (field: string, v: unknown) => {
    const node = props[field] ?? findNode(op.dialog, field);
    if (node?.type === 'array' && typeof v === 'string') return v === '' ? [] : v.split(',');
    return v;
  };
  if (ctx.keys.length === 1 && ctx.row) {
    for (const [field, ref] of Object.entries(op.initial?.values ?? {})) out[field] = shape(field, ref.startsWith('$row.') ? rowField(ref, ctx.row) : ref);
  }
  if (answer && typeof answer === 'object') {
    for (const [field, prop] of Object.entries(op.initial?.map ?? {})) {
      const v = prop.split('.').reduce<unknown>((cur, part) => (cur && typeof cur === 'object' ? (cur as Row)[part] : undefined), answer);
      if (v !== undefined) out[field] = shape(field, v);
    }
  }
  return out;
}

type Node = NonNullable<ListOperation['dialog']>;

/** `v` with every string `$row.<field>` replaced by the row's field (objects and arrays copied). */
function resolveDeep(v: unknown, ctx: OperationContext): unknown {
  if (typeof v === 'string') return v.startsWith('$row.') ? rowField(v, ctx.row) : v;
  if (Array.isArray(v)) return v.map((x) => resolveDeep(x, ctx));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolveDeep(x, ctx)]));
  return v;
}

/** See the module comment; the dialog itself is not changed. */
export function withRowRefs<N extends Node>(dialog: N, ctx: OperationContext): N {
  const walk = (node: Node): Node => {
    const out: Node = { ...node };
    if (node['x-component-props']) out['x-component-props'] = resolveDeep(node['x-component-props'], ctx) as Node['x-component-props'];
    if (node.properties) out.properties = Object.fromEntries(Object.entries(node.properties).map(([k, child]) => [k, walk(child as Node)])) as Node['properties'];
    if (node.items && !Array.isArray(node.items)) out.items = walk(node.items as Node) as Node['items'];
    return out;
  };
  return walk(dialog) as N;
}

/** A field anywhere under void layout nodes of the dialog (FormTab, FormGrid). */
function findNode(node: Node | undefined, field: string): Node | undefined {
  for (const [name, child] of Object.entries(node?.properties ?? {})) {
    if (name === field && child.type !== 'void') return child as Node;
    if (child.type === 'void') {
      const below = findNode(child as Node, field);
      if (below) return below;
    }
  }
  return undefined;
}

/** The label of `op` in `lang`. */
export const operationLabel = (op: Pick<ListOperation, 'label' | 'labelEn'>, lang: 'zh' | 'en') => (lang === 'en' ? op.labelEn : op.label);

/** `fileName` with `{date}` replaced by yyyyMMddHHmmss (spec 002 §7: download name = name plus yyyyMMddhhmmss). */
export function downloadName(op: ListOperation, lang: 'zh' | 'en', now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
  const base = op.fileName ?? `${operationLabel(op, lang)}{date}.xlsx`;
  return base.replace('{date}', stamp);
}
