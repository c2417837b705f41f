/**
 * DuplicateResult: the result screen of a duplicate-check task (issue 15), placed by the task schema's detail
 * (`x-component: DuplicateResult` on the record's `id`). It reads `GET /api/duplicate/duplicatetask/getResult?id=`
 * and, while the task is queued or running, shows its progress and asks again every 2 s.
 *
 * For the checked file chosen (a select when the task checked several): the overall similarity, the matched
 * characters and the number of sources; the sources (most similar first) with their similarity and passages,
 * each with its links (a file or attachment downloads through the environment, with the API headers; a
 * source belonging to a record — a project's text, an achievement's attachment — opens that record's detail
 * through the environment's `openRecord`, where the server's grants apply); and the
 * two texts side by side — the checked file's on the left with every matched passage highlighted (the chosen
 * source's passages in red, other sources' in orange), the chosen source's on the right with its passages in
 * red. Texts come from `GET …/getText?id=&documentId=`. Clicking a source chooses it. The report button
 * downloads `GET …/report?id=` as .docx.
 *
 * Props: `value` (the task id, from the surrounding form) or `taskId`. Check mode — a record checked on the spot
 * (`<api>/checkRepeat` of a resource with `duplicateCheck`, placed by a list operation's view dialog): `checkUrl`
 * and `recordId`; the answer is one checked text with its `content` (the left text), a source's text comes
 * from `${checkUrl}/text?id=&documentId=`; no report. In both modes a source the user may not read (403) keeps
 * its place highlighted in the checked text, and the server's message stands instead of its text.
 */
import React, { useMemo, useState } from 'react';
import { Alert, Button, Card, Col, Empty, Progress, Row, Select, Space, Spin, Statistic, Table, Tag, Typography } from 'antd';
import { DownloadOutlined, FileSearchOutlined, LinkOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useEnv, useGet } from './env.js';

export interface DupSource {
  documentId: string;
  title: string;
  sourceType: string;
  link: string | null;
  resource: string | null;
  recordId: string | null;
  similarity: number;
  matchedChars: number;
  passageCount: number;
}

export interface DupPassage {
  sourceDocumentId: string;
  sourceTitle: string;
  start: number;
  end: number;
  sourceStart: number;
  sourceEnd: number;
  length: number;
}

export interface DupFileResult {
  documentId: string;
  title: string;
  charCount: number;
  similarity: number;
  matchedChars: number;
  sourceCount: number;
  sources: DupSource[];
  passages: DupPassage[];
  algorithm?: string;
}

interface ResultAnswer {
  task: { id: string; name?: string; taskStatus?: number; progress?: number; errorMsg?: string | null };
  files: DupFileResult[];
}

interface TextAnswer {
  id: string;
  title: string;
  content: string;
}

export const DUPLICATE_TEXTS = {
  'cmp.dup.running': { zh: '查重中，请稍候…', en: 'Checking, please wait…' },
  'cmp.dup.queued': { zh: '排队等待查重', en: 'Waiting to be checked' },
  'cmp.dup.failed': { zh: '查重失败', en: 'The check failed' },
  'cmp.dup.file': { zh: '查重文件', en: 'Checked file' },
  'cmp.dup.similarity': { zh: '总相似度', en: 'Overall similarity' },
  'cmp.dup.matched': { zh: '相同字数', en: 'Matched characters' },
  'cmp.dup.sources': { zh: '相似来源', en: 'Similar sources' },
  'cmp.dup.source': { zh: '来源', en: 'Source' },
  'cmp.dup.sourceSimilarity': { zh: '相似度', en: 'Similarity' },
  'cmp.dup.passages': { zh: '相同段落', en: 'Passages' },
  'cmp.dup.open': { zh: '打开来源', en: 'Open the source' },
  'cmp.dup.record': { zh: '查看来源记录', en: 'Open the source record' },
  'cmp.dup.report': { zh: '下载报告', en: 'Download report' },
  'cmp.dup.checked': { zh: '查重文本', en: 'Checked text' },
  'cmp.dup.sourceText': { zh: '来源文本', en: 'Source text' },
  'cmp.dup.none': { zh: '未发现相似内容', en: 'No similar content found' },
  'cmp.dup.pick': { zh: '点击左侧来源查看对照', en: 'Choose a source to compare' },
  'cmp.dup.kind.file': { zh: '查重文件', en: 'File' },
  'cmp.dup.kind.attach': { zh: '附件', en: 'Attachment' },
  'cmp.dup.kind.record': { zh: '记录', en: 'Record' },
};

/** A highlight over `[start, end)`: `main` (the chosen source) or `other`. */
export interface Mark {
  start: number;
  end: number;
  kind: 'main' | 'other';
}

