/// <reference types="vite/client" />
/**
 * The platform's components, one `registerComponent` call each (DESIGN §1.2; the API is in
 * components/registration.ts): the @formily/antd-v5 set plus ours (DictSelect, DeptTreeSelect,
 * ResourceTreeSelect, ResourceSelect, RegionCascader, FileUpload, ProjectPicker, UserPicker, Card, Text, a Switch that reads
 * 是 / 否 in readPretty, Rate, Slider, ColorPicker, IconSelect, RichText, LocationInput, Chart, RemoteTable,
 * ExamineTimeline). Each call carries the component, its title and group, its sub-components, its palette
 * items (the designer's palette of spec 002 §2: layout, input, choice, upload, date and time, rich text,
 * others, business — variants of a component are items of its registration with other props: `DatePicker`
 * with `picker: 'year'`, `Select` with `mode: 'tags'` for the array of texts, `FileUpload` with
 * `accept: 'image/*'` for images), the settings of its nodes (spec 002 §3), its designer rules (spec 002 §5)
 * and its texts. Adding a component is one more call here.
 *
 * Importing this module registers them; components/registry.ts imports it, so whoever imports the registry
 * sees every component. Under Vite's dev server the module accepts its own hot updates (and those of the
 * component files it imports): the old registrations are withdrawn, the new ones made, and the live
 * `components` map gives SchemaField the edited components.
 */
import {
  ApartmentOutlined,
  AppstoreOutlined,
  BgColorsOutlined,
  BookOutlined,
  CalendarOutlined,
  CheckCircleOutlined,
  CheckSquareOutlined,
  ClockCircleOutlined,
  ClusterOutlined,
  ContainerOutlined,
  DownSquareOutlined,
  EnvironmentOutlined,
  FieldNumberOutlined,
  FieldStringOutlined,
  FieldTimeOutlined,
  FileTextOutlined,
  FontSizeOutlined,
  GlobalOutlined,
  LinkOutlined,
  LockOutlined,
  PartitionOutlined,
  PictureOutlined,
  ProfileOutlined,
  ScheduleOutlined,
  SlidersOutlined,
  SmileOutlined,
  StarOutlined,
  SwapOutlined,
  TableOutlined,
  TagsOutlined,
  UploadOutlined,
} from '@ant-design/icons';
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
import { registerComponent, registeredNames, SETTINGS_LIMITS as LIMITS, unregisterComponent, type SettingField, type SettingsSpec } from './registration.js';
import { DictSelect } from './DictSelect.js';
import { DeptTreeSelect } from './DeptTreeSelect.js';
import { RegionCascader } from './RegionCascader.js';
import { FileUpload } from './FileUpload.js';
import { ProjectPicker } from './ProjectPicker.js';
import { UserPicker } from './UserPicker.js';
import { ResourceTreeSelect } from './ResourceTreeSelect.js';
import { ResourceSelect } from './ResourceSelect.js';
import { CheckTree } from './CheckTree.js';
import { Card, Text } from './Layout.js';
import { Switch } from './Switch.js';
import { ColorPicker, IconSelect, Rate, Slider } from './Others.js';
import { RichText } from './RichText.js';
import { LocationInput } from './LocationInput.js';
import { YearRangePicker } from './YearRangePicker.js';
import { Chart } from './Chart.js';
import { ContentModelFields } from './ContentModelFields.js';
import { FullTextSearch } from './FullTextSearch.js';
import { BidDocuments, BID_TEXTS } from './BidDocuments.js';
import { RemoteTable } from './RemoteTable.js';
import { ExamineTimeline } from './ExamineTimeline.js';
import { BpmnViewer, BPMN_TEXTS } from './BpmnViewer.js';
import { TodoCard, TODO_CARD_TEXTS } from './TodoCard.js';
import { MenuPanel, MENU_PANEL_TEXTS } from './MenuPanel.js';
import { HelpTip, HELP_TIP_TEXTS } from './HelpTip.js';
import { TreeList } from './TreeList.js';
import { BpmnFileInput, BPMN_FILE_TEXTS } from './BpmnFileInput.js';
import { DuplicateResult, DUPLICATE_TEXTS } from './DuplicateResult.js';

