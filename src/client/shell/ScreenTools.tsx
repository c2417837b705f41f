/**
 * The top bar's screen tools (spec 000 §2.5): the notice popover (NoticePopover.tsx), the information-portal link
 * (the tenant's public portal site /site/{id} in a new window — a choice when it has several, 本单位尚未建立信息门户
 * when none; GET /api/portal/site/portalLink), the help-centre link (a new window), the theme picker (the eleven
 * themes of themes.ts; the current one checked; the choice kept in the session and remembered for this user;
 * below them the menu layout — 侧边菜单 or 顶部菜单, layout-variant.ts — remembered the same way), the screen-zoom dialog (a slider
 * 60–150, default 100, stored locally, applied at once) and the fullscreen toggle (the browser's Fullscreen
 * API; the icon follows the state, Esc included).
 */
import { useEffect, useState } from 'react';
import { Button, Dropdown, Modal, Slider, Space, Typography, message } from 'antd';
import { BgColorsOutlined, CheckOutlined, CompressOutlined, ExpandOutlined, GlobalOutlined, QuestionCircleOutlined, ZoomInOutlined } from '@ant-design/icons';
import useSWR from 'swr';
import { get } from '../runtime/api.js';
import { useTranslation } from 'react-i18next';
import { getSession, updateSession, useSession } from '../runtime/session.js';
import { NoticePopover } from './NoticePopover.js';
import { chooseLayout, LAYOUT_VARIANTS, useLayoutVariant } from './layout-variant.js';
import { applyZoom, rememberTheme, storeZoom, storedZoom, THEME_NAMES, THEMES, themeOf, ZOOM_DEFAULT, ZOOM_MAX, ZOOM_MIN } from './themes.js';

/** Chooses the theme `name` for the signed-in user (session + per-user memory). */
export function chooseTheme(name: string): void {
  const spec = themeOf(`theme-${name}`);
  updateSession({ themeName: `theme-${spec.name}`, themeColor: spec.color });
  const s = getSession();
  if (s.user) rememberTheme(s.tenantId, s.user.userId, `theme-${spec.name}`);
}

export function ThemePicker() {
  const { t, i18n } = useTranslation();
  const s = useSession();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const current = themeOf(s.themeName).name;
  const userId = s.user?.userId;
  const variant = useLayoutVariant(s.tenantId, userId);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current, `layout-${variant}`],
        items: [
          ...THEME_NAMES.map((name) => ({
            key: name,
            label: (
              <Space>
                <span className="kc-theme-swatch" style={{ background: THEMES[name].color, borderColor: THEMES[name].header.bg }} />
                {THEMES[name].label[lang]}
                {name === current && <CheckOutlined />}
              </Space>
            ),
            onClick: () => chooseTheme(name),
          })),
          // the menu layout (layout-variant.ts): the sidebar, or the menu on top; remembered per user like the theme
          ...(userId
            ? [
                { type: 'divider' as const },
                {
                  type: 'group' as const,
                  key: 'layout',
                  label: t('layout.title'),
                  children: LAYOUT_VARIANTS.map((v) => ({
                    key: `layout-${v}`,
                    label: (
                      <Space>
                        {t(`layout.${v}`)}
                        {v === variant && <CheckOutlined />}
                      </Space>
                    ),
                    onClick: () => chooseLayout(s.tenantId, userId, v),
                  })),
                },
              ]
            : []),
        ],
      }}
    >
      <Button type="text" icon={<BgColorsOutlined />} aria-label={t('screen.theme')} title={t('screen.theme')} />
    </Dropdown>
  );
}

export function ZoomButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [zoom, setZoom] = useState(storedZoom);
  const set = (z: number) => {
    const kept = storeZoom(z);
    setZoom(kept);
    applyZoom(kept);
  };
  return (
    <>
      <Button type="text" icon={<ZoomInOutlined />} aria-label={t('screen.zoom')} title={t('screen.zoom')} onClick={() => setOpen(true)} />
      <Modal open={open} title={t('screen.zoom')} footer={null} onCancel={() => setOpen(false)} destroyOnHidden>
        <Typography.Paragraph type="secondary">{t('screen.zoomHint')}</Typography.Paragraph>
        <Slider min={ZOOM_MIN} max={ZOOM_MAX} value={zoom} onChange={set} marks={{ [ZOOM_MIN]: `${ZOOM_MIN}%`, [ZOOM_DEFAULT]: '100%', [ZOOM_MAX]: `${ZOOM_MAX}%` }} aria-label={t('screen.zoom')} />
        <Space style={{ width: '100%', justifyContent: 'space-between' }}>
          <Typography.Text strong data-testid="kc-zoom-value">{zoom}%</Typography.Text>
          <Button onClick={() => set(ZOOM_DEFAULT)}>{t('screen.zoomReset')}</Button>
        </Space>
      </Modal>
    </>
  );
}

export function FullscreenButton() {
  const { t } = useTranslation();
  const [full, setFull] = useState(() => typeof document !== 'undefined' && !!document.fullscreenElement);
  useEffect(() => {
    const on = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', on);
    return () => document.removeEventListener('fullscreenchange', on);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen?.().catch(() => undefined);
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };
  const label = t(full ? 'screen.exitFullscreen' : 'screen.fullscreen');
  return <Button type="text" icon={full ? <CompressOutlined /> : <ExpandOutlined />} aria-label={label} title={label} aria-pressed={full} onClick={toggle} />;
}

/** The help-centre link: the help centre in a new window, at the guide (code 003) help links open (spec 000 §2.2). */
export function HelpLink() {
  const { t } = useTranslation();
  return (
    <Button
      type="text"
      icon={<QuestionCircleOutlined />}
      aria-label={t('help.link')}
      title={t('help.link')}
      onClick={() => window.open('/helpCenter?code=003', '_blank', 'noopener')}
    />
  );
}

/** A site the portal link may open (GET /api/portal/site/portalLink). */
export interface PortalSite {
  id: string;
  title: string;
  path: string;
  url: string | null;
}

export const PORTAL_LINK_API = '/api/portal/site/portalLink';

/**
 * The information-portal link (spec 000 §2.5): the public pages of the tenant's portal site in a new window
 * (on this server, /site/{id}); with several sites a menu of them; with none, 本单位尚未建立信息门户.
 */
export function PortalLink() {
  const { t } = useTranslation();
  const s = useSession();
  const { data } = useSWR(s.token ? [PORTAL_LINK_API, s.tenantId] : null, () => get<PortalSite[]>(PORTAL_LINK_API, undefined, { silent: true }));
  const openSite = (site: PortalSite) => window.open(site.path, '_blank', 'noopener');
  const label = t('portal.link');
  const button = (onClick?: () => void) => <Button type="text" icon={<GlobalOutlined />} aria-label={label} title={label} onClick={onClick} data-testid="portal-link" />;
  if (data && data.length > 1) {
    return <Dropdown trigger={['click']} menu={{ items: data.map((site) => ({ key: site.id, label: site.title, onClick: () => openSite(site) })) }}>{button()}</Dropdown>;
  }
  return button(() => {
    if (data?.[0]) openSite(data[0]);
    else void message.info(t('portal.none'));
  });
}

/** The tools together, for the top bar. */
export function ScreenTools() {
  return (
    <>
      <NoticePopover />
      <PortalLink />
      <HelpLink />
      <ThemePicker />
      <ZoomButton />
      <FullscreenButton />
    </>
  );
}
