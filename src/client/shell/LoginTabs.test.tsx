// @vitest-environment jsdom
/**
 * The login page's tab strip (LoginTabs.tsx) and its language switch (LangSwitch.tsx, whose menu is a chunk
 * loaded on first interest): what a user meets — the two tabs as tabs, the chosen one's pane, what was typed
 * in a pane kept across a switch, the arrow keys; the switch's menu after a click, the language changed by it.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { LoginTabs } from './LoginTabs.js';
import { LangSwitch } from './LangSwitch.js';
import { renderApp, setLang } from '../runtime/test-utils.js';
import { getSession } from '../runtime/session.js';

beforeEach(() => setLang('zh'));

const items = [
  { key: 'account', label: '账号密码登录', children: <input aria-label="账号" /> },
  { key: 'phone', label: '手机号登录', children: <input aria-label="手机号" /> },
];

describe('LoginTabs', () => {
  it('shows the first tab\'s pane; a click shows the other and keeps what was typed in the first', () => {
    renderApp(<LoginTabs items={items} />);
    const [account, phone] = screen.getAllByRole('tab');
    expect([account.textContent, account.getAttribute('aria-selected'), phone.getAttribute('aria-selected')]).toEqual(['账号密码登录', 'true', 'false']);
    expect(screen.getByRole('tabpanel').contains(screen.getByLabelText('账号'))).toBe(true);
    expect(screen.queryByLabelText('手机号')).toBeNull();
    fireEvent.change(screen.getByLabelText('账号'), { target: { value: 'kygl' } });

    fireEvent.click(screen.getByRole('tab', { name: '手机号登录' }));
    expect(screen.getByRole('tab', { name: '手机号登录' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').contains(screen.getByLabelText('手机号'))).toBe(true);

    fireEvent.click(screen.getByRole('tab', { name: '账号密码登录' }));
    expect((screen.getByLabelText('账号') as HTMLInputElement).value).toBe('kygl');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(screen.getByRole('tab', { name: '账号密码登录' }).id);
  });

  it('the arrow keys move to the neighbouring tab (and around)', () => {
    renderApp(<LoginTabs items={items} defaultActiveKey="phone" />);
    const tablist = screen.getByRole('tablist');
    expect(screen.getByRole('tab', { name: '手机号登录' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(tablist, { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: '账号密码登录' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: '账号密码登录' }));
    fireEvent.keyDown(tablist, { key: 'ArrowLeft' });
    expect(screen.getByRole('tab', { name: '手机号登录' }).getAttribute('aria-selected')).toBe('true');
  });
});

describe('LangSwitch', () => {
  it('a click loads and opens the menu; English switches the texts and is remembered', async () => {
    renderApp(<LangSwitch />);
    expect(screen.getByRole('button', { name: 'language' }).textContent).toContain('中文');
    expect(screen.queryByRole('menuitem')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'language' }));
    const english = await screen.findByRole('menuitem', { name: 'English' });
    expect(screen.getByRole('menuitem', { name: '中文' }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(english);
    await waitFor(() => expect(screen.getByRole('button', { name: 'language' }).textContent).toContain('English'));
    expect([getSession().lang, i18n.language, document.documentElement.lang]).toEqual(['en', 'en', 'en']);
  });
});
