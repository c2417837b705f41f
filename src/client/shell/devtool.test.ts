// @vitest-environment jsdom
/**
 * Developer-tool blocking (spec 000 §9 disable_devtool; issue 18): the keys that open the tools are swallowed,
 * the context menu too, docked tools cover the page with the message (zh, en) until they are closed; the
 * parameter read from client-params decides whether any of it happens.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { blockedKey, CLIENT_PARAMS_URL, devtoolsOpen, guardDevtools, GUARD_ID, installDevtoolGuard } from './devtool.js';
import { FakeServer, ok, setLang } from '../runtime/test-utils.js';

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) => ({ key: k, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });
const size = (outerWidth: number, innerWidth: number, outerHeight = 900, innerHeight = 820) => {
  Object.defineProperty(window, 'outerWidth', { configurable: true, value: outerWidth });
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: innerWidth });
  Object.defineProperty(window, 'outerHeight', { configurable: true, value: outerHeight });
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: innerHeight });
};

let lift: (() => void) | null = null;
beforeEach(() => {
  setLang('zh');
  size(1280, 1280);
});
afterEach(() => {
  lift?.();
  lift = null;
  vi.useRealTimers();
});

describe('devtool blocking', () => {
  it('knows the keys that open the tools or the source, and nothing else', () => {
    for (const k of [key('F12'), key('i', { ctrlKey: true, shiftKey: true }), key('J', { ctrlKey: true, shiftKey: true }), key('c', { metaKey: true, altKey: true }), key('u', { ctrlKey: true })]) expect(blockedKey(k), JSON.stringify(k)).toBe(true);
    for (const k of [key('i'), key('c', { ctrlKey: true }), key('v', { ctrlKey: true }), key('F5'), key('u', { ctrlKey: true, shiftKey: true })]) expect(blockedKey(k), JSON.stringify(k)).toBe(false);
    expect(devtoolsOpen({ outerWidth: 1280, innerWidth: 1270, outerHeight: 900, innerHeight: 820 })).toBe(false);
    expect(devtoolsOpen({ outerWidth: 1280, innerWidth: 780, outerHeight: 900, innerHeight: 820 })).toBe(true);
    expect(devtoolsOpen({ outerWidth: 1280, innerWidth: 1280, outerHeight: 900, innerHeight: 500 })).toBe(true);
  });

  it('when on: F12 and the context menu are swallowed, docked tools cover the page until closed', () => {
    vi.useFakeTimers();
    lift = installDevtoolGuard(window, 1000);
    const f12 = new KeyboardEvent('keydown', { key: 'F12', cancelable: true, bubbles: true });
    document.body.dispatchEvent(f12);
    expect(f12.defaultPrevented).toBe(true);
    const typing = new KeyboardEvent('keydown', { key: 'a', cancelable: true, bubbles: true });
    document.body.dispatchEvent(typing);
    expect(typing.defaultPrevented).toBe(false);
    const menu = new MouseEvent('contextmenu', { cancelable: true, bubbles: true });
    document.body.dispatchEvent(menu);
    expect(menu.defaultPrevented).toBe(true);
    expect(document.getElementById(GUARD_ID)).toBeNull();
    size(1280, 700);
    vi.advanceTimersByTime(1000);
    expect(document.getElementById(GUARD_ID)?.textContent).toBe('请关闭浏览器开发者工具后继续使用');
    size(1280, 1280);
    vi.advanceTimersByTime(1000);
    expect(document.getElementById(GUARD_ID)).toBeNull();
    lift();
    lift = null;
    const after = new KeyboardEvent('keydown', { key: 'F12', cancelable: true, bubbles: true });
    document.body.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(false);
  });

  it('the parameter decides: 0 blocks nothing, 1 blocks (the cover in English)', async () => {
    const server = new FakeServer().install();
    let value = '0';
    server.on('GET', CLIENT_PARAMS_URL, () => ok({ disable_devtool: value }));
    size(1280, 700);
    expect(await guardDevtools(window)).toBe(false);
    expect(document.getElementById(GUARD_ID)).toBeNull();
    setLang('en');
    value = '1';
    expect(await guardDevtools(window)).toBe(true);
    expect(document.getElementById(GUARD_ID)?.textContent).toBe('Please close the browser’s developer tools to continue');
    const f12 = new KeyboardEvent('keydown', { key: 'F12', cancelable: true, bubbles: true });
    document.body.dispatchEvent(f12);
    expect(f12.defaultPrevented).toBe(true);
    expect(server.calls(CLIENT_PARAMS_URL)).toHaveLength(2);
  });
});
