// @vitest-environment jsdom
/**
 * MenuPanel, the home page's shortcut panel (issue 18; system/menupanel): shows the user's panel (or the
 * tenant's default, marked), opens a shortcut's screen (a new window for isOpen 2, /myiframe for an external
 * path), edits the panel — pick, reorder, save the order — and offers 设为默认 only with the top-menu edit grant;
 * English texts; the registry knows it and the home dashboard places it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ok, renderApp, setLang, type FakeServer } from '../runtime/test-utils.js';
import { baseServer } from '../runtime/fixtures.js';
import './catalog.js';
import { components } from './registry.js';
import { MenuPanel, MENU_PANEL_API, shortcutTarget, type PanelAnswer } from './MenuPanel.js';
import dashboard from '../../../schemas/_pages/dashboard.json';

const PATENT = { id: '11', name: '专利', nameEn: 'Patents', path: '/basic/patent', isOpen: 1 };
const THESIS = { id: '12', name: '论文', nameEn: 'Theses', path: '/basic/thesis', isOpen: 1 };
const GUIDE = { id: '13', name: '操作手册', nameEn: 'Guide', path: 'https://docs.example/guide.html', isOpen: 2 };
const panel = (menus: typeof PATENT[], isDefault: boolean): PanelAnswer => ({ menuIds: menus.map((m) => m.id), menus, isDefault, choices: [PATENT, THESIS, GUIDE] });

let server: FakeServer;
let buttons: unknown[];
beforeEach(() => {
  setLang('zh');
  buttons = [];
  server = baseServer();
  let mine: PanelAnswer | null = null; // what saveMyPanel stored, as the server keeps it
  server.on('GET', `${MENU_PANEL_API}/getMyPanel`, () => ok(mine ?? panel([PATENT, GUIDE], true)));
  server.on('GET', `${MENU_PANEL_API}/getDefaultPanel`, () => ok(panel([THESIS], true)));
  server.on('POST', `${MENU_PANEL_API}/saveMyPanel`, (r: { body: { menuIds: string[] } }) => {
    mine = panel(r.body.menuIds.map((id) => [PATENT, THESIS, GUIDE].find((m) => m.id === id)!), false);
    return ok(mine);
  });
  server.on('POST', `${MENU_PANEL_API}/configurationDefaultPanel`, (r: { body: { menuIds: string[] } }) => ok({ ...panel([], true), menuIds: r.body.menuIds }));
  server.on('GET', '/api/blade-system/menu/buttons', () => ok(buttons));
});
afterEach(() => vi.restoreAllMocks());

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}
const routed = () => (
  <MemoryRouter initialEntries={['/wel/index']}>
    <MenuPanel />
    <Routes>
      <Route path="*" element={<Where />} />
    </Routes>
  </MemoryRouter>
);

describe('MenuPanel', () => {
  it('shows the default panel marked as such; a shortcut opens its screen, isOpen 2 in a new window', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    renderApp(routed());
    const box = await screen.findByTestId('menu-panel');
    expect(box.getAttribute('data-default')).toBe('true');
    expect(within(box).getByText('默认')).toBeTruthy();
    const items = within(box).getAllByTestId('menu-panel-item');
    expect(items.map((b) => b.textContent)).toEqual(['专利', '操作手册']);
    fireEvent.click(items[0]);
    expect(screen.getByTestId('where').textContent).toBe('/basic/patent');
    fireEvent.click(items[1]);
    expect(open).toHaveBeenCalledWith('https://docs.example/guide.html', '_blank', 'noopener');
    expect(shortcutTarget({ ...GUIDE, isOpen: 1 })).toEqual({ newWindow: false, to: `/myiframe/${encodeURIComponent(GUIDE.path)}` });
  });

  it('edits the panel: reorder, save in that order; the saved panel is shown, no longer the default', async () => {
    renderApp(routed());
    fireEvent.click(await screen.findByTestId('menu-panel-edit'));
    const dialog = await screen.findByRole('dialog');
    // no top-menu grant: no 设为默认
    await waitFor(() => expect(server.calls('/api/blade-system/menu/buttons')).toHaveLength(1));
    expect(within(dialog).queryByTestId('menu-panel-set-default')).toBeNull();
    fireEvent.click(within(dialog).getAllByRole('button', { name: '下移' })[0]);
    fireEvent.click(within(dialog).getByTestId('menu-panel-save'));
    await waitFor(() => expect(server.calls(`${MENU_PANEL_API}/saveMyPanel`)).toHaveLength(1));
    expect(server.calls(`${MENU_PANEL_API}/saveMyPanel`)[0].body).toEqual({ menuIds: ['13', '11'] });
    const box = await screen.findByTestId('menu-panel');
    await waitFor(() => expect(box.getAttribute('data-default')).toBe('false'));
    expect(within(box).getAllByTestId('menu-panel-item').map((b) => b.textContent)).toEqual(['操作手册', '专利']);
  });

  it('恢复默认 fills the editor with the default; with the top-menu grant 设为默认 saves the tenant default (English)', async () => {
    setLang('en');
    buttons = [{ code: 'topmenu', category: 1, children: [{ code: 'topmenu_edit', category: 2, children: [] }] }];
    renderApp(routed());
    fireEvent.click(await screen.findByText('Edit shortcuts'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByText('Restore default'));
    await waitFor(() => expect([...dialog.querySelectorAll('.ant-list-item')].map((li) => li.textContent)).toEqual(['Theses']));
    fireEvent.click(await within(dialog).findByTestId('menu-panel-set-default'));
    await waitFor(() => expect(server.calls(`${MENU_PANEL_API}/configurationDefaultPanel`)).toHaveLength(1));
    expect(server.calls(`${MENU_PANEL_API}/configurationDefaultPanel`)[0].body).toEqual({ menuIds: ['12'] });
    expect(server.calls(`${MENU_PANEL_API}/saveMyPanel`)).toHaveLength(0);
  });

  it('is registered and placed first on the home dashboard', () => {
    expect(components.MenuPanel).toBeDefined();
    const first = Object.values(dashboard.schema.properties)[0] as { properties: Record<string, { 'x-component': string }> };
    expect(Object.values(first.properties)[0]['x-component']).toBe('MenuPanel');
  });
});
