// @vitest-environment jsdom
/**
 * Page schemas serving a menu path (menu-pages.ts): the menu item 访问统计 (/portal/access, no resource) shows
 * schemas/_pages/portalaccess.json — the portal's access statistics from GET /api/portal/access/getDashboard as
 * ECharts charts (visits per day, channel, referrer, content) and figures — in Chinese and English; a menu path
 * no page serves still shows 功能开发中. ECharts is replaced by a stub recording its option (jsdom has no canvas).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { MenuPage } from '../shell/pages.js';
import { pageForPath } from './menu-pages.js';
import { renderApp, setLang, type FakeServer } from './test-utils.js';
import { baseServer, signInAs } from './fixtures.js';

vi.mock('../components/EChartsView.js', async () => {
  const { createElement } = await import('react');
  return { default: ({ option }: { option: unknown }) => createElement('div', { 'data-testid': 'echarts', 'data-option': JSON.stringify(option) }) };
});

const menu = (code: string, name: string, nameEn: string, path: string) => ({
  id: code, parentId: '0', code, name, nameEn, path, source: null, category: 1, isOpen: 1, isEnabled: true, resource: null, meta: { roles: [] }, children: [],
});
const DASHBOARD = {
  total: 9,
  days: [{ day: '2026-11-24', visits: 4 }, { day: '2026-11-25', visits: 5 }],
  channels: [{ channelId: '11', title: '科技动态', visits: 6 }, { channelId: '12', title: '行业资讯', visits: 3 }],
  contents: [{ contentId: '21', title: '低温储粮技术', visits: 5 }, { contentId: '22', title: '浅圆仓通风', visits: 2 }],
  referrers: [{ referrer: 'www.example.org', visits: 7 }, { referrer: '', visits: 2 }],
};

let server: FakeServer;
beforeEach(() => {
  setLang('zh');
  signInAs('kygl', '1001');
  server = baseServer();
  server.on('GET', '/api/blade-system/menu/routes', [menu('portal_access', '访问统计', 'Access statistics', '/portal/access'), menu('other', '其他', 'Other', '/portal/other')]);
  server.on('GET', '/api/portal/access/getDashboard', DASHBOARD);
});

const render = (path: string) =>
  renderApp(
    <MemoryRouter initialEntries={[path]}>
      <MenuPage />
    </MemoryRouter>,
  );
const cardOf = (title: string) => screen.getByText(title, { selector: '.ant-card-head-title' }).closest('.ant-card') as HTMLElement;
const seriesOf = (title: string) => JSON.parse(within(cardOf(title)).getByTestId('kc-chart').getAttribute('data-series')!);

describe('menu pages', () => {
  it('finds the page schema of a menu path', () => {
    expect(pageForPath('/portal/access')?.name).toBe('portalaccess');
    expect(pageForPath('/portal/other')).toBeUndefined();
    expect(pageForPath(undefined)).toBeUndefined();
  });

  it('shows the access statistics of the portal as charts', async () => {
    render('/portal/access');
    expect(await screen.findByText('每日访问量', { selector: '.ant-card-head-title' })).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('kc-chart')).toHaveLength(5));
    expect(seriesOf('访问概览（近 30 天）')).toEqual([{ title: '访问量', value: 9 }, { title: '被访问内容数', value: 2 }]);
    expect(seriesOf('每日访问量')).toEqual({ categories: ['2026-11-24', '2026-11-25'], series: [{ name: '访问量', data: [4, 5] }] });
    expect(seriesOf('栏目访问量')).toEqual({ categories: ['科技动态', '行业资讯'], series: [{ name: '访问量', data: [6, 3] }] });
    expect(seriesOf('内容访问排行').categories).toEqual(['低温储粮技术', '浅圆仓通风']);
    expect(seriesOf('访问来源').categories).toEqual(['www.example.org', '未知']);
    const line = JSON.parse((await within(cardOf('每日访问量')).findByTestId('echarts')).getAttribute('data-option')!);
    expect(line.series[0]).toMatchObject({ type: 'line', data: [4, 5] });
    expect(server.calls('/api/portal/access/getDashboard')).toHaveLength(1);
    expect(server.calls('/api/portal/access/getDashboard')[0].query.days).toBe('30');
  });

  it('speaks English, and a menu path no page serves is still under development', async () => {
    setLang('en');
    render('/portal/access');
    expect(await screen.findByText('Visits per day', { selector: '.ant-card-head-title' })).toBeTruthy();
    await waitFor(() => expect(seriesOf('Visits per channel').series[0].name).toBe('Visits'));
    setLang('zh');
    render('/portal/other');
    expect(await screen.findByText('功能开发中')).toBeTruthy();
  });
});
