/**
 * The Designable engine of the form designer:
 *
 * - behaviours: the root `Form` (droppable, fixed) and one behaviour per kind of `Field` node (designer/palette
 *   `kindOf`, `kindSpec`: data of the component registrations): which nodes take children (groups, grids, a
 *   sub-form's row, other layout nodes), and the drop rules of spec 002 §5 as `allowDrop` (designer/rules
 *   `dropRefusal`) — Designable asks it for a drag and our palette asks it for a click, so both obey the same
 *   rule. They are registered again when the registry changed since (a component registered later);
 * - resources: the palette items as Designable sources (for dragging), each made of the item's schema through
 *   the transformer, so a sub-form arrives with its row;
 * - effects: history of at most 20 steps (spec 002 §4); a fresh property key for every node that arrives
 *   without one or with one already used in its data scope (a paste, a clone, a drop);
 * - shortcuts: ctrl-Z undo and ctrl-shift-Z redo are Designable's; ctrl-Y (cmd-Y) redo is added.
 *
 * `loadTree(workspace, form)` replaces the canvas with a form and makes that the first step of the history.
 */
import {
  AddWorkspaceEvent,
  AppendNodeEvent,
  createBehavior,
  createDesigner,
  createResource,
  GlobalRegistry,
  InsertAfterEvent,
  InsertBeforeEvent,
  InsertChildrenEvent,
  KeyCode,
  PrependNodeEvent,
  Shortcut,
  TreeNode,
  type Engine,
  type IResource,
  type ITreeNode,
  type Workspace,
} from '@pind/designable-core';
import { registryVersion } from '../src/client/components/registry.js';
import { designerTexts } from './texts.js';
import { kindOf, kindSpec, palette, type PaletteItem } from './palette.js';
import { dropRefusal, freshName, HISTORY_STEPS } from './rules.js';
import { formToTree, type DesignedForm } from './transform.js';
import type { FormNode } from '../src/shared/schema/types.js';

const locales = (t: { zh: string; en: string }) => ({ 'zh-CN': { title: t.zh }, 'en-US': { title: t.en } });
/** A kind's title for Designable's outline; kinds without one (other layout nodes) read 字段. */
const kindLocales = (kind: string) => locales(kindSpec(kind).title ?? designerTexts['dz.item.field']);

/** The props of `node`'s container chain: the node first, then its ancestors up to the root. */
export function chainOf(node: TreeNode | undefined): Record<string, any>[] {
  const out: Record<string, any>[] = [];
  for (let n = node; n; n = n.parent) out.push(n.props ?? {});
  return out;
}

/** The kind of a tree node (designer/palette `kindOf`; the root is `form`). */
export const nodeKind = (node: TreeNode) => (node.componentName === 'Form' ? 'form' : kindOf(node.props, node.parent?.props));

let registeredAt: number | undefined;
/** Registers the behaviours (once per page, and again after the registry changed). */
export function registerBehaviors(): void {
  if (registeredAt === registryVersion()) return;
  registeredAt = registryVersion();
  const kinds = [...palette().map((p) => p.key), 'items', 'layout', 'field'];
  const Behavior = createBehavior(
    createBehavior({
      name: 'Form',
      selector: (node) => node.componentName === 'Form',
      designerProps: { droppable: true, draggable: false, deletable: false, cloneable: false },
      designerLocales: kindLocales('form'),
    }),
    ...kinds.map((kind) => {
      const { designer } = kindSpec(kind);
      return createBehavior({
        name: `kc.${kind}`,
        selector: (node) => node.componentName === 'Field' && kindOf(node.props, node.parent?.props) === kind,
        designerProps: (node: TreeNode) => ({
          droppable: !!designer.container,
          draggable: !designer.fixed,
          deletable: !designer.fixed,
          cloneable: !designer.fixed,
          allowDrop: (parent: TreeNode) => dropRefusal(node.props, chainOf(parent)) === null,
        }),
        designerLocales: kindLocales(kind),
      });
    }),
  );
  // a "behaviour host" per Designable's registry (it replaces what was registered before)
  GlobalRegistry.registerDesignerBehaviors({ KechuangDesigner: { Behavior } });
}

