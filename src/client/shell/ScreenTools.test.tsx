// @vitest-environment jsdom
/**
 * Themes, zoom and fullscreen of the top bar (spec 000 §2.5, §3.1, §9; issue 18): the eleven themes as antd
 * tokens and layout colours, the choice kept in the session and remembered per user; the zoom slider 60–150
 * stored locally and applied; the root font rule; the fullscreen toggle through the Fullscreen API; the
 * information-portal link (the tenant's site in a new window, a choice of several, a message when none).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { theme } from 'antd';
import { FullscreenButton, PORTAL_LINK_API, PortalLink, ThemePicker, ZoomButton } from './ScreenTools.js';
import { antdThemeOf, applyZoom, rememberedTheme, rootFontSize, storeZoom, storedZoom, THEME_NAMES, THEMES, themeOf, themeVariables, ZOOM_KEY } from './themes.js';
import { ok, renderApp, setLang } from '../runtime/test-utils.js';
import { getSession, updateSession } from '../runtime/session.js';
import { baseServer, signInAs } from '../runtime/fixtures.js';

beforeEach(() => {
  setLang('zh');
  signInAs('kygl', '1001');
  updateSession({ themeName: 'theme-white', themeColor: '#257e44' });
  localStorage.removeItem(ZOOM_KEY);
});

describe('themes', () => {
  it('the eleven themes of the spec, each with a colour, a zh and en name and layout colours', () => {
    expect(THEME_NAMES).toEqual(['default', 'white', 'dark', 'star', 'smart', 'iview', 'vip', 'cool', 'd2', 'hey', 'lte']);
    for (const name of THEME_NAMES) {
      const t = THEMES[name];
      expect(t.color).toMatch(/^#[0-9a-fA-F]{6}$/);
      expect(t.label.zh).toMatch(/[\u4e00-\u9fff]|iView|D2|LTE/);
      expect(t.label.en).not.toMatch(/[\u4e00-\u9fff]/);
    }
    expect(themeOf(undefined).name).toBe('white');
    expect(themeOf('theme-nonsense').name).toBe('white');
    expect(themeOf('theme-white').color).toBe('#257e44');
    expect(antdThemeOf(THEMES.dark).algorithm).toBe(theme.darkAlgorithm);
    expect(antdThemeOf(THEMES.white).token).toMatchObject({ colorPrimary: '#257e44' });
    expect(themeVariables(THEMES.lte)).toMatchObject({ '--kc-primary': '#3c8dbc', '--kc-header-bg': '#3c8dbc', '--kc-logo': '#ffffff' });
    expect(themeVariables(THEMES.white)['--kc-logo']).toBe('#257e44');
  });

  it('the picker lists the eleven, marks the current one, and a choice is kept in the session and for this user', async () => {
    renderApp(<ThemePicker />);
    fireEvent.click(screen.getByRole('button', { name: '主题' }));
    const items = await screen.findAllByRole('menuitem');
    // the eleven themes, then the two menu layouts (layout-variant.test.tsx)
    expect(items.map((i) => i.textContent)).toEqual([...THEME_NAMES.map((n) => THEMES[n].label.zh), '侧边菜单', '顶部菜单']);
    fireEvent.click(screen.getByText('LTE 主题'));
    expect(getSession()).toMatchObject({ themeName: 'theme-lte', themeColor: '#3c8dbc' });
    expect(rememberedTheme('000000', '1001')).toBe('theme-lte');
    expect(rememberedTheme('000000', '1002')).toBeUndefined();
  });
});

describe('zoom', () => {
  it('60–150, default 100, stored locally and applied to the page; the root font follows the viewport (§9)', async () => {
    expect(storedZoom()).toBe(100);
    expect(storeZoom(20)).toBe(60);
    expect(storeZoom(400)).toBe(150);
    expect(storeZoom(87.4)).toBe(87);
    expect(storedZoom()).toBe(87);
    expect(rootFontSize(1920)).toBe(14);
    expect(rootFontSize(960)).toBe(7);
    expect(rootFontSize(5000)).toBe(28);
    applyZoom(87);
    expect(document.body.style.getPropertyValue('zoom')).toBe('0.87');
    applyZoom(100);
    expect(document.body.style.getPropertyValue('zoom')).toBe('');

    localStorage.removeItem(ZOOM_KEY);
    renderApp(<ZoomButton />);
    fireEvent.click(screen.getByRole('button', { name: '屏幕缩放' }));
    const slider = await screen.findByRole('slider');
    expect(slider.getAttribute('aria-valuemin')).toBe('60');
    expect(slider.getAttribute('aria-valuemax')).toBe('150');
    expect(slider.getAttribute('aria-valuenow')).toBe('100');
    fireEvent.keyDown(slider, { key: 'ArrowRight', keyCode: 39 });
    await waitFor(() => expect(screen.getByTestId('kc-zoom-value').textContent).toBe('101%'));
    expect(localStorage.getItem(ZOOM_KEY)).toBe('101');
    expect(document.body.style.getPropertyValue('zoom')).toBe('1.01');
    fireEvent.click(screen.getByRole('button', { name: /恢复默认/ }));
    expect(localStorage.getItem(ZOOM_KEY)).toBe('100');
  });
});

describe('fullscreen', () => {
  it('asks the browser for full screen, and leaves it; the label follows the state', async () => {
    const request = vi.fn(() => Promise.resolve());
    const exit = vi.fn(() => Promise.resolve());
    let element: Element | null = null;
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => element });
    Object.defineProperty(document.documentElement, 'requestFullscreen', { configurable: true, value: request });
    Object.defineProperty(document, 'exitFullscreen', { configurable: true, value: exit });
    renderApp(<FullscreenButton />);
    fireEvent.click(screen.getByRole('button', { name: '全屏' }));
    expect(request).toHaveBeenCalledTimes(1);
    element = document.documentElement;
    act(() => void document.dispatchEvent(new Event('fullscreenchange')));
    fireEvent.click(await screen.findByRole('button', { name: '退出全屏' }));
    expect(exit).toHaveBeenCalledTimes(1);
  });
});

describe('information-portal link', () => {
  const site = (id: string, title: string) => ({ id, title, path: `/site/${id}`, url: null });

  it('opens the tenant’s portal site in a new window; several sites are a choice', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const server = baseServer();
    let sites = [site('71', '科创门户')];
    server.on('GET', PORTAL_LINK_API, () => ok(sites));
    const first = renderApp(<PortalLink />);
    await waitFor(() => expect(server.calls(PORTAL_LINK_API)).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: '信息门户' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('/site/71', '_blank', 'noopener'));
    first.unmount();
    sites = [site('71', '科创门户'), site('72', '成果展示')];
    renderApp(<PortalLink />);
    await waitFor(() => expect(server.calls(PORTAL_LINK_API)).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 0));
    fireEvent.click(screen.getByRole('button', { name: '信息门户' }));
    fireEvent.click(await screen.findByText('成果展示'));
    expect(open).toHaveBeenLastCalledWith('/site/72', '_blank', 'noopener');
    open.mockRestore();
  });

  it('says so when the tenant has no portal (English)', async () => {
    setLang('en');
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const server = baseServer();
    server.on('GET', PORTAL_LINK_API, () => ok([]));
    renderApp(<PortalLink />);
    await waitFor(() => expect(server.calls(PORTAL_LINK_API)).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Information portal' }));
    expect(await screen.findByText('Your organisation has no information portal yet')).toBeTruthy();
    expect(open).not.toHaveBeenCalled();
    open.mockRestore();
  });
});
