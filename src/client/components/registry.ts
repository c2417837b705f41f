/**
 * THE component registry (DESIGN §1.2): every component a schema may name in `x-component` / `x-decorator`,
 * registered once, used by the runtime (`SchemaField`), the designer (palette entries from `registryEntries`)
 * and Storybook.
 *
 * - `components`: name → React component: the @formily/antd-v5 set plus ours (DictSelect, DeptTreeSelect,
 *   ResourceTreeSelect, RegionCascader, FileUpload, ProjectPicker, UserPicker, Card, Text, a Switch that
 *   reads 是 / 否 in readPretty, and the designer palette's Rate, Slider, ColorPicker, IconSelect, RichText and
 *   LocationInput). Dotted names resolve through
 *   sub-components (`Input.TextArea`, `Radio.Group`, `ArrayTable.Column`, `FormTab.TabPane` ...).
 * - `registryEntries`: designer metadata of each name: `{ name, title: {zh, en}, group }`.
 * - `SchemaField`: `createSchemaField({ components })`, with the CSP-safe expression compiler registered.
 * - `resolveComponent(name)`: the component a (dotted) name denotes, or undefined.
 */
import {
  ArrayCards,
  ArrayCollapse,
  ArrayItems,
  ArrayTable,
  ArrayTabs,
  Cascader,
  Checkbox,
  DatePicker,
  Editable,
  FormButtonGroup,
  FormCollapse,
  FormGrid,
  FormItem,
  FormLayout,
  FormStep,
  FormTab,
  Input,
  NumberPicker,
  Password,
  PreviewText,
  Radio,
  Reset,
  Select,
  SelectTable,
  Space,
  Submit,
  TimePicker,
  Transfer,
  TreeSelect,
  Upload,
} from '@formily/antd-v5';
import { createSchemaField } from '@formily/react';
import '../runtime/compiler.js';
import { DictSelect } from './DictSelect.js';
import { DeptTreeSelect } from './DeptTreeSelect.js';
import { RegionCascader } from './RegionCascader.js';
import { FileUpload } from './FileUpload.js';
import { ProjectPicker } from './ProjectPicker.js';
import { UserPicker } from './UserPicker.js';
import { ResourceTreeSelect } from './ResourceTreeSelect.js';
import { Card, Text } from './Layout.js';
import { Switch } from './Switch.js';
import { ColorPicker, IconSelect, Rate, Slider } from './Others.js';
import { RichText } from './RichText.js';
import { LocationInput } from './LocationInput.js';
import { Chart } from './Chart.js';
import { ExamineTimeline } from './ExamineTimeline.js';

export const components = {
  // layout
  FormItem,
  FormGrid,
  FormLayout,
  FormTab,
  FormCollapse,
  FormStep,
  FormButtonGroup,
  Space,
  Card,
  Text,
  Editable,
  PreviewText,
  // input
  Input,
  Password,
  NumberPicker,
  // choice
  Select,
  Radio,
  Checkbox,
  Switch,
  Cascader,
  TreeSelect,
  Transfer,
  SelectTable,
  // date
  DatePicker,
  TimePicker,
  // upload
  Upload,
  FileUpload,
  // arrays (sub-forms)
  ArrayTable,
  ArrayItems,
  ArrayCards,
  ArrayCollapse,
  ArrayTabs,
  // others, rich text, location (the designer's palette, spec 002 §2)
  Rate,
  Slider,
  ColorPicker,
  IconSelect,
  RichText,
  LocationInput,
  // actions
  Submit,
  Reset,
  // business
  DictSelect,
  DeptTreeSelect,
  ResourceTreeSelect,
  RegionCascader,
  ProjectPicker,
  UserPicker,
  // dashboards and workflow history (ECharts itself loads lazily: Chart.tsx)
  Chart,
  ExamineTimeline,
};

export type ComponentName = keyof typeof components;

export type RegistryGroup = 'layout' | 'input' | 'choice' | 'upload' | 'date' | 'richtext' | 'others' | 'business';

export interface RegistryEntry {
  /** The name schemas use (`x-component` / `x-decorator`), dotted for sub-components. */
  name: string;
  title: { zh: string; en: string };
  group: RegistryGroup;
}

const e = (name: string, zh: string, en: string, group: RegistryGroup): RegistryEntry => ({ name, title: { zh, en }, group });

