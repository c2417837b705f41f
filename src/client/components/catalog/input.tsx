/**
 * Registrations of the palette's group 输入 (input): texts, URLs, passwords, numbers and locations — one
 * `registerComponent` call each (the API: components/registration.ts). The catalogue's entry,
 * components/catalog.tsx, calls `registerInput()` after the groups before it, in the palette's order of groups
 * (spec 002 §2).
 */
import {
  EnvironmentOutlined,
  FieldNumberOutlined,
  FieldStringOutlined,
  LinkOutlined,
  LockOutlined,
  ProfileOutlined,
} from '@ant-design/icons';
import { Input, NumberPicker, Password } from '@formily/antd-v5';
import { registerComponent, SETTINGS_LIMITS as LIMITS } from '../registration.js';
import { is, number, noPlaceholder } from './helpers.js';
import { LocationInput } from '../LocationInput.js';

/** Registers the components of this group (see the module comment). */
export function registerInput(): void {
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
}
