/**
 * Themes, screen zoom and the root font size (spec 000 §2.5 top bar, §3.1 session, §9 constants).
 *
 * Themes: the eleven of the spec — default, white, dark, star, smart, iview, vip, cool, d2, hey, lte — each an
 * antd 5 theme (its primary colour as the `colorPrimary` token, the dark algorithm for `dark` and `star`) and a
 * layout look (header and sidebar colours, set as CSS variables the shell's CSS reads). The session keeps the
 * name as `theme-<name>` (default `theme-white`, colour #257e44) and the colour; the choice is also remembered
 * per user in localStorage (`kc-theme:<tenantId>:<userId>`), so each user finds their theme after logging in
 * on a shared browser, and the login page keeps the last one.
 *
 * Zoom: the screen-zoom dialog's 60–150 (default 100, stored locally as `kc-zoom`) scales the whole page with
 * CSS `zoom`, relative to the design width 1904: at 100 the page is as designed. The root font size follows
 * §9: 14 px × viewport width / 1920, the factor capped at 2 (text sized in rem follows the screen).
 */
import { theme as antdTheme, type ThemeConfig } from 'antd';
import { DEFAULT_THEME_COLOR } from '../runtime/session.js';

export const THEME_NAMES = ['default', 'white', 'dark', 'star', 'smart', 'iview', 'vip', 'cool', 'd2', 'hey', 'lte'] as const;
export type ThemeName = (typeof THEME_NAMES)[number];

/** One theme: its primary colour, whether antd's dark algorithm applies, and the layout's colours. */
export interface ThemeSpec {
  name: ThemeName;
  /** zh and en names for the picker. */
  label: { zh: string; en: string };
  color: string;
  dark: boolean;
  header: { bg: string; text: string };
  sider: { bg: string; text: string };
  /** The page background behind the cards. */
  page: string;
}

const t = (name: ThemeName, zh: string, en: string, color: string, header: [string, string], sider: [string, string], page = '#f0f2f5', dark = false): ThemeSpec => ({
  name,
  label: { zh, en },
  color,
  dark,
  header: { bg: header[0], text: header[1] },
  sider: { bg: sider[0], text: sider[1] },
  page,
});

/** The eleven themes of spec 000 §2.5, in the spec's order. */
export const THEMES: Record<ThemeName, ThemeSpec> = {
  default: t('default', '默认主题', 'Default', '#409EFF', ['#ffffff', 'rgba(0,0,0,0.88)'], ['#20222a', 'rgba(255,255,255,0.75)']),
  white: t('white', '白色主题', 'White', DEFAULT_THEME_COLOR, ['#ffffff', 'rgba(0,0,0,0.88)'], ['#ffffff', 'rgba(0,0,0,0.88)']),
  dark: t('dark', '黑色主题', 'Dark', '#177ddc', ['#141414', 'rgba(255,255,255,0.85)'], ['#1f1f1f', 'rgba(255,255,255,0.75)'], '#000000', true),
  star: t('star', '炫彩主题', 'Starry', '#7f5af0', ['#16161a', '#fffffe'], ['#242629', '#94a1b2'], '#0f0e17', true),
  smart: t('smart', '智能主题', 'Smart', '#2d8cf0', ['#2d8cf0', '#ffffff'], ['#ffffff', 'rgba(0,0,0,0.88)']),
  iview: t('iview', 'iView 主题', 'iView', '#2d8cf0', ['#ffffff', '#515a6e'], ['#515a6e', 'rgba(255,255,255,0.8)']),
  vip: t('vip', '尊贵主题', 'VIP', '#b8860b', ['#2b2b2b', '#f0d58c'], ['#333333', '#f0d58c']),
  cool: t('cool', '酷炫主题', 'Cool', '#13c2c2', ['#001529', '#ffffff'], ['#002140', 'rgba(255,255,255,0.75)']),
  d2: t('d2', 'D2 主题', 'D2', '#2f74ff', ['#ebf1f6', '#2f74ff'], ['#ebf1f6', '#606266'], '#f5f7fa'),
  hey: t('hey', '简约主题', 'Hey', '#ff6a00', ['#ffffff', '#333333'], ['#f7f7f7', '#333333']),
  lte: t('lte', 'LTE 主题', 'LTE', '#3c8dbc', ['#3c8dbc', '#ffffff'], ['#222d32', '#b8c7ce'], '#ecf0f5'),
};

