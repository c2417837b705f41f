/**
 * The right panel (spec 002 §2): tabs 字段属性 (the selected node) and 表单属性 (the form).
 *
 * Field properties write into the selected node's props with `node.setProps` — each change is a step of the
 * designer's history — and follow spec 002 §3 and §5:
 * prop (the property key: a valid identifier not used in the same data scope), label (zh and en), placeholder,
 * width (min 100, `x-component-props.style.width`), span (8–24: `x-decorator-props.gridSpan`, which a grid
 * lays out), data type, tips with placement (`x-decorator-props.tooltip` / `tooltipPlacement`), default
 * value, required (adds the rule with label + 必须填写, 请选择 + label for choices, 请输入 + label for arrays),
 * pattern (label + 格式不匹配), max length, read-only / disabled / hidden, options (static: a list, or a
 * tree for cascader and tree select, with 请输入label / 请输入value / value重复; remote: a dictionary, which
 * makes the field a DictSelect), upload settings (file size ≥ 0 bytes, limit ≥ 1, accepted types), number
 * range and precision (0–10), rate count, slider range (min ≥ 0, below max), rich-text height, title style,
 * grid columns, sub-form max rows.
 *
 * What differs from one kind of node to another is data of the component registrations (DESIGN §1.2,
 * src/client/components/catalog.tsx `settings`): which common settings apply (label, placeholder, default,
 * pattern), where options come from (`options`), and the component's own settings (`fields`: number, text,
 * choice and switch controls on a prop path), rendered here by `SettingControl`. A component registered
 * with settings gets its form without touching this file. The options (list, tree, dictionary) are
 * options-settings.tsx; the number, text and switch rows bound to a prop path are prop-controls.tsx.
 *
 * Form properties write into the root: label position (left, right, top), label width 80–200, gutter 0–60
 * (`gridColumnGap`), dialog width, and detail mode / read-only / disabled (the form's `x-pattern`).
 */
import React, { useEffect, useState } from 'react';
import { Empty, Form, Input, InputNumber, Radio, Select, Slider, Tabs, Typography } from 'antd';
import { observer } from '@formily/react';
import { useSelectedNode, useTree } from '@pind/designable-react';
import type { TreeNode } from '@pind/designable-core';
import { useTranslation } from 'react-i18next';
import type { Bound, SettingField, TextRef } from '../src/client/components/registry.js';
import { nodeKind } from './engine.js';
import { kindSpec, kindTitle } from './palette.js';
import { isRequired, LIMITS, patternOf, relabel, validName, withPattern, withRequired } from './rules.js';
import { getIn, num, NumberProp, setIn, setNodeProp, SwitchProp, TextProp } from './prop-controls.js';
import { OptionsSettings } from './options-settings.js';

type AnyProps = Record<string, any>;

/** The property keys used in `node`'s data scope, except its own. */
function namesInScope(node: TreeNode): Set<string> {
  let scope: TreeNode = node.root;
  for (let n = node.parent; n; n = n.parent) if (n.isRoot || n.props?.type === 'object') {
    scope = n;
    break;
  }
  return new Set(scope.descendants.filter((d) => d !== node && d.props?.name).map((d) => String(d.props.name)));
}

function NameInput({ node }: { node: TreeNode }) {
  const { t } = useTranslation();
  const current = String(node.props.name ?? '');
  const [text, setText] = useState(current);
  useEffect(() => setText(current), [current, node]);
  const problem = !validName(text) ? t('dz.prop.nameInvalid') : namesInScope(node).has(text) ? t('dz.prop.nameTaken') : null;
  return (
    <Form.Item label={t('dz.prop.name')} validateStatus={problem ? 'error' : undefined} help={problem ?? undefined}>
      <Input
        aria-label={t('dz.prop.name')}
        value={text}
        onChange={(e) => {
          const v = e.target.value.trim();
          setText(v);
          if (validName(v) && !namesInScope(node).has(v) && v !== current) node.setProps({ name: v });
        }}
      />
    </Form.Item>
  );
}

/** A label input: changing it also updates the messages of the rules the designer generated. */
function LabelInputs({ node }: { node: TreeNode }) {
  const { t } = useTranslation();
  const set = (key: 'title' | 'titleEn', v: string) => {
    const before = { ...node.props };
    const next = { ...node.props, [key]: v || undefined };
    node.setProps({ [key]: v || undefined, 'x-validator': relabel(next, String(node.props.name ?? ''), before, node.parent?.props) });
  };
  return (
    <>
      <Form.Item label={t('dz.prop.label')}>
        <Input aria-label={t('dz.prop.label')} value={node.props.title ?? ''} onChange={(e) => set('title', e.target.value)} />
      </Form.Item>
      <Form.Item label={t('dz.prop.labelEn')}>
        <Input aria-label={t('dz.prop.labelEn')} value={node.props.titleEn ?? ''} onChange={(e) => set('titleEn', e.target.value)} />
      </Form.Item>
    </>
  );
}

