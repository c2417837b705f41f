/**
 * Data hooks of the runtime's screens (DESIGN §7: data through swr hooks keyed by endpoint and params).
 *
 * - `useGet(url, params, options)`, `paramsKey`, `Params`, `GetOptions`: the registry components' data hook
 *   (components/env.tsx), re-exported: one swr keying (`[url, paramsKey(params)]`) for screens and
 *   components, through the renderer environment's API client (runtime/env.tsx provides the app's).
 * - `useRevalidate()`: a function that revalidates every cached GET under a base path (`${api}/`), so lists
 *   (and details) refresh after a submit or a remove.
 * - `useLang()`: the session language, 'zh' or 'en'.
 */
import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import { useSession } from './session.js';

export { paramsKey, useGet, type GetOptions, type Params } from '../components/env.js';

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
