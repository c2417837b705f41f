/**
 * Registrations of the palette's group 布局 (layout): the form's items and layout containers (FormItem, FormGrid,
 * FormLayout, FormTab, FormCollapse, FormStep, FormButtonGroup, Space, Card 分组, Text 标题, Editable, PreviewText)
 * and the sub-forms, arrays of rows (ArrayTable, ArrayCards, ArrayItems, ArrayCollapse, ArrayTabs) — one
 * `registerComponent` call each (the API: components/registration.ts). The catalogue's entry,
 * components/catalog.tsx, calls `registerLayout()` after the groups before it, in the palette's order of groups
 * (spec 002 §2).
 */
import { AppstoreOutlined, ContainerOutlined, FontSizeOutlined, TableOutlined } from '@ant-design/icons';
import {
  ArrayCards,
  ArrayCollapse,
  ArrayItems,
  ArrayTable,
  ArrayTabs,
  Editable,
  FormButtonGroup,
  FormCollapse,
  FormGrid,
  FormItem,
  FormLayout,
  FormStep,
  FormTab,
  PreviewText,
  Space,
} from '@formily/antd-v5';
import { registerComponent, SETTINGS_LIMITS as LIMITS } from '../registration.js';
import { number } from './helpers.js';
import { Card, Text } from '../Layout.js';

