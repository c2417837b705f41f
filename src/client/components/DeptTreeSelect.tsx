/**
 * DeptTreeSelect: a TreeSelect over the tenant's departments (`GET /api/blade-system/dept/tree`, nodes
 * `{id, title, value, children}`); value = the department id (a string). readPretty shows the department's
 * name. The tree is fetched once per session (swr) and shared by every DeptTreeSelect.
 */
import React from 'react';
import { TreeSelect, type TreeSelectProps } from 'antd';
import { connect, mapReadPretty } from '@formily/react';
import { PreviewText } from '@formily/antd-v5';
import { useTranslation } from 'react-i18next';
import { useGet } from './env.js';

export const DEPT_TREE_URL = '/api/blade-system/dept/tree';

export interface DeptNode {
  id: string;
  title: string;
  value: string;
  children?: DeptNode[];
}

export function useDeptTree() {
  return useGet<DeptNode[]>(DEPT_TREE_URL, undefined, { revalidateIfStale: false, dedupingInterval: 60_000 });
}

/** The title of the node whose value is `value`, searching the whole tree. */
export function findDeptTitle(nodes: DeptNode[] | undefined, value: unknown): string | undefined {
  for (const n of Array.isArray(nodes) ? nodes : []) {
    if (String(n.value) === String(value)) return n.title;
    const below = findDeptTitle(n.children, value);
    if (below) return below;
  }
  return undefined;
}

function DeptTreeInput(props: TreeSelectProps) {
  const { t } = useTranslation();
  const { data, isLoading } = useDeptTree();
  return (
    <TreeSelect
      allowClear
      showSearch
      treeNodeFilterProp="title"
      treeDefaultExpandAll
      placeholder={t('cmp.dept.placeholder')}
      loading={isLoading}
      {...props}
      treeData={Array.isArray(data) ? data : []}
      fieldNames={{ label: 'title', value: 'value', children: 'children' }}
    />
  );
}

function DeptText({ value }: { value?: unknown }) {
  const { data } = useDeptTree();
  const placeholder = PreviewText.usePlaceholder();
  if (value === undefined || value === null || value === '') return <span>{placeholder}</span>;
  return <span>{findDeptTitle(data, value) ?? String(value)}</span>;
}

export const DeptTreeSelect = connect(DeptTreeInput, mapReadPretty(DeptText));

/** A department's name outside a form (list cells). */
export function DeptLabel({ value }: { value: unknown }) {
  const { data } = useDeptTree();
  return <>{value === null || value === undefined || value === '' ? '' : (findDeptTitle(data, value) ?? String(value))}</>;
}
