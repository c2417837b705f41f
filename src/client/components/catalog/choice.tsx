/**
 * Registrations of the palette's group 选择 (choice): selects, radios, checkboxes, switches, cascaders, tree
 * selects, transfers — one `registerComponent` call each (the API: components/registration.ts). The catalogue's
 * entry, components/catalog.tsx, calls `registerChoice()` after the groups before it, in the palette's order of
 * groups (spec 002 §2).
 */
import {
  ApartmentOutlined,
  CheckCircleOutlined,
  CheckSquareOutlined,
  DownSquareOutlined,
  PartitionOutlined,
  TagsOutlined,
} from '@ant-design/icons';
import { Cascader, Checkbox, Radio, Select, SelectTable, Transfer, TreeSelect } from '@formily/antd-v5';
import { registerComponent } from '../registration.js';
import { cp, is, options, treeOptions } from './helpers.js';

/** Registers the components of this group (see the module comment). */
export function registerChoice(): void {
  registerComponent({
    name: 'Select',
    component: Select,
    title: { zh: '下拉选择', en: 'Select' },
    group: 'choice',
    palette: [
      {
        key: 'array',
        group: 'input',
        order: 60,
        title: { zh: '数组', en: 'Array' },
        icon: TagsOutlined,
        schema: { type: 'array', items: { type: 'string' }, 'x-component-props': { mode: 'tags', open: false, tokenSeparators: [','] } },
        match: (n) => is(n, 'Select') && cp(n).mode === 'tags',
      },
      {
        key: 'select',
        order: 30,
        icon: DownSquareOutlined,
        schema: { enum: options(), 'x-component-props': { allowClear: true } },
        settings: {
          options: { source: 'list', switchTo: 'DictSelect' },
          fields: [
            {
              // spec 002 §4: multiple on removes the default value (an array now); the value type follows
              type: 'switch',
              path: 'x-component-props.mode',
              label: 'dz.prop.multiple',
              on: 'multiple',
              patch: { on: { type: 'array', items: undefined, default: undefined }, off: { type: 'string', items: undefined, default: undefined } },
            },
          ],
        },
        designer: { choice: true },
      },
    ],
  });
  registerComponent({
    name: 'Radio',
    component: Radio,
    title: { zh: '单选', en: 'Radio' },
    group: 'choice',
    parts: { Group: { title: { zh: '单选组', en: 'Radio group' } } },
    palette: {
      key: 'radio',
      order: 10,
      title: { zh: '单选框组', en: 'Radio' },
      icon: CheckCircleOutlined,
      component: 'Radio.Group',
      schema: { enum: options() },
      match: (n) => is(n, 'Radio.Group') || is(n, 'Radio'),
      settings: { placeholder: false, options: { source: 'list' } },
      designer: { choice: true },
    },
  });
  registerComponent({
    name: 'Checkbox',
    component: Checkbox,
    title: { zh: '多选', en: 'Checkbox' },
    group: 'choice',
    parts: { Group: { title: { zh: '多选组', en: 'Checkbox group' } } },
    palette: {
      key: 'checkbox',
      order: 20,
      title: { zh: '多选框组', en: 'Checkbox' },
      icon: CheckSquareOutlined,
      component: 'Checkbox.Group',
      schema: { type: 'array', items: { type: 'string' }, enum: options() },
      match: (n) => is(n, 'Checkbox.Group') || is(n, 'Checkbox'),
      settings: { placeholder: false, options: { source: 'list' } },
      designer: { choice: true },
    },
  });
  registerComponent({
    name: 'Cascader',
    component: Cascader,
    title: { zh: '级联选择', en: 'Cascader' },
    group: 'choice',
    palette: {
      key: 'cascader',
      order: 40,
      title: { zh: '级联选择器', en: 'Cascader' },
      icon: ApartmentOutlined,
      schema: { type: 'array', items: { type: 'string' }, enum: treeOptions() },
      settings: { options: { source: 'tree' } },
      designer: { choice: true },
    },
  });
  registerComponent({
    name: 'TreeSelect',
    component: TreeSelect,
    title: { zh: '树选择', en: 'Tree select' },
    group: 'choice',
    palette: {
      key: 'tree',
      order: 50,
      icon: PartitionOutlined,
      schema: { enum: treeOptions(), 'x-component-props': { allowClear: true } },
      settings: { options: { source: 'tree' } },
      designer: { choice: true },
    },
  });
  registerComponent({ name: 'Transfer', component: Transfer, title: { zh: '穿梭框', en: 'Transfer' }, group: 'choice' });
  registerComponent({ name: 'SelectTable', component: SelectTable, title: { zh: '表格选择', en: 'Table select' }, group: 'choice' });
}