type AnyNode = Record<string, any>;
const cp = (n: AnyNode) => (n['x-component-props'] ?? {}) as AnyNode;
const is = (n: AnyNode, c: string) => n['x-component'] === c;

/** The options a new choice field starts with (选项一, 选项二), and a tree of them for cascaders. */
const options = () => [
  { label: '选项一', labelEn: 'Option 1', value: '1' },
  { label: '选项二', labelEn: 'Option 2', value: '2' },
];
const treeOptions = () => [
  { label: '选项一', labelEn: 'Option 1', value: '1', children: [{ label: '选项一-1', labelEn: 'Option 1-1', value: '1-1' }] },
  { label: '选项二', labelEn: 'Option 2', value: '2' },
];

const number = (path: string, label: string, min?: number, max?: number, precision?: number): SettingField => ({ type: 'number', path, label, min, max, precision });
/** Settings of the file items (upload, image): size, count, accepted types; no placeholder. */
const fileSettings: SettingsSpec = {
  placeholder: false,
  fields: [
    number('x-component-props.maxSize', 'dz.prop.fileSize', LIMITS.fileSize[0], undefined, 0),
    number('maxItems', 'dz.prop.limit', LIMITS.limit[0], undefined, 0),
    { type: 'text', path: 'x-component-props.accept', label: 'dz.prop.accept' },
  ],
};
const noPlaceholder: SettingsSpec = { placeholder: false };

// ——— layout ———

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

// ——— input ———

registerComponent({
  name: 'Input',
  component: Input,
  title: { zh: '单行文本', en: 'Input' },
  group: 'input',
  parts: { TextArea: { title: { zh: '多行文本', en: 'Textarea' } } },
  palette: [
    { key: 'input', order: 10, icon: FieldStringOutlined, schema: { maxLength: 100 }, match: (n) => is(n, 'Input') && n.format !== 'uri' },
    {
      key: 'textarea',
      order: 30,
      title: { zh: '多行文本', en: 'Textarea' },
      icon: ProfileOutlined,
      component: 'Input.TextArea',
      schema: { maxLength: 500 },
      settings: { fields: [number('x-component-props.rows', 'dz.prop.rows', 1, 30, 0)] },
    },
    { key: 'url', order: 50, title: { zh: '超链接', en: 'URL' }, icon: LinkOutlined, schema: { format: 'uri', maxLength: 500 }, match: (n) => is(n, 'Input') && n.format === 'uri' },
  ],
});
registerComponent({
  name: 'Password',
  component: Password,
  title: { zh: '密码', en: 'Password' },
  group: 'input',
  palette: { key: 'password', order: 20, icon: LockOutlined, schema: { maxLength: 100 } },
});
registerComponent({
  name: 'NumberPicker',
  component: NumberPicker,
  title: { zh: '数字', en: 'Number' },
  group: 'input',
  palette: {
    key: 'number',
    order: 40,
    title: { zh: '计数器', en: 'Number' },
    icon: FieldNumberOutlined,
    schema: { type: 'number' },
    settings: {
      fields: [
        { type: 'number', path: 'minimum', label: 'dz.prop.min' },
        { type: 'number', path: 'maximum', label: 'dz.prop.max' },
        number('x-component-props.precision', 'dz.prop.precision', LIMITS.precision[0], LIMITS.precision[1], 0),
      ],
    },
  },
});
registerComponent({
  name: 'LocationInput',
  component: LocationInput,
  title: { zh: '地图位置', en: 'Location' },
  group: 'input',
  palette: { key: 'map', order: 80, title: { zh: '地图', en: 'Map' }, icon: EnvironmentOutlined, schema: { type: 'object' }, settings: noPlaceholder, designer: { inSubform: false } },
  texts: {
    'cmp.location.address': { zh: '地址', en: 'Address' },
    'cmp.location.longitude': { zh: '经度', en: 'Longitude' },
    'cmp.location.latitude': { zh: '纬度', en: 'Latitude' },
  },
});

// ——— choice ———

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

// ——— upload ———

