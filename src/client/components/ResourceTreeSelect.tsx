/**
 * ResourceTreeSelect: a TreeSelect over a tree resource's `GET <url>` (the generic `tree` endpoint: nodes
 * `{id, key, value, title, children}`), e.g. the parent of a dictionary (`/api/blade-system/dict/tree`).
 *
 * Props: `url` (required), `rootValue` (the value meaning "no parent", e.g. '0': shown empty, and what
 * clearing the field stores), and any antd TreeSelect prop. While editing a record, the record itself and
 * its descendants cannot be chosen (a node cannot become its own parent); the record is the form's `id`.
 * `selectable` `{url, field, has}`: only nodes whose record (from `GET url`, a list of records matched to the
 * nodes by `id`) holds `has` in `field` (an array containing it, or equal to it) can be chosen — the others stay
 * in the tree, greyed; a record without the field (null) counts as holding it when `missing` is true (default),
 * e.g. the content editor offers only channels with 内容编辑页 (configuration 2; a channel stored without a
 * configuration has the default 1 and 2). The server checks again (the client only hides).
 * readPretty shows the chosen node's title.
 */
import React from 'react';
import { TreeSelect, type TreeSelectProps } from 'antd';
import { connect, mapReadPretty, useForm } from '@formily/react';
import { PreviewText } from '@formily/antd-v5';
import { useTranslation } from 'react-i18next';
import { useGet } from './env.js';

export interface TreeNode {
  id?: string;
  key?: string;
  value: string;
  title: string;
  children?: TreeNode[];
  disabled?: boolean;
}

/** See the module comment. */
export interface SelectableSpec {
  url: string;
  field: string;
  has: string | number;
  missing?: boolean;
}

export interface ResourceTreeSelectProps extends Omit<TreeSelectProps, 'treeData' | 'onChange' | 'value'> {
  url?: string;
  selectable?: SelectableSpec;
  rootValue?: string;
  value?: string | number | null;
  onChange?: (value: string | undefined) => void;
}

function useTree(url?: string) {
  return useGet<TreeNode[]>(url ?? null, undefined, { revalidateIfStale: false });
}

function findTitle(nodes: TreeNode[] | undefined, value: string): string | undefined {
  for (const n of Array.isArray(nodes) ? nodes : []) {
    if (String(n.value) === value) return n.title;
    const below = findTitle(n.children, value);
    if (below) return below;
  }
  return undefined;
}

/** The tree with `self` and its subtree disabled. */
function withoutSelf(nodes: TreeNode[], self: string | undefined, inside = false): TreeNode[] {
  return nodes.map((n) => {
    const off = inside || (self !== undefined && String(n.value) === self);
    return { ...n, disabled: off || n.disabled, children: n.children?.length ? withoutSelf(n.children, self, off) : undefined };
  });
}

/** The ids of the records of `spec.url` that may not be chosen (see the module comment), or null while loading. */
function useClosed(spec?: SelectableSpec): Set<string> | null {
  const { data } = useGet<Array<Record<string, unknown>>>(spec?.url ?? null, undefined, { revalidateIfStale: false });
  if (!spec) return new Set();
  if (!Array.isArray(data)) return null;
  const closed = new Set<string>();
  for (const r of data) {
    const v = r?.[spec.field];
    const open = v === undefined || v === null ? spec.missing !== false : Array.isArray(v) ? v.map(String).includes(String(spec.has)) : String(v) === String(spec.has);
    if (!open) closed.add(String(r.id));
  }
  return closed;
}

/** The tree with the nodes of `closed` disabled (none while `closed` is not known yet: the server checks anyway). */
function withClosed(nodes: TreeNode[], closed: Set<string> | null): TreeNode[] {
  if (!closed?.size) return nodes;
  return nodes.map((n) => ({ ...n, disabled: n.disabled || closed.has(String(n.value)), children: n.children?.length ? withClosed(n.children, closed) : n.children }));
}

function TreeInput({ url, rootValue, value, onChange, selectable, ...props }: ResourceTreeSelectProps) {
  const { t } = useTranslation();
  const form = useForm() as { values?: Record<string, unknown> } | undefined;
  const { data, isLoading } = useTree(url);
  const closed = useClosed(selectable);
  const self = form?.values?.id !== undefined && form?.values?.id !== null ? String(form.values.id) : undefined;
  const shown = value === undefined || value === null || String(value) === rootValue ? undefined : String(value);
  return (
    <TreeSelect
      allowClear
      showSearch
      treeNodeFilterProp="title"
      placeholder={t('cmp.select')}
      loading={isLoading}
      {...props}
      value={shown}
      treeData={withClosed(withoutSelf(Array.isArray(data) ? data : [], self), closed)}
      fieldNames={{ label: 'title', value: 'value', children: 'children' }}
      onChange={(v: unknown) => onChange?.(v === undefined || v === null || v === '' ? rootValue : String(v))}
    />
  );
}

function TreeText({ url, rootValue, value }: ResourceTreeSelectProps) {
  const { data } = useTree(url);
  const placeholder = PreviewText.usePlaceholder();
  if (value === undefined || value === null || value === '' || String(value) === rootValue) return <span>{placeholder}</span>;
  return <span>{findTitle(data, String(value)) ?? String(value)}</span>;
}

export const ResourceTreeSelect = connect(TreeInput, mapReadPretty(TreeText));