/** The default value, edited as the field's type. */
function DefaultInput({ node }: { node: TreeNode }) {
  const { t } = useTranslation();
  const type = node.props.type ?? 'string';
  const value = node.props.default;
  const [text, setText] = useState(value === undefined ? '' : JSON.stringify(value));
  useEffect(() => setText(value === undefined ? '' : JSON.stringify(value)), [value, node]);
  const label = t('dz.prop.default');
  if (type === 'boolean') return <SwitchProp label={label} checked={value === true} onChange={(v) => node.setProps({ default: v })} />;
  if (type === 'number' || type === 'integer') {
    return (
      <Form.Item label={label}>
        <InputNumber aria-label={label} style={{ width: '100%' }} precision={type === 'integer' ? 0 : undefined} value={typeof value === 'number' ? value : null} onChange={(v) => node.setProps({ default: num(v as number | null) })} />
      </Form.Item>
    );
  }
  if (type === 'string') {
    return (
      <Form.Item label={label}>
        <Input aria-label={label} value={typeof value === 'string' ? value : ''} onChange={(e) => node.setProps({ default: e.target.value === '' ? undefined : e.target.value })} />
      </Form.Item>
    );
  }
  let bad = false;
  try {
    if (text.trim()) JSON.parse(text);
  } catch {
    bad = true;
  }
  return (
    <Form.Item label={label} validateStatus={bad ? 'error' : undefined} help={bad ? 'JSON' : undefined}>
      <Input
        aria-label={label}
        value={text}
        placeholder={type === 'array' ? '[]' : '{}'}
        onChange={(e) => {
          setText(e.target.value);
          try {
            const v = e.target.value.trim() ? JSON.parse(e.target.value) : undefined;
            if (v === undefined || (type === 'array' ? Array.isArray(v) : v && typeof v === 'object' && !Array.isArray(v))) node.setProps({ default: v });
          } catch {
            /* shown as an error; the node keeps its value */
          }
        }}
      />
    </Form.Item>
  );
}

function PatternInput({ node }: { node: TreeNode }) {
  const { t } = useTranslation();
  const current = patternOf(node.props) ?? '';
  const [text, setText] = useState(current);
  useEffect(() => setText(current), [current, node]);
  let bad = false;
  try {
    if (text) new RegExp(text);
  } catch {
    bad = true;
  }
  return (
    <Form.Item label={t('dz.prop.pattern')} validateStatus={bad ? 'error' : undefined} help={bad ? t('dz.prop.patternInvalid') : undefined}>
      <Input
        aria-label={t('dz.prop.pattern')}
        value={text}
        placeholder="^\\d+$"
        onChange={(e) => {
          const v = e.target.value;
          setText(v);
          try {
            if (v) new RegExp(v);
            node.setProps({ 'x-validator': withPattern(node.props, String(node.props.name ?? ''), v || undefined), pattern: undefined });
          } catch {
            /* an invalid expression is not written */
          }
        }}
      />
    </Form.Item>
  );
}

/** A text of the settings: a key of the UI texts, or both languages inline. */
function useText(): (ref: TextRef) => string {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  return (ref) => (typeof ref === 'string' ? t(ref) : ref[lang]);
}

/** The value of a bound of a number setting for the node's props (another prop, plus an offset). */
const boundOf = (props: AnyProps, b: Bound | undefined): number | undefined =>
  b === undefined || typeof b === 'number' ? b : Number(getIn(props, b.path) ?? b.fallback) + (b.offset ?? 0);

