/**
 * The help centre (/helpCenter, spec 000 §2.2: opened in a new window; `?code=003` from help links; issue 18):
 * the help articles of the `help_tip` dictionary tree (spec 000 §7 'a dictionary-tree call with code help_tip';
 * components/HelpTip.tsx `helpSections`: the top-level articles, then a section per entry with entries under
 * it; the first line of an entry is its title, the rest its text), searchable by title and text, the one named by `code` opened and
 * scrolled to, and the website tip `help_center` below them. Administrators write the articles in 字典管理
 * (help_tip, websiteTip). The page is public (no login): both dictionaries are public system dictionaries
 * (`isPublic`, read anonymously through dictionary?code=).
 */
import { useEffect, useMemo, useState } from 'react';
import { Card, Collapse, Empty, Input, Layout, Typography } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useGet } from '../runtime/hooks.js';
import { HelpTip, helpSections, HELP_TIP_DICT, type HelpNode } from '../components/HelpTip.js';

/** The help articles' tree (public for visitors: the dictionary is marked isPublic). */
const TREE_URL = '/api/blade-system/dict/dictionary-tree';

export function HelpCenterPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [params] = useSearchParams();
  const code = params.get('code') ?? undefined;
  const [q, setQ] = useState('');
  const { data, isLoading } = useGet<HelpNode[]>(TREE_URL, { code: HELP_TIP_DICT }, { revalidateIfStale: false });
  const sections = useMemo(() => helpSections(data, lang), [data, lang]);
  const all = useMemo(() => sections.flatMap((x) => x.entries), [sections]);
  const needle = q.trim().toLowerCase();
  const hit = (e: { title: string; text: string }) => !needle || `${e.title}\n${e.text}`.toLowerCase().includes(needle);
  const shown = sections.map((x) => ({ ...x, entries: x.entries.filter(hit) })).filter((x) => x.entries.length > 0);
  const [open, setOpen] = useState<string[]>(code ? [code] : []);

  useEffect(() => {
    document.title = t('help.title');
  }, [t]);
  useEffect(() => {
    if (code && all.some((e) => e.key === code)) document.getElementById(`kc-help-${code}`)?.scrollIntoView?.({ block: 'start' });
  }, [code, all]);

  return (
    <Layout className="kc-help-center" style={{ minHeight: '100vh' }}>
      <Layout.Content style={{ maxWidth: 960, margin: '0 auto', padding: 24, width: '100%' }}>
        <Typography.Title level={3}>
          <QuestionCircleOutlined /> {t('help.title')}
        </Typography.Title>
        <Input.Search allowClear placeholder={t('help.search')} aria-label={t('help.search')} value={q} onChange={(e) => setQ(e.target.value)} style={{ marginBottom: 16 }} />
        <Card loading={isLoading}>
          {shown.length ? (
            shown.map((section) => (
              <section key={section.key} className="kc-help-section" style={{ marginBottom: 16 }}>
                {section.title && <Typography.Title level={5}>{section.title}</Typography.Title>}
                <Collapse
                  activeKey={needle ? section.entries.map((e) => e.key) : open}
                  onChange={(keys) => setOpen((was) => [...was.filter((k) => !section.entries.some((e) => e.key === k)), ...(Array.isArray(keys) ? keys : [keys])])}
                  items={section.entries.map((e) => ({
                    key: e.key,
                    label: <span id={`kc-help-${e.key}`}>{e.title}</span>,
                    children: <div style={{ whiteSpace: 'pre-line' }}>{e.text}</div>,
                  }))}
                />
              </section>
            ))
          ) : (
            <Empty description={t(needle ? 'help.none' : 'help.empty')} />
          )}
        </Card>
        <div style={{ marginTop: 16 }}>
          <HelpTip kind="website" code="help_center" />
        </div>
      </Layout.Content>
    </Layout>
  );
}