/** The theme of a session's `themeName` (`theme-white` → white); unknown names fall back to white. */
export function themeOf(themeName: string | undefined): ThemeSpec {
  const name = (themeName ?? '').replace(/^theme-/, '') as ThemeName;
  return THEMES[name] ?? THEMES.white;
}

/** The antd theme of a theme: its colour as `colorPrimary` (the session's colour wins if set), dark algorithm. */
export function antdThemeOf(spec: ThemeSpec, color?: string): ThemeConfig {
  return {
    algorithm: spec.dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    // links (row actions …) in the theme's colour too: antd 5 keeps its own blue for them otherwise
    token: { colorPrimary: color || spec.color, colorLink: color || spec.color, borderRadius: 4 },
  };
}

/** Relative luminance (0–1) of a #rrggbb colour; other notations count as light. */
export function luminance(hex: string): number {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return 1;
  const [r, g, b] = m.slice(1).map((h) => {
    const c = parseInt(h, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The CSS variables of a theme's layout (the shell's CSS reads them). */
export function themeVariables(spec: ThemeSpec, color?: string): Record<string, string> {
  const primary = color || spec.color;
  return {
    '--kc-primary': primary,
    // the product name in the header: the theme colour on a light header, the header's text colour on a dark one
    '--kc-logo': luminance(spec.header.bg) > 0.6 ? primary : spec.header.text,
    // the active application tab: likewise (the theme colour would vanish on a header of that colour)
    '--kc-tab-active': luminance(spec.header.bg) > 0.6 ? primary : spec.header.text,
    '--kc-header-bg': spec.header.bg,
    '--kc-header-text': spec.header.text,
    '--kc-sider-bg': spec.sider.bg,
    '--kc-sider-text': spec.sider.text,
    '--kc-page-bg': spec.page,
    '--kc-surface': spec.dark ? '#141414' : '#ffffff',
    '--kc-border': spec.dark ? '#303030' : '#e8e8e8',
    // text on a surface (antd's colorText / colorTextSecondary of the light and the dark algorithm)
    '--kc-text': spec.dark ? 'rgba(255, 255, 255, 0.85)' : 'rgba(0, 0, 0, 0.88)',
    '--kc-text-secondary': spec.dark ? 'rgba(255, 255, 255, 0.45)' : 'rgba(0, 0, 0, 0.45)',
  };
}

const userKey = (tenantId: string, userId: string) => `kc-theme:${tenantId}:${userId}`;

/** Remembers `themeName` for a user. */
export function rememberTheme(tenantId: string, userId: string, themeName: string): void {
  try {
    localStorage.setItem(userKey(tenantId, userId), themeName);
  } catch {
    /* storage unavailable: the session still holds it */
  }
}

/** The theme a user chose last, or undefined. */
export function rememberedTheme(tenantId: string, userId: string): string | undefined {
  try {
    return localStorage.getItem(userKey(tenantId, userId)) ?? undefined;
  } catch {
    return undefined;
  }
}

export const ZOOM_MIN = 60;
export const ZOOM_MAX = 150;
export const ZOOM_DEFAULT = 100;
export const ZOOM_KEY = 'kc-zoom';
/** The design width of spec 000 §2.12: at zoom 100 the page is laid out as designed for it. */
export const DESIGN_WIDTH = 1904;

/** The stored zoom (60–150), default 100. */
export function storedZoom(): number {
  try {
    const n = Number(localStorage.getItem(ZOOM_KEY));
    return Number.isFinite(n) && n >= ZOOM_MIN && n <= ZOOM_MAX ? n : ZOOM_DEFAULT;
  } catch {
    return ZOOM_DEFAULT;
  }
}

/** Stores a zoom, clamped to 60–150, and answers it. */
export function storeZoom(zoom: number): number {
  const z = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Math.round(zoom)));
  try {
    localStorage.setItem(ZOOM_KEY, String(z));
  } catch {
    /* not kept */
  }
  return z;
}

/** §9: the root font size in px for a viewport `width`: 14 × width / 1920, the factor at most 2. */
export function rootFontSize(width: number): number {
  return 14 * Math.min(2, width / 1920);
}

/** Applies a zoom (CSS `zoom` on the body) and the root font size of the current viewport. */
export function applyZoom(zoom: number, doc: Document = document, win: Window = window): void {
  doc.body.style.setProperty('zoom', zoom === ZOOM_DEFAULT ? '' : String(zoom / 100));
  doc.documentElement.style.fontSize = `${rootFontSize(win.innerWidth)}px`;
}
