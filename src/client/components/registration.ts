/**
 * One registration per component (DESIGN §1.2). `registerComponent({...})` is the only place a component is
 * described: the React component schemas name (`x-component` / `x-decorator`), its title and group, its
 * sub-components (`Input.TextArea`), what the designer's palette offers of it, the designer's settings form
 * for its nodes, the designer's rules for them, and its UI texts. Everything else is derived, as data, from
 * the registrations:
 *
 * - `components`: name → component, the map the runtime's `SchemaField` renders with (live: a component
 *   registered later renders too);
 * - `registryEntries()`: `{ name, title, group }` of every name, sub-components included;
 * - `paletteItems()`: the designer's palette (designer/palette.ts), in group order, each item with its node
 *   schema, its settings (`SettingsSpec`, rendered by designer/settings.tsx) and its rules (`DesignerSpec`);
 * - `canvasKinds()`: how the designer's canvas draws a container component (designer/canvas.tsx);
 * - the component's texts go to `componentTexts` (components/texts.ts) and from there to i18next.
 *
 * `unregisterComponent(name)` withdraws a registration (hot updates of the catalog, tests that register
 * their own components); `registeredNames()` lists the names.
 *
 * Shapes:
 *
 * ```ts
 * registerComponent({
 *   name: 'Rate',                                   // what schemas name
 *   component: Rate,                                // a (Formily-connected) React component
 *   title: { zh: '评分', en: 'Rate' },              // registry title
 *   group: 'others',                                // registry (and default palette) group
 *   parts: { Item: { title: {...} } },              // sub-components, named `Rate.Item`
 *   palette: { key: 'rate', title: {...}, icon: StarOutlined, schema: { type: 'number' } },  // or an array
 *   settings: { placeholder: false, fields: [{ type: 'number', path: 'x-component-props.count', label: 'dz.prop.count', min: 1, max: 10 }] },
 *   designer: { choice: true },                     // rules of its nodes in the designer
 *   texts: { 'cmp.rate.hint': { zh: '...', en: '...' } },
 * });
 * ```
 *
 * A palette item's `settings` and `designer` are merged over the registration's (shallowly), so variants of
 * one component (the date pickers' year, month, week ...) share what they have in common. The catalog of the
 * platform's components is components/catalog.tsx; components/registry.ts is the entry the app imports.
 * This module imports no component and nothing from the runtime or the shell (components/layering.test.ts).
 */
import type React from 'react';
import { createSchemaField } from '@formily/react';
import './compiler.js';
import { addComponentTexts, removeComponentTexts, type Texts } from './texts.js';
import type { FormNode } from '../../shared/schema/types.js';

/** A text in both languages. */
export interface Localized {
  zh: string;
  en: string;
}

/** A text shown in the designer: a key of the UI texts (i18next), or the two languages inline. */
export type TextRef = string | Localized;

export type RegistryGroup = 'layout' | 'input' | 'choice' | 'upload' | 'date' | 'richtext' | 'others' | 'business';

/** The groups in palette order (spec 002 §2). */
export const REGISTRY_GROUPS: readonly RegistryGroup[] = ['layout', 'input', 'choice', 'upload', 'date', 'richtext', 'others', 'business'];

/** Limits of the designer's settings (spec 002 §9), shared by the registrations' settings and the designer's own. */
export const SETTINGS_LIMITS = {
  labelWidth: [80, 200],
  gutter: [0, 60],
  width: [100, 2000],
  span: [8, 24],
  indent: [1, 4],
  precision: [0, 10],
  fileSize: [0, Number.MAX_SAFE_INTEGER],
  limit: [1, 1000],
} as const;

/**
 * A bound of a number setting: a number, or another prop of the node (`path`, `fallback` when it is unset)
 * plus `offset` — the slider's minimum stays below its maximum.
 */
export type Bound = number | { path: string; fallback: number; offset?: number };

/** One setting of a node, written into the node's props at `path` (dotted, e.g. `x-component-props.count`). */
export type SettingField =
  | { type: 'number'; path: string; label: TextRef; min?: Bound; max?: Bound; precision?: number }
  | { type: 'text'; path: string; label: TextRef }
  /** Buttons to pick one of `options`; `fallback` is shown while the prop is unset. */
  | { type: 'choice'; path: string; label: TextRef; options: Array<{ value: string; label: TextRef }>; fallback?: string }
  /**
   * A switch: on writes `on` (default true) at `path`, off removes it; `patch.on` / `patch.off` are other props
   * written in the same step (Select's 多选 makes the value an array and drops the default).
   */
  | { type: 'switch'; path: string; label: TextRef; on?: unknown; patch?: { on?: Record<string, unknown>; off?: Record<string, unknown> } };

/** Where a node's options come from, when the settings edit them. */
export interface OptionsSetting {
  /** `list` (label / value rows), `tree` (rows with children), `dictionary` (a dictionary code). */
  source: 'list' | 'tree' | 'dictionary';
  /** The component the node becomes when the user switches between static options and a dictionary. */
  switchTo?: string;
}

