/**
 * FullTextSearch: the back office's search screen (issue 14 "Search", "searchByGPT"; a page schema places it,
 * schemas/_pages/search.json). A keyword box over a `searchByEs` endpoint (`GET endpoint?keyword=&current=&size=`
 * → `{records: [{id, title, highlight}], total}`, ranked and highlighted by the server), the hits with their
 * highlighted passages (only `<em>` kept, everything else shown as text), the number found and paging; and,
 * when `gptEndpoint` is given and the server says it is configured (`?check=1` → `{configured}`), an 智能问答
 * button asking `gptEndpoint?keyword=` for an answer grounded on the hits — unconfigured, the button is not
 * shown.
 *
 * Props: `endpoint`, `gptEndpoint`, `size` (default 10); or `sources: [{key, label, labelEn, endpoint,
 * gptEndpoint?}]` — several searchable resources (portal content, each achievement type, project declarations:
 * every `<api>/searchByEs`), chosen by a switch above the box; each answers with the caller's data scope.
 *
 * The search is kept in the page's address (`?q=&source=&page=`, replaced, not pushed): it survives a reload and the
 * language switch (which renders the page anew) and can be sent as a link.
 */
import React, { useEffect, useState } from 'react';
import { Alert, Button, Empty, Input, List, Pagination, Segmented, Space, Spin, Typography } from 'antd';
import { RobotOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useEnv, useGet } from './env.js';

export interface SearchSource {
  key: string;
  label: string;
  labelEn?: string;
  endpoint: string;
  gptEndpoint?: string;
}

export interface FullTextSearchProps {
  endpoint?: string;
  gptEndpoint?: string;
  size?: number;
  sources?: SearchSource[];
}

interface Hit {
  id: string;
  title?: string;
  highlight?: string;
}

interface Page {
  records: Hit[];
  total: number;
  /** The search stopped counting at its window (the server's 100 ranked candidates): more matched. */
  totalBounded?: boolean;
}

interface Answer {
  configured: boolean;
  answer?: string;
  hits?: Hit[];
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** A server highlight as HTML: everything escaped but the `<em>` marks. */
export const highlightHtml = (s: string) => escape(s).replace(/&#60;(\/?)em&#62;/g, '<$1em>');

/** The search in the address: keyword, source and page (absent or bad: none, the first source, page 1). */
function searchInUrl(): { q: string; source: string | null; page: number } {
  if (typeof window === 'undefined') return { q: '', source: null, page: 1 };
  const p = new URLSearchParams(window.location.search);
  const page = Number(p.get('page'));
  return { q: (p.get('q') ?? '').trim().slice(0, 200), source: p.get('source'), page: Number.isInteger(page) && page > 0 ? page : 1 };
}

/** Writes the search into the address without a history entry (empty values leave it). */
function keepInUrl(q: string, source: string, page: number): void {
  if (typeof window === 'undefined') return;
  const url = new URL(window.location.href);
  const set = (k: string, v: string) => (v ? url.searchParams.set(k, v) : url.searchParams.delete(k));
  set('q', q);
  set('source', q ? source : '');
  set('page', q && page > 1 ? String(page) : '');
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url);
}

export function FullTextSearch({ endpoint: single, gptEndpoint: singleGpt, size = 10, sources }: FullTextSearchProps) {
  const { t, i18n } = useTranslation();
  const env = useEnv();
  const [initial] = useState(searchInUrl);
  const [chosen, setChosen] = useState(sources?.find((x) => x.key === initial.source)?.key ?? sources?.[0]?.key ?? '');
  const source = sources?.find((x) => x.key === chosen);
  const endpoint = source ? source.endpoint : single;
  const gptEndpoint = source ? source.gptEndpoint : singleGpt;
  const [keyword, setKeyword] = useState(initial.q);
  const [current, setCurrent] = useState(initial.q ? initial.page : 1);
  useEffect(() => keepInUrl(keyword, chosen, current), [keyword, chosen, current]);
  const [answer, setAnswer] = useState<{ loading: boolean; data?: Answer }>({ loading: false });
  const { data: page, isLoading } = useGet<Page>(endpoint && keyword ? endpoint : null, { keyword, current, size }, { keepPreviousData: true });
  const { data: gpt } = useGet<Answer>(gptEndpoint ?? null, { check: '1' }, { silent: true, revalidateIfStale: false });

  const ask = async () => {
    if (!gptEndpoint || !keyword) return;
    setAnswer({ loading: true });
    try {
      setAnswer({ loading: false, data: await env.request<Answer>('GET', gptEndpoint, { params: { keyword } }) });
    } catch {
      setAnswer({ loading: false });
    }
  };

  return (
    <div className="kc-full-text-search" data-testid="kc-full-text-search">
      {sources && sources.length > 1 && (
        <div style={{ marginBottom: 12 }}>
          <Segmented
            value={chosen}
            onChange={(v) => {
              setChosen(String(v));
              setCurrent(1);
              setAnswer({ loading: false });
            }}
            options={sources.map((x) => ({ value: x.key, label: i18n.language === 'en' ? (x.labelEn ?? x.label) : x.label }))}
          />
        </div>
      )}
      <Space.Compact style={{ width: '100%', maxWidth: 720 }}>
        <Input.Search
          allowClear
          enterButton
          maxLength={200}
          defaultValue={initial.q}
          placeholder={t('cmp.search.placeholder')}
          onSearch={(v) => {
            setKeyword(v.trim());
            setCurrent(1);
            setAnswer({ loading: false });
          }}
        />
        {gpt?.configured && (
          <Button icon={<RobotOutlined />} disabled={!keyword} loading={answer.loading} onClick={() => void ask()}>
            {t('cmp.search.ask')}
          </Button>
        )}
      </Space.Compact>
      {answer.data?.answer && (
        <Alert style={{ marginTop: 16 }} type="info" showIcon message={t('cmp.search.answer')} description={<Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{answer.data.answer}</Typography.Paragraph>} />
      )}
      {keyword && (
        <div style={{ marginTop: 16 }}>
          {isLoading && !page ? (
            <Spin />
          ) : page && page.records.length ? (
            <>
              <Typography.Text type="secondary">{t(page.totalBounded ? 'cmp.search.foundMore' : 'cmp.search.found', { n: page.total })}</Typography.Text>
              <List
                dataSource={page.records}
                rowKey="id"
                renderItem={(h) => (
                  <List.Item>
                    <List.Item.Meta title={h.title} description={<span className="kc-search-highlight" dangerouslySetInnerHTML={{ __html: highlightHtml(h.highlight ?? '') }} />} />
                  </List.Item>
                )}
              />
              <Pagination size="small" current={current} pageSize={size} total={page.total} showSizeChanger={false} onChange={setCurrent} />
            </>
          ) : (
            <Empty description={t('cmp.search.none')} />
          )}
        </div>
      )}
    </div>
  );
}