/** One setting of a registration (`SettingField`, components/registration.ts), written into the node's props. */
function SettingControl({ node, field }: { node: TreeNode; field: SettingField }) {
  const text = useText();
  const label = text(field.label);
  const p = node.props;
  switch (field.type) {
    case 'number': {
      const min = boundOf(p, field.min);
      const max = boundOf(p, field.max);
      return <NumberProp node={node} path={field.path} label={label} min={min} max={min !== undefined && max !== undefined ? Math.max(min, max) : max} precision={field.precision} />;
    }
    case 'text':
      return <TextProp node={node} path={field.path} label={label} />;
    case 'choice':
      return (
        <Form.Item label={label}>
          <Radio.Group
            size="small"
            optionType="button"
            value={getIn(p, field.path) ?? field.fallback}
            onChange={(e) => setNodeProp(node, field.path, e.target.value)}
            options={field.options.map((o) => ({ value: o.value, label: text(o.label) }))}
          />
        </Form.Item>
      );
    case 'switch': {
      const on = field.on ?? true;
      const [head] = field.path.split('.');
      return (
        <SwitchProp
          label={label}
          checked={getIn(p, field.path) === on}
          // one step of history: the prop and the patch together
          onChange={(v) => node.setProps({ ...(v ? field.patch?.on : field.patch?.off), [head]: setIn({ [head]: p[head] }, field.path, v ? on : undefined)?.[head] })}
        />
      );
    }
  }
}

const TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'] as const;

/**
 * 字段属性: the selected node's settings — the common ones, minus those its registration turns off, then its
 * options and its registration's own settings (designer/palette `kindSpec`).
 */
export const FieldSettings = observer(() => {
  const { t, i18n } = useTranslation();
  const node = useSelectedNode();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  if (!node || node.isRoot || node.componentName !== 'Field') return <Empty description={t('dz.selectField')} image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  const kind = nodeKind(node);
  const spec = kindSpec(kind);
  const settings = spec.settings;
  const p = node.props;
  const isVoid = p.type === 'void';
  const name = String(p.name ?? '');
  const gridColumnsPath = node.parent ? kindSpec(nodeKind(node.parent)).designer.gridColumns : undefined;
  const inGrid = !!gridColumnsPath;
  const gridColumns = gridColumnsPath ? Number(getIn(node.parent?.props, gridColumnsPath) ?? 24) : 24;
  const compProp = (path: string) => `x-component-props.${path}`;
  const setRequired = (on: boolean) => node.setProps({ required: undefined, 'x-validator': withRequired(p, name, on, node.parent?.props) });
  const pattern = p['x-pattern'];
  const display = p['x-display'];
  if (!settings) return <Empty description={kindTitle(kind, lang)} image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  const own = settings.fields.map((f, i) => <SettingControl key={`${f.path}.${i}`} node={node} field={f} />);
  return (
    <Form layout="vertical" size="small" className="kc-dz-field-settings" key={node.id}>
      <Form.Item label={t('dz.prop.type')}>
        <Typography.Text code>{kindTitle(kind, lang) ?? String(p['x-component'] ?? kind)}</Typography.Text>
      </Form.Item>
      <NameInput node={node} />
      {settings.label && <LabelInputs node={node} />}
      {isVoid && own}
      {!isVoid && (
        <>
          {settings.placeholder && <TextProp node={node} path={compProp('placeholder')} label={t('dz.prop.placeholder')} />}
          <NumberProp node={node} path={compProp('style.width')} label={t('dz.prop.width')} min={LIMITS.width[0]} max={LIMITS.width[1]} precision={0} />
          <Form.Item label={t('dz.prop.span')} help={inGrid ? undefined : t('dz.prop.spanHint')}>
            <Slider
              aria-label={t('dz.prop.span')}
              min={gridColumns >= 24 ? LIMITS.span[0] : 1}
              max={gridColumns >= 24 ? LIMITS.span[1] : gridColumns}
              value={Number(p['x-decorator-props']?.gridSpan ?? (gridColumns >= 24 ? 24 : 1))}
              onChange={(v) => setNodeProp(node, 'x-decorator-props.gridSpan', v)}
            />
          </Form.Item>
          <Form.Item label={t('dz.prop.dataType')}>
            <Select
              aria-label={t('dz.prop.dataType')}
              value={p.type ?? 'string'}
              onChange={(v) => node.setProps({ type: v, default: undefined })}
              options={TYPES.map((ty) => ({ value: ty, label: t(`dz.type.${ty}`) }))}
            />
          </Form.Item>
          <TextProp node={node} path="x-decorator-props.tooltip" label={t('dz.prop.tip')} />
          <Form.Item label={t('dz.prop.tipPlacement')}>
            <Select
              aria-label={t('dz.prop.tipPlacement')}
              allowClear
              value={p['x-decorator-props']?.tooltipPlacement}
              onChange={(v) => setNodeProp(node, 'x-decorator-props.tooltipPlacement', v)}
              options={['top', 'bottom', 'left', 'right'].map((v) => ({ value: v, label: t(`dz.placement.${v}`) }))}
            />
          </Form.Item>
          {settings.defaultValue && <DefaultInput node={node} />}
          <SwitchProp label={t('dz.prop.required')} checked={isRequired(p)} onChange={setRequired} />
          {(p.type ?? 'string') === 'string' && settings.pattern && <PatternInput node={node} />}
          {(p.type ?? 'string') === 'string' && <NumberProp node={node} path="maxLength" label={t('dz.prop.maxLength')} min={1} precision={0} />}
          {settings.options && <OptionsSettings node={node} spec={settings.options} />}
          {own}
          <SwitchProp label={t('dz.prop.readonly')} checked={pattern === 'readOnly'} onChange={(v) => node.setProps({ 'x-pattern': v ? 'readOnly' : undefined })} />
          <SwitchProp label={t('dz.prop.disabled')} checked={pattern === 'disabled'} onChange={(v) => node.setProps({ 'x-pattern': v ? 'disabled' : undefined })} />
          <SwitchProp label={t('dz.prop.hidden')} checked={display === 'hidden' || display === 'none'} onChange={(v) => node.setProps({ 'x-display': v ? 'hidden' : undefined })} />
        </>
      )}
    </Form>
  );
});

