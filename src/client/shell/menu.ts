/**
 * Menus and permissions of the current role (spec 000 §2.4, §3.2, §6): the route tree from
 * `GET /api/blade-system/menu/routes`, the permission map (button code → true) from the leaf codes of
 * `GET /api/blade-system/menu/buttons`, helpers to find a menu by path and to search leaves, and
 * `useOpenMenu()` (what a click on a menu item does; the layout, the menu search and the home page share it).
 */
import useSWR from 'swr';
import { message } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { get } from '../runtime/api.js';
import { useSession } from '../runtime/session.js';
import { pinyinInitials } from './pinyin.js';

export interface MenuItem {
  id: string;
  parentId: string;
  code: string;
  name: string;
  nameEn: string | null;
  path: string | null;
  source: string | null;
  category: number;
  isOpen: number;
  isEnabled: boolean;
  resource: string | null;
  /** route meta (spec 000 §2.1): `isTab` false = no tab; `keepAlive` = scroll position restored (route-flags.ts) */
  meta: { roles: string[]; isTab?: boolean; keepAlive?: boolean };
  children: MenuItem[];
}

/** The menu tree of the current role (empty while loading or signed out). */
export function useMenus(): { menus: MenuItem[]; loading: boolean } {
  const s = useSession();
  const { data, isLoading } = useSWR(s.token && s.currentRoleId ? ['menu/routes', s.currentRoleId] : null, () =>
    get<MenuItem[]>('/api/blade-system/menu/routes', { roleId: s.currentRoleId }),
  );
  return { menus: data ?? [], loading: isLoading };
}

/** The permission map: every granted button code → true. */
export function usePermissions(): Record<string, boolean> {
  const s = useSession();
  const { data } = useSWR(s.token && s.currentRoleId ? ['menu/buttons', s.currentRoleId] : null, () =>
    get<MenuItem[]>('/api/blade-system/menu/buttons', { roleId: s.currentRoleId }),
  );
  const map: Record<string, boolean> = {};
  const walk = (items: MenuItem[]) => {
    for (const m of items) {
      if (m.category === 2) map[m.code] = true;
      walk(m.children ?? []);
    }
  };
  walk(data ?? []);
  return map;
}

/** The label of a menu in `lang`. */
export const menuLabel = (m: Pick<MenuItem, 'name' | 'nameEn'>, lang: 'zh' | 'en') => (lang === 'en' && m.nameEn ? m.nameEn : m.name);

/** Whether the current role may see `m` (no role restriction, or the role is listed: spec 000 §2.5). */
export function visibleFor(m: MenuItem, roleAlias: string | undefined): boolean {
  const roles = m.meta?.roles ?? [];
  return roles.length === 0 || (roleAlias !== undefined && roles.includes(roleAlias));
}

/** Depth-first leaves (menus without menu children). */
export function leaves(items: MenuItem[]): MenuItem[] {
  return items.flatMap((m) => {
    const kids = (m.children ?? []).filter((c) => c.category === 1);
    return kids.length ? leaves(kids) : [m];
  });
}

/** The menu whose path is `path`, with the chain of its ancestors (top first). */
export function findByPath(items: MenuItem[], path: string, chain: MenuItem[] = []): MenuItem[] | null {
  for (const m of items) {
    if (m.path === path) return [...chain, m];
    const hit = findByPath(m.children ?? [], path, [...chain, m]);
    if (hit) return hit;
  }
  return null;
}

/**
 * Leaf menus matching `q`, case-insensitively: anywhere in the zh or en name, or in the pinyin initials of the
 * zh name ("设计" and "bdsj" find 表单设计). Spec 000 §2.5 says prefix; issue 18 (defect 4) widened it because
 * a prefix missed 表单设计 for "设计" and 业务字典 for "字典". Names that start with `q` come first, then the
 * other hits in menu order; the visible-to-this-role filter is the caller's.
 */
export function searchLeaves(items: MenuItem[], q: string): MenuItem[] {
  const needle = q.trim().toLowerCase();
  if (!needle) return [];
  const rank = (m: MenuItem): number => {
    const names = [m.name.toLowerCase(), (m.nameEn ?? '').toLowerCase(), pinyinInitials(m.name)];
    if (names.some((n) => n.startsWith(needle))) return 0;
    return names.some((n) => n.includes(needle)) ? 1 : -1;
  };
  const ranked = leaves(items).map((m) => ({ m, r: rank(m) })).filter((h) => h.r >= 0);
  return [...ranked.filter((h) => h.r === 0), ...ranked.filter((h) => h.r === 1)].map((h) => h.m);
}

/** True for paths shown in an iframe under /myiframe (spec 000 §2.4: starting with http or containing html). */
export const isExternal = (path: string) => /^https?:/i.test(path) || path.includes('html');

/** Opens a menu item as the spec says: disabled → 功能开发中; isOpen 2 → new window; external → /myiframe. */
export function useOpenMenu() {
  const navigate = useNavigate();
  const { t } = useTranslation();
  return (m: MenuItem) => {
    if (!m.isEnabled) {
      void message.info(t('menu.developing'));
      return;
    }
    const kids = (m.children ?? []).filter((c) => c.category === 1);
    const target = kids.length ? leaves(kids).find((l) => l.isEnabled) : m;
    if (!target?.path) {
      void message.info(t('menu.developing'));
      return;
    }
    if (target.isOpen === 2) {
      window.open(target.path, '_blank', 'noopener');
      return;
    }
    navigate(isExternal(target.path) ? `/myiframe/${encodeURIComponent(target.path)}` : target.path);
  };
}
