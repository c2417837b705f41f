/**
 * The designer's palette (spec 002 §2): what the left panel offers, in its groups — layout (group, sub-form,
 * title, and a 24-column grid for spans), input (input, password, textarea, number, url, array, image, map),
 * choice (radio, checkbox, select, cascader, tree), upload, date and time (year, month, week, date, time,
 * datetime, daterange, timerange, datetimerange), rich text, others (icon, switch, rate, slider, color), and
 * our business components (DictSelect with its dictionary code, DeptTreeSelect, RegionCascader).
 *
 * Each item is a schema node naming ONE component of the runtime registry (DESIGN §1.2,
 * src/client/components/registry.ts): variants of a component are the same component with other props
 * (`DatePicker` with `picker: 'year'`, `Select` with `mode: 'tags'` for the array of texts, `FileUpload` with
 * `accept: 'image/*'` for images). designer/palette.test.tsx proves every item's component is registered and
 * renders through the runtime's SchemaField.
 *
 * `kindOf(node)` recognises the palette item a node was made from (or would have been), so that nodes of
 * schemas written by hand get the same rules and settings as dropped ones.
 */
import { designerTexts } from './texts.js';
import type { FormNode } from '../src/shared/schema/types.js';

export type PaletteGroup = 'layout' | 'input' | 'choice' | 'upload' | 'date' | 'richtext' | 'others' | 'business';

export const PALETTE_GROUPS: PaletteGroup[] = ['layout', 'input', 'choice', 'upload', 'date', 'richtext', 'others', 'business'];

export interface PaletteItem {
  /** Also the kind of the nodes it makes (see `kindOf`) and the text key `dz.item.<key>`. */
  key: string;
  group: PaletteGroup;
  /** The registry name the node's `x-component` holds. */
  component: string;
  /** The node a click or a drop adds (title and titleEn filled from the texts). */
  schema: FormNode;
  /** Recognises nodes of this item; default: `x-component === component`. */
  match?: (n: AnyNode) => boolean;
}

type AnyNode = Record<string, any>;

const title = (key: string) => ({ title: designerTexts[`dz.item.${key}`].zh, titleEn: designerTexts[`dz.item.${key}`].en });
const options = () => [
  { label: designerTexts['dz.option1'].zh, labelEn: designerTexts['dz.option1'].en, value: '1' },
  { label: designerTexts['dz.option2'].zh, labelEn: designerTexts['dz.option2'].en, value: '2' },
];
const treeOptions = () => [
  { label: designerTexts['dz.option1'].zh, labelEn: designerTexts['dz.option1'].en, value: '1', children: [{ label: `${designerTexts['dz.option1'].zh}-1`, labelEn: `${designerTexts['dz.option1'].en}-1`, value: '1-1' }] },
  { label: designerTexts['dz.option2'].zh, labelEn: designerTexts['dz.option2'].en, value: '2' },
];

const field = (key: string, component: string, extra: FormNode = {}): FormNode => ({
  type: 'string',
  ...title(key),
  'x-decorator': 'FormItem',
  'x-component': component,
  ...extra,
});

const cp = (n: AnyNode) => (n['x-component-props'] ?? {}) as AnyNode;
const is = (n: AnyNode, c: string) => n['x-component'] === c;

