/**
 * The designer's small property controls (settings.tsx and options-settings.tsx): a dotted prop path of the
 * selected node read and written as one history step (`setNodeProp`, built on the pure `setIn`), and the number,
 * text and switch rows of the settings form bound to such a path.
 */
import React from 'react';
import { Form, Input, InputNumber, Switch } from 'antd';
import type { TreeNode } from '@pind/designable-core';

type AnyProps = Record<string, any>;

/** `obj` with `path` (dotted) set to `value` (undefined removes it); a new object, `obj` untouched. */
export function setIn(obj: AnyProps | undefined, path: string, value: unknown): AnyProps | undefined {
  const [head, ...tail] = path.split('.');
  const base: AnyProps = { ...(obj ?? {}) };
  if (tail.length) {
    const inner = setIn(base[head], tail.join('.'), value);
    if (inner === undefined || !Object.keys(inner).length) delete base[head];
    else base[head] = inner;
  } else if (value === undefined || value === '' || value === null) delete base[head];
  else base[head] = value;
  return Object.keys(base).length ? base : undefined;
}

export const getIn = (obj: AnyProps | undefined, path: string): any => path.split('.').reduce<any>((o, k) => (o == null ? undefined : o[k]), obj);

/** Sets one (dotted) prop path of `node` as one history step. */
export function setNodeProp(node: TreeNode, path: string, value: unknown): void {
  const [head, ...tail] = path.split('.');
  if (!tail.length) {
    node.setProps({ [head]: value === '' || value === null ? undefined : value });
    return;
  }
  node.setProps({ [head]: setIn(node.props[head], tail.join('.'), value) });
}

export const num = (v: number | null | undefined) => (v === null || v === undefined ? undefined : v);

export function NumberProp({ node, path, label, min, max, step, precision }: { node: TreeNode; path: string; label: string; min?: number; max?: number; step?: number; precision?: number }) {
  return (
    <Form.Item label={label}>
      <InputNumber aria-label={label} style={{ width: '100%' }} min={min} max={max} step={step} precision={precision} value={getIn(node.props, path)} onChange={(v) => setNodeProp(node, path, num(v as number | null))} />
    </Form.Item>
  );
}

export function TextProp({ node, path, label }: { node: TreeNode; path: string; label: string }) {
  return (
    <Form.Item label={label}>
      <Input aria-label={label} value={getIn(node.props, path) ?? ''} onChange={(e) => setNodeProp(node, path, e.target.value)} />
    </Form.Item>
  );
}

export function SwitchProp({ checked, label, onChange }: { checked: boolean; label: string; onChange: (v: boolean) => void }) {
  return (
    <Form.Item label={label}>
      <Switch aria-label={label} checked={checked} onChange={onChange} />
    </Form.Item>
  );
}
