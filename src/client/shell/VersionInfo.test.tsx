// @vitest-environment jsdom
/** The sidebar's version number and drawer (spec 000 §2.5, §2.8; issue 18). */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, within } from '@testing-library/react';
import { VersionInfo, SELECT_VERSION_URL, VERSION_LIST_URL } from './VersionInfo.js';
import { FakeServer, fail, renderApp, setLang } from '../runtime/test-utils.js';
import { signInAs } from '../runtime/fixtures.js';

const V2 = { id: '2', product: 'kechuang', versionName: 'V1.2.0', time: '2026-06-01', description: '新增主题切换\n修复菜单搜索', isCurrent: true, heading: '版本 V1.2.0 [2026-06-01]' };
const V1 = { id: '1', product: 'kechuang', versionName: 'V1.1.0', time: '2026-01-15', description: '首次发布', isCurrent: false };

let server: FakeServer;
beforeEach(() => {
  setLang('zh');
  signInAs('kygl');
  server = new FakeServer().install();
});

describe('VersionInfo', () => {
  it('shows the current number; the drawer: latest, heading, changelog, Ctrl+F5 tip, history newest first', async () => {
    server.on('GET', SELECT_VERSION_URL, V2).on('GET', VERSION_LIST_URL, { records: [V2, V1], total: 2, size: 500, current: 1, pages: 1 });
    renderApp(<VersionInfo />);
    fireEvent.click(await screen.findByRole('button', { name: /V1\.2\.0/ }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText('版本信息')).toBeTruthy();
    expect(within(drawer).getByText('已更新到最新版本')).toBeTruthy();
    expect(within(drawer).getByText('版本 V1.2.0 [2026-06-01]')).toBeTruthy();
    expect(within(drawer).getAllByText('新增主题切换').length).toBeGreaterThan(0);
    expect(within(drawer).getByText('如果页面显示不正确，请按 Ctrl+F5 强制刷新')).toBeTruthy();
    expect(await within(drawer).findByText('版本历史')).toBeTruthy();
    const items = [...drawer.querySelectorAll('.kc-version-item strong')].map((e) => e.textContent);
    expect(items).toEqual(['V1.2.0 [2026-06-01]', 'V1.1.0 [2026-01-15]']);
    expect(server.calls(VERSION_LIST_URL)[0].query).toMatchObject({ size: '500', product: 'kechuang' });
  });

  it('shows nothing without a version; a role that may not list the history still sees the current one', async () => {
    server.on('GET', SELECT_VERSION_URL, null);
    const empty = renderApp(<VersionInfo />);
    await new Promise((r) => setTimeout(r, 50));
    expect(empty.container.textContent).toBe('');
    empty.unmount();

    server.on('GET', SELECT_VERSION_URL, V2).on('GET', VERSION_LIST_URL, fail(403, '没有权限'));
    renderApp(<VersionInfo />);
    fireEvent.click(await screen.findByRole('button', { name: /V1\.2\.0/ }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText('版本 V1.2.0 [2026-06-01]')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 50));
    expect(within(drawer).queryByText('版本历史')).toBeNull();
  });
});
