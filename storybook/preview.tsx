/**
 * What every story is rendered in — in Storybook and in the snapshot tests (composeStories with these
 * project annotations):
 *
 * - antd's ConfigProvider with the platform theme (#257e44, radius 4, as the app shell) and the antd locale
 *   of the language, inside antd's App (context-aware message / modal);
 * - SWR with a fresh cache per mounted story (no data leaks from one story to the next);
 * - the app's renderer environment (runtime/env.tsx: the API client, the session's language and theme), through
 *   which the registry components call the (mocked) API;
 * - the language: the toolbar global `locale` (中文 by default, English selectable) is written into the
 *   session and i18next, which the runtime reads (schema labels in zh or en, UI texts, dayjs);
 * - `beforeAll`: the API mock (storybook/mock.ts) replaces fetch for `/api/…`, so stories never hit a
 *   network.
 */
import React, { useLayoutEffect } from 'react';
import type { Decorator, Preview } from '@storybook/react-vite';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import enUS from 'antd/es/locale/en_US';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { SWRConfig } from 'swr';
import i18n from '../src/client/shell/i18n.js';
import { DEFAULT_THEME_COLOR, updateSession, useSession } from '../src/client/runtime/session.js';
import { RuntimeEnvProvider } from '../src/client/runtime/env.js';
import { installFetchMock } from './mock.js';
import type { Lang } from '../src/shared/contract/lang.js';


const theme = { token: { colorPrimary: DEFAULT_THEME_COLOR, borderRadius: 4 } };

/** Puts `lang` into the session and i18next; renders the story once the session speaks it. */
function LangSync({ lang, children }: { lang: Lang; children: React.ReactNode }) {
  const session = useSession();
  useLayoutEffect(() => {
    if (session.lang !== lang) updateSession({ lang });
    if (i18n.language !== lang) void i18n.changeLanguage(lang);
    dayjs.locale(lang === 'en' ? 'en' : 'zh-cn');
    document.documentElement.lang = lang === 'en' ? 'en' : 'zh-CN';
  }, [lang, session.lang]);
  return session.lang === lang ? <>{children}</> : null;
}

const withProviders: Decorator = (Story, context) => {
  const lang: Lang = context.globals.locale === 'en' ? 'en' : 'zh';
  return (
    <ConfigProvider locale={lang === 'en' ? enUS : zhCN} theme={theme}>
      <AntApp>
        <SWRConfig value={{ provider: () => new Map(), revalidateOnFocus: false, shouldRetryOnError: false }}>
          <RuntimeEnvProvider>
            <LangSync lang={lang}>
              <Story />
            </LangSync>
          </RuntimeEnvProvider>
        </SWRConfig>
      </AntApp>
    </ConfigProvider>
  );
};

const preview: Preview = {
  decorators: [withProviders],
  globalTypes: {
    locale: {
      description: '语言 / Language',
      toolbar: {
        title: '语言',
        icon: 'globe',
        items: [
          { value: 'zh', title: '中文' },
          { value: 'en', title: 'English' },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { locale: 'zh' },
  parameters: { layout: 'padded', controls: { disable: true } },
  beforeAll: () => installFetchMock(),
};

export default preview;