/** 表单属性: the form's settings (the root node). */
export const FormSettings = observer(() => {
  const { t } = useTranslation();
  const root = useTree();
  if (!root) return null;
  const layout = (root.props['x-component-props'] ?? {}) as AnyProps;
  const position = layout.layout === 'vertical' ? 'top' : layout.labelAlign === 'left' ? 'left' : 'right';
  const setLayout = (path: string, v: unknown) => setNodeProp(root, `x-component-props.${path}`, v);
  const pattern = root.props['x-pattern'];
  return (
    <Form layout="vertical" size="small" className="kc-dz-form-settings">
      <Form.Item label={t('dz.form.labelPosition')}>
        <Radio.Group
          optionType="button"
          size="small"
          value={position}
          onChange={(e) => {
            const v = e.target.value as 'left' | 'right' | 'top';
            root.setProps({
              'x-component-props': setIn(setIn(layout, 'layout', v === 'top' ? 'vertical' : undefined), 'labelAlign', v === 'left' ? 'left' : undefined),
            });
          }}
          options={[
            { value: 'left', label: t('dz.form.left') },
            { value: 'right', label: t('dz.form.right') },
            { value: 'top', label: t('dz.form.top') },
          ]}
        />
      </Form.Item>
      <Form.Item label={t('dz.form.labelWidth')}>
        <Slider aria-label={t('dz.form.labelWidth')} min={LIMITS.labelWidth[0]} max={LIMITS.labelWidth[1]} value={Number(layout.labelWidth ?? 130)} onChange={(v) => setLayout('labelWidth', v)} />
      </Form.Item>
      <Form.Item label={t('dz.form.gutter')}>
        <Slider aria-label={t('dz.form.gutter')} min={LIMITS.gutter[0]} max={LIMITS.gutter[1]} value={Number(layout.gridColumnGap ?? 8)} onChange={(v) => setLayout('gridColumnGap', v)} />
      </Form.Item>
      <Form.Item label={t('dz.form.dialogWidth')}>
        <InputNumber aria-label={t('dz.form.dialogWidth')} style={{ width: '100%' }} min={400} max={2000} precision={0} value={layout.dialogWidth ?? 900} onChange={(v) => setLayout('dialogWidth', num(v as number | null))} />
      </Form.Item>
      <SwitchProp label={t('dz.form.detail')} checked={pattern === 'readPretty'} onChange={(v) => root.setProps({ 'x-pattern': v ? 'readPretty' : undefined })} />
      <SwitchProp label={t('dz.form.readonly')} checked={pattern === 'readOnly'} onChange={(v) => root.setProps({ 'x-pattern': v ? 'readOnly' : undefined })} />
      <SwitchProp label={t('dz.form.disabled')} checked={pattern === 'disabled'} onChange={(v) => root.setProps({ 'x-pattern': v ? 'disabled' : undefined })} />
    </Form>
  );
});

/** The right panel. */
export function SettingsTabs() {
  const { t } = useTranslation();
  return (
    <Tabs
      className="kc-dz-settings"
      defaultActiveKey="field"
      items={[
        { key: 'field', label: t('dz.fieldProps'), children: <FieldSettings /> },
        { key: 'form', label: t('dz.formProps'), children: <FormSettings /> },
      ]}
    />
  );
}