/**
 * `text` cut into plain and highlighted segments by `marks` (overlaps merged; `main` wins over `other` where
 * they overlap); offsets are clamped to the text.
 */
export function segments(text: string, marks: Mark[]): Array<{ text: string; kind: 'plain' | 'main' | 'other' }> {
  const level = new Uint8Array(text.length);
  for (const m of marks) {
    const v = m.kind === 'main' ? 2 : 1;
    for (let i = Math.max(0, m.start); i < Math.min(text.length, m.end); i++) if (level[i] < v) level[i] = v;
  }
  const out: Array<{ text: string; kind: 'plain' | 'main' | 'other' }> = [];
  let from = 0;
  for (let i = 1; i <= text.length; i++) {
    if (i === text.length || level[i] !== level[from]) {
      out.push({ text: text.slice(from, i), kind: level[from] === 2 ? 'main' : level[from] === 1 ? 'other' : 'plain' });
      from = i;
    }
  }
  return out;
}

const MARK_STYLE: Record<'main' | 'other', React.CSSProperties> = {
  main: { background: '#ffccc7', color: '#a8071a', padding: 0 },
  other: { background: '#ffe7ba', color: '#ad4e00', padding: 0 },
};

function Highlighted({ text, marks, testId }: { text: string; marks: Mark[]; testId: string }) {
  const parts = useMemo(() => segments(text, marks), [text, marks]);
  return (
    <div data-testid={testId} style={{ whiteSpace: 'pre-wrap', maxHeight: 480, overflow: 'auto', lineHeight: 1.8, fontSize: 14 }}>
      {parts.map((p, i) =>
        p.kind === 'plain' ? (
          <React.Fragment key={i}>{p.text}</React.Fragment>
        ) : (
          <mark key={i} data-kind={p.kind} style={MARK_STYLE[p.kind]}>
            {p.text}
          </mark>
        ),
      )}
    </div>
  );
}

export interface DuplicateResultProps {
  value?: string | null;
  taskId?: string;
  /** Check mode: the record check endpoint (`<api>/checkRepeat`). */
  checkUrl?: string;
  /** Check mode: the record checked. */
  recordId?: string;
}

const TASK_URL = '/api/duplicate/duplicatetask';

