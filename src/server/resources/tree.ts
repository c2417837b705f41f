/**
 * Nesting flat records into a tree (for module endpoints that answer trees of records: dictionary trees, menu
 * trees): `nestRecords(records)` puts each record under the record whose `id` equals its `parentId`, adding
 * `children` (in the records' order) and `hasChildren`; a record whose parent is not among them is a root. Ids
 * are compared as strings (bigint ids arrive as strings, a root's parentId may be 0 or '0').
 */
type Row = Record<string, unknown>;

export type TreeRecord = Row & { children: TreeRecord[]; hasChildren: boolean };

export function nestRecords(records: Row[]): TreeRecord[] {
  const nodes = new Map<string, TreeRecord>(records.map((r) => [String(r.id), { ...r, children: [], hasChildren: false }]));
  const roots: TreeRecord[] = [];
  for (const n of nodes.values()) {
    const p = nodes.get(String(n.parentId));
    if (p) {
      p.children.push(n);
      p.hasChildren = true;
    } else roots.push(n);
  }
  return roots;
}
