/**
 * ResourceTreeSelect: a TreeSelect over a tree resource's `GET <url>` (the generic `tree` endpoint: nodes
 * `{id, key, value, title, children}`), e.g. the parent of a dictionary (`/api/blade-system/dict/tree`).
 *
 * Props: `url` (required), `rootValue` (the value meaning "no parent", e.g. '0': shown empty, and what
 * clearing the field stores), and any antd TreeSelect prop. While editing a record, the record itself and
 * its descendants cannot be chosen (a node cannot become its own parent); the record is the form's `id`.
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

export interface ResourceTreeSelectProps extends Omit<TreeSelectProps, 'treeData' | 'onChange' | 'value'> {
  url?: string;
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

function TreeInput({ url, rootValue, value, onChange, ...props }: ResourceTreeSelectProps) {
  const { t } = useTranslation();
  const form = useForm() as { values?: Record<string, unknown> } | undefined;
  const { data, isLoading } = useTree(url);
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
      treeData={withoutSelf(Array.isArray(data) ? data : [], self)}
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
