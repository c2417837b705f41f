/**
 * SideTree: the tree beside a list (`schema.list.sideTree`, shared/schema/types.ts `SideTreeSpec`), e.g. the
 * departments left of the user list. Nodes come level by level from `GET url?<parentParam>=<value>` (the
 * generic `lazy-tree` answer: `{id, value, title, hasChildren}`); the roots are the children of `rootValue`
 * (default '0'); a single root opens at once. Choosing a node calls `onSelect(value, record)` (the node's record as
 * lazy-tree answered it); choosing it again clears the choice (`undefined`). `labelEnField` names the English label.
 * A search box filters the loaded nodes by title.
 */
import React, { useEffect, useMemo, useState } from 'react';
import { Card, Input, Tree, type TreeDataNode } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SideTreeSpec } from '../../shared/schema/types.js';
import { get } from './api.js';
import { useLang } from './hooks.js';

interface LazyNode {
  id: string;
  value: string;
  title: string;
  hasChildren?: boolean;
}

type Node = TreeDataNode & { title: string; children?: Node[]; record?: Record<string, unknown> };

type LazyRecord = LazyNode & Record<string, unknown>;

const toNode = (n: LazyRecord, labelEn: string | undefined): Node => ({
  key: String(n.value ?? n.id),
  title: String((labelEn && n[labelEn]) || n.title),
  isLeaf: !n.hasChildren,
  record: n,
});

function attach(nodes: Node[], key: React.Key, children: Node[]): Node[] {
  return nodes.map((n) => (n.key === key ? { ...n, children } : n.children ? { ...n, children: attach(n.children, key, children) } : n));
}

function filtered(nodes: Node[], text: string): Node[] {
  if (!text) return nodes;
  const out: Node[] = [];
  for (const n of nodes) {
    const below = n.children ? filtered(n.children, text) : [];
    if (n.title.includes(text) || below.length) out.push({ ...n, children: below.length ? below : n.children });
  }
  return out;
}

export interface SideTreeProps {
  spec: SideTreeSpec;
  value?: string;
  /** The chosen node's value and its record as lazy-tree answered it (undefined when the choice is cleared). */
  onSelect: (value: string | undefined, record?: Record<string, unknown>) => void;
  /** In English, the node field to show instead of `title` when it holds a value (e.g. `dictValueEn`). */
  labelEnField?: string;
}

/** The node `key` among `nodes` (depth first). */
function findNode(nodes: Node[], key: string): Node | undefined {
  for (const n of nodes) {
    if (n.key === key) return n;
    const below = n.children ? findNode(n.children, key) : undefined;
    if (below) return below;
  }
  return undefined;
}

export function SideTree({ spec, value, onSelect, labelEnField }: SideTreeProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [nodes, setNodes] = useState<Node[]>([]);
  const [text, setText] = useState('');
  const [expanded, setExpanded] = useState<React.Key[]>([]);
  const parentParam = spec.parentParam ?? 'parentId';
  const labelEn = lang === 'en' ? labelEnField : undefined;
  const load = (parent: string) => get<LazyRecord[]>(spec.url, { [parentParam]: parent }).then((rows) => (Array.isArray(rows) ? rows.map((n) => toNode(n, labelEn)) : []));

  useEffect(() => {
    let gone = false;
    load(spec.rootValue ?? '0')
      .then(async (roots) => {
        // one root (the group company): open it, so its companies show at once
        if (roots.length === 1 && !roots[0].isLeaf) {
          roots[0] = { ...roots[0], children: await load(String(roots[0].key)) };
          if (!gone) setExpanded([roots[0].key]);
        }
        if (!gone) setNodes(roots);
      })
      .catch(() => undefined);
    return () => {
      gone = true;
    };
  }, [spec.url, spec.rootValue, parentParam]);

  const shown = useMemo(() => filtered(nodes, text.trim()), [nodes, text]);
  return (
    <Card size="small" className="kc-side-tree" title={lang === 'en' ? spec.titleEn : spec.title}>
      <Input.Search allowClear size="small" placeholder={t('rt.sideTree.search')} onChange={(e) => setText(e.target.value)} style={{ marginBottom: 8 }} />
      <Tree<Node>
        blockNode
        treeData={shown}
        selectedKeys={value ? [value] : []}
        expandedKeys={expanded}
        onExpand={(keys) => setExpanded(keys)}
        loadData={async (node) => {
          if (node.children) return;
          const children = await load(String(node.key));
          setNodes((all) => attach(all, node.key, children));
        }}
        onSelect={(keys) => (keys.length ? onSelect(String(keys[0]), findNode(nodes, String(keys[0]))?.record) : onSelect(undefined))}
      />
    </Card>
  );
}
