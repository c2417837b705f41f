// @vitest-environment jsdom
/**
 * The top-menu variant (spec 000 §2.5; issue 18): chosen in the theme picker, remembered per user; the main
 * layout then has no sidebar and a menu bar under the header — 首页 first, the top menus holding tabs for the
 * role (each dropping down its tabs), then the current tab's menu (the selection following the route, a click
 * opening the screen, the version at its end); 侧边菜单 brings the sidebar back.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { MainLayout } from './Layout.js';
import { ThemePicker } from './ScreenTools.js';
import { chooseLayout, rememberedLayout } from './layout-variant.js';
import type { MenuItem } from './menu.js';
import { ok, renderApp, setLang } from '../runtime/test-utils.js';
import { baseServer, signInAs } from '../runtime/fixtures.js';

const item = (id: string, name: string, path: string, children: MenuItem[] = []): MenuItem => ({
  id, parentId: '0', code: id, name, nameEn: null, path, source: null, category: 1, isOpen: 1, isEnabled: true, resource: null, meta: { roles: [] }, children,
});
const MENUS = [item('1', '科技成果', '/basic', [item('11', '专利', '/basic/patent'), item('12', '论文', '/basic/thesis')])];

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

beforeEach(() => {
  setLang('zh');
  signInAs('kyry', '1001');
  localStorage.clear();
  chooseLayout('000000', '1001', 'side');
  const server = baseServer();
  server.on('GET', '/api/blade-system/menu/routes', (r: { query: Record<string, string> }) => ok(r.query.topMenuId === 't2' ? [] : MENUS));
  server.on('GET', '/api/blade-system/menu/top-menu', () => ok([{ id: 't1', name: '科研管理', nameEn: 'Research' }, { id: 't2', name: '系统管理', nameEn: 'Administration' }]));
  server.on('GET', '/api/blade-system/menu/buttons', () => ok([]));
  server.on('GET', '/api/basic/todo/countNumber', () => ok({}));
  server.on('GET', '/api/basic/todo/list', () => ok({ records: [], total: 0 }));
  server.on('GET', '/api/basic/todo/myPush', () => ok([]));
  server.on('GET', '/api/basic/version/selectVersion', () => ok({ id: '1', versionName: 'V1.2.0', heading: '版本 V1.2.0 [2025-06-01]', description: '' }));
  server.on('GET', '/api/portal/site/portalLink', () => ok([]));
  server.on('GET', '/api/blade-user/checkInit', () => ok({ step: 0, hasStep: [], desc: '' }));
  server.on('GET', '/api/blade-user/checkPasswordTime', () => ok(false));
  server.on('GET', '/api/blade-user/info', { id: '1001', userId: '1001', tenantId: '000000', account: 'u1001', realName: '张三', isPerfect: true, mustChangePassword: false, roles: [] });
});

const layout = () =>
  renderApp(
    <MemoryRouter initialEntries={['/basic/patent']}>
      <Routes>
        <Route element={<MainLayout />}>
          <Route path="*" element={<Where />} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );

describe('top-menu variant', () => {
  it('is chosen in the theme picker and remembered for the user (the sidebar by default)', async () => {
    expect(rememberedLayout('000000', '1001')).toBe('side');
    renderApp(<ThemePicker />);
    fireEvent.click(screen.getByRole('button', { name: '主题' }));
    expect(await screen.findByText('菜单布局')).toBeTruthy();
    fireEvent.click(screen.getByText('顶部菜单'));
    expect(rememberedLayout('000000', '1001')).toBe('top');
    expect(localStorage.getItem('kc-layout:000000:1001')).toBe('top');
    // another user of the browser keeps their own
    expect(rememberedLayout('000000', '1002')).toBe('side');
  });

  it('the layout follows it: the menu on top with 首页 first, no sidebar; back to the side', async () => {
    chooseLayout('000000', '1001', 'top');
    const { container } = layout();
    const bar = await screen.findByTestId('kc-topmenu');
    await waitFor(() => expect(within(bar).getByText('专利')).toBeTruthy());
    const labels = [...bar.querySelectorAll('.ant-menu-item')].map((li) => li.textContent);
    expect(labels.slice(0, 3)).toEqual(['首页', '专利', '论文']);
    expect(container.querySelector('.kc-sider')).toBeNull();
    expect(bar.querySelector('.ant-menu-item-selected')?.textContent).toBe('专利');
    fireEvent.click(within(bar).getByText('论文'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/basic/thesis'));
    fireEvent.click(within(bar).getByText('首页'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/wel/index'));
    // the top menus: 科研管理 holds the role's 科技成果 tab, 系统管理 holds none of its tabs and is left out
    const research = await within(bar).findByText('科研管理');
    expect(within(bar).queryByText('系统管理')).toBeNull();
    fireEvent.mouseEnter(research.closest('li')!);
    fireEvent.click(await screen.findByText('科技成果', {}, { timeout: 3000 }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/basic/patent'));
    act(() => chooseLayout('000000', '1001', 'side'));
    await waitFor(() => expect(screen.queryByTestId('kc-topmenu')).toBeNull());
  });

  it('the sidebar variant has the sidebar and no menu bar (English)', async () => {
    setLang('en');
    const { container } = layout();
    await waitFor(() => expect(container.querySelector('.kc-sider')).not.toBeNull());
    expect(screen.queryByTestId('kc-topmenu')).toBeNull();
  });
});
