/**
 * The menu bar of the top-menu variant (spec 000 §2.5 'A top-menu variant offers a home item plus top menu
 * items'; issue 18; chosen in layout-variant.ts): under the header, in place of the sidebar —
 * - 首页 (the home page);
 * - the tenant's top menus the role may open (`GET /api/blade-system/menu/top-menu`; 科研管理, 系统管理 …), each
 *   dropping down the application tabs it holds for this role (`GET /api/blade-system/menu/routes?topMenuId=`);
 *   a tab opens its first screen, as in the header;
 * - the current tab's menu, sub-menus dropping down, the selection following the route;
 * and the version number at its end (VersionInfo).
 */
import { Menu, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import useSWR from 'swr';
import { get } from '../runtime/api.js';
import { useSession } from '../runtime/session.js';
import { menuLabel, useOpenMenu, visibleFor, type MenuItem } from './menu.js';
import { VersionInfo } from './VersionInfo.js';

export const TOP_MENU_URL = '/api/blade-system/menu/top-menu';

interface TopMenu {
  id: string;
  name: string;
  nameEn?: string | null;
}

/** The role's top menus with the application tabs each holds (empty while loading or when there are none). */
function useTopMenus(roleId: string | undefined): Array<TopMenu & { tabs: MenuItem[] }> {
  const { data } = useSWR(roleId ? ['menu/top-menus', roleId] : null, async () => {
    const tops = await get<TopMenu[]>(TOP_MENU_URL, { roleId }, { silent: true });
    return Promise.all(tops.map(async (tm) => ({ ...tm, tabs: await get<MenuItem[]>('/api/blade-system/menu/routes', { roleId, topMenuId: tm.id }, { silent: true }).catch(() => []) })));
  });
  return data ?? [];
}

export interface TopMenuBarProps {
  /** The current application tab (its menu is shown), if any. */
  activeTab: MenuItem | undefined;
  /** The chain of menus down to the current page, if it is a menu page. */
  chain: MenuItem[] | null;
  /** The tab's menu as menu items (the sidebar's, Layout.tsx `sideItems`). */
  tabItems: MenuProps['items'];
  /** Every menu of the role by id. */
  byId: Map<string, MenuItem>;
}

export function TopMenuBar({ activeTab, chain, tabItems, byId }: TopMenuBarProps) {
  const { t, i18n } = useTranslation();
  const s = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const openMenu = useOpenMenu();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const roleAlias = s.roles.find((r) => r.id === s.currentRoleId)?.roleAlias;
  const tops = useTopMenus(s.currentRoleId ?? undefined);
  const topItems: MenuProps['items'] = tops
    .map((tm) => ({ tm, tabs: tm.tabs.filter((m) => m.category === 1 && visibleFor(m, roleAlias)) }))
    .filter(({ tabs }) => tabs.length > 0)
    .map(({ tm, tabs }) => ({
      key: `top-${tm.id}`,
      label: lang === 'en' && tm.nameEn ? tm.nameEn : tm.name,
      className: tabs.some((m) => m.id === activeTab?.id) ? 'kc-topmenu-current' : undefined,
      children: tabs.map((m) => ({ key: `tab-${m.id}`, label: menuLabel(m, lang) })),
    }));
  const selected = chain ? [chain[chain.length - 1].id] : location.pathname === '/wel/index' ? ['home'] : [];
  return (
    <div className="kc-topmenu" data-testid="kc-topmenu">
      <Menu
        mode="horizontal"
        selectedKeys={selected}
        items={[{ key: 'home', label: t('route.home') }, ...(topItems ?? []), ...(tabItems ?? [])]}
        onClick={({ key }) => {
          if (key === 'home') return navigate('/wel/index');
          const m = byId.get(key.startsWith('tab-') ? key.slice(4) : key);
          if (m) openMenu(m);
        }}
      />
      <VersionInfo />
    </div>
  );
}
