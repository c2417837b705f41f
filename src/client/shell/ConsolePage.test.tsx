// @vitest-environment jsdom
/**
 * The console (/wel/dashboard, spec 000 §2.3; issue 18): a page schema of the user's own figures — what I
 * registered and its review, my to-dos and done items, mine by type and by review status — fed by the same
 * endpoints as the home dashboard. ECharts is replaced by a stub recording its option (jsdom has no canvas).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { ConsolePage } from './pages.js';
import { renderApp, setLang, type FakeServer } from '../runtime/test-utils.js';
import { baseServer, signInAs } from '../runtime/fixtures.js';

vi.mock('../components/EChartsView.js', async () => {
  const { createElement } = await import('react');
  return { default: ({ option }: { option: unknown }) => createElement('div', { 'data-testid': 'echarts', 'data-option': JSON.stringify(option) }) };
});

const byStatus = (a: number, b: number, c: number, d: number) => ({ '0': a, '1': b, '2': c, '3': d });
const INDEX = { achievements: { total: 40, byStatus: byStatus(1, 1, 1, 1), byType: [] }, mine: { total: 7, byStatus: byStatus(3, 2, 1, 1) }, company: { total: 20 }, examine: { pending: 4, submitted: byStatus(0, 2, 0, 1) } };
const MINE = { total: 7, byStatus: byStatus(3, 2, 1, 1), byType: [{ type: 'patent', name: '专利', nameEn: 'Patent', total: 5 }, { type: 'thesis', name: '论文', nameEn: 'Thesis', total: 2 }] };

let server: FakeServer;
beforeEach(() => {
  setLang('zh');
  signInAs('kygl', '1001');
  server = baseServer();
  server.on('GET', '/api/system/dashborad/index', INDEX);
  server.on('GET', '/api/system/dashborad/myBasicAchievements', MINE);
  server.on('GET', '/api/basic/todo/list', { records: [], total: 0 });
});

describe('ConsolePage', () => {
  it("shows the user's own figures and charts, never the company's or everyone's", async () => {
    const view = renderApp(
      <MemoryRouter initialEntries={['/wel/dashboard']}>
        <ConsolePage />
      </MemoryRouter>,
    );
    for (const title of ['我的数字', '待办', '已办', '我的成果（按类型）', '我的成果审核状态']) expect((await screen.findAllByText(title)).length).toBeGreaterThan(0);
    expect(await screen.findByText('我登记的成果')).toBeTruthy();
    await waitFor(() => expect(view.container.textContent).toContain('7'));
    expect(screen.getByText('待我审核')).toBeTruthy();
    expect(view.container.textContent).not.toContain('成果总数');
    expect(view.container.textContent).not.toContain('本单位');
    await waitFor(() => expect(screen.getAllByTestId('echarts')).toHaveLength(2));
    const pie = JSON.parse(screen.getAllByTestId('echarts')[0].getAttribute('data-option')!);
    expect(JSON.stringify(pie)).toContain('专利');
    expect(server.calls('/api/basic/achievement/statistics')).toHaveLength(0);
  });
});
