// @vitest-environment jsdom
/**
 * The routes' error boundary (RouteBoundary.tsx, doing what React Router's errorElement did under the data
 * router): a page that throws shows the 500 page in its place and is kept in the client error log; another
 * address clears the error (the menu leads out of a broken page); a screen whose code could not be loaded shows
 * 'Loading chunk failed' with a reload instead.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { Link, MemoryRouter, Route, Routes } from 'react-router-dom';
import { RouteBoundary } from './RouteBoundary.js';
import { ChunkLoadError } from './chunk.js';
import { clearErrorLog, readErrorLog } from './error-log.js';
import { FakeServer, renderApp, setLang } from '../runtime/test-utils.js';

beforeEach(() => {
  setLang('zh');
  clearErrorLog();
  new FakeServer().install();
});

function Broken({ error }: { error: Error }): React.ReactElement {
  throw error;
}

const app = (error: Error) =>
  renderApp(
    <App>
      <MemoryRouter initialEntries={['/broken']}>
        <Link to="/fine">去别处</Link>
        <RouteBoundary>
          <Routes>
            <Route path="/broken" element={<Broken error={error} />} />
            <Route path="/fine" element={<div>正常页面</div>} />
          </Routes>
        </RouteBoundary>
      </MemoryRouter>
    </App>,
  );

describe('RouteBoundary', () => {
  it('a page that throws shows the 500 page and is logged; another address shows its page again', async () => {
    app(new Error('页面渲染失败'));
    expect(await screen.findByText('服务器出错了')).toBeTruthy();
    await waitFor(() => expect(readErrorLog().map((e) => [e.type, e.message])).toEqual([['error', 'Error: 页面渲染失败']]));
    fireEvent.click(screen.getByText('去别处'));
    expect(await screen.findByText('正常页面')).toBeTruthy();
    expect(screen.queryByText('服务器出错了')).toBeNull();
  });

  it('a screen whose code could not be loaded offers a reload', async () => {
    app(new ChunkLoadError('timeout'));
    expect(await screen.findByText('页面加载失败（Loading chunk failed）')).toBeTruthy();
    expect(screen.getByRole('button', { name: /重新加载/ })).toBeTruthy();
    expect(screen.queryByText('服务器出错了')).toBeNull();
  });
});
