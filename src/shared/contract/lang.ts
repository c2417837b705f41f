/**
 * The languages of the platform (DESIGN §7: zh default, en complete), one copy for server and client:
 * `Lang`, `LANGS`, `DEFAULT_LANG`, and `langFromHeader(Accept-Language)`: 'en' when the first language the
 * header names is English, else 'zh' (the default, also without a header).
 */
export type Lang = 'zh' | 'en';
export const LANGS: readonly Lang[] = ['zh', 'en'];
export const DEFAULT_LANG: Lang = 'zh';

/** The language of an `Accept-Language` header (see the module comment). */
export function langFromHeader(header: string | undefined): Lang {
  if (!header) return DEFAULT_LANG;
  const first = header.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en' : DEFAULT_LANG;
}