registerComponent({ name: 'Upload', component: Upload, title: { zh: '上传', en: 'Upload' }, group: 'upload' });
registerComponent({
  name: 'FileUpload',
  component: FileUpload,
  title: { zh: '附件上传', en: 'Attachments' },
  group: 'upload',
  palette: [
    {
      key: 'image',
      group: 'input',
      order: 70,
      title: { zh: '图片', en: 'Image' },
      icon: PictureOutlined,
      schema: { type: 'array', maxItems: 10, items: { type: 'object' }, 'x-component-props': { accept: 'image/*', maxSize: 10485760 } },
      match: (n) => is(n, 'FileUpload') && String(cp(n).accept ?? '').startsWith('image'),
    },
    {
      key: 'upload',
      order: 10,
      title: { zh: '上传', en: 'Upload' },
      icon: UploadOutlined,
      schema: { type: 'array', maxItems: 10, items: { type: 'object' }, 'x-component-props': { maxSize: 52428800 } },
      match: (n) => is(n, 'FileUpload') || is(n, 'Upload'),
    },
  ],
  settings: fileSettings,
  designer: { choice: true },
  texts: {
    'cmp.upload.button': { zh: '上传附件', en: 'Upload' },
    'cmp.upload.uploading': { zh: '附件上传中，请稍等', en: 'Uploading the attachment, please wait' },
    'cmp.upload.preview': { zh: '预览', en: 'Preview' },
    'cmp.upload.badType': { zh: '文件类型不符合要求，只能上传 {{accept}} 格式的文件', en: 'Only {{accept}} files can be uploaded' },
    'cmp.upload.tooLarge': { zh: '文件大小不能超过 {{size}}', en: 'The file must not be larger than {{size}}' },
    'cmp.upload.tooMany': { zh: '最多只能上传 {{count}} 个文件', en: 'At most {{count}} files can be uploaded' },
    'cmp.upload.hint': { zh: '支持 {{accept}}，单个文件不超过 {{size}}', en: '{{accept}}; at most {{size}} per file' },
  },
});

// ——— date and time ———

registerComponent({
  name: 'DatePicker',
  component: DatePicker,
  title: { zh: '日期', en: 'Date' },
  group: 'date',
  parts: { RangePicker: { title: { zh: '日期范围', en: 'Date range' } } },
  palette: [
    {
      key: 'year',
      order: 10,
      title: { zh: '年', en: 'Year' },
      icon: CalendarOutlined,
      schema: { format: 'year', 'x-component-props': { picker: 'year', format: 'YYYY' } },
      match: (n) => is(n, 'DatePicker') && (cp(n).picker === 'year' || n.format === 'year'),
    },
    {
      key: 'month',
      order: 20,
      title: { zh: '月', en: 'Month' },
      icon: CalendarOutlined,
      schema: { format: 'month', 'x-component-props': { picker: 'month', format: 'YYYY-MM' } },
      match: (n) => is(n, 'DatePicker') && (cp(n).picker === 'month' || n.format === 'month'),
    },
    {
      key: 'week',
      order: 30,
      title: { zh: '周', en: 'Week' },
      icon: CalendarOutlined,
      schema: { maxLength: 10, 'x-component-props': { picker: 'week', format: 'YYYY-wo' } },
      match: (n) => is(n, 'DatePicker') && cp(n).picker === 'week',
    },
    {
      key: 'datetime',
      order: 40,
      title: { zh: '日期时间', en: 'Date and time' },
      icon: FieldTimeOutlined,
      schema: { format: 'date-time', 'x-component-props': { showTime: true, format: 'YYYY-MM-DD HH:mm:ss' } },
      match: (n) => is(n, 'DatePicker') && (!!cp(n).showTime || n.format === 'date-time'),
    },
    { key: 'date', order: 50, icon: CalendarOutlined, schema: { format: 'date', 'x-component-props': { format: 'YYYY-MM-DD' } } },
    {
      key: 'datetimerange',
      order: 70,
      title: { zh: '日期时间范围', en: 'Date-time range' },
      icon: ScheduleOutlined,
      component: 'DatePicker.RangePicker',
      schema: { type: 'array', items: { type: 'string', format: 'date-time' }, 'x-component-props': { showTime: true, format: 'YYYY-MM-DD HH:mm:ss' } },
      match: (n) => is(n, 'DatePicker.RangePicker') && !!cp(n).showTime,
    },
    {
      key: 'daterange',
      order: 80,
      title: { zh: '日期范围', en: 'Date range' },
      icon: ScheduleOutlined,
      component: 'DatePicker.RangePicker',
      schema: { type: 'array', items: { type: 'string', format: 'date' }, 'x-component-props': { format: 'YYYY-MM-DD' } },
    },
  ],
  designer: { choice: true },
});
registerComponent({
  name: 'TimePicker',
  component: TimePicker,
  title: { zh: '时间', en: 'Time' },
  group: 'date',
  parts: { RangePicker: { title: { zh: '时间范围', en: 'Time range' } } },
  palette: [
    { key: 'time', order: 60, icon: ClockCircleOutlined, schema: { maxLength: 8, 'x-component-props': { format: 'HH:mm:ss' } } },
    {
      key: 'timerange',
      order: 90,
      title: { zh: '时间范围', en: 'Time range' },
      icon: ClockCircleOutlined,
      component: 'TimePicker.RangePicker',
      schema: { type: 'array', items: { type: 'string' }, 'x-component-props': { format: 'HH:mm:ss' } },
    },
  ],
  designer: { choice: true },
});

