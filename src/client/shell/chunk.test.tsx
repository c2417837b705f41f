// @vitest-environment jsdom
/** Lazy screens that cannot load (spec 000 §8, issue 18): 'Loading chunk failed' after 120 s, with a reload. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { fireEvent, screen } from '@testing-library/react';
import { CHUNK_TIMEOUT_MS, ChunkLoadError, isChunkError, withChunkTimeout } from './chunk.js';
import { ChunkFailed } from './RouteError.js';
import { renderApp, setLang } from '../runtime/test-utils.js';

afterEach(() => vi.useRealTimers());

describe('chunk loading', () => {
  it('gives up after 120 s with Loading chunk failed; a failed import is one too; a loaded one passes', async () => {
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
    vi.useFakeTimers();
    const never = withChunkTimeout(() => new Promise<never>(() => {})).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 1);
    let settled = false;
    void never.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const e = await never;
    expect(e).toBeInstanceOf(ChunkLoadError);
    expect((e as Error).message).toBe('Loading chunk failed');
    vi.useRealTimers();
    const gone = await withChunkTimeout(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).catch((x: unknown) => x);
    expect(isChunkError(gone)).toBe(true);
    expect(await withChunkTimeout(() => Promise.resolve({ default: 1 }))).toEqual({ default: 1 });
    expect(isChunkError(new TypeError('Failed to fetch dynamically imported module: /assets/y.js'))).toBe(true);
    expect(isChunkError(new Error('x is undefined'))).toBe(false);
  });

  it('offers a reload, in zh and en', () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    setLang('zh');
    const view = renderApp(<ChunkFailed />);
    expect(screen.getByText('页面加载失败（Loading chunk failed）')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /重新加载/ }));
    expect(reload).toHaveBeenCalledTimes(1);
    view.unmount();
    setLang('en');
    renderApp(<ChunkFailed />);
    expect(screen.getByText('Loading chunk failed')).toBeTruthy();
    vi.unstubAllGlobals();
    setLang('zh');
  });
});