/**
 * The designer's settings form of a node (字段属性, spec 002 §3). The common settings (prop name, label,
 * placeholder, width, span, data type, tips, default value, required, pattern, max length, read-only,
 * disabled, hidden) are the designer's; a registration turns off those that make no sense for it and adds
 * its own `fields`.
 */
export interface SettingsSpec {
  /** The label inputs (default true; a grid has no label). */
  label?: boolean;
  /** The placeholder input (default true). */
  placeholder?: boolean;
  /** The default-value input (default true). */
  defaultValue?: boolean;
  /** The pattern input for string values (default: unless the value is chosen, `DesignerSpec.choice`). */
  pattern?: boolean;
  /** The options editor. */
  options?: OptionsSetting;
  /** The component's own settings. */
  fields?: SettingField[];
}

/** How the designer treats nodes of a component (spec 002 §5). */
export interface DesignerSpec {
  /** Nodes take children on the canvas (a group, a grid). */
  container?: boolean;
  /** A sub-form: its children are the cells of a table row (nothing that is not a field goes in). */
  subform?: boolean;
  /** May go into a sub-form (default true). */
  inSubform?: boolean;
  /** May go inside a node of its own kind (default true; a group inside a group is refused). */
  nestsInItself?: boolean;
  /** The value is chosen, not typed: the required message is 请选择 + label, and there is no pattern setting. */
  choice?: boolean;
  /** A grid: its children take a span (`x-decorator-props.gridSpan`) of the column count at this prop path. */
  gridColumns?: string;
}

/** How the designer's canvas draws a container component (designer/canvas.tsx). */
export type CanvasKind = 'group' | 'grid' | 'text' | 'subform' | 'box';

/** A palette item: what a click or a drop adds to the form. */
export interface PaletteSpec {
  /** The item's key, also the kind of the nodes it makes (default: the name, first letter lower-cased). */
  key?: string;
  /** Default: the registration's group. */
  group?: RegistryGroup;
  /** Default: the registration's title. */
  title?: Localized;
  /** An icon component (@ant-design/icons), shown before the title. */
  icon?: React.ComponentType<{ className?: string }>;
  /** Position within its group (lower first); items without one follow, in registration order. */
  order?: number;
  /** The name the node's `x-component` holds (default: the registration's name; `Input.TextArea` ...). */
  component?: string;
  /**
   * The node without its title and component: `type` (default string), `x-decorator` (default FormItem for
   * fields, none for void nodes), props, options, limits.
   */
  schema?: FormNode;
  /** The node gets the item's title as its label (default true; the grid has none). */
  titled?: boolean;
  /** Recognises nodes of this item (default: `x-component` is the item's component). */
  match?: (node: Record<string, any>) => boolean;
  settings?: SettingsSpec;
  designer?: DesignerSpec;
}

/** The one registration of a component. */
export interface ComponentRegistration {
  /** The name schemas use (`x-component` / `x-decorator`): an identifier starting with a capital. */
  name: string;
  /** The component (for fields, Formily-connected: value, onChange, readPretty). */
  component: React.ComponentType<any>;
  title: Localized;
  group: RegistryGroup;
  /** Sub-components, properties of `component`, named `Name.Part` in schemas. */
  parts?: Record<string, { title: Localized; group?: RegistryGroup }>;
  /** What the designer's palette offers: one item, or several variants of the component. */
  palette?: PaletteSpec | PaletteSpec[];
  /** Settings of its nodes (every palette item's, merged under the item's own). */
  settings?: SettingsSpec;
  /** Designer rules of its nodes (likewise), and how the canvas draws it. */
  designer?: DesignerSpec & { canvas?: CanvasKind };
  /** UI texts the component shows (keys `cmp.<component>.*`), added to i18next. */
  texts?: Texts;
}

/** Metadata of one name schemas may use. */
export interface RegistryEntry {
  /** The name schemas use (`x-component` / `x-decorator`), dotted for sub-components. */
  name: string;
  title: Localized;
  group: RegistryGroup;
}

/** A palette item as the designer uses it: the registration's defaults filled in. */
export interface PaletteItem {
  /** Also the kind of the nodes it makes (designer/palette `kindOf`). */
  key: string;
  group: RegistryGroup;
  title: Localized;
  icon?: React.ComponentType<{ className?: string }>;
  order: number;
  /** The registry name the node's `x-component` holds. */
  component: string;
  /** The node a click or a drop adds (title and titleEn filled from `title`). */
  schema: FormNode;
  match?: (node: Record<string, any>) => boolean;
  settings: SettingsSpec;
  designer: DesignerSpec;
  /** The registration it comes from. */
  registration: string;
}

/** Names the designer gives nodes that come from no palette item (designer/palette.ts). */
export const RESERVED_KINDS = new Set(['items', 'layout', 'field', 'form']);

const registrations = new Map<string, ComponentRegistration>();

