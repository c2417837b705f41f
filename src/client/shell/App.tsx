/**
 * The app: providers (antd theme and locale following the session, SWR, the renderer environment through
 * which the registry components reach the API client: runtime/env.tsx) and the routes with the access rules
 * of spec 000 §2.1–2.4:
 * - public: /login, /lock, /404, /403, /500, /home (role selection, after login), /myiframe/*, /helpCenter,
 *   /userAgent, /test, /test/index, /previewFile (a stored file by its link), and the document previews
 *   /previewReport, /previewTaskBook, /previewAcceptReport (a signed link, no login);
 * - `/` → `/wel` → `/wel/index` (the full-screen home page);
 * - without a token → /login; locked → /lock; no current role → /home; logged in at /login → /home;
 * - `/dict-horizontal/index`, `/dict-vertical/index`: the page schemas of those paths (PathPage);
 * - `/work/process/<name>/form|handle|detail/…` → the process pages of the flow resource on that menu path
 *   (FlowProcessPage: spec 000 §2.3 routes of the leave request); `/work/todo/<id>` → a process task's to-do,
 *   handled on its record (TodoTaskPage);
 * - `/smartdoc/editor?fileId=` → the online DOCX editor of one stored file (DocxEditorPage; issue 17);
 * - every other path is looked up in the current role's menu (MenuPage), unknown → /404.
 */
import { StrictMode, Suspense, useEffect, type ReactNode } from 'react';
import { Spin } from 'antd';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import enUS from 'antd/es/locale/en_US';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { BrowserRouter, Navigate, useLocation, useNavigate, useRoutes, type RouteObject } from 'react-router-dom';
import { setErrorToaster, setUnauthorizedHandler, startTokenRefresh } from '../runtime/api.js';
import { getSession, updateSession, useSession } from '../runtime/session.js';
import { antdThemeOf, applyZoom, rememberedTheme, storedZoom, themeOf, themeVariables } from './themes.js';
import { RuntimeEnvProvider } from '../runtime/env.js';
import { LoginPage } from './LoginPage.js';
import { rememberReturn } from './return-to.js';
import { RouteBoundary } from './RouteBoundary.js';
// every lazy screen gives up after 120 s with 'Loading chunk failed' (chunk.ts, RouteError.tsx)
import { lazyChunk as lazy } from './chunk.js';

// Only the login route is in the first chunk (DESIGN §10: login JavaScript under 250 KB gzip); the layout, the
// schema runtime (Formily) and the other pages load when first needed.
const RoleSelectPage = lazy(() => import('./RoleSelectPage.js').then((m) => ({ default: m.RoleSelectPage })));
const LockPage = lazy(() => import('./LockPage.js').then((m) => ({ default: m.LockPage })));
const MainLayout = lazy(() => import('./Layout.js').then((m) => ({ default: m.MainLayout })));
const ErrorPage = lazy(() => import('./pages.js').then((m) => ({ default: m.ErrorPage })));
const HomePage = lazy(() => import('./pages.js').then((m) => ({ default: m.HomePage })));
const IframePage = lazy(() => import('./pages.js').then((m) => ({ default: m.IframePage })));
const MenuPage = lazy(() => import('./pages.js').then((m) => ({ default: m.MenuPage })));
const ConsolePage = lazy(() => import('./pages.js').then((m) => ({ default: m.ConsolePage })));
const PathPage = lazy(() => import('./PathPage.js').then((m) => ({ default: m.PathPage })));
const HelpCenterPage = lazy(() => import('./HelpCenterPage.js').then((m) => ({ default: m.HelpCenterPage })));
const UserAgentPage = lazy(() => import('./DiagnosticsPages.js').then((m) => ({ default: m.UserAgentPage })));
const TestPage = lazy(() => import('./DiagnosticsPages.js').then((m) => ({ default: m.TestPage })));
const FlowProcessPage = lazy(() => import('./FlowProcessPage.js').then((m) => ({ default: m.FlowProcessPage })));
const TodoTaskPage = lazy(() => import('./TodoTaskPage.js').then((m) => ({ default: m.TodoTaskPage })));
const UserInfoPage = lazy(() => import('./UserInfoPage.js').then((m) => ({ default: m.UserInfoPage })));
const DocumentPreviewPage = lazy(() => import('./DocumentPreviewPage.js').then((m) => ({ default: m.DocumentPreviewPage })));
const FilePreviewPage = lazy(() => import('./FilePreviewPage.js').then((m) => ({ default: m.FilePreviewPage })));
// the online DOCX editor: its page, and the editor itself in a further chunk (DESIGN §10)
const DocxEditorPage = lazy(() => import('./DocxEditorPage.js').then((m) => ({ default: m.DocxEditorPage })));
// the form designer: its own (large) chunk, loaded on its route only (DESIGN §7, §10)
const DesignerPage = lazy(() => import('../../../designer/DesignerPage.js'));

