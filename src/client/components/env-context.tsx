/**
 * The renderer environment's context (components/env.tsx describes the environment; DESIGN §3, amis's
 * `RendererEnv`): its types, `RendererEnvProvider` and `useEnv()` / `useLang()`. A module of its own, without
 * the data hook `useGet` (components/env.tsx, which brings swr): the app's provider (runtime/env.tsx) is part of
 * the login route, which must stay small (DESIGN §10), and a module's code goes wholly into one chunk. Import
 * from components/env.tsx, which re-exports all of this; only the provider's own module imports it directly.
 *
 * - `RendererEnv`: `{ lang, themeColor, request(method, url, options), download(link, name), openRecord?(resource, id),
 *   treeList?(spec) }`.
 * - `RendererEnvProvider`: provides one; `useEnv()` reads it and throws when none is provided (a component
 *   rendered outside the app would otherwise call no server at all, silently).
 * - `useLang()`: the environment's language, 'zh' or 'en'.
 */
import React, { createContext, useContext } from 'react';
import type { Lang } from '../../shared/contract/lang.js';

export type { Lang } from '../../shared/contract/lang.js';

/** Query parameters of a call; empty values are dropped. */
export type Params = Record<string, string | number | boolean | undefined | null>;

/** Options of one call through the API client. */
export interface EnvRequestOptions {
  /** Query parameters. */
  params?: Params;
  /** JSON body. */
  data?: unknown;
  /** Multipart body (uploads). */
  formData?: FormData;
  /** Do not toast a failure (the caller shows it). */
  silent?: boolean;
}

export interface RendererEnv {
  /** The session language. */
  lang: Lang;
  /** The theme's primary colour (charts draw with it). */
  themeColor: string;
  /**
   * One call through the API client (its headers, the envelope unwrapped): resolves with the envelope's data,
   * rejects with the client's error (an `Error` whose message is the server's `msg`), toasted unless `silent`.
   */
  request<T = unknown>(method: 'GET' | 'POST', url: string, options?: EnvRequestOptions): Promise<T>;
  /** Fetches a stored file with the API client's headers and saves it as `name`; false (after a toast) on failure. */
  download(link: string, name: string): Promise<boolean>;
  /**
   * Shows record `id` of resource `resource` (a schema name, e.g. `project/guide`) read-only over the page:
   * the resource's detail view, read through its own detail endpoint (the server's grants decide what is
   * answered). Absent where no runtime renders records; a component then offers no such link.
   */
  openRecord?(resource: string, id: string): void;
  /**
   * A tree resource's own screen as a tree of its nodes beside (`horizontal`) or above (`vertical`) the list of
   * the chosen node's children (runtime/TreeListView.tsx: the dictionary layouts). Absent where no runtime
   * renders lists.
   */
  treeList?(spec: TreeListSpec): React.ReactNode;
}

/** What `treeList` shows: a resource (`system/dict`) whose schema has `tree` and `lazy-tree`, and where the tree goes. */
export interface TreeListSpec {
  resource: string;
  layout: 'horizontal' | 'vertical';
  /** Fields of the chosen node a new child starts with besides its parent (e.g. a dictionary's `code`). */
  inherit?: string[];
  /** In English, the node field shown instead of the tree label when it holds a value (e.g. `dictValueEn`). */
  labelEnField?: string;
}

const EnvContext = createContext<RendererEnv | null>(null);

/** Provides `env` to the components below. */
export function RendererEnvProvider({ env, children }: { env: RendererEnv; children?: React.ReactNode }) {
  return <EnvContext.Provider value={env}>{children}</EnvContext.Provider>;
}

/** The environment provided above; throws when there is none. */
export function useEnv(): RendererEnv {
  const env = useContext(EnvContext);
  if (!env) throw new Error('No renderer environment: render components inside <RendererEnvProvider> (runtime/env.tsx provides the app’s)');
  return env;
}

/** The environment's language. */
export function useLang(): Lang {
  return useEnv().lang;
}