// the year range of statistics and list filters (spec 002 §2, §5: start year not after end year)
registerComponent({
  name: 'YearRangePicker',
  component: YearRangePicker,
  title: { zh: '年份范围', en: 'Year range' },
  group: 'date',
  texts: {
    'cmp.yearRange.start': { zh: '开始年份', en: 'Start year' },
    'cmp.yearRange.end': { zh: '结束年份', en: 'End year' },
  },
});

// ——— rich text ———

registerComponent({
  name: 'RichText',
  component: RichText,
  title: { zh: '富文本', en: 'Rich text' },
  group: 'richtext',
  palette: {
    key: 'richtext',
    order: 10,
    icon: FileTextOutlined,
    schema: { 'x-component-props': { height: 200 } },
    settings: { placeholder: false, pattern: false, fields: [number('x-component-props.height', 'dz.prop.height', 100, 1000, 0)] },
    designer: { inSubform: false },
  },
  texts: {
    'cmp.rich.label': { zh: '富文本', en: 'Rich text' },
    'cmp.rich.bold': { zh: '加粗', en: 'Bold' },
    'cmp.rich.italic': { zh: '斜体', en: 'Italic' },
    'cmp.rich.underline': { zh: '下划线', en: 'Underline' },
    'cmp.rich.strike': { zh: '删除线', en: 'Strike-through' },
    'cmp.rich.heading': { zh: '标题', en: 'Heading' },
    'cmp.rich.paragraph': { zh: '正文', en: 'Paragraph' },
    'cmp.rich.ul': { zh: '无序列表', en: 'Bulleted list' },
    'cmp.rich.ol': { zh: '有序列表', en: 'Numbered list' },
    'cmp.rich.link': { zh: '链接', en: 'Link' },
    'cmp.rich.linkPrompt': { zh: '请输入链接地址', en: 'Enter the link address' },
    'cmp.rich.clear': { zh: '清除格式', en: 'Clear formatting' },
  },
});

// ——— others ———

