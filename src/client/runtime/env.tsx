/**
 * The application's renderer environment (components/env.tsx, amis's `RendererEnv`): the registry
 * components reach the API client, the session's language and theme, file downloads and record details
 * through it, never by importing the runtime or the shell.
 *
 * - `apiEnv(lang, themeColor, openRecord?)`: the environment over the API client (runtime/api.ts `request`,
 *   which applies the contract: headers, envelope, 401, toasts) and `downloadFile`.
 * - `RuntimeEnvProvider`: provides `apiEnv` for the current session (a new environment when the language or
 *   the theme changes, so components re-render in the new language), and hosts the record a component asked
 *   to see (`openRecord(resource, id)`: the resource's schema from the schema endpoint, its DetailView over
 *   the page, one at a time), and renders a tree resource's tree-and-list screen (`treeList`: TreeListView).
 *   The shell's App, the test helpers' `renderApp` and Storybook's preview render
 *   everything inside it.
 */
import React, { lazy, Suspense, useCallback, useMemo, useState } from 'react';
// the context alone (not components/env.tsx, whose useGet brings swr into the login route: DESIGN §10)
import { RendererEnvProvider, type EnvRequestOptions, type RendererEnv } from '../components/env-context.js';
import { request as apiRequest } from './api.js';
import { downloadFile } from './download.js';
import { useSession } from './session.js';

// the record view (with the schema helpers) and the tree-and-list screen pull in the form runtime and every
// registered component: loaded when first shown, so the login page does not download them (DESIGN §10
// login-route budget)
const RecordDetail = lazy(() => import('./RecordDetail.js').then((m) => ({ default: m.RecordDetail })));
const TreeListView = lazy(() => import('./TreeListView.js').then((m) => ({ default: m.TreeListView })));

/** The environment over the API client, for `lang` and `themeColor`. */
export function apiEnv(lang: 'zh' | 'en', themeColor: string, openRecord?: RendererEnv['openRecord']): RendererEnv {
  return {
    treeList: (spec) => (
      <Suspense fallback={null}>
        <TreeListView key={`${spec.resource}:${spec.layout}`} {...spec} />
      </Suspense>
    ),
    lang,
    themeColor,
    request<T>(method: 'GET' | 'POST', url: string, options: EnvRequestOptions = {}) {
      return apiRequest<T>(method, url, options);
    },
    download: downloadFile,
    openRecord,
  };
}

/** Provides the API client's environment for the current session to `children`. */
export function RuntimeEnvProvider({ children }: { children?: React.ReactNode }) {
  const { lang, themeColor } = useSession();
  const [shown, setShown] = useState<{ resource: string; id: string } | null>(null);
  const openRecord = useCallback((resource: string, id: string) => setShown({ resource, id }), []);
  const env = useMemo(() => apiEnv(lang, themeColor, openRecord), [lang, themeColor, openRecord]);
  return (
    <RendererEnvProvider env={env}>
      {children}
      {shown ? (
        <Suspense fallback={null}>
          <RecordDetail key={`${shown.resource}:${shown.id}`} resource={shown.resource} id={shown.id} onClose={() => setShown(null)} />
        </Suspense>
      ) : null}
    </RendererEnvProvider>
  );
}