/** Name → component: what `SchemaField` renders with (dotted names resolve through the parts). */
export const components: Record<string, React.ComponentType<any>> = {};

let version = 0;
let derived: { version: number; entries: RegistryEntry[]; palette: PaletteItem[] } | undefined;

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const listOf = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** The palette items `reg` makes (its defaults filled in), before ordering. */
function itemsOf(reg: ComponentRegistration): PaletteItem[] {
  return listOf(reg.palette).map((p) => {
    const title = p.title ?? reg.title;
    const component = p.component ?? reg.name;
    const given = p.schema ?? {};
    const type = given.type ?? 'string';
    const schema = {
      type,
      ...(p.titled === false ? {} : { title: title.zh, titleEn: title.en }),
      ...(type === 'void' ? {} : { 'x-decorator': 'FormItem' }),
      'x-component': component,
      ...given,
    } as FormNode;
    const { canvas: _canvas, ...designer } = reg.designer ?? {};
    return {
      key: p.key ?? lowerFirst(reg.name),
      group: p.group ?? reg.group,
      title,
      icon: p.icon,
      order: p.order ?? Number.MAX_SAFE_INTEGER,
      component,
      schema,
      match: p.match,
      settings: { ...reg.settings, ...p.settings },
      designer: { ...designer, ...p.designer },
      registration: reg.name,
    };
  });
}

/**
 * Registers a component (see the module comment). Throws on a name or a palette key used before, a name that
 * is not an identifier, a part the component lacks, and texts whose keys are taken.
 */
export function registerComponent(reg: ComponentRegistration): void {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(reg.name)) throw new Error(`component name '${reg.name}': an identifier starting with a capital letter`);
  if (registrations.has(reg.name)) throw new Error(`component '${reg.name}' is registered twice`);
  if (!reg.component) throw new Error(`component '${reg.name}' has no component`);
  for (const part of Object.keys(reg.parts ?? {})) {
    if (!(reg.component as unknown as Record<string, unknown>)[part]) throw new Error(`component '${reg.name}' has no part '${part}'`);
  }
  const taken = new Set(paletteItems().map((p) => p.key));
  for (const item of itemsOf(reg)) {
    if (taken.has(item.key) || RESERVED_KINDS.has(item.key)) throw new Error(`palette key '${item.key}' (component '${reg.name}') is used twice`);
    taken.add(item.key);
  }
  if (reg.texts) addComponentTexts(reg.texts);
  registrations.set(reg.name, reg);
  components[reg.name] = reg.component;
  version++;
}

/** Withdraws the registration of `name` (its component, palette items and texts); false when there was none. */
export function unregisterComponent(name: string): boolean {
  const reg = registrations.get(name);
  if (!reg) return false;
  registrations.delete(name);
  delete components[name];
  if (reg.texts) removeComponentTexts(Object.keys(reg.texts));
  version++;
  return true;
}

/** The registered names, in registration order. */
export function registeredNames(): string[] {
  return [...registrations.keys()];
}

function derive() {
  if (derived?.version === version) return derived;
  const regs = [...registrations.values()];
  const entries = regs.flatMap((r) => [
    { name: r.name, title: r.title, group: r.group },
    ...Object.entries(r.parts ?? {}).map(([part, p]) => ({ name: `${r.name}.${part}`, title: p.title, group: p.group ?? r.group })),
  ]);
  const items = regs.flatMap(itemsOf).map((item, seq) => ({ item, seq }));
  const rank = (g: RegistryGroup) => REGISTRY_GROUPS.indexOf(g);
  items.sort((a, b) => rank(a.item.group) - rank(b.item.group) || a.item.order - b.item.order || a.seq - b.seq);
  derived = { version, entries, palette: items.map((i) => i.item) };
  return derived;
}

/** Metadata of every registered name, sub-components included. */
export function registryEntries(): RegistryEntry[] {
  return derive().entries;
}

/** The palette: every registration's items, in group order, then `order`, then registration order. */
export function paletteItems(): readonly PaletteItem[] {
  return derive().palette;
}

/** Component name → how the designer's canvas draws it, for the registrations that say. */
export function canvasKinds(): Record<string, CanvasKind> {
  const out: Record<string, CanvasKind> = {};
  for (const r of registrations.values()) if (r.designer?.canvas) out[r.name] = r.designer.canvas;
  return out;
}

/** A number that changes with every registration (for caches derived from the registry). */
export function registryVersion(): number {
  return version;
}

/** The component a name such as `Input.TextArea` denotes, or undefined. */
export function resolveComponent(name: string): unknown {
  let cur: unknown = components;
  for (const part of name.split('.')) {
    // own properties only: `toString`, `Input.call` ... are no components
    if (cur === null || (typeof cur !== 'object' && typeof cur !== 'function') || !Object.prototype.hasOwnProperty.call(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === undefined || cur === components ? undefined : cur;
}

/** The runtime's SchemaField: renders schemas with the registered components (and the CSP-safe compiler). */
export const SchemaField = createSchemaField({ components });