export function DuplicateResult({ value, taskId, checkUrl, recordId }: DuplicateResultProps) {
  const { t } = useTranslation();
  const env = useEnv();
  const checking = !!checkUrl;
  const id = checking ? recordId : (taskId ?? (value ? String(value) : undefined));
  const [fileId, setFileId] = useState<string>();
  const [sourceId, setSourceId] = useState<string>();
  const task = useGet<ResultAnswer>(!checking && id ? `${TASK_URL}/getResult` : null, { id }, {
    refreshInterval: (d?: ResultAnswer) => (d && (d.task.taskStatus === 0 || d.task.taskStatus === 1) ? 2000 : 0),
  });
  const check = useGet<DupFileResult & { content: string }>(checking && id ? checkUrl : null, { id });
  const data = useMemo<ResultAnswer | undefined>(
    () => (checking ? (check.data ? { task: { id: id ?? '', taskStatus: 2 }, files: [check.data] } : undefined) : task.data),
    [checking, check.data, task.data, id],
  );
  const isLoading = checking ? check.isLoading : task.isLoading;
  const file = data?.files.find((f) => f.documentId === fileId) ?? data?.files[0];
  const source = file?.sources.find((s) => s.documentId === sourceId) ?? file?.sources[0];
  const textUrl = checking ? `${checkUrl}/text` : `${TASK_URL}/getText`;
  const { data: fetchedLeft } = useGet<TextAnswer>(!checking && file && id ? textUrl : null, { id, documentId: file?.documentId });
  const left = checking ? (check.data ? { content: check.data.content } : undefined) : fetchedLeft;
  const { data: right, error: rightError } = useGet<TextAnswer>(source && id ? textUrl : null, { id, documentId: source?.documentId }, { silent: true });
  const leftMarks = useMemo<Mark[]>(() => (file?.passages ?? []).map((p) => ({ start: p.start, end: p.end, kind: p.sourceDocumentId === source?.documentId ? 'main' : 'other' })), [file, source]);
  const rightMarks = useMemo<Mark[]>(
    () => (file?.passages ?? []).filter((p) => p.sourceDocumentId === source?.documentId).map((p) => ({ start: p.sourceStart, end: p.sourceEnd, kind: 'main' as const })),
    [file, source],
  );

  if (!id) return null;
  if (isLoading || !data) return <Spin />;
  const status = data.task.taskStatus;
  if (status === 0 || status === 1) {
    return (
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text>{t(status === 0 ? 'cmp.dup.queued' : 'cmp.dup.running')}</Typography.Text>
        <Progress percent={data.task.progress ?? 0} />
      </Space>
    );
  }
  if (status === 3) return <Alert type="error" showIcon message={t('cmp.dup.failed')} description={data.task.errorMsg ?? undefined} />;
  if (!file) return <Empty description={t('cmp.dup.none')} />;

  const open = (s: DupSource) => {
    if (s.link) void env.download(s.link, s.title);
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="duplicate-result">
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        {data.files.length > 1 ? (
          <Select
            style={{ minWidth: 280 }}
            value={file.documentId}
            onChange={(v: string) => {
              setFileId(v);
              setSourceId(undefined);
            }}
            options={data.files.map((f) => ({ value: f.documentId, label: `${f.title}（${f.similarity}%）` }))}
            aria-label={t('cmp.dup.file')}
          />
        ) : (
          <Typography.Text strong>{file.title}</Typography.Text>
        )}
        {checking ? null : (
          <Button icon={<DownloadOutlined />} onClick={() => void env.download(`${TASK_URL}/report?id=${id}`, `${data.task.name ?? 'report'}.docx`)}>
            {t('cmp.dup.report')}
          </Button>
        )}
      </Space>
      <Row gutter={16}>
        <Col span={8} data-testid="duplicate-similarity">
          <Statistic title={t('cmp.dup.similarity')} value={file.similarity} suffix="%" valueStyle={{ color: file.similarity >= 30 ? '#cf1322' : file.similarity > 0 ? '#d46b08' : '#389e0d' }} />
        </Col>
        <Col span={8}>
          <Statistic title={t('cmp.dup.matched')} value={file.matchedChars} />
        </Col>
        <Col span={8}>
          <Statistic title={t('cmp.dup.sources')} value={file.sourceCount} />
        </Col>
      </Row>
      {file.sources.length === 0 ? (
        <Empty description={t('cmp.dup.none')} />
      ) : (
        <>
          <Table<DupSource>
            size="small"
            rowKey="documentId"
            pagination={false}
            dataSource={file.sources}
            rowClassName={(s) => (s.documentId === source?.documentId ? 'ant-table-row-selected' : '')}
            onRow={(s) => ({ onClick: () => setSourceId(s.documentId), style: { cursor: 'pointer' } })}
            columns={[
              {
                title: t('cmp.dup.source'),
                dataIndex: 'title',
                render: (v: string, s) => (
                  <Space>
                    <Tag>{t(`cmp.dup.kind.${s.sourceType}`)}</Tag>
                    <span>{v}</span>
                    {s.link ? (
                      <Button
                        type="link"
                        size="small"
                        icon={<LinkOutlined />}
                        aria-label={t('cmp.dup.open')}
                        title={t('cmp.dup.open')}
                        onClick={(e) => {
                          e.stopPropagation();
                          open(s);
                        }}
                      />
                    ) : null}
                    {s.resource && s.recordId && env.openRecord ? (
                      <Button
                        type="link"
                        size="small"
                        icon={<FileSearchOutlined />}
                        aria-label={t('cmp.dup.record')}
                        title={t('cmp.dup.record')}
                        onClick={(e) => {
                          e.stopPropagation();
                          env.openRecord!(s.resource!, s.recordId!);
                        }}
                      />
                    ) : null}
                  </Space>
                ),
              },
              { title: t('cmp.dup.sourceSimilarity'), dataIndex: 'similarity', width: 120, render: (v: number) => `${v}%` },
              { title: t('cmp.dup.passages'), dataIndex: 'passageCount', width: 100 },
            ]}
          />
          <Row gutter={16}>
            <Col span={12}>
              <Card size="small" title={`${t('cmp.dup.checked')}：${file.title}`}>
                {left ? <Highlighted text={left.content} marks={leftMarks} testId="duplicate-left" /> : <Spin />}
              </Card>
            </Col>
            <Col span={12}>
              <Card size="small" title={source ? `${t('cmp.dup.sourceText')}：${source.title}` : t('cmp.dup.sourceText')}>
                {!source ? (
                  <Typography.Text type="secondary">{t('cmp.dup.pick')}</Typography.Text>
                ) : right ? (
                  <Highlighted text={right.content} marks={rightMarks} testId="duplicate-right" />
                ) : rightError ? (
                  <Typography.Text type="secondary" data-testid="duplicate-right-hidden">
                    {(rightError as Error).message}
                  </Typography.Text>
                ) : (
                  <Spin />
                )}
              </Card>
            </Col>
          </Row>
        </>
      )}
    </Space>
  );
}
