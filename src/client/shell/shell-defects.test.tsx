// @vitest-environment jsdom
/**
 * Defects of the shell found on a walk through the app (issue 18), each with what a user would notice:
 * 1 the empty lock password gives its message and no uncaught rejection; 4 the menu search matches anywhere
 * and by pinyin initials, focuses its input, moves with the arrows and opens the active hit on Enter; 8 a deep
 * link survives the login; 10 home cards count only the functions a user can open; 11 the role chooser shows
 * role names, never aliases.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { LockButton } from './LockPage.js';
import { MenuSearch } from './MenuSearch.js';
import { RoleSelectPage } from './RoleSelectPage.js';
import { searchLeaves, type MenuItem } from './menu.js';
import { pinyinInitials } from './pinyin.js';
import { usableCount } from './pages.js';
import { rememberReturn, takeReturn } from './return-to.js';
import { fitCount, MORE_WIDTH, tabWidth } from './fit-tabs.js';
import { renderApp, setLang } from '../runtime/test-utils.js';
import { getSession, updateSession } from '../runtime/session.js';
import { signInAs } from '../runtime/fixtures.js';

const menu = (id: string, name: string, nameEn: string, path: string | null, over: Partial<MenuItem> = {}): MenuItem => ({
  id, parentId: '0', code: id, name, nameEn, path, source: null, category: 1, isOpen: 1, isEnabled: true, resource: null, meta: { roles: [] }, children: [], ...over,
});

const MENUS: MenuItem[] = [
  menu('sys', '系统管理', 'System', '/system', {
    children: [
      menu('form', '表单设计', 'Form designer', '/designer/index'),
      menu('dict', '系统字典', 'System dictionary', '/system/dict'),
      menu('biz', '业务字典', 'Business dictionary', '/system/dictbiz'),
      menu('user', '用户管理', 'Users', '/system/user'),
    ],
  }),
];

function Where() {
  const loc = useLocation();
  return <div data-testid="where">{loc.pathname}</div>;
}

beforeEach(() => {
  setLang('zh');
  signInAs('kygl');
  sessionStorage.clear();
});

afterEach(() => vi.restoreAllMocks());

describe('defect 1: the lock-password dialog submitted empty', () => {
  it('says the password is required, stays open and throws nothing', async () => {
    const rejections: unknown[] = [];
    const onRejection = (e: PromiseRejectionEvent | { reason: unknown }) => rejections.push((e as { reason: unknown }).reason);
    process.on('unhandledRejection', onRejection);
    try {
      renderApp(
        <MemoryRouter initialEntries={['/basic/patent']}>
          <Routes>
            <Route path="*" element={<><LockButton /><Where /></>} />
          </Routes>
        </MemoryRouter>,
      );
      fireEvent.click(screen.getByRole('button', { name: '锁屏' }));
      const ok = await screen.findByRole('button', { name: /确\s*定/ });
      fireEvent.click(ok);
      expect(await screen.findByText('锁屏密码不能为空')).toBeTruthy();
      await new Promise((r) => setTimeout(r, 50));
      expect(rejections).toEqual([]);
      expect(getSession().locked).toBe(false);
      expect(screen.getByTestId('where').textContent).toBe('/basic/patent');
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});

describe('defect 4: menu search', () => {
  it('matches anywhere in the name, in English, and by pinyin initials; prefix hits first', () => {
    expect(pinyinInitials('表单设计')).toBe('bdsj');
    expect(pinyinInitials('软件著作权')).toBe('rjzzq');
    expect(pinyinInitials('日志管理')).toBe('rzgl');
    expect(searchLeaves(MENUS, '设计').map((m) => m.name)).toEqual(['表单设计']);
    expect(searchLeaves(MENUS, '字典').map((m) => m.name)).toEqual(['系统字典', '业务字典']);
    expect(searchLeaves(MENUS, 'bdsj').map((m) => m.name)).toEqual(['表单设计']);
    expect(searchLeaves(MENUS, 'ZD').map((m) => m.name)).toEqual(['系统字典', '业务字典']);
    expect(searchLeaves(MENUS, 'dictionary').map((m) => m.name)).toEqual(['系统字典', '业务字典']);
    // prefix hits before the others: "u" starts Users, and is inside Business dictionary
    expect(searchLeaves(MENUS, 'u').map((m) => m.name)).toEqual(['用户管理', '业务字典']);
    expect(searchLeaves(MENUS, '  ')).toEqual([]);
    expect(searchLeaves(MENUS, '没有')).toEqual([]);
  });

  it('focuses the input on open; arrows move; Enter opens the active hit; nothing found says so', async () => {
    renderApp(
      <MemoryRouter initialEntries={['/wel/index']}>
        <MenuSearch menus={MENUS} />
        <Where />
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByRole('button', { name: '搜索菜单' }));
    const input = await screen.findByRole('combobox');
    await waitFor(() => expect(document.activeElement).toBe(input));

    fireEvent.change(input, { target: { value: '没有这个' } });
    expect(await screen.findByText('没有匹配的菜单')).toBeTruthy();

    fireEvent.change(input, { target: { value: 'zd' } });
    const options = () => screen.getAllByRole('option');
    expect(options().map((o) => o.textContent)).toEqual(['系统字典', '业务字典']);
    expect(options()[0].getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(options()[1].getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input, { key: 'ArrowDown' }); // wraps around
    expect(options()[0].getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(options()[1].getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/system/dictbiz'));
  });
});

describe('defect 8: the page asked for before the login', () => {
  it('is kept for after the login once, in-app paths only', () => {
    rememberReturn('/basic/patent?name=x');
    expect(takeReturn('/wel/index')).toBe('/basic/patent?name=x');
    expect(takeReturn('/wel/index')).toBe('/wel/index');
    for (const p of ['/login', '/wel/index', '/', 'https://evil.example/x', '//evil.example/x']) {
      rememberReturn(p);
      expect(takeReturn('/wel/index')).toBe('/wel/index');
    }
  });

  it('the role choice goes there after the choice', async () => {
    updateSession({
      roles: [
        { id: 'r1', roleName: '项目负责人', roleNameEn: 'Project manager', roleAlias: 'projectManager' },
        { id: 'r2', roleName: '科研管理', roleNameEn: 'Research management', roleAlias: 'kygl' },
      ],
      currentRoleId: undefined,
    });
    rememberReturn('/basic/thesis');
    renderApp(
      <MemoryRouter initialEntries={['/home']}>
        <Routes>
          <Route path="/home" element={<RoleSelectPage />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>,
    );
    fireEvent.click(screen.getAllByRole('button', { name: /进\s*入/ })[1]);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/basic/thesis'));
    expect(getSession().currentRoleId).toBe('r2');
  });
});

describe('defect 10: home cards', () => {
  it('count the enabled functions the role may see, not disabled ones', () => {
    const tab = menu('proj', '科研项目', 'Projects', '/project', {
      children: [
        menu('a', '项目申报', 'Declarations', '/project/a', { isEnabled: false }),
        menu('b', '专家评审', 'Review', '/project/b', { isEnabled: false }),
      ],
    });
    expect(usableCount(tab, 'kygl')).toBe(0);
    const mixed = menu('ach', '科技成果', 'Achievements', '/ach', {
      children: [
        menu('p', '专利', 'Patents', '/basic/patent'),
        menu('g', '分组', 'Group', null, { children: [menu('t', '论文', 'Theses', '/basic/thesis'), menu('off', '停用', 'Off', '/x', { isEnabled: false })] }),
        menu('adm', '仅管理员', 'Admin only', '/y', { meta: { roles: ['administrator'] } }),
      ],
    });
    expect(usableCount(mixed, 'kygl')).toBe(2);
    expect(usableCount(mixed, 'administrator')).toBe(3);
  });
});

describe('defect 11: the role chooser', () => {
  it('shows role names in the screen language, never the alias', async () => {
    updateSession({
      roles: [
        { id: 'r1', roleName: '项目负责人', roleNameEn: 'Project manager', roleAlias: 'projectManager' },
        { id: 'r2', roleName: '科研管理', roleNameEn: 'Research management', roleAlias: 'kygl' },
      ],
      currentRoleId: 'r1',
    });
    const view = renderApp(
      <MemoryRouter initialEntries={['/home']}>
        <RoleSelectPage />
      </MemoryRouter>,
    );
    expect(await screen.findByText('项目负责人')).toBeTruthy();
    expect(screen.getByText('科研管理')).toBeTruthy();
    expect(view.container.textContent).not.toContain('projectManager');
    expect(view.container.textContent).not.toMatch(/\bkygl\b/);
    act(() => setLang('en'));
    expect(await screen.findByText('Project manager')).toBeTruthy();
  });
});

describe('application tabs that do not fit the bar', () => {
  it('all show when they fit; otherwise as many as leave room for 更多应用, at least one', () => {
    const widths = ['Research projects', 'Achievements', 'Workbench', 'Duplicate checking', 'Portal'].map(tabWidth);
    const total = widths.reduce((a, b) => a + b, 0);
    expect(fitCount(widths, total)).toBe(5);
    expect(fitCount(widths, 0)).toBe(5); // not measured yet
    const room = widths[0] + widths[1] + MORE_WIDTH + 10;
    expect(fitCount(widths, room)).toBe(2);
    expect(fitCount(widths, 20)).toBe(1);
  });
});
