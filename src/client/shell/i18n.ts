/**
 * i18next set-up (DESIGN §7: zh default, en complete). UI texts live beside the code of each area as maps of
 * key → `{ zh, en }` (shell/texts.ts, runtime/texts.ts, components/texts.ts, designer/texts.ts), so a text cannot exist in one
 * language only; a test checks every entry has both. Schema labels do not come from here: they come from the
 * schema (title / titleEn).
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { shellTexts } from './texts.js';
import { runtimeTexts } from '../runtime/texts.js';
import { componentTexts } from '../components/texts.js';
import { designerTexts } from '../../../designer/texts.js';

export type Texts = Record<string, { zh: string; en: string }>;

export const allTexts: Texts = { ...shellTexts, ...runtimeTexts, ...componentTexts, ...designerTexts };

function pick(lang: 'zh' | 'en'): Record<string, string> {
  return Object.fromEntries(Object.entries(allTexts).map(([k, v]) => [k, v[lang]]));
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

export default i18n;
