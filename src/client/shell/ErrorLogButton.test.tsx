// @vitest-environment jsdom
/**
 * The client error log (spec 000 §3 error log entry, §8 'uncaught front-end errors are logged locally … and
 * sent later', §9 'log badge max 99'; issue 9 'client errors submitted by the shell land in the error log'):
 * uncaught errors and unhandled rejections are kept with type, url, message, stack, info and time; the top
 * bar's badge counts them (99+ at most); signed in, they are posted to the error log endpoint and dropped once
 * accepted, kept when refused; the dialog lists them (error shown as bug) and clears them after a confirm.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router-dom';
import { ErrorLogButton } from './ErrorLogButton.js';
import { RouteBoundary } from './RouteBoundary.js';
import { clearErrorLog, ERROR_LOG_KEY, ERROR_LOG_URL, installErrorCapture, readErrorLog, recordError } from './error-log.js';
import { fail, FakeServer, ok, renderApp, setLang } from '../runtime/test-utils.js';
import { signInAs } from '../runtime/fixtures.js';
import { clearSession } from '../runtime/session.js';

let server: FakeServer;
beforeEach(() => {
  setLang('zh');
  clearErrorLog();
  server = new FakeServer().install();
  signInAs('kygl');
  installErrorCapture(window);
});
afterEach(() => clearErrorLog());

const throwUncaught = (error: Error) =>
  window.dispatchEvent(new ErrorEvent('error', { error, message: error.message, filename: 'http://localhost/assets/index.js', lineno: 12, colno: 34 }));

describe('capture', () => {
  it('an uncaught error is kept with its type, page, message, stack, place and time', () => {
    window.history.pushState({}, '', '/basic/patent?current=2');
    throwUncaught(new TypeError("Cannot read properties of undefined (reading 'name')"));
    const [e] = readErrorLog();
    expect(e).toMatchObject({
      type: 'error',
      url: '/basic/patent?current=2',
      message: "TypeError: Cannot read properties of undefined (reading 'name')",
      info: 'http://localhost/assets/index.js:12:34',
    });
    expect(e.stack).toContain('TypeError');
    expect(e.time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // kept across a reload
    expect(JSON.parse(localStorage.getItem(ERROR_LOG_KEY)!)).toHaveLength(1);
  });

  it('an unhandled rejection is kept; a ResizeObserver notice is not', () => {
    window.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: new Error('加载失败') }));
    window.dispatchEvent(new ErrorEvent('error', { message: 'ResizeObserver loop completed with undelivered notifications.' }));
    expect(readErrorLog().map((e) => [e.type, e.message])).toEqual([['unhandledrejection', 'Error: 加载失败']]);
  });

  it('a page that fails to render is kept (the routes\' error boundary) and the 500 page shows', async () => {
    const boom = new Error('列表渲染失败');
    function Broken(): React.ReactElement {
      throw boom;
    }
    renderApp(
      <App>
        <MemoryRouter initialEntries={['/basic/patent']}>
          <RouteBoundary>
            <Broken />
          </RouteBoundary>
        </MemoryRouter>
      </App>,
    );
    expect(await screen.findByText('服务器出错了')).toBeTruthy();
    // once, however many ways it was reported (React's development build also replays it on the window)
    await waitFor(() => expect(readErrorLog().map((e) => [e.type, e.message])).toEqual([['error', 'Error: 列表渲染失败']]));
    expect(readErrorLog()[0].stack).toContain('ErrorLogButton.test');
  });

  it('keeps the newest 100', () => {
    for (let i = 0; i < 120; i++) recordError('error', new Error(`e${i}`));
    const log = readErrorLog();
    expect(log).toHaveLength(100);
    expect([log[0].message, log[99].message]).toEqual(['Error: e20', 'Error: e119']);
  });
});

describe('upload', () => {
  it('signed in, the kept errors are posted to the error log and dropped once accepted', async () => {
    server.on('POST', ERROR_LOG_URL, (r: { body: unknown }) => ok({ count: (r.body as unknown[]).length }));
    throwUncaught(new Error('页面出错'));
    recordError('unhandledrejection', '超时');
    renderApp(<App><ErrorLogButton /></App>);
    await waitFor(() => expect(readErrorLog()).toHaveLength(0));
    const [call] = server.calls(ERROR_LOG_URL, 'POST');
    expect((call.body as Array<Record<string, string>>).map((e) => [e.type, e.message])).toEqual([['error', 'Error: 页面出错'], ['unhandledrejection', '超时']]);
    expect(call.headers['Blade-Auth']).toBe('bearer test-token');
    expect(screen.queryByRole('button', { name: '错误日志' })).toBeNull();
  });

  it('refused, they stay: the badge counts them and the dialog lists them, error shown as bug', async () => {
    server.on('POST', ERROR_LOG_URL, fail(500, '服务器出错'));
    throwUncaught(new Error('页面出错'));
    renderApp(<App><ErrorLogButton /></App>);
    await waitFor(() => expect(server.calls(ERROR_LOG_URL).length).toBeGreaterThan(0));
    expect(readErrorLog()).toHaveLength(1);
    fireEvent.click(await screen.findByRole('button', { name: '错误日志' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('bug')).toBeTruthy();
    expect(within(dialog).getByText('Error: 页面出错')).toBeTruthy();
    // 上传服务器 tries again; still refused: the entry stays
    fireEvent.click(within(dialog).getByRole('button', { name: /上传服务器/ }));
    expect(await screen.findByText('上传失败，稍后自动重试')).toBeTruthy();
    expect(readErrorLog()).toHaveLength(1);
    // 清空本地日志 after a confirm
    fireEvent.click(within(dialog).getByRole('button', { name: /清空本地日志/ }));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(readErrorLog()).toHaveLength(0));
  });

  it('the badge shows at most 99+', async () => {
    server.on('POST', ERROR_LOG_URL, fail(500, '服务器出错'));
    for (let i = 0; i < 120; i++) recordError('error', new Error(`e${i}`));
    renderApp(<App><ErrorLogButton /></App>);
    expect(await screen.findByText('99+')).toBeTruthy();
  });

  it('signed out, nothing is sent', async () => {
    clearSession();
    recordError('error', new Error('登录页出错'));
    renderApp(<App><ErrorLogButton /></App>);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.calls(ERROR_LOG_URL)).toHaveLength(0);
    expect(readErrorLog()).toHaveLength(1);
  });

  it('English', async () => {
    setLang('en');
    server.on('POST', ERROR_LOG_URL, fail(500, 'Server error'));
    recordError('error', new Error('boom'));
    renderApp(<App><ErrorLogButton /></App>);
    fireEvent.click(await screen.findByRole('button', { name: 'Error log' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: /Upload to the server/ })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: /Clear the local log/ })).toBeTruthy();
    expect(within(dialog).getByText('Message')).toBeTruthy();
  });
});
