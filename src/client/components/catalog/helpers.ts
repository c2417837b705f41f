/**
 * What several groups of the component catalogue (components/catalog/*.tsx) share: reading a schema node
 * (`cp`, `is`), the options a new choice field starts with, and setting fields of the designer's settings panel
 * (spec 002 §3: `number`, `fileSettings`, `noPlaceholder`).
 */
import { SETTINGS_LIMITS as LIMITS, type SettingField, type SettingsSpec } from '../registration.js';

/** A schema node as the palette matchers read it. */
export type AnyNode = Record<string, any>;
/** The node's `x-component-props` (an empty object when it has none). */
export const cp = (n: AnyNode) => (n['x-component-props'] ?? {}) as AnyNode;
/** True when the node renders component `c`. */
export const is = (n: AnyNode, c: string) => n['x-component'] === c;

/** The options a new choice field starts with (选项一, 选项二), and a tree of them for cascaders. */
export const options = () => [
  { label: '选项一', labelEn: 'Option 1', value: '1' },
  { label: '选项二', labelEn: 'Option 2', value: '2' },
];
export const treeOptions = () => [
  { label: '选项一', labelEn: 'Option 1', value: '1', children: [{ label: '选项一-1', labelEn: 'Option 1-1', value: '1-1' }] },
  { label: '选项二', labelEn: 'Option 2', value: '2' },
];

/** A number setting of the settings panel at `path` (spec 002 §3), `label` a designer text key. */
export const number = (path: string, label: string, min?: number, max?: number, precision?: number): SettingField => ({ type: 'number', path, label, min, max, precision });
/** Settings of the file items (upload, image): size, count, accepted types; no placeholder. */
export const fileSettings: SettingsSpec = {
  placeholder: false,
  fields: [
    number('x-component-props.maxSize', 'dz.prop.fileSize', LIMITS.fileSize[0], undefined, 0),
    number('maxItems', 'dz.prop.limit', LIMITS.limit[0], undefined, 0),
    { type: 'text', path: 'x-component-props.accept', label: 'dz.prop.accept' },
  ],
};
/** Settings without the placeholder field. */
export const noPlaceholder: SettingsSpec = { placeholder: false };