registerComponent({
  name: 'IconSelect',
  component: IconSelect,
  title: { zh: '图标', en: 'Icon' },
  group: 'others',
  palette: { key: 'icon', order: 10, title: { zh: '图标选择器', en: 'Icon' }, icon: SmileOutlined, schema: { maxLength: 64 }, designer: { choice: true } },
});
registerComponent({
  name: 'Switch',
  component: Switch,
  title: { zh: '开关', en: 'Switch' },
  group: 'others',
  palette: { key: 'switch', order: 20, icon: SwapOutlined, schema: { type: 'boolean' }, settings: noPlaceholder, designer: { choice: true } },
});
registerComponent({
  name: 'Rate',
  component: Rate,
  title: { zh: '评分', en: 'Rate' },
  group: 'others',
  palette: {
    key: 'rate',
    order: 30,
    icon: StarOutlined,
    schema: { type: 'number', 'x-component-props': { count: 5 } },
    settings: { placeholder: false, fields: [number('x-component-props.count', 'dz.prop.count', 1, 10, 0)] },
  },
});
registerComponent({
  name: 'Slider',
  component: Slider,
  title: { zh: '滑块', en: 'Slider' },
  group: 'others',
  palette: {
    key: 'slider',
    order: 40,
    icon: SlidersOutlined,
    schema: { type: 'number', 'x-component-props': { min: 0, max: 100 } },
    settings: {
      placeholder: false,
      fields: [
        // spec 002 §9: the minimum is at least 0 and below the maximum
        { type: 'number', path: 'x-component-props.min', label: 'dz.prop.min', min: 0, max: { path: 'x-component-props.max', fallback: 100, offset: -1 } },
        { type: 'number', path: 'x-component-props.max', label: 'dz.prop.max', min: { path: 'x-component-props.min', fallback: 0, offset: 1 } },
      ],
    },
  },
});
registerComponent({
  name: 'ColorPicker',
  component: ColorPicker,
  title: { zh: '颜色', en: 'Color' },
  group: 'others',
  palette: { key: 'color', order: 50, title: { zh: '颜色选择器', en: 'Color' }, icon: BgColorsOutlined, schema: { maxLength: 32 }, settings: noPlaceholder, designer: { choice: true } },
});
registerComponent({ name: 'Submit', component: Submit, title: { zh: '提交按钮', en: 'Submit button' }, group: 'others' });
registerComponent({ name: 'Reset', component: Reset, title: { zh: '重置按钮', en: 'Reset button' }, group: 'others' });
// dashboards (ECharts itself loads lazily: Chart.tsx)
registerComponent({ name: 'Chart', component: Chart, title: { zh: '图表', en: 'Chart' }, group: 'others' });
// a paged endpoint whose fields come with its rows (crawled data, logs)
registerComponent({ name: 'RemoteTable', component: RemoteTable, title: { zh: '数据表格', en: 'Remote table' }, group: 'others' });

// ——— business ———