const items: PaletteItem[] = [
  // layout
  { key: 'card', group: 'layout', component: 'Card', schema: { type: 'void', ...title('card'), 'x-component': 'Card' } },
  {
    key: 'subform',
    group: 'layout',
    component: 'ArrayTable',
    schema: { type: 'array', ...title('subform'), maxItems: 50, 'x-decorator': 'FormItem', 'x-component': 'ArrayTable', items: { type: 'object', properties: {} } },
    match: (n) => /^Array(Table|Items|Cards|Collapse|Tabs)$/.test(n['x-component'] ?? ''),
  },
  { key: 'title', group: 'layout', component: 'Text', schema: { type: 'void', ...title('title'), 'x-component': 'Text', 'x-component-props': { mode: 'title' } } },
  { key: 'grid', group: 'layout', component: 'FormGrid', schema: { type: 'void', 'x-component': 'FormGrid', 'x-component-props': { maxColumns: 24, minColumns: 24 } } },
  // input
  { key: 'input', group: 'input', component: 'Input', schema: field('input', 'Input', { maxLength: 100 }), match: (n) => is(n, 'Input') && n.format !== 'uri' },
  { key: 'password', group: 'input', component: 'Password', schema: field('password', 'Password', { maxLength: 100 }) },
  { key: 'textarea', group: 'input', component: 'Input.TextArea', schema: field('textarea', 'Input.TextArea', { maxLength: 500 }) },
  { key: 'number', group: 'input', component: 'NumberPicker', schema: field('number', 'NumberPicker', { type: 'number' }) },
  { key: 'url', group: 'input', component: 'Input', schema: field('url', 'Input', { format: 'uri', maxLength: 500 }), match: (n) => is(n, 'Input') && n.format === 'uri' },
  {
    key: 'array',
    group: 'input',
    component: 'Select',
    schema: field('array', 'Select', { type: 'array', items: { type: 'string' }, 'x-component-props': { mode: 'tags', open: false, tokenSeparators: [','] } }),
    match: (n) => is(n, 'Select') && cp(n).mode === 'tags',
  },
  {
    key: 'image',
    group: 'input',
    component: 'FileUpload',
    schema: field('image', 'FileUpload', { type: 'array', maxItems: 10, items: { type: 'object' }, 'x-component-props': { accept: 'image/*', maxSize: 10485760 } }),
    match: (n) => is(n, 'FileUpload') && String(cp(n).accept ?? '').startsWith('image'),
  },
  { key: 'map', group: 'input', component: 'LocationInput', schema: field('map', 'LocationInput', { type: 'object' }) },
  // choice
  { key: 'radio', group: 'choice', component: 'Radio.Group', schema: field('radio', 'Radio.Group', { enum: options() }), match: (n) => is(n, 'Radio.Group') || is(n, 'Radio') },
  { key: 'checkbox', group: 'choice', component: 'Checkbox.Group', schema: field('checkbox', 'Checkbox.Group', { type: 'array', items: { type: 'string' }, enum: options() }), match: (n) => is(n, 'Checkbox.Group') || is(n, 'Checkbox') },
  { key: 'select', group: 'choice', component: 'Select', schema: field('select', 'Select', { enum: options(), 'x-component-props': { allowClear: true } }) },
  { key: 'cascader', group: 'choice', component: 'Cascader', schema: field('cascader', 'Cascader', { type: 'array', items: { type: 'string' }, enum: treeOptions() }) },
  { key: 'tree', group: 'choice', component: 'TreeSelect', schema: field('tree', 'TreeSelect', { enum: treeOptions(), 'x-component-props': { allowClear: true } }) },
  // upload
  {
    key: 'upload',
    group: 'upload',
    component: 'FileUpload',
    schema: field('upload', 'FileUpload', { type: 'array', maxItems: 10, items: { type: 'object' }, 'x-component-props': { maxSize: 52428800 } }),
    match: (n) => is(n, 'FileUpload') || is(n, 'Upload'),
  },
  // date and time
  {
    key: 'year',
    group: 'date',
    component: 'DatePicker',
    schema: field('year', 'DatePicker', { format: 'year', 'x-component-props': { picker: 'year', format: 'YYYY' } }),
    match: (n) => is(n, 'DatePicker') && (cp(n).picker === 'year' || n.format === 'year'),
  },
  {
    key: 'month',
    group: 'date',
    component: 'DatePicker',
    schema: field('month', 'DatePicker', { format: 'month', 'x-component-props': { picker: 'month', format: 'YYYY-MM' } }),
    match: (n) => is(n, 'DatePicker') && (cp(n).picker === 'month' || n.format === 'month'),
  },
  {
    key: 'week',
    group: 'date',
    component: 'DatePicker',
    schema: field('week', 'DatePicker', { maxLength: 10, 'x-component-props': { picker: 'week', format: 'YYYY-wo' } }),
    match: (n) => is(n, 'DatePicker') && cp(n).picker === 'week',
  },
  {
    key: 'datetime',
    group: 'date',
    component: 'DatePicker',
    schema: field('datetime', 'DatePicker', { format: 'date-time', 'x-component-props': { showTime: true, format: 'YYYY-MM-DD HH:mm:ss' } }),
    match: (n) => is(n, 'DatePicker') && (!!cp(n).showTime || n.format === 'date-time'),
  },
  { key: 'date', group: 'date', component: 'DatePicker', schema: field('date', 'DatePicker', { format: 'date', 'x-component-props': { format: 'YYYY-MM-DD' } }) },
  { key: 'time', group: 'date', component: 'TimePicker', schema: field('time', 'TimePicker', { maxLength: 8, 'x-component-props': { format: 'HH:mm:ss' } }) },
  {
    key: 'datetimerange',
    group: 'date',
    component: 'DatePicker.RangePicker',
    schema: field('datetimerange', 'DatePicker.RangePicker', { type: 'array', items: { type: 'string', format: 'date-time' }, 'x-component-props': { showTime: true, format: 'YYYY-MM-DD HH:mm:ss' } }),
    match: (n) => is(n, 'DatePicker.RangePicker') && !!cp(n).showTime,
  },
  {
    key: 'daterange',
    group: 'date',
    component: 'DatePicker.RangePicker',
    schema: field('daterange', 'DatePicker.RangePicker', { type: 'array', items: { type: 'string', format: 'date' }, 'x-component-props': { format: 'YYYY-MM-DD' } }),
  },
  { key: 'timerange', group: 'date', component: 'TimePicker.RangePicker', schema: field('timerange', 'TimePicker.RangePicker', { type: 'array', items: { type: 'string' }, 'x-component-props': { format: 'HH:mm:ss' } }) },
  // rich text
  { key: 'richtext', group: 'richtext', component: 'RichText', schema: field('richtext', 'RichText', { 'x-component-props': { height: 200 } }) },
  // others
  { key: 'icon', group: 'others', component: 'IconSelect', schema: field('icon', 'IconSelect', { maxLength: 64 }) },
  { key: 'switch', group: 'others', component: 'Switch', schema: field('switch', 'Switch', { type: 'boolean' }) },
  { key: 'rate', group: 'others', component: 'Rate', schema: field('rate', 'Rate', { type: 'number', 'x-component-props': { count: 5 } }) },
  { key: 'slider', group: 'others', component: 'Slider', schema: field('slider', 'Slider', { type: 'number', 'x-component-props': { min: 0, max: 100 } }) },
  { key: 'color', group: 'others', component: 'ColorPicker', schema: field('color', 'ColorPicker', { maxLength: 32 }) },
  // business (our registry components)
  { key: 'dict', group: 'business', component: 'DictSelect', schema: field('dict', 'DictSelect', { maxLength: 32, 'x-component-props': { code: '' } }) },
  { key: 'dept', group: 'business', component: 'DeptTreeSelect', schema: field('dept', 'DeptTreeSelect', { maxLength: 32 }) },
  { key: 'region', group: 'business', component: 'RegionCascader', schema: field('region', 'RegionCascader', { type: 'array', items: { type: 'string' } }) },
];

