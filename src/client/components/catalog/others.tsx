/**
 * Registrations of the palette's group 其他 (others): rate, slider, colour, icon, submit and reset buttons, charts
 * and remote tables — one `registerComponent` call each (the API: components/registration.ts). The catalogue's
 * entry, components/catalog.tsx, calls `registerOthers()` after the groups before it, in the palette's order of
 * groups (spec 002 §2).
 */
import { BgColorsOutlined, SlidersOutlined, SmileOutlined, StarOutlined, SwapOutlined } from '@ant-design/icons';
import { Reset, Submit } from '@formily/antd-v5';
import { registerComponent } from '../registration.js';
import { number, noPlaceholder } from './helpers.js';
import { Switch } from '../Switch.js';
import { ColorPicker, IconSelect, Rate, Slider } from '../Others.js';
import { Chart } from '../Chart.js';
import { RemoteTable } from '../RemoteTable.js';

/** Registers the components of this group (see the module comment). */
export function registerOthers(): void {
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
}