/** The tree node (with children: a sub-form's row) of a palette item, without a name. */
export function paletteElement(item: PaletteItem): ITreeNode {
  const tree = formToTree({ type: 'object', properties: { __new: item.schema as FormNode } });
  const strip = (n: ITreeNode): ITreeNode => {
    const { name: _name, ...props } = n.props ?? {};
    return { componentName: n.componentName, props, children: (n.children ?? []).map(strip) };
  };
  return strip(tree.children![0]);
}

/** The palette items as Designable resources (sources of drags), in palette order. */
export function paletteResources(): Map<string, IResource> {
  return new Map(palette().map((item) => [item.key, createResource({ title: { 'zh-CN': item.title.zh, 'en-US': item.title.en }, elements: [paletteElement(item)] })[0]]));
}

/** The node whose data scope `node` is in: the nearest object (a sub-form's row) or the root. */
function scopeOf(node: TreeNode): TreeNode {
  for (let n = node.parent; n; n = n.parent) if (n.isRoot || n.props?.type === 'object') return n;
  return node.root;
}

/** Gives `node` and its descendants property keys that are free in their scope. */
export function ensureNames(node: TreeNode): void {
  const visit = (n: TreeNode) => {
    const kind = nodeKind(n);
    if (!kindSpec(kind).designer.fixed) {
      const scope = scopeOf(n);
      const mine = new Set([n, ...n.descendants]);
      const taken = new Set(scope.descendants.filter((d) => !mine.has(d) && d.props?.name).map((d) => String(d.props.name)));
      const name = n.props?.name;
      if (!name || taken.has(String(name))) n.props.name = freshName(kind, taken);
    }
    n.children.forEach(visit);
  };
  visit(node);
}

function namingEffect(engine: Engine): void {
  const fix = (e: { data: { source?: TreeNode | TreeNode[] } }) => {
    const nodes = ([] as TreeNode[]).concat(e.data?.source ?? []);
    // the event comes before the nodes are in place: name them once they are
    queueMicrotask(() => nodes.forEach((n) => n instanceof TreeNode && !n.isSourceNode && ensureNames(n)));
  };
  engine.subscribeTo(AppendNodeEvent, fix);
  engine.subscribeTo(PrependNodeEvent, fix);
  engine.subscribeTo(InsertAfterEvent, fix);
  engine.subscribeTo(InsertBeforeEvent, fix);
  engine.subscribeTo(InsertChildrenEvent, fix);
}

function historyEffect(engine: Engine): void {
  engine.subscribeTo(AddWorkspaceEvent, (e) => {
    (e.data as Workspace).history.maxSize = HISTORY_STEPS;
  });
}

/** ctrl-Y / cmd-Y: redo (ctrl-shift-Z is Designable's own). */
export const RedoY = new Shortcut({
  codes: [
    [KeyCode.Control, KeyCode.Y],
    [KeyCode.Meta, KeyCode.Y],
  ],
  handler(context) {
    context?.workspace?.history.redo();
    context?.workspace?.operation.hover.clear();
  },
});

export function createEngine(): Engine {
  registerBehaviors();
  return createDesigner({ rootComponentName: 'Form', shortcuts: [RedoY], effects: [historyEffect, namingEffect] });
}

/** Replaces the workspace's tree with `form`; the result is the first (and only) step of the history. */
export function loadTree(workspace: Workspace, form: DesignedForm): void {
  const history = workspace.history;
  history.maxSize = HISTORY_STEPS;
  history.locking = true;
  try {
    workspace.operation.tree.from(formToTree(form));
    workspace.operation.selection.select(workspace.operation.tree);
  } finally {
    history.locking = false;
  }
  history.clear();
  history.push('load');
}

/** Sets the designer's language (Designable's own texts and our node titles). */
export function setDesignerLanguage(lang: 'zh' | 'en'): void {
  GlobalRegistry.setDesignerLanguage(lang === 'en' ? 'en-US' : 'zh-CN');
}
