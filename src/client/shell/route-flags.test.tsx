// @vitest-environment jsdom
/**
 * Route meta flags (spec 000 §2.1; issue 18): a menu with isTab false opens no tag; `?target=` opens the route in
 * a new window and this one goes back; a cached page (keepAlive) gets its scroll position back, others start
 * at the top.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { act, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router-dom';
import { routeMeta, useRouteFlags, withoutFlag } from './route-flags.js';
import { TagBar } from './TagBar.js';
import type { MenuItem } from './menu.js';
import { renderApp, setLang } from '../runtime/test-utils.js';
import { signInAs } from '../runtime/fixtures.js';
import { getSession, updateSession } from '../runtime/session.js';

const item = (id: string, name: string, path: string, meta: Partial<MenuItem['meta']> = {}): MenuItem => ({
  id, parentId: '1', code: id, name, nameEn: null, path, source: null, category: 1, isOpen: 1, isEnabled: true, resource: null, meta: { roles: [], ...meta }, children: [],
});
const MENUS: MenuItem[] = [
  {
    ...item('1', '科研成果', '/basic'),
    children: [
      item('11', '专利', '/basic/patent', { keepAlive: true }),
      item('12', '论文', '/basic/thesis'),
      item('13', '打印预览', '/basic/print', { isTab: false }),
    ],
  },
];

let nav: ReturnType<typeof useNavigate>;
function Probe() {
  useRouteFlags(MENUS);
  nav = useNavigate();
  const l = useLocation();
  return <span data-testid="where">{l.pathname + l.search}</span>;
}

beforeEach(() => {
  setLang('zh');
  signInAs('kygl');
  updateSession({ tags: [] });
});
afterEach(() => vi.restoreAllMocks());

describe('route meta flags', () => {
  it('reads the flags of a path and drops the new-window flag from a query', () => {
    expect(routeMeta(MENUS, '/basic/patent')).toEqual({ isTab: true, keepAlive: true });
    expect(routeMeta(MENUS, '/basic/print')).toEqual({ isTab: false, keepAlive: false });
    expect(routeMeta(MENUS, '/userCenter/userinfo')).toEqual({ isTab: true, keepAlive: false });
    expect(withoutFlag('?target=_blank&year=2025')).toBe('?year=2025');
    expect(withoutFlag('?target=1')).toBe('');
  });

  it('a menu whose meta disables tabs opens no tag; others do', async () => {
    const { unmount } = renderApp(
      <MemoryRouter initialEntries={['/basic/print']}>
        <TagBar menus={MENUS} />
      </MemoryRouter>,
    );
    await waitFor(() => expect(getSession().tags.map((t) => t.value)).toEqual(['/wel/index']));
    unmount();
    renderApp(
      <MemoryRouter initialEntries={['/basic/thesis']}>
        <TagBar menus={MENUS} />
      </MemoryRouter>,
    );
    await waitFor(() => expect(getSession().tags.map((t) => t.value)).toEqual(['/wel/index', '/basic/thesis']));
  });

  it('?target= opens the route without the flag in a new window, and this window goes back', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    renderApp(
      <MemoryRouter initialEntries={['/basic/thesis', '/basic/patent?target=_blank&year=2025']} initialIndex={1}>
        <Probe />
      </MemoryRouter>,
    );
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/basic/thesis'));
    expect(open).toHaveBeenCalledWith('/basic/patent?year=2025', '_blank', 'noopener');
  });

  it('opened first with the flag, the window goes to the home page', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    renderApp(
      <MemoryRouter initialEntries={['/basic/thesis?target=1']}>
        <Probe />
      </MemoryRouter>,
    );
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/wel/index'));
    expect(open).toHaveBeenCalledWith('/basic/thesis', '_blank', 'noopener');
  });

  it('a cached page gets its scroll position back; another page starts at the top', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    Object.defineProperty(document.documentElement, 'scrollHeight', { configurable: true, value: 3000 });
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 800 });
    const scrolled = (y: number) => Object.defineProperty(window, 'scrollY', { configurable: true, value: y });
    renderApp(
      <MemoryRouter initialEntries={['/basic/patent']}>
        <Probe />
      </MemoryRouter>,
    );
    await screen.findByTestId('where');
    scrolled(640);
    act(() => void nav('/basic/thesis'));
    await waitFor(() => expect(scrollTo).toHaveBeenLastCalledWith(0, 0));
    scrolled(200);
    act(() => void nav('/basic/patent'));
    await waitFor(() => expect(scrollTo).toHaveBeenLastCalledWith(0, 640));
    // the thesis list is not cached: back there, the top
    act(() => void nav('/basic/thesis'));
    await waitFor(() => expect(scrollTo).toHaveBeenLastCalledWith(0, 0));
  });
});