/** Registers the components of this group (see the module comment). */
export function registerLayout(): void {
  registerComponent({ name: 'FormItem', component: FormItem, title: { zh: '表单项', en: 'Form item' }, group: 'layout' });
  registerComponent({
    name: 'FormGrid',
    component: FormGrid,
    title: { zh: '栅格布局', en: 'Grid' },
    group: 'layout',
    palette: {
      key: 'grid',
      order: 40,
      icon: AppstoreOutlined,
      titled: false,
      schema: { type: 'void', 'x-component-props': { maxColumns: 24, minColumns: 24 } },
      settings: {
        label: false,
        fields: [number('x-component-props.maxColumns', 'dz.prop.columns', 1, 24, 0), number('x-component-props.columnGap', 'dz.form.gutter', LIMITS.gutter[0], LIMITS.gutter[1], 0)],
      },
      designer: { container: true, inSubform: false, gridColumns: 'x-component-props.maxColumns' },
    },
    designer: { canvas: 'grid' },
  });
  registerComponent({ name: 'FormLayout', component: FormLayout, title: { zh: '表单布局', en: 'Form layout' }, group: 'layout', designer: { canvas: 'box' } });
  registerComponent({
    name: 'FormTab',
    component: FormTab,
    title: { zh: '选项卡', en: 'Tabs' },
    group: 'layout',
    parts: { TabPane: { title: { zh: '选项卡面板', en: 'Tab pane' } } },
    designer: { canvas: 'box' },
  });
  registerComponent({
    name: 'FormCollapse',
    component: FormCollapse,
    title: { zh: '折叠面板', en: 'Collapse' },
    group: 'layout',
    parts: { CollapsePanel: { title: { zh: '折叠面板项', en: 'Collapse panel' } } },
    designer: { canvas: 'box' },
  });
  registerComponent({
    name: 'FormStep',
    component: FormStep,
    title: { zh: '分步表单', en: 'Steps' },
    group: 'layout',
    parts: { StepPane: { title: { zh: '步骤', en: 'Step' } } },
    designer: { canvas: 'box' },
  });
  registerComponent({ name: 'FormButtonGroup', component: FormButtonGroup, title: { zh: '按钮组', en: 'Button group' }, group: 'layout', designer: { canvas: 'box' } });
  registerComponent({ name: 'Space', component: Space, title: { zh: '间距', en: 'Space' }, group: 'layout', designer: { canvas: 'box' } });
  registerComponent({
    name: 'Card',
    component: Card,
    title: { zh: '分组', en: 'Group' },
    group: 'layout',
    palette: { key: 'card', order: 10, icon: ContainerOutlined, schema: { type: 'void' } },
    designer: { canvas: 'group', container: true, inSubform: false, nestsInItself: false },
  });
  registerComponent({
    name: 'Text',
    component: Text,
    title: { zh: '标题', en: 'Title' },
    group: 'layout',
    palette: {
      key: 'title',
      order: 30,
      icon: FontSizeOutlined,
      schema: { type: 'void', 'x-component-props': { mode: 'title' } },
      settings: {
        fields: [
          {
            type: 'choice',
            path: 'x-component-props.mode',
            label: 'dz.prop.titleMode',
            fallback: 'title',
            options: [
              { value: 'title', label: 'dz.prop.titleMode.title' },
              { value: 'text', label: 'dz.prop.titleMode.text' },
            ],
          },
        ],
      },
    },
    designer: { canvas: 'text', inSubform: false },
  });
  registerComponent({
    name: 'Editable',
    component: Editable,
    title: { zh: '可编辑项', en: 'Editable' },
    group: 'layout',
    parts: { Popover: { title: { zh: '弹出编辑', en: 'Popover editor' } } },
  });
  registerComponent({ name: 'PreviewText', component: PreviewText, title: { zh: '预览文本', en: 'Preview text' }, group: 'layout' });
  // ——— sub-forms (arrays of rows) ———

  /** Sub-form nodes: whatever array component they use, the palette's sub-form (a table by default). */
  const subform = { designer: { canvas: 'subform' as const, subform: true, inSubform: false } };
  registerComponent({
    name: 'ArrayTable',
    component: ArrayTable,
    title: { zh: '表格子表单', en: 'Table sub-form' },
    group: 'layout',
    parts: {
      Column: { title: { zh: '表格列', en: 'Table column' } },
      Index: { title: { zh: '序号', en: 'Index' } },
      Addition: { title: { zh: '添加行', en: 'Add row' } },
      Remove: { title: { zh: '删除行', en: 'Remove row' } },
      MoveUp: { title: { zh: '上移', en: 'Move up' } },
      MoveDown: { title: { zh: '下移', en: 'Move down' } },
      SortHandle: { title: { zh: '拖动排序', en: 'Drag handle' } },
    },
    palette: {
      key: 'subform',
      order: 20,
      title: { zh: '子表单', en: 'Sub-form' },
      icon: TableOutlined,
      schema: { type: 'array', maxItems: 50, items: { type: 'object', properties: {} } },
      match: (n) => /^Array(Table|Items|Cards|Collapse|Tabs)$/.test(n['x-component'] ?? ''),
      settings: { placeholder: false, defaultValue: false, fields: [number('maxItems', 'dz.prop.maxItems', 1, undefined, 0)] },
    },
    ...subform,
  });
  registerComponent({
    name: 'ArrayItems',
    component: ArrayItems,
    title: { zh: '列表子表单', en: 'List sub-form' },
    group: 'layout',
    parts: {
      Item: { title: { zh: '列表项', en: 'List item' } },
      Addition: { title: { zh: '添加项', en: 'Add item' } },
      Remove: { title: { zh: '删除项', en: 'Remove item' } },
    },
    ...subform,
  });
  registerComponent({
    name: 'ArrayCards',
    component: ArrayCards,
    title: { zh: '卡片子表单', en: 'Card sub-form' },
    group: 'layout',
    parts: {
      Addition: { title: { zh: '添加卡片', en: 'Add card' } },
      Remove: { title: { zh: '删除卡片', en: 'Remove card' } },
      Index: { title: { zh: '卡片序号', en: 'Card index' } },
    },
    ...subform,
  });
  registerComponent({
    name: 'ArrayCollapse',
    component: ArrayCollapse,
    title: { zh: '折叠子表单', en: 'Collapse sub-form' },
    group: 'layout',
    parts: {
      CollapsePanel: { title: { zh: '折叠子表单项', en: 'Collapse sub-form panel' } },
      Addition: { title: { zh: '添加面板', en: 'Add panel' } },
      Remove: { title: { zh: '删除面板', en: 'Remove panel' } },
    },
    ...subform,
  });
  registerComponent({ name: 'ArrayTabs', component: ArrayTabs, title: { zh: '选项卡子表单', en: 'Tabs sub-form' }, group: 'layout', ...subform });
}
