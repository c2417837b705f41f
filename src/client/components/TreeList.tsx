/**
 * TreeList: a page schema's way to a tree resource's tree-and-list screen (spec 000 §2.3 `/dict-horizontal/index`
 * and `/dict-vertical/index`: schemas/_pages/dict-horizontal.json, dict-vertical.json). Props (`TreeListSpec`,
 * components/env.tsx): `resource` (a schema name with `tree` and `lazy-tree`, e.g. `system/dict`), `layout`
 * `horizontal` (tree beside the list) or `vertical` (tree above it), `inherit` (fields of the chosen node a new
 * child starts with) and `labelEnField`. The screen itself is the runtime's (the environment's `treeList`:
 * runtime/TreeListView.tsx); where no runtime renders lists, nothing is shown.
 */
import React from 'react';
import { useEnv, type TreeListSpec } from './env.js';

export function TreeList(props: Partial<TreeListSpec>) {
  const env = useEnv();
  if (!props.resource || !env.treeList) return null;
  return <>{env.treeList({ resource: props.resource, layout: props.layout === 'vertical' ? 'vertical' : 'horizontal', inherit: props.inherit, labelEnField: props.labelEnField })}</>;
}