// swr's defaults around every route but the login page's (DataDefaults.tsx: swr is not in the login route)
const DataDefaults = lazy(() => import('./DataDefaults.js'));

const fallback = <Spin style={{ display: 'block', margin: '20vh auto' }} />;

function RequireAuth({ children, role = true }: { children: ReactNode; role?: boolean }) {
  const s = useSession();
  const location = useLocation();
  if (!s.token) {
    rememberReturn(location.pathname + location.search);
    return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  }
  if (s.locked && location.pathname !== '/lock') return <Navigate to="/lock" replace />;
  if (role && !s.currentRoleId) return <Navigate to="/home" replace />;
  return <>{children}</>;
}

function LoginRoute() {
  const s = useSession();
  if (s.token) return <Navigate to={s.locked ? '/lock' : '/home'} replace />;
  return <LoginPage />;
}

/** swr's defaults (DataDefaults.tsx) around each route's element: every route but the login page's. */
function withDataDefaults(routes: RouteObject[]): RouteObject[] {
  return routes.map((r) => ({
    ...r,
    element: r.element === undefined ? undefined : (
      <Suspense fallback={fallback}>
        <DataDefaults>{r.element}</DataDefaults>
      </Suspense>
    ),
  }));
}

/** StrictMode around a route's element: every route but the designer's (DESIGN §7). */
const strict = (element: ReactNode) => <StrictMode>{element}</StrictMode>;

/** Wraps each route's element (and its children's) in StrictMode. */
function strictRoutes<T extends { element?: ReactNode; children?: T[] }>(routes: T[]): T[] {
  return routes.map((r) => ({ ...r, element: r.element === undefined ? undefined : strict(r.element), children: r.children && strictRoutes(r.children) }));
}

/**
 * A page inside the layout behind its error boundary: a page that fails to render is recorded in the client
 * error log and shown as the 500 page inside the layout (RouteBoundary.tsx, RouteError.tsx).
 */
const page = (element: ReactNode) => <RouteBoundary>{element}</RouteBoundary>;

/**
 * The routes, rendered by `useRoutes` under the declarative `<BrowserRouter>` (not a data router: its code is
 * about 16 KB gzip larger and the app uses none of its loaders, actions or fetchers — DESIGN §10 login budget).
 */
