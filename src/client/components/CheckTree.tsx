/**
 * CheckTree: a checkable tree whose value is the list of checked node ids — the trees of the role grant dialog
 * (menus and buttons, data scopes, API scopes, top menus; spec 002 §7 `menu/grant-tree`, `grant-top-tree`).
 *
 * Props: `url` (GET answering an object of trees, or a tree), `path` (the answer's property holding this tree,
 * e.g. 'menu' or 'dataScope'), `kinds` (only nodes whose `kind` is listed are values — the scope trees group
 * their scopes under menu nodes that are not grantable themselves; default every node), `height` (px, default
 * 360), `cascade` (false: nodes are checked one by one, e.g. a user's roles). Nodes are `{id, title, titleEn, kind, children}`; titles follow the session language.
 *
 * Checking follows what a grant means: checking a node checks everything below it and every node above it (a
 * button is reachable only through its menu, a menu only through its parent); unchecking a node unchecks what
 * is below it and leaves its parents. The stored value is exactly what is shown checked, so a role granted a
 * menu without its buttons keeps exactly that when saved again. "Expand all" and "check all" help with large
 * trees. readPretty lists the checked titles.
 */
import React, { useMemo, useState } from 'react';
import { Button, Empty, Space, Spin, Tree, type TreeDataNode } from 'antd';
import { connect, mapReadPretty } from '@formily/react';
import { useTranslation } from 'react-i18next';
import { useGet, useLang } from './env.js';

interface GrantNode {
  id: string;
  title: string;
  titleEn?: string | null;
  kind?: string;
  children?: GrantNode[];
}

export interface CheckTreeProps {
  url?: string;
  path?: string;
  kinds?: string[];
  height?: number;
  /** false: every node is checked on its own (roles of a user), no cascading. Default true. */
  cascade?: boolean;
  value?: string[];
  onChange?: (value: string[]) => void;
  disabled?: boolean;
}

function useNodes(url?: string, path?: string): { nodes: GrantNode[]; loading: boolean } {
  const { data, isLoading } = useGet<unknown>(url ?? null, undefined, { revalidateIfStale: false });
  const nodes = path && data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>)[path] : data;
  return { nodes: Array.isArray(nodes) ? (nodes as GrantNode[]) : [], loading: isLoading };
}

/** Parent of each id, and the ids below each id (itself excluded). */
function index(nodes: GrantNode[]) {
  const parent = new Map<string, string>();
  const below = new Map<string, string[]>();
  const walk = (list: GrantNode[], up?: string): string[] => {
    const all: string[] = [];
    for (const n of list) {
      if (up) parent.set(n.id, up);
      const kids = walk(n.children ?? [], n.id);
      below.set(n.id, kids);
      all.push(n.id, ...kids);
    }
    return all;
  };
  walk(nodes);
  return { parent, below };
}

/** The checked set after (un)checking `id` (see the module comment). */
export function toggle(checked: Set<string>, id: string, on: boolean, idx: ReturnType<typeof index>): Set<string> {
  const next = new Set(checked);
  const family = [id, ...(idx.below.get(id) ?? [])];
  for (const k of family) if (on) next.add(k);
  else next.delete(k);
  if (on) for (let p = idx.parent.get(id); p; p = idx.parent.get(p)) next.add(p);
  return next;
}

function CheckTreeInput({ url, path, kinds, height = 360, cascade = true, value, onChange, disabled }: CheckTreeProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { nodes, loading } = useNodes(url, path);
  const idx = useMemo(() => index(nodes), [nodes]);
  const kindOf = useMemo(() => {
    const m = new Map<string, string | undefined>();
    const walk = (list: GrantNode[]) => list.forEach((n) => (m.set(n.id, n.kind), walk(n.children ?? [])));
    walk(nodes);
    return m;
  }, [nodes]);
  const [expanded, setExpanded] = useState<React.Key[] | null>(null);
  // what shows checked: the value, plus (for kind-limited trees) the grouping nodes whose values are all checked
  const shown = useMemo(() => {
    const s = new Set((value ?? []).map(String));
    if (kinds) {
      for (const [id, kids] of idx.below) {
        if (kinds.includes(kindOf.get(id) ?? '')) continue;
        const values = kids.filter((k) => kinds.includes(kindOf.get(k) ?? ''));
        if (values.length && values.every((k) => s.has(k))) s.add(id);
      }
    }
    return s;
  }, [value, kinds, idx, kindOf]);
  const data: TreeDataNode[] = useMemo(() => {
    const map = (list: GrantNode[]): TreeDataNode[] => list.map((n) => ({ key: n.id, title: lang === 'en' && n.titleEn ? n.titleEn : n.title, children: n.children?.length ? map(n.children) : undefined }));
    return map(nodes);
  }, [nodes, lang]);
  const emit = (set: Set<string>) => onChange?.([...set].filter((k) => !kinds || kinds.includes(kindOf.get(k) ?? '')));
  if (loading) return <Spin size="small" />;
  if (!nodes.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return (
    <div className="kc-check-tree">
      <Space size={4} style={{ marginBottom: 6 }}>
        <Button size="small" onClick={() => setExpanded([...idx.below.keys()])}>{t('cmp.checkTree.expandAll')}</Button>
        <Button size="small" onClick={() => setExpanded([])}>{t('cmp.checkTree.collapseAll')}</Button>
        <Button size="small" disabled={disabled} onClick={() => emit(new Set(idx.below.keys()))}>{t('cmp.checkTree.checkAll')}</Button>
        <Button size="small" disabled={disabled} onClick={() => emit(new Set())}>{t('cmp.checkTree.clear')}</Button>
      </Space>
      <Tree
        checkable
        checkStrictly
        selectable={false}
        disabled={disabled}
        height={height}
        treeData={data}
        // uncontrolled (all expanded) until the user expands, collapses or uses the buttons
        {...(expanded === null ? { defaultExpandAll: true } : { expandedKeys: expanded })}
        onExpand={(keys) => setExpanded(keys)}
        checkedKeys={{ checked: [...shown], halfChecked: [] }}
        onCheck={(_keys, info) => {
          const id = String(info.node.key);
          if (cascade) emit(toggle(shown, id, info.checked, idx));
          else emit(new Set(info.checked ? [...shown, id] : [...shown].filter((k) => k !== id)));
        }}
      />
    </div>
  );
}

function CheckTreeText({ url, path, kinds, value }: CheckTreeProps) {
  const lang = useLang();
  const { nodes } = useNodes(url, path);
  const set = new Set((value ?? []).map(String));
  const titles: string[] = [];
  const walk = (list: GrantNode[]) =>
    list.forEach((n) => {
      if (set.has(n.id) && (!kinds || kinds.includes(n.kind ?? ''))) titles.push(lang === 'en' && n.titleEn ? n.titleEn : n.title);
      walk(n.children ?? []);
    });
  walk(nodes);
  return <span>{titles.join('、') || '-'}</span>;
}

export const CheckTree = connect(CheckTreeInput, mapReadPretty(CheckTreeText));
export default CheckTree;
