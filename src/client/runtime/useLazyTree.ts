/**
 * Rows of a tree resource for a Table with lazily expanded children (spec 002 §2: regions, a lazy tree by
 * parentCode). Each level comes from `GET ${api}/lazy-tree?<lazyParam>=<parent key>` (the root level with the
 * schema's `tree.rootValue`); a node with `hasChildren` gets an empty `children` array until it is expanded,
 * so the Table shows its expander. `reload()` fetches every level loaded so far again (after an add, edit or
 * remove).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ResourceSchema } from '../../shared/schema/types.js';
import { get } from './api.js';

export type Row = Record<string, unknown>;
type TreeRow = Row & { children?: TreeRow[] };

export function useLazyTree(resource: ResourceSchema, enabled: boolean) {
  const spec = resource.tree;
  const root = spec?.rootValue ?? '0';
  const param = spec?.lazyParam ?? spec?.parentField ?? 'parentId';
  const keyField = resource.key ?? 'id';
  const [levels, setLevels] = useState<Record<string, Row[]>>({});
  const [expanded, setExpanded] = useState<string[]>([]);
  const [loading, setLoading] = useState(false);
  const loaded = useRef(new Set<string>());

  const load = useCallback(
    async (parent: string) => {
      const rows = await get<Row[]>(`${resource.api}/lazy-tree`, { [param]: parent });
      loaded.current.add(parent);
      setLevels((l) => ({ ...l, [parent]: rows }));
    },
    [resource.api, param],
  );

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      await Promise.all([root, ...[...loaded.current].filter((k) => k !== root)].map((k) => load(k).catch(() => undefined)));
    } finally {
      setLoading(false);
    }
  }, [load, root]);

  useEffect(() => {
    if (!enabled) return;
    setLoading(true);
    load(root)
      .catch(() => undefined)
      .finally(() => setLoading(false));
  }, [enabled, load, root]);

  const rows = useMemo(() => {
    const build = (parent: string, seen: Set<string>): TreeRow[] =>
      (levels[parent] ?? []).map((r) => {
        const k = String(r[keyField]);
        if (!r.hasChildren || seen.has(k)) return { ...r, children: undefined };
        return { ...r, children: levels[k] ? build(k, new Set(seen).add(k)) : [] };
      });
    return build(root, new Set([root]));
  }, [levels, root, keyField]);

  const onExpand = useCallback(
    (open: boolean, record: Row) => {
      const k = String(record[keyField]);
      setExpanded((e) => (open ? [...e, k] : e.filter((x) => x !== k)));
      if (open && !loaded.current.has(k)) void load(k).catch(() => undefined);
    },
    [keyField, load],
  );

  return { rows, expanded, onExpand, reload, loading, parentField: spec?.parentField, root };
}
