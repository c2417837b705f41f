/**
 * TreeListView: a tree resource's screen as its tree beside or above the list of the chosen node's children —
 * the two dictionary layouts of spec 000 §2.3 (`/dict-horizontal/index`: the dictionaries left of their
 * entries; `/dict-vertical/index`: above them), reached by a page schema through the registered component
 * `TreeList` (components/TreeList.tsx → the environment's `treeList`, runtime/env.tsx).
 *
 * - the tree: SideTree over the resource's `lazy-tree` (roots = the children of the schema's `tree.rootValue`,
 *   e.g. the dictionaries; opening a node loads its children), searchable, labels in English from
 *   `labelEnField` when the node has one;
 * - the list: ListPage of the resource filtered by `<tree.parentField>_equal=<chosen node>` (the generic list,
 *   paged; its search, toolbar, row actions and Excel tools as the schema says), a new record starting with
 *   the chosen node as its parent plus the node's `inherit` fields (a dictionary entry takes its
 *   dictionary's `code`). Nothing chosen: a prompt to choose.
 * - buttons follow the current role's grants (`<menu>_add|_edit|_delete|_view`, useGrants); the server checks
 *   every call again (system dictionaries: written only by administrators of the platform tenant).
 */
import React, { useState } from 'react';
import { Empty, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TreeListSpec } from '../components/env.js';
import { ListPage } from './ListPage.js';
import { SideTree } from './SideTree.js';
import { useResourceSchema } from './schema.js';
import { useGrants } from './grants.js';
import { useLang } from './hooks.js';

export function TreeListView({ resource, layout, inherit = [], labelEnField }: TreeListSpec) {
  const { t } = useTranslation();
  const lang = useLang();
  const grants = useGrants();
  const { data: schema } = useResourceSchema(resource);
  const [chosen, setChosen] = useState<{ value: string; record?: Record<string, unknown> } | undefined>();
  if (!schema) return <Spin />;
  const tree = schema.tree;
  if (!tree || !schema.endpoints.includes('lazy-tree')) return <Empty description={t('rt.treeList.noTree')} />;
  const parentField = tree.parentField;
  const label = (chosen?.record && ((lang === 'en' && labelEnField && chosen.record[labelEnField]) || chosen.record[tree.labelField])) as string | undefined;
  const defaults = chosen ? Object.fromEntries([[parentField, chosen.value], ...inherit.map((f) => [f, chosen.record?.[f]])]) : undefined;
  const treePart = (
    <SideTree
      spec={{ url: `${schema.api}/lazy-tree`, param: parentField, parentParam: tree.lazyParam ?? parentField, rootValue: tree.rootValue, title: schema.title, titleEn: schema.titleEn ?? schema.title }}
      value={chosen?.value}
      labelEnField={labelEnField}
      onSelect={(value, record) => setChosen(value ? { value, record } : undefined)}
    />
  );
  const listPart = chosen ? (
    <div className="kc-tree-list-items">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('rt.treeList.itemsOf', { name: label ?? chosen.value })}
      </Typography.Title>
      <ListPage key={chosen.value} resource={schema} fixed={{ [`${parentField}_equal`]: chosen.value }} defaults={defaults} can={(code) => grants[code] === true} />
    </div>
  ) : (
    <Empty className="kc-tree-list-empty" description={t(layout === 'horizontal' ? 'rt.treeList.chooseLeft' : 'rt.treeList.chooseAbove')} />
  );
  if (layout === 'vertical')
    return (
      <div className="kc-tree-list kc-tree-list-vertical" data-layout="vertical">
        <div className="kc-tree-list-tree" style={{ maxHeight: 280, overflow: 'auto', marginBottom: 16 }}>
          {treePart}
        </div>
        {listPart}
      </div>
    );
  return (
    <div className="kc-tree-list kc-tree-list-horizontal" data-layout="horizontal" style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
      {/* the tree keeps its place while the entries scroll: at most the window's height, scrolling inside */}
      <div className="kc-tree-list-tree" style={{ flex: '0 0 280px', minWidth: 0, position: 'sticky', top: 0, maxHeight: 'calc(100vh - 120px)', overflow: 'auto' }}>
        {treePart}
      </div>
      <div style={{ flex: 1, minWidth: 0 }}>{listPart}</div>
    </div>
  );
}
