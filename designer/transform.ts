/**
 * The designer's side of the schema round trip (DESIGN §4, §9): a resource's Formily `form` ⇄ Designable's
 * tree, through @pind/designable-formily-transformer.
 *
 * - `formToTree(form)`: the tree the canvas edits. Its root (component `Form`) carries the form's own keys
 *   (`type`, `x-component-props` with the layout — labelWidth, labelAlign, layout, gridColumnGap, dialogWidth
 *   — and `x-pattern` for detail / read-only / disabled); each property becomes a `Field` node whose props
 *   are the property's schema plus `name` (its key); an array's `items` is the array's first child.
 * - `treeToForm(tree)`: the form back, with the keys only the designer uses removed: `x-designable-id`,
 *   `x-designable-source-name`, `name` (it is the property key) and `x-index` (the transformer numbers every
 *   property; the order is kept by the order of the keys instead, which Formily and `dataFields` follow).
 *
 * A schema from `schemas/` comes back unchanged apart from those keys (designer/transform.test.ts checks every
 * one).
 */
import { transformToSchema, transformToTreeNode } from '@pind/designable-formily-transformer';
import type { ITreeNode } from '@pind/designable-core';
import type { FormNode } from '../src/shared/schema/types.js';

/** Keys a schema node gets from the designer and loses again on the way out. */
export const DESIGNER_KEYS = ['x-designable-id', 'x-designable-source-name', 'x-index', 'name'] as const;

type AnyNode = Record<string, any>;
export type DesignedForm = FormNode & { type: 'object'; properties: Record<string, FormNode> };

const copy = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

/** A schema node without the designer's keys, recursively through `properties` and `items`. */
export function cleanNode(node: unknown): AnyNode {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return node as AnyNode;
  const out: AnyNode = {};
  for (const [k, v] of Object.entries(node as AnyNode)) {
    if ((DESIGNER_KEYS as readonly string[]).includes(k) || v === undefined) continue;
    if (k === 'properties' && v && typeof v === 'object') {
      out.properties = Object.fromEntries(Object.entries(v as AnyNode).map(([name, child]) => [name, cleanNode(child)]));
    } else if (k === 'items' && v && typeof v === 'object' && !Array.isArray(v)) {
      out.items = cleanNode(v);
    } else out[k] = v;
  }
  return out;
}

/** The tree of `form` (a resource's Formily form: type object with properties). */
export function formToTree(form: FormNode): ITreeNode {
  const { properties, ...root } = copy(form) as AnyNode;
  return transformToTreeNode({ form: { type: 'object', ...root }, schema: { type: 'object', properties: properties ?? {} } });
}

/** The form `tree` describes (the root's keys, then the properties in the tree's order). */
export function treeToForm(tree: ITreeNode): DesignedForm {
  const { form, schema } = transformToSchema(tree);
  const root = cleanNode(copy(form ?? {}));
  const body = cleanNode(copy(schema ?? {}));
  return { ...root, type: 'object', properties: (body.properties ?? {}) as Record<string, FormNode> } as DesignedForm;
}

/** True when `v` looks like a form the designer can open: an object node with properties. */
export function isFormNode(v: unknown): v is DesignedForm {
  return !!v && typeof v === 'object' && !Array.isArray(v) && (v as AnyNode).type === 'object' && !!(v as AnyNode).properties && typeof (v as AnyNode).properties === 'object' && !Array.isArray((v as AnyNode).properties);
}
