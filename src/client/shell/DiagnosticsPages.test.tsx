// @vitest-environment jsdom
/** The public diagnostic pages /userAgent and /test/index (spec 000 §2.2; issue 18). */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { screen } from '@testing-library/react';
import { TestPage, UserAgentPage } from './DiagnosticsPages.js';
import { FakeServer, fail, renderApp, setLang } from '../runtime/test-utils.js';

let server: FakeServer;
beforeEach(() => {
  setLang('zh');
  server = new FakeServer().install();
});

describe('diagnostic pages', () => {
  it('/userAgent shows what the browser tells the server', () => {
    renderApp(<UserAgentPage />);
    expect(screen.getByText('浏览器信息')).toBeTruthy();
    expect(screen.getByText(navigator.userAgent)).toBeTruthy();
    expect(screen.getByText(`${window.innerWidth} × ${window.innerHeight}`)).toBeTruthy();
  });

  it('/test/index says whether the API answers', async () => {
    server.on('GET', '/api/blade-system/tenant/info', null);
    const ok = renderApp(<TestPage />);
    expect(await screen.findByText(/接口正常 · \d+ ms/)).toBeTruthy();
    expect(server.calls('/api/blade-system/tenant/info')).toHaveLength(1);
    ok.unmount();
    server.on('GET', '/api/blade-system/tenant/info', fail(500, '服务器出错'));
    renderApp(<TestPage />);
    expect(await screen.findByText(/接口不可用 · HTTP 500/)).toBeTruthy();
  });
});
