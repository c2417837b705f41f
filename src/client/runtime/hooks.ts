/**
 * Data hooks (DESIGN §7: data through swr hooks keyed by endpoint and params).
 *
 * - `useGet(url, params, options)`: swr of `GET url?params`, keyed by `[url, params]` (params as sorted JSON,
 *   so equal params share one cache entry). A null url fetches nothing. Errors are the api client's
 *   `ApiError` (already toasted unless `silent`).
 * - `useRevalidate()`: a function that revalidates every cached GET under a base path (`${api}/`), so lists
 *   (and details) refresh after a submit or a remove.
 * - `useLang()`: the session language, 'zh' or 'en'.
 */
import { useCallback } from 'react';
import useSWR, { useSWRConfig, type SWRConfiguration } from 'swr';
import { get } from './api.js';
import { useSession } from '../shell/session.js';

export type Params = Record<string, string | number | boolean | undefined | null>;

/** Canonical JSON of params (sorted keys, empty values dropped) for cache keys. */
export function paramsKey(params?: Params): string {
  if (!params) return '';
  const kept = Object.keys(params)
    .filter((k) => params[k] !== undefined && params[k] !== null && params[k] !== '')
    .sort()
    .map((k) => [k, params[k]]);
  return JSON.stringify(kept);
}

export interface GetOptions extends SWRConfiguration {
  /** Do not toast failures (the caller shows them). */
  silent?: boolean;
}

/** swr of `GET url?params`; the key is `[url, paramsKey(params)]`. */
export function useGet<T>(url: string | null, params?: Params, options: GetOptions = {}) {
  const { silent, ...swr } = options;
  return useSWR<T>(url ? [url, paramsKey(params)] : null, ([u, p]: [string, string]) => get<T>(u, p ? Object.fromEntries(JSON.parse(p) as Array<[string, string]>) : undefined, { silent }), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
    ...swr,
  });
}

/** Answers a function revalidating every cached GET whose url starts with `base`. */
export function useRevalidate(): (base: string) => Promise<unknown> {
  const { mutate } = useSWRConfig();
  return useCallback(
    (base: string) => mutate((key) => Array.isArray(key) && typeof key[0] === 'string' && (key[0] === base || key[0].startsWith(base + '/'))),
    [mutate],
  );
}

/** The session language. */
export function useLang(): 'zh' | 'en' {
  return useSession().lang;
}