/** Designer metadata of every registered name (the designer's palette groups follow spec 002 §2). */
export const registryEntries: RegistryEntry[] = [
  e('FormItem', '表单项', 'Form item', 'layout'),
  e('FormGrid', '栅格布局', 'Grid', 'layout'),
  e('FormLayout', '表单布局', 'Form layout', 'layout'),
  e('FormTab', '选项卡', 'Tabs', 'layout'),
  e('FormTab.TabPane', '选项卡面板', 'Tab pane', 'layout'),
  e('FormCollapse', '折叠面板', 'Collapse', 'layout'),
  e('FormCollapse.CollapsePanel', '折叠面板项', 'Collapse panel', 'layout'),
  e('FormStep', '分步表单', 'Steps', 'layout'),
  e('FormStep.StepPane', '步骤', 'Step', 'layout'),
  e('FormButtonGroup', '按钮组', 'Button group', 'layout'),
  e('Space', '间距', 'Space', 'layout'),
  e('Card', '分组', 'Group', 'layout'),
  e('Text', '标题', 'Title', 'layout'),
  e('Editable', '可编辑项', 'Editable', 'layout'),
  e('Editable.Popover', '弹出编辑', 'Popover editor', 'layout'),
  e('PreviewText', '预览文本', 'Preview text', 'layout'),
  e('ArrayTable', '表格子表单', 'Table sub-form', 'layout'),
  e('ArrayTable.Column', '表格列', 'Table column', 'layout'),
  e('ArrayTable.Index', '序号', 'Index', 'layout'),
  e('ArrayTable.Addition', '添加行', 'Add row', 'layout'),
  e('ArrayTable.Remove', '删除行', 'Remove row', 'layout'),
  e('ArrayTable.MoveUp', '上移', 'Move up', 'layout'),
  e('ArrayTable.MoveDown', '下移', 'Move down', 'layout'),
  e('ArrayTable.SortHandle', '拖动排序', 'Drag handle', 'layout'),
  e('ArrayItems', '列表子表单', 'List sub-form', 'layout'),
  e('ArrayItems.Item', '列表项', 'List item', 'layout'),
  e('ArrayItems.Addition', '添加项', 'Add item', 'layout'),
  e('ArrayItems.Remove', '删除项', 'Remove item', 'layout'),
  e('ArrayCards', '卡片子表单', 'Card sub-form', 'layout'),
  e('ArrayCards.Addition', '添加卡片', 'Add card', 'layout'),
  e('ArrayCards.Remove', '删除卡片', 'Remove card', 'layout'),
  e('ArrayCards.Index', '卡片序号', 'Card index', 'layout'),
  e('ArrayCollapse', '折叠子表单', 'Collapse sub-form', 'layout'),
  e('ArrayCollapse.CollapsePanel', '折叠子表单项', 'Collapse sub-form panel', 'layout'),
  e('ArrayCollapse.Addition', '添加面板', 'Add panel', 'layout'),
  e('ArrayCollapse.Remove', '删除面板', 'Remove panel', 'layout'),
  e('ArrayTabs', '选项卡子表单', 'Tabs sub-form', 'layout'),
  e('Input', '单行文本', 'Input', 'input'),
  e('Input.TextArea', '多行文本', 'Textarea', 'input'),
  e('Password', '密码', 'Password', 'input'),
  e('NumberPicker', '数字', 'Number', 'input'),
  e('Select', '下拉选择', 'Select', 'choice'),
  e('Radio', '单选', 'Radio', 'choice'),
  e('Radio.Group', '单选组', 'Radio group', 'choice'),
  e('Checkbox', '多选', 'Checkbox', 'choice'),
  e('Checkbox.Group', '多选组', 'Checkbox group', 'choice'),
  e('Cascader', '级联选择', 'Cascader', 'choice'),
  e('TreeSelect', '树选择', 'Tree select', 'choice'),
  e('Transfer', '穿梭框', 'Transfer', 'choice'),
  e('SelectTable', '表格选择', 'Table select', 'choice'),
  e('DatePicker', '日期', 'Date', 'date'),
  e('DatePicker.RangePicker', '日期范围', 'Date range', 'date'),
  e('TimePicker', '时间', 'Time', 'date'),
  e('TimePicker.RangePicker', '时间范围', 'Time range', 'date'),
  e('Upload', '上传', 'Upload', 'upload'),
  e('FileUpload', '附件上传', 'Attachments', 'upload'),
  e('Switch', '开关', 'Switch', 'others'),
  e('Rate', '评分', 'Rate', 'others'),
  e('Slider', '滑块', 'Slider', 'others'),
  e('ColorPicker', '颜色', 'Color', 'others'),
  e('IconSelect', '图标', 'Icon', 'others'),
  e('RichText', '富文本', 'Rich text', 'richtext'),
  e('LocationInput', '地图位置', 'Location', 'input'),
  e('Submit', '提交按钮', 'Submit button', 'others'),
  e('Reset', '重置按钮', 'Reset button', 'others'),
  e('DictSelect', '字典选择', 'Dictionary select', 'business'),
  e('DeptTreeSelect', '单位选择', 'Organisation select', 'business'),
  e('ResourceTreeSelect', '上级选择', 'Parent select', 'business'),
  e('RegionCascader', '地区选择', 'Region select', 'business'),
  e('ProjectPicker', '项目选择', 'Project picker', 'business'),
  e('UserPicker', '人员选择', 'User picker', 'business'),
  e('Chart', '图表', 'Chart', 'others'),
  e('ExamineTimeline', '审核记录', 'Review history', 'business'),
];

/** The component a name such as `Input.TextArea` denotes, or undefined. */
export function resolveComponent(name: string): unknown {
  let cur: unknown = components;
  for (const part of name.split('.')) {
    if (cur === null || (typeof cur !== 'object' && typeof cur !== 'function')) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === undefined || cur === components ? undefined : cur;
}

export const SchemaField = createSchemaField({ components });