registerComponent({
  name: 'DictSelect',
  component: DictSelect,
  title: { zh: '字典选择', en: 'Dictionary select' },
  group: 'business',
  palette: {
    key: 'dict',
    order: 10,
    icon: BookOutlined,
    schema: { maxLength: 32, 'x-component-props': { code: '' } },
    settings: { options: { source: 'dictionary', switchTo: 'Select' } },
    designer: { choice: true },
  },
});
registerComponent({
  name: 'DeptTreeSelect',
  component: DeptTreeSelect,
  title: { zh: '单位选择', en: 'Organisation select' },
  group: 'business',
  palette: { key: 'dept', order: 20, icon: ClusterOutlined, schema: { maxLength: 32 }, designer: { choice: true } },
  texts: { 'cmp.dept.placeholder': { zh: '请选择单位', en: 'Please select the organisation' } },
});
registerComponent({ name: 'ResourceTreeSelect', component: ResourceTreeSelect, title: { zh: '上级选择', en: 'Parent select' }, group: 'business' });
registerComponent({ name: 'ResourceSelect', component: ResourceSelect, title: { zh: '数据选择', en: 'Record select' }, group: 'business' });
// the extra fields of a portal channel's content models, stored as the content's attributes (issue 14)
registerComponent({ name: 'ContentModelFields', component: ContentModelFields, title: { zh: '内容模型字段', en: 'Content model fields' }, group: 'business' });
// the back office's full-text search over a searchByEs endpoint, with searchByGPT's answers when configured (issue 14)
registerComponent({
  name: 'FullTextSearch',
  component: FullTextSearch,
  title: { zh: '全文检索', en: 'Full-text search' },
  group: 'business',
  texts: {
    'cmp.search.placeholder': { zh: '请输入关键词，多个词以空格分隔', en: 'Keywords, separated by spaces' },
    'cmp.search.found': { zh: '共找到 {{n}} 条', en: '{{n}} found' },
    'cmp.search.none': { zh: '没有找到相关内容', en: 'Nothing found' },
    'cmp.search.ask': { zh: '智能问答', en: 'Ask' },
    'cmp.search.answer': { zh: '智能问答（依据检索结果）', en: 'Answer (from the hits)' },
  },
});
// a bidding project's catalogue, chapter documents (with the editor's link) and chapter access (issue 17)
registerComponent({ name: 'BidDocuments', component: BidDocuments, title: { zh: '投标文档', en: 'Bid documents' }, group: 'business', texts: BID_TEXTS });
// the trees of grant dialogs (roles: menus, data scopes, API scopes, top menus; top menus: menus)
registerComponent({
  name: 'CheckTree',
  component: CheckTree,
  title: { zh: '授权树', en: 'Grant tree' },
  group: 'business',
  texts: {
    'cmp.checkTree.expandAll': { zh: '全部展开', en: 'Expand all' },
    'cmp.checkTree.collapseAll': { zh: '全部折叠', en: 'Collapse all' },
    'cmp.checkTree.checkAll': { zh: '全选', en: 'Check all' },
    'cmp.checkTree.clear': { zh: '清空', en: 'Clear' },
  },
});
registerComponent({
  name: 'RegionCascader',
  component: RegionCascader,
  title: { zh: '地区选择', en: 'Region select' },
  group: 'business',
  palette: { key: 'region', order: 30, icon: GlobalOutlined, schema: { type: 'array', items: { type: 'string' } }, designer: { choice: true } },
  texts: { 'cmp.region.placeholder': { zh: '请选择地区', en: 'Please select the region' } },
});
registerComponent({
  name: 'ProjectPicker',
  component: ProjectPicker,
  title: { zh: '项目选择', en: 'Project picker' },
  group: 'business',
  texts: { 'cmp.project.placeholder': { zh: '请选择项目', en: 'Please select the project' } },
});
registerComponent({
  name: 'UserPicker',
  component: UserPicker,
  title: { zh: '人员选择', en: 'User picker' },
  group: 'business',
  texts: { 'cmp.user.placeholder': { zh: '请输入姓名或账号搜索', en: 'Search by name or account' } },
});
// workflow history (DetailView shows it under the form of resources with a flow)
registerComponent({ name: 'ExamineTimeline', component: ExamineTimeline, title: { zh: '审核记录', en: 'Review history' }, group: 'business' });
// a process instance's diagram with its current and finished nodes (bpmn-js loads lazily: BpmnCanvas.tsx)
registerComponent({ name: 'BpmnViewer', component: BpmnViewer, title: { zh: '流程图', en: 'Process diagram' }, group: 'business', texts: BPMN_TEXTS });
// the home page's 待办 / 已办 cards: the user's open or done to-dos, their number and the newest (issue 11)
registerComponent({ name: 'TodoCard', component: TodoCard, title: { zh: '待办卡片', en: 'To-do card' }, group: 'business', texts: TODO_CARD_TEXTS });
// the home page's shortcut panel: the user's picked screens, with its editor (issue 18, system/menupanel)
registerComponent({ name: 'MenuPanel', component: MenuPanel, title: { zh: '快捷菜单', en: 'Shortcuts' }, group: 'business', texts: MENU_PANEL_TEXTS });
registerComponent({ name: 'HelpTip', component: HelpTip, title: { zh: '帮助提示', en: 'Help tip' }, group: 'business', texts: HELP_TIP_TEXTS });
// a tree resource's tree beside or above the list of the chosen node's children (the dictionary layouts, spec 000 §2.3)
registerComponent({ name: 'TreeList', component: TreeList, title: { zh: '树与列表', en: 'Tree and list' }, group: 'business' });
// BPMN files read in the browser for the process models' upload dialog (sent as JSON to deploy-upload)
registerComponent({ name: 'BpmnFileInput', component: BpmnFileInput, title: { zh: '流程文件', en: 'Process files' }, group: 'business', texts: BPMN_FILE_TEXTS });
// a duplicate-check task's result: figures, sources, the two texts side by side with the matches highlighted (issue 15)
registerComponent({ name: 'DuplicateResult', component: DuplicateResult, title: { zh: '查重结果', en: 'Duplicate-check result' }, group: 'business', texts: DUPLICATE_TEXTS });

if (import.meta.hot) {
  const mine = registeredNames();
  import.meta.hot.dispose(() => mine.forEach(unregisterComponent));
  import.meta.hot.accept();
}
