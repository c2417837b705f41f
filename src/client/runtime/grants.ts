/**
 * useGrants: the current role's button grants (spec 000 §6: a map of button codes, true for each leaf code of
 * `GET /api/blade-system/menu/buttons?roleId=`), for the runtime's screens that are not a menu page (the
 * TreeListView of the fixed dictionary routes). Hiding a button is convenience: the server checks each call.
 */
import { useGet } from './hooks.js';
import { useSession } from './session.js';

interface ButtonNode {
  code: string;
  category: number;
  children?: ButtonNode[];
}

/** Button code → true for the codes the current role holds (empty while loading or signed out). */
export function useGrants(): Record<string, boolean> {
  const s = useSession();
  const { data } = useGet<ButtonNode[]>(s.token && s.currentRoleId ? '/api/blade-system/menu/buttons' : null, { roleId: s.currentRoleId });
  const map: Record<string, boolean> = {};
  const walk = (items: ButtonNode[] | undefined) => {
    for (const m of Array.isArray(items) ? items : []) {
      if (m.category === 2) map[m.code] = true;
      walk(m.children);
    }
  };
  walk(data);
  return map;
}
