/**
 * Help tips and website tips (spec 000 §7 'lookups websiteTip and helpTip for tips', §8 'Unknown website-tip
 * code: 未找到对应code的提示. Unknown help-tip key: 未找到对应的提示'; issue 18).
 *
 * A schema asks for a tip with a void node `{ "x-component": "HelpTip", "x-component-props": { "code":
 * "basic_patent" } }` (`kind: "website"` for a website tip). The text is the entry of the system dictionary
 * `help_tip` (or `websiteTip`) whose dictKey is the code: the first line of `dictValue` (`dictValueEn` in
 * English) is the tip's title, the rest its text; administrators maintain them in 字典管理. An unknown code shows
 * the spec's message. `helpEntries(entries, lang)` is the same reading for the help centre.
 */
import { Alert, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDict, type DictEntry } from './DictSelect.js';
import { addComponentTexts } from './texts.js';

export const HELP_TIP_DICT = 'help_tip';
export const WEBSITE_TIP_DICT = 'websiteTip';

export const HELP_TIP_TEXTS = {
  'cmp.tip.unknownHelp': { zh: '未找到对应的提示', en: 'No tip found for this key' },
  'cmp.tip.unknownWebsite': { zh: '未找到对应code的提示', en: 'No tip found for this code' },
};
// the shell renders this component directly, before the registry (which registers the same texts) has loaded
addComponentTexts(HELP_TIP_TEXTS);

/** A tip: its key, title and text in `lang`. */
export interface HelpEntry {
  key: string;
  title: string;
  text: string;
}

/** Dictionary entries as tips: the first line is the title, the rest the text (in `lang`, zh when no en). */
export function helpEntries(entries: DictEntry[] | undefined, lang: 'zh' | 'en'): HelpEntry[] {
  return (Array.isArray(entries) ? entries : []).map((e) => {
    const value = (lang === 'en' && e.dictValueEn ? e.dictValueEn : e.dictValue) ?? '';
    const [title, ...rest] = value.split(/\r?\n/);
    return { key: String(e.dictKey), title: title.trim(), text: rest.join('\n').trim() };
  });
}

/** A dictionary-tree node of the help articles (dictionary-tree?code=help_tip). */
export type HelpNode = DictEntry & { children?: HelpNode[] };

/** A group of the help centre: a section (an entry with entries under it; key '' for the top-level articles). */
export interface HelpSection {
  key: string;
  title: string;
  entries: HelpEntry[];
}

/**
 * The help centre's sections from the help_tip tree (spec 000 §7 'a dictionary-tree call with code help_tip'):
 * the top-level articles first (section ''), then one section per entry that has entries under it (its title
 * the entry's first line; its articles every entry below it, depth first).
 */
export function helpSections(nodes: HelpNode[] | undefined, lang: 'zh' | 'en'): HelpSection[] {
  const roots = Array.isArray(nodes) ? nodes : [];
  const below = (n: HelpNode): HelpNode[] => (n.children ?? []).flatMap((c) => (c.children?.length ? below(c) : [c]));
  const top: HelpSection = { key: '', title: '', entries: helpEntries(roots.filter((n) => !n.children?.length), lang) };
  const sections = roots.filter((n) => n.children?.length).map((n) => ({ key: String(n.dictKey), title: helpEntries([n], lang)[0].title, entries: helpEntries(below(n), lang) }));
  return [top, ...sections].filter((x) => x.entries.length > 0);
}

export interface HelpTipProps {
  code?: string;
  kind?: 'help' | 'website';
}

export function HelpTip({ code, kind = 'help' }: HelpTipProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { data, isLoading } = useDict(kind === 'website' ? WEBSITE_TIP_DICT : HELP_TIP_DICT);
  if (isLoading) return <Skeleton active paragraph={{ rows: 1 }} title={false} />;
  const tip = helpEntries(data, lang).find((e) => e.key === code);
  if (!tip) return <Alert className="kc-help-tip" type="warning" showIcon message={t(kind === 'website' ? 'cmp.tip.unknownWebsite' : 'cmp.tip.unknownHelp')} style={{ marginBottom: 16 }} />;
  return (
    <Alert
      className="kc-help-tip"
      type="info"
      showIcon
      message={tip.title}
      description={tip.text ? <div style={{ whiteSpace: 'pre-line' }}>{tip.text}</div> : undefined}
      style={{ marginBottom: 16 }}
    />
  );
}