export const PALETTE: readonly PaletteItem[] = items;

/** Order in which `kindOf` tries the items: the specific variants before their plain component. */
const MATCH_ORDER = [...items].sort((a, b) => Number(!!b.match) - Number(!!a.match));

/**
 * The kind of a node: a palette key, or `items` (the row object of a sub-form), `layout` (another void
 * container: FormTab, FormCollapse, FormLayout, Space ...), `field` (any other component, e.g. UserPicker).
 */
export function kindOf(props: AnyNode | undefined, parentProps?: AnyNode): string {
  if (!props) return 'field';
  if (parentProps?.type === 'array' && props.type === 'object' && !props['x-component']) return 'items';
  for (const it of MATCH_ORDER) if (it.match ? it.match(props) : props['x-component'] === it.component) return it.key;
  if (props.type === 'void') return 'layout';
  return 'field';
}

export const paletteItem = (key: string): PaletteItem | undefined => items.find((i) => i.key === key);

/** Kinds whose value is chosen from options (their required message is 请选择 + label, spec 002 §5). */
export const SELECT_KINDS = new Set(['radio', 'checkbox', 'select', 'cascader', 'tree', 'dict', 'dept', 'region', 'year', 'month', 'week', 'date', 'time', 'datetime', 'daterange', 'timerange', 'datetimerange', 'icon', 'color', 'switch', 'upload', 'image']);
/** Kinds whose options the settings panel edits (static list or tree). */
export const OPTION_KINDS = new Set(['radio', 'checkbox', 'select', 'cascader', 'tree']);
/** Kinds with tree options (label, value, children). */
export const TREE_OPTION_KINDS = new Set(['cascader', 'tree']);
/** Container kinds (nodes that take children on the canvas). */
export const CONTAINER_KINDS = new Set(['card', 'grid', 'items', 'layout']);
