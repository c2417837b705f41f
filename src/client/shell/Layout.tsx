/**
 * The main layout (spec 000 §2.5): top bar with the application tabs (the top-level menus of the current
 * role; when more than 8 exist the first 7 show and the rest go under 更多应用; `isEnabled` false shows
 * 功能开发中; a to-do badge above 0 — tabs and sidebar items count their paths' open to-dos, polled every 3 s,
 * and pushed messages show bottom right: todo.tsx), menu search, language switch, lock button, the client error
 * log's badge (ErrorLogButton.tsx: shown when errors are kept, which it also uploads) and the user dropdown
 * (dashboard, user info, back to role selection when there is more than one role, log out after a confirm);
 * the sidebar with the current tab's menu (items filtered by `meta.roles`, disabled items greyed) — or, in the
 * top-menu variant the user chose (layout-variant.ts), no sidebar and a menu bar under the header (TopMenuBar.tsx:
 * 首页, the top menus with their tabs, then the tab's menu, the version number at its end); the tag
 * bar; the routed page. The home page is full screen, without the sidebar. Over it, once per role: the
 * onboarding dialog and the password reminder (AccountGate, PasswordReminder.tsx).
 */
import { useMemo, useRef } from 'react';
import { Avatar, Badge, Button, Dropdown, Layout as AntLayout, Menu, Modal, Space, Tag, type MenuProps } from 'antd';
import { AppstoreOutlined, DownOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { get } from '../runtime/api.js';
import { clearSession, currentRole, roleLabel, useSession } from '../runtime/session.js';
import { findByPath, menuLabel, useMenus, useOpenMenu, visibleFor, type MenuItem } from './menu.js';
import { LangSwitch } from './LangSwitch.js';
import { LockButton } from './LockPage.js';
import { ErrorLogButton } from './ErrorLogButton.js';
import { MenuSearch } from './MenuSearch.js';
import { UserMenu } from './UserMenu.js';
import { fitCount, tabWidth, useElementWidth } from './fit-tabs.js';
import { ScreenTools } from './ScreenTools.js';
import { VersionInfo } from './VersionInfo.js';
import { TagBar } from './TagBar.js';
import { AccountGate } from './PasswordReminder.js';
import { PushNotifier, todoNumber, useTodoCounts, type TodoCounts } from './todo.js';
import { useRouteFlags } from './route-flags.js';
import { useLayoutVariant } from './layout-variant.js';
import { TopMenuBar } from './TopMenuBar.js';

export const MAX_TABS = 8;
export const SHOWN_WHEN_MORE = 7;

function sideItems(items: MenuItem[], lang: 'zh' | 'en', roleAlias: string | undefined, counts: TodoCounts): MenuProps['items'] {
  return items
    .filter((m) => m.category === 1 && visibleFor(m, roleAlias))
    .map((m) => {
      const kids = (m.children ?? []).filter((c) => c.category === 1 && visibleFor(c, roleAlias));
      const pending = todoNumber(m, counts);
      const label = (
        <span className={m.isEnabled ? undefined : 'kc-menu-disabled'}>
          {menuLabel(m, lang)}
          {pending > 0 && <Badge className="kc-menu-todo" count={pending} size="small" style={{ marginInlineStart: 6 }} />}
        </span>
      );
      return kids.length ? { key: m.id, label, children: sideItems(kids, lang, roleAlias, counts) } : { key: m.id, label };
    });
}

function flatten(items: MenuItem[]): MenuItem[] {
  return items.flatMap((m) => [m, ...flatten(m.children ?? [])]);
}

export function MainLayout({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t, i18n } = useTranslation();
  const s = useSession();
  const role = currentRole(s);
  const navigate = useNavigate();
  const location = useLocation();
  const { menus } = useMenus();
  const openMenu = useOpenMenu();
  const counts = useTodoCounts();
  // route meta: ?target= opens a new window, cached pages keep their scroll position (route-flags.ts)
  useRouteFlags(menus);
  const variant = useLayoutVariant(s.tenantId, s.user?.userId);
  const lang = (i18n.language === 'en' ? 'en' : 'zh') as 'zh' | 'en';

  const tabs = menus.filter((m) => m.category === 1 && visibleFor(m, role?.roleAlias));
  const chain = findByPath(menus, location.pathname);
  // only a menu page has an application tab and a sidebar: a page outside the menu (personal info …) marks no
  // tab and shows no other tab's menu (issue 18 defect 3)
  const activeTab = chain?.[0];
  const byId = useMemo(() => new Map(flatten(menus).map((m) => [m.id, m])), [menus]);
  const ruled = tabs.length > MAX_TABS ? tabs.slice(0, SHOWN_WHEN_MORE) : tabs;
  // and only as many as the bar has room for: the others join 更多应用 (fit-tabs.ts)
  const nav = useRef<HTMLElement>(null);
  const room = useElementWidth(nav);
  const fits = fitCount(ruled.map((m) => tabWidth(menuLabel(m, lang))), room);
  const shown = ruled.slice(0, fits);
  const more = [...ruled.slice(fits), ...(tabs.length > MAX_TABS ? tabs.slice(SHOWN_WHEN_MORE) : [])];

  const logout = () =>
    Modal.confirm({
      title: t('user.logoutConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await get('/api/blade-auth/oauth/logout', undefined, { silent: true }).catch(() => undefined);
        clearSession();
        navigate('/login', { replace: true });
      },
    });

  const userMenu: MenuProps['items'] = [
    { key: 'dashboard', label: t('user.dashboard'), onClick: () => navigate('/wel/dashboard') },
    { key: 'info', label: t('user.info'), onClick: () => navigate('/userCenter/userinfo') },
    ...(s.roles.length > 1 ? [{ key: 'role', label: t('user.switchRole'), onClick: () => navigate('/home') }] : []),
    { type: 'divider' as const },
    { key: 'logout', label: t('user.logout'), onClick: logout },
  ];

  const tabButton = (m: MenuItem) => (
    <Button
      key={m.id}
      type="text"
      className={`kc-app-tab${activeTab?.id === m.id ? ' kc-app-tab-active' : ''}${m.isEnabled ? '' : ' kc-menu-disabled'}`}
      onClick={() => openMenu(m)}
    >
      <Badge count={todoNumber(m, counts)} size="small" offset={[8, -4]}>
        <span>{menuLabel(m, lang)}</span>
      </Badge>
    </Button>
  );

  return (
    <AntLayout className="kc-layout">
      <AntLayout.Header className="kc-header">
        <div className="kc-logo" onClick={() => navigate('/wel/index')}>
          {t('app.name')}
        </div>
        <nav className="kc-app-tabs" aria-label="applications" ref={nav}>
          {shown.map(tabButton)}
          {more.length > 0 && (
            <Dropdown menu={{ items: more.map((m) => ({ key: m.id, label: menuLabel(m, lang), onClick: () => openMenu(m) })) }}>
              <Button type="text" className="kc-app-tab" icon={<AppstoreOutlined />}>
                {t('menu.more')} <DownOutlined />
              </Button>
            </Dropdown>
          )}
        </nav>
        <Space className="kc-header-tools" size={4}>
          <MenuSearch menus={menus} />
          <LangSwitch />
          <ScreenTools />
          <LockButton />
          <ErrorLogButton />
          {role && <Tag color="green">{roleLabel(role, lang)}</Tag>}
          <UserMenu items={userMenu}>
            <Avatar size="small" icon={<UserOutlined />} src={s.user?.avatar || undefined} /> {s.user?.realName}
          </UserMenu>
        </Space>
      </AntLayout.Header>
      <AntLayout>
        {!fullScreen && activeTab && variant === 'side' && (
          <AntLayout.Sider width={220} theme="light" className="kc-sider">
            <Menu
              mode="inline"
              selectedKeys={chain ? [chain[chain.length - 1].id] : []}
              defaultOpenKeys={chain?.map((c) => c.id)}
              items={sideItems(activeTab.children ?? [], lang, role?.roleAlias, counts)}
              onClick={({ key }) => {
                const m = byId.get(key);
                if (m) openMenu(m);
              }}
            />
            {/* the version number and its drawer (spec 000 §2.5, §2.8) */}
            <VersionInfo />
          </AntLayout.Sider>
        )}
        <AntLayout.Content className="kc-content">
          {!fullScreen && variant === 'top' && (
            <TopMenuBar activeTab={activeTab} chain={chain} byId={byId} tabItems={sideItems(activeTab?.children ?? [], lang, role?.roleAlias, counts)} />
          )}
          <TagBar menus={menus} />
          <div className="kc-page">
            <Outlet />
          </div>
          {/* first-login onboarding, then the password reminder (spec 000 §2.9, §2.10) */}
          <AccountGate />
          <PushNotifier />
        </AntLayout.Content>
      </AntLayout>
    </AntLayout>
  );
}
