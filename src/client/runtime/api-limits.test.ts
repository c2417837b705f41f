// @vitest-environment jsdom
/**
 * The API client's limits (spec 000 §8, §9; issue 18): a request gives up after 300,000 ms and says so; a file
 * reply that is really an error (a failed status, or a JSON envelope whose code is not 200) is decoded and its
 * message shown, never saved as the file. Error toasts come one at a time, and one still waiting can be cancelled.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, cancelErrorToast, get, REQUEST_TIMEOUT_MS, setErrorToaster, toastError } from './api.js';
import { blobFailure } from './download.js';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('request timeout', () => {
  it('is 300,000 ms: an unanswered request is aborted then and rejects with 请求超时', async () => {
    expect(REQUEST_TIMEOUT_MS).toBe(300_000);
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
      signal = init.signal ?? undefined;
      return new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    });
    const answer = get('/api/slow', undefined, { silent: true }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const e = await answer;
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe(0);
    expect((e as ApiError).message).toBe('请求超时，请稍后重试');
  });
});

describe('blob error replies', () => {
  const blob = (text: string) => new Blob([text]);
  it('decodes a failed status or a JSON envelope with an error code; a file is a file', async () => {
    expect(await blobFailure(false, 'application/json', blob(JSON.stringify({ code: 403, success: false, msg: '没有权限' })))).toBe('没有权限');
    expect(await blobFailure(true, 'application/json; charset=utf-8', blob(JSON.stringify({ code: 400, msg: '文件不存在' })))).toBe('文件不存在');
    expect(await blobFailure(false, 'text/html', blob('<html>oops</html>'))).toBe('未知错误');
    expect(await blobFailure(true, 'application/pdf', blob('%PDF-1.4'))).toBeNull();
    expect(await blobFailure(true, 'application/json', blob(JSON.stringify({ name: 'a data file' })))).toBeNull();
    expect(await blobFailure(true, 'application/json', blob(JSON.stringify({ code: 200, data: {} })))).toBeNull();
  });
});

describe('error toasts (spec 000 §8: one at a time, 300 ms after the failure)', () => {
  it('shows one toast for failures in a row, and a cancelled one never opens', async () => {
    vi.useFakeTimers();
    const shown: string[] = [];
    setErrorToaster((text) => shown.push(text));
    toastError('接口不存在: /a');
    toastError('接口不存在: /b');
    await vi.advanceTimersByTimeAsync(299);
    expect(shown).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(shown).toEqual(['接口不存在: /a']);
    cancelErrorToast();
    toastError('接口不存在: /c');
    cancelErrorToast();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(shown).toEqual(['接口不存在: /a']);
  });
});
