/**
 * The designer's palette (spec 002 §2) and the kinds of the designer's nodes, derived from the component
 * registrations (DESIGN §1.2, src/client/components/registration.ts): nothing about a component is written
 * here. The palette's groups are layout (group, sub-form, title, and a 24-column grid for spans), input
 * (input, password, textarea, number, url, array, image, map), choice (radio, checkbox, select, cascader,
 * tree), upload, date and time (year, month, week, date, time, datetime, daterange, timerange,
 * datetimerange), rich text, others (icon, switch, rate, slider, color), and our business components
 * (DictSelect with its dictionary code, DeptTreeSelect, RegionCascader) — each item a registration's palette
 * entry, naming ONE component of the runtime registry. designer/palette.test.tsx proves every item's
 * component is registered and renders through the runtime's SchemaField.
 *
 * - `palette()`: the items, in group order (live: a component registered later is offered too).
 * - `kindOf(node, parent)`: the palette item a node was made from (or would have been), so that nodes of
 *   schemas written by hand get the same rules and settings as dropped ones; or one of the kinds that come
 *   from no registration: `items` (the row object of a sub-form), `layout` (another void container: FormTab,
 *   FormCollapse, FormLayout, Space ...), `field` (any other component, e.g. UserPicker).
 * - `kindSpec(kind)`: a kind's title, settings (null: no settings form) and designer rules, defaults filled.
 * - `kindTitle(kind, lang)`: its title in `lang`, or undefined (the `layout` kind has none).
 */
import { paletteItems, REGISTRY_GROUPS, registryVersion, type DesignerSpec, type Localized, type PaletteItem, type RegistryGroup, type SettingsSpec } from '../src/client/components/registry.js';
import { designerTexts } from './texts.js';

export type PaletteGroup = RegistryGroup;
export type { PaletteItem };

/** The palette's groups, in order (the registry's). */
export const PALETTE_GROUPS: readonly PaletteGroup[] = REGISTRY_GROUPS;

type AnyNode = Record<string, any>;

/** The palette items, in group order. */
export function palette(): readonly PaletteItem[] {
  return paletteItems();
}

/** The palette item of `key`, or undefined. */
export const paletteItem = (key: string): PaletteItem | undefined => palette().find((i) => i.key === key);

let matchCache: { version: number; order: readonly PaletteItem[] } | undefined;
/** Order in which `kindOf` tries the items: the specific variants (with a `match`) before their plain component. */
function matchOrder(): readonly PaletteItem[] {
  if (matchCache?.version !== registryVersion()) {
    matchCache = { version: registryVersion(), order: [...palette()].sort((a, b) => Number(!!b.match) - Number(!!a.match)) };
  }
  return matchCache.order;
}

/**
 * The kind of a node: a palette key, or `items` (the row object of a sub-form), `layout` (another void
 * container), `field` (any other component).
 */
export function kindOf(props: AnyNode | undefined, parentProps?: AnyNode): string {
  if (!props) return 'field';
  if (parentProps?.type === 'array' && props.type === 'object' && !props['x-component']) return 'items';
  for (const it of matchOrder()) if (it.match ? it.match(props) : props['x-component'] === it.component) return it.key;
  if (props.type === 'void') return 'layout';
  return 'field';
}

/** What the designer knows of a kind, defaults filled in. */
export interface KindSpec {
  kind: string;
  title?: Localized;
  /** The settings form (null: the node has none, e.g. a sub-form's row). */
  settings: (Required<Omit<SettingsSpec, 'options'>> & Pick<SettingsSpec, 'options'>) | null;
  designer: DesignerSpec & {
    /** Part of its parent (the form's root, a sub-form's row): not dragged, deleted, cloned or named on its own. */
    fixed?: boolean;
  };
}

const pseudo = (key: string): Localized => designerTexts[key];

/** The kinds that come from no registration. */
const BUILT_IN: Record<string, { title?: Localized; settings: SettingsSpec | null; designer: KindSpec['designer'] }> = {
  items: { title: pseudo('dz.item.items'), settings: null, designer: { container: true, subform: true, fixed: true } },
  layout: { settings: {}, designer: { container: true, inSubform: false } },
  field: { title: pseudo('dz.item.field'), settings: {}, designer: {} },
  form: { title: pseudo('dz.item.form'), settings: null, designer: { container: true, fixed: true } },
};

/** The spec of `kind`: a palette item's, or a built-in kind's. */
export function kindSpec(kind: string): KindSpec {
  const item = paletteItem(kind);
  const base = item ? { title: item.title, settings: item.settings as SettingsSpec | null, designer: item.designer } : (BUILT_IN[kind] ?? BUILT_IN.field);
  const s = base.settings;
  return {
    kind,
    title: base.title,
    settings: s && {
      label: s.label ?? true,
      placeholder: s.placeholder ?? true,
      defaultValue: s.defaultValue ?? true,
      pattern: s.pattern ?? !base.designer.choice,
      options: s.options,
      fields: s.fields ?? [],
    },
    designer: base.designer,
  };
}

/** The title of `kind` in `lang`, or undefined. */
export function kindTitle(kind: string, lang: 'zh' | 'en'): string | undefined {
  return kindSpec(kind).title?.[lang];
}
