// @vitest-environment jsdom
/**
 * To-do badges and pushed messages (spec 000 §3.2 todoNumber, §4 Polling): a menu counts its own path and its
 * children's; the notifier shows each pushed message bottom right with its Go now link, in both languages.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { PushNotifier, PUSH_URL, todoNumber } from './todo.js';
import { renderApp, setLang, type FakeServer } from '../runtime/test-utils.js';
import { baseServer, signInAs } from '../runtime/fixtures.js';

let server: FakeServer;
beforeEach(() => {
  setLang('zh');
  server = baseServer([]);
  signInAs('kygl');
});

describe('to-do badges', () => {
  it('a menu counts its own path and everything below it', () => {
    const tree = { path: '/basic', children: [{ path: '/basic/patent', children: [] }, { path: '/basic/thesis', children: [{ path: '/basic/thesis/x', children: [] }] }] };
    const counts = { '/basic/patent': 2, '/basic/thesis/x': 3, '/other': 7 };
    expect(todoNumber(tree, counts)).toBe(5);
    expect(todoNumber(tree.children[0], counts)).toBe(2);
    expect(todoNumber({ path: null, children: [] }, counts)).toBe(0);
  });
});

describe('PushNotifier', () => {
  it('shows a pushed message with its Go now link, which opens the path', async () => {
    server.on('GET', PUSH_URL, [{ id: '1', title: '专利待审核', description: '一种粮仓温湿度监测装置', path: '/basic/patent' }]);
    renderApp(
      <App>
        <MemoryRouter initialEntries={['/wel/index']}>
          <PushNotifier />
          <Routes>
            <Route path="/wel/index" element={<p>home</p>} />
            <Route path="/basic/patent" element={<p>patents page</p>} />
          </Routes>
        </MemoryRouter>
      </App>,
    );
    expect(await screen.findByText('专利待审核')).toBeTruthy();
    expect(screen.getByText('一种粮仓温湿度监测装置')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '立即前往' }));
    expect(await screen.findByText('patents page')).toBeTruthy();
    await waitFor(() => expect(server.calls(PUSH_URL).length).toBeGreaterThanOrEqual(1));
  });
});