export const routes: RouteObject[] = [
  { path: '/login', element: strict(<LoginRoute />) },
  ...withDataDefaults([
  // the designer renders outside StrictMode; the login chunk does not import it (a lazy route)
  { path: '/designer/*', element: <RequireAuth><Suspense fallback={fallback}><DesignerPage /></Suspense></RequireAuth> },
  ...strictRoutes([
  { path: '/home', element: <RequireAuth role={false}><RoleSelectPage /></RequireAuth> },
  { path: '/lock', element: <RequireAuth role={false}><LockPage /></RequireAuth> },
  // the help centre: public, full page, no tab (spec 000 §2.2; its articles are a public system dictionary)
  { path: '/helpCenter', element: <HelpCenterPage /> },
  // public diagnostic pages (spec 000 §2.2)
  { path: '/userAgent', element: <UserAgentPage /> },
  { path: '/test', element: <TestPage /> },
  { path: '/test/index', element: <TestPage /> },
  { path: '/404', element: <ErrorPage status={404} /> },
  { path: '/403', element: <ErrorPage status={403} /> },
  { path: '/500', element: <ErrorPage status={500} /> },
  { path: '/myiframe/*', element: <RequireAuth><IframePage /></RequireAuth> },
  // the online editor of one .docx (?fileId=): full page, no tab (issue 17; the bidding chapters link here)
  { path: '/smartdoc/editor', element: <RequireAuth><Suspense fallback={fallback}><DocxEditorPage /></Suspense></RequireAuth> },
  // the project documents opened from a signed link, without signing in (DocumentPreviewPage)
  ...['/previewReport', '/previewTaskBook', '/previewAcceptReport'].map((path) => ({ path, element: <DocumentPreviewPage /> })),
  // a stored file shown in the browser (spec 000 §2.2 /previewFile: docx, pdf, images, text; FilePreviewPage)
  { path: '/previewFile', element: <FilePreviewPage /> },
  { path: '/', element: <Navigate to="/wel/index" replace /> },
  { path: '/wel', element: <Navigate to="/wel/index" replace /> },
  {
    element: <RequireAuth><MainLayout fullScreen /></RequireAuth>,
    children: [{ path: '/wel/index', element: page(<HomePage />) }],
  },
  {
    element: <RequireAuth><MainLayout /></RequireAuth>,
    children: [
      { path: '/userCenter/userinfo', element: page(<UserInfoPage />) },
      { path: '/wel/dashboard', element: page(<ConsolePage />) },
      // the two dictionary layouts (spec 000 §2.3): page schemas schemas/_pages/dict-horizontal.json, dict-vertical.json
      ...['/dict-horizontal/index', '/dict-vertical/index'].map((path) => ({ path, element: page(<PathPage path={path} />) })),
      // a flow resource's start / handle / detail pages (spec 000 §2.3: /work/process/leave/form|handle|detail)
      { path: '/work/process/:process/:mode/*', element: page(<FlowProcessPage />) },
      // a process task's to-do: its record and handling form, whatever the resource (TodoTaskPage)
      { path: '/work/todo/:id', element: page(<TodoTaskPage />) },
      { path: '*', element: page(<MenuPage />) },
    ],
  },
  ]),
  ]),
];

/** The routes for the current address; a page outside the layout that throws shows RouteError too. */
function Routes() {
  const navigate = useNavigate();
  useEffect(() => {
    setUnauthorizedHandler(() => {
      // an expired session comes back to the page it was on after the new login
      rememberReturn(window.location.pathname + window.location.search);
      navigate('/login', { replace: true });
    });
  }, [navigate]);
  return <RouteBoundary>{useRoutes(routes)}</RouteBoundary>;
}

/** Hands antd's context-aware message API to the API client's error toast. */
function ToastBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => setErrorToaster((text, onClose) => void message.error({ content: text, onClose })), [message]);
  return null;
}

export function App() {
  const s = useSession();
  useEffect(() => {
    dayjs.locale(s.lang === 'en' ? 'en' : 'zh-cn');
    document.documentElement.lang = s.lang === 'en' ? 'en' : 'zh-CN';
  }, [s.lang]);
  // the theme (themes.ts): antd's tokens below, the layout's colours as CSS variables, a class per theme
  const theme = themeOf(s.themeName);
  useEffect(() => {
    const root = document.documentElement;
    for (const [k, v] of Object.entries(themeVariables(theme, s.themeColor))) root.style.setProperty(k, v);
    root.dataset.theme = theme.name;
  }, [theme, s.themeColor]);
  // a user's own theme after the login (remembered per user on this browser)
  const userId = s.user?.userId;
  useEffect(() => {
    if (!userId) return;
    const mine = rememberedTheme(s.tenantId, userId);
    if (mine && mine !== getSession().themeName) updateSession({ themeName: mine, themeColor: themeOf(mine).color });
  }, [userId, s.tenantId]);
  // the stored screen zoom and the root font size of spec 000 §9, again on every resize
  useEffect(() => {
    const apply = () => applyZoom(storedZoom());
    apply();
    window.addEventListener('resize', apply);
    return () => window.removeEventListener('resize', apply);
  }, []);
  useEffect(() => {
    if (s.token) startTokenRefresh();
  }, [s.token]);
  return (
    <ConfigProvider locale={s.lang === 'en' ? enUS : zhCN} theme={antdThemeOf(theme, s.themeColor)}>
      <AntApp>
        <ToastBridge />
          <RuntimeEnvProvider>
            <Suspense fallback={fallback}>
              <BrowserRouter>
                <Routes />
              </BrowserRouter>
            </Suspense>
          </RuntimeEnvProvider>
      </AntApp>
    </ConfigProvider>
  );
}
