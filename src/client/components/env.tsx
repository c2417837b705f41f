/**
 * The renderer environment of the registry components (DESIGN §3; amis's `RendererEnv`): what a component
 * needs from the application — the API client, the session's language and theme, file downloads — handed
 * down through React context instead of imported from the runtime or the shell. Components stay the bottom
 * layer of the client (shell → runtime → components, no way back: components/layering.test.ts), and a
 * component renders anywhere an environment is provided: the app (runtime/env.tsx builds it from the API
 * client and the session), the tests (runtime/test-utils `renderApp`), Storybook (storybook/preview.tsx).
 *
 * - `RendererEnv`: `{ lang, themeColor, request(method, url, options), download(link, name), openRecord?(resource, id),
 *   treeList?(spec) }`.
 * - `RendererEnvProvider`: provides one; `useEnv()` reads it and throws when none is provided (a component
 *   rendered outside the app would otherwise call no server at all, silently).
 * - `useGet(url, params, options)`: swr of `GET url?params` through the environment's API client, keyed by
 *   `[url, paramsKey(params)]` (params as sorted JSON, so equal params share one cache entry; DESIGN §7). A
 *   null url fetches nothing. Errors are the API client's (already toasted unless `silent`). The runtime's
 *   data hooks re-export this one (runtime/hooks.ts), so a component's fetch and a screen's share a cache and
 *   are revalidated together after a submit.
 * - `useLang()`: the environment's language, 'zh' or 'en'.
 * The context and its types are defined in env-context.tsx and re-exported here: the app's provider imports
 * that module alone, so that swr stays out of the login route (DESIGN §10).
 */
import useSWR, { type SWRConfiguration } from 'swr';
import { useEnv, type Params } from './env-context.js';

// the context, its types and hooks live in env-context.tsx (the login route carries them without swr)
export { RendererEnvProvider, useEnv, useLang, type EnvRequestOptions, type Lang, type Params, type RendererEnv, type TreeListSpec } from './env-context.js';

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

/** swr of `GET url?params` through the environment's API client; the key is `[url, paramsKey(params)]`. */
export function useGet<T>(url: string | null, params?: Params, options: GetOptions = {}) {
  const { request } = useEnv();
  const { silent, ...swr } = options;
  return useSWR<T>(
    url ? [url, paramsKey(params)] : null,
    ([u, p]: [string, string]) => request<T>('GET', u, { params: p ? (Object.fromEntries(JSON.parse(p) as Array<[string, string]>) as Params) : undefined, silent }),
    { revalidateOnFocus: false, shouldRetryOnError: false, ...swr },
  );
}
