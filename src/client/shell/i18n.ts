/**
 * i18next set-up (DESIGN §7: zh default, en complete). UI texts live beside the code of each area as maps of
 * key → `{ zh, en }` (shell/texts.ts, shell/error-log-texts.ts, runtime/texts.ts, components/texts.ts), so a text cannot exist in one
 * language only; a test checks every entry has both. The designer's texts (designer/texts.ts) come with the
 * designer's chunk, which adds them itself (`registerDesignerTexts`): the login route does not carry them
 * (DESIGN §10). Schema labels do not come from here: they come from the
 * schema (title / titleEn).
 *
 * Importing this module initialises i18next's default instance (the app's entry imports it first; the client
 * tests' set-up file too). The runtime and the components use that instance (`import i18n from 'i18next'`,
 * react-i18next's `useTranslation`) without importing the shell. A component's own texts come with its
 * registration (components/registration.ts), possibly after this set-up ran — the registry loads lazily with
 * the schema runtime —, so texts added later are fed to i18next as they arrive (`onComponentTexts`).
 *
 * - `allTexts`: every text known so far, key → `{ zh, en }`.
 * - `Texts`: the shape of a texts map (defined in components/texts.ts, re-exported).
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { shellTexts } from './texts.js';
import { errorLogTexts } from './error-log-texts.js';
import { runtimeTexts } from '../runtime/texts.js';
import { componentTexts, onComponentTexts, type Texts } from '../components/texts.js';

export type { Texts };

export const allTexts: Texts = { ...shellTexts, ...errorLogTexts, ...runtimeTexts, ...componentTexts };

function pick(lang: 'zh' | 'en', texts: Texts = allTexts): Record<string, string> {
  return Object.fromEntries(Object.entries(texts).map(([k, v]) => [k, v[lang]]));
}

function initialLang(): 'zh' | 'en' {
  try {
    const raw = localStorage.getItem('kc-session');
    return raw && JSON.parse(raw).lang === 'en' ? 'en' : 'zh';
  } catch {
    return 'zh';
  }
}

void i18n.use(initReactI18next).init({
  resources: { zh: { translation: pick('zh') }, en: { translation: pick('en') } },
  lng: initialLang(),
  fallbackLng: 'zh',
  keySeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

onComponentTexts((texts) => {
  Object.assign(allTexts, texts);
  for (const lang of ['zh', 'en'] as const) i18n.addResources(lang, 'translation', pick(lang, texts));
});

export default i18n;
