/**
 * The top bar's screen tools (spec 000 §2.5): the notice popover (NoticePopover.tsx), the help-centre link (a new
 * window), the theme picker (the eleven themes of themes.ts; the current
 * one checked; the choice kept in the session and remembered for this user), the screen-zoom dialog (a slider
 * 60–150, default 100, stored locally, applied at once) and the fullscreen toggle (the browser's Fullscreen
 * API; the icon follows the state, Esc included).
 */
import { useEffect, useState } from 'react';
import { Button, Dropdown, Modal, Slider, Space, Typography } from 'antd';
import { BgColorsOutlined, CheckOutlined, CompressOutlined, ExpandOutlined, QuestionCircleOutlined, ZoomInOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { getSession, updateSession, useSession } from '../runtime/session.js';
import { NoticePopover } from './NoticePopover.js';
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
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: THEME_NAMES.map((name) => ({
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

/** The tools together, for the top bar. */
export function ScreenTools() {
  return (
    <>
      <NoticePopover />
      <HelpLink />
      <ThemePicker />
      <ZoomButton />
      <FullscreenButton />
    </>
  );
}
