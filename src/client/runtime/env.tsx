/**
 * The application's renderer environment (components/env.tsx, amis's `RendererEnv`): the registry
 * components reach the API client, the session's language and theme and file downloads through it, never by
 * importing the runtime or the shell.
 *
 * - `apiEnv(lang, themeColor)`: the environment over the API client (runtime/api.ts `request`, which applies
 *   the contract: headers, envelope, 401, toasts) and `downloadFile`.
 * - `RuntimeEnvProvider`: provides `apiEnv` for the current session (a new environment when the language or
 *   the theme changes, so components re-render in the new language). The shell's App, the test helpers'
 *   `renderApp` and Storybook's preview render everything inside it.
 */
import React, { useMemo } from 'react';
import { RendererEnvProvider, type EnvRequestOptions, type RendererEnv } from '../components/env.js';
import { request as apiRequest } from './api.js';
import { downloadFile } from './download.js';
import { useSession } from './session.js';

/** The environment over the API client, for `lang` and `themeColor`. */
export function apiEnv(lang: 'zh' | 'en', themeColor: string): RendererEnv {
  return {
    lang,
    themeColor,
    request<T>(method: 'GET' | 'POST', url: string, options: EnvRequestOptions = {}) {
      return apiRequest<T>(method, url, options);
    },
    download: downloadFile,
  };
}

/** Provides the API client's environment for the current session to `children`. */
export function RuntimeEnvProvider({ children }: { children?: React.ReactNode }) {
  const { lang, themeColor } = useSession();
  const env = useMemo(() => apiEnv(lang, themeColor), [lang, themeColor]);
  return <RendererEnvProvider env={env}>{children}</RendererEnvProvider>;
}
