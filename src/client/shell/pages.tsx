/**
 * The shell's own pages: the home page (/wel/index: the welcome line, the app tiles of the menu, and the
 * dashboard described by schemas/_pages/dashboard.json — charts of the current user's and company's
 * achievements through the registered Chart component), error pages (/404, /403, /500), the embedded external
 * page (/myiframe/...), and `MenuPage`, which renders whatever
 * the current role's menu says a path is (spec 000 §2.4): a resource → ResourcePage from its schema; a menu
 * that is not enabled → 功能开发中; a path the menu does not know → /404.
 */
import { useState } from 'react';
import { Button, Card, Col, Empty, Result, Row, Segmented, Spin, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { ResourcePage } from '../runtime/ResourcePage.js';
import { useResourceSchema } from '../runtime/schema.js';
import { SchemaPage, type PageSchema } from '../runtime/SchemaPage.js';
import { pageForPath } from '../runtime/menu-pages.js';
import dashboardJson from '../../../schemas/_pages/dashboard.json';
import consoleJson from '../../../schemas/_pages/console.json';
import { currentRole, roleLabel, useSession } from '../runtime/session.js';
import { findByPath, menuLabel, useMenus, useOpenMenu, usePermissions, visibleFor, type MenuItem } from './menu.js';

export function ErrorPage({ status }: { status: 404 | 403 | 500 }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status={String(status) as '404'}
      title={status}
      subTitle={t(`route.${status}`)}
      extra={
        <Button type="primary" onClick={() => navigate('/wel/index')}>
          {t('common.back')}
        </Button>
      }
    />
  );
}

export function IframePage() {
  const params = useParams();
  const src = decodeURIComponent(params['*'] ?? '');
  if (!/^https?:\/\//i.test(src) && !src.startsWith('/')) return <Navigate to="/404" replace />;
  return <iframe title={src} src={src} className="kc-iframe" />;
}

const dashboardPage = dashboardJson as unknown as PageSchema;
const consolePage = consoleJson as unknown as PageSchema;

/** The console (/wel/dashboard, spec 000 §2.3): the user's own figures, a page schema (schemas/_pages/console.json). */
export function ConsolePage() {
  return (
    <div className="kc-console">
      <SchemaPage page={consolePage} />
    </div>
  );
}

/**
 * The functions a home card counts: the enabled leaf menus under `m` that the role may see — a disabled item
 * (功能开发中) is not a function the user has (issue 18 defect 10).
 */
export function usableCount(m: MenuItem, roleAlias: string | undefined): number {
  const kids = (m.children ?? []).filter((c) => c.category === 1 && c.isEnabled && visibleFor(c, roleAlias));
  return kids.reduce((n, c) => n + ((c.children ?? []).some((g) => g.category === 1) ? usableCount(c, roleAlias) : 1), 0);
}

/**
 * The home page (full screen, no sidebar): the welcome line and current role, the apps of the role's menu as
 * tiles, then the dashboard page schema (its cards and charts are JSON: schemas/_pages/dashboard.json).
 */
export function HomePage() {
  const { t, i18n } = useTranslation();
  const s = useSession();
  const role = currentRole(s);
  const { menus } = useMenus();
  const openMenu = useOpenMenu();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const apps = menus.filter((m) => m.category === 1 && visibleFor(m, role?.roleAlias));
  return (
    <div className="kc-home">
      <Typography.Title level={3}>{t('home.welcome', { name: s.user?.realName ?? '' })}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('home.role', { role: role ? roleLabel(role, lang) : '' })}</Typography.Paragraph>
      <Typography.Title level={5}>{t('home.apps')}</Typography.Title>
      <Row gutter={[16, 16]}>
        {apps.map((m) => (
          <Col key={m.id} xs={24} sm={12} md={8} lg={6}>
            <Card hoverable onClick={() => openMenu(m)} className={m.isEnabled ? undefined : 'kc-menu-disabled'}>
              <Statistic title={menuLabel(m, lang)} value={usableCount(m, role?.roleAlias)} suffix={lang === 'en' ? 'menus' : '个功能'} />
            </Card>
          </Col>
        ))}
      </Row>
      <div className="kc-dashboard" style={{ marginTop: 24 }}>
        <SchemaPage page={dashboardPage} />
      </div>
    </div>
  );
}

/** Renders the menu item at the current path (a menu naming no resource: the page schema serving its path, menu-pages.ts). */
export function MenuPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const s = useSession();
  const { menus, loading } = useMenus();
  if (loading) return <Spin />;
  const chain = findByPath(menus, location.pathname);
  const m = chain?.[chain.length - 1];
  if (!m || !visibleFor(m, currentRole(s)?.roleAlias)) return <Navigate to="/404" replace />;
  if (!m.isEnabled) return <Empty description={t('menu.developing')} />;
  if (m.resource) return <ResourceMenuPage key={m.resource} name={m.resource} />;
  const page = pageForPath(m.path);
  if (page) return <SchemaPage key={page.name} page={page} />;
  return <Empty description={t('menu.developing')} />;
}

type ListEndpoint = string;
/** A `userLists` entry as the switch reads it (its label). */
type UserListTitle = { endpoint: string; title?: string; titleEn?: string };

/**
 * A resource screen with the list scopes its schema offers (spec 001 §2: the whole list, my company's
 * `list-for-myCompany`, mine `myList`; then each titled `userLists` list, e.g. a bidding project's 我的项目 and
 * 我的协作项目) as a switch above the list, and the buttons the role is granted (`<menu>_add`, `_edit`,
 * `_delete`, `_view`). The server checks both again.
 */
function ResourceMenuPage({ name }: { name: string }) {
  const { t, i18n } = useTranslation();
  const perms = usePermissions();
  const { data: schema } = useResourceSchema(name);
  const [scope, setScope] = useState<ListEndpoint>('list');
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const titled = ((schema?.userLists ?? []) as UserListTitle[]).filter((l) => l.title);
  const offered: string[] = [...(['list', 'list-for-myCompany', 'myList'] as const).filter((e) => schema?.endpoints.includes(e)), ...titled.map((l) => l.endpoint)];
  const label = (e: string) => {
    const l = titled.find((x) => x.endpoint === e);
    return l ? (lang === 'en' ? (l.titleEn ?? l.title!) : l.title!) : t(`scope.${e}`);
  };
  // a resource without the whole list (the leave requests: only myList) opens on the first scope it offers
  const active: ListEndpoint = offered.length > 0 && !offered.includes(scope) ? offered[0] : scope;
  return (
    <>
      {offered.length > 1 && (
        <Segmented
          className="kc-list-scope"
          value={active}
          onChange={(v) => setScope(v as ListEndpoint)}
          options={offered.map((e) => ({ value: e, label: label(e) }))}
        />
      )}
      <ResourcePage name={name} listEndpoint={active} can={(code) => perms[code] === true} />
    </>
  );
}
