/**
 * BidDocuments (issue 17; spec 002 §2 smart-document screens: project catalogue, file catalogue, user file scope):
 * the screens of one bidding project, chosen above them (`GET /api/smartdoc/biddingbaseinfo/select`).
 *
 * - `view="catalogue"` (项目目录): the catalogue tree (`getProjectCatalogue`): headings and their scoring,
 *   qualification and deadline items with points, times and writers; 解析招标文件 (`analysis-file`), 生成章节文档
 *   (`initSave`), 下载合并标书 (`merge`), and per chapter 分配编写人 (`batchSave` with its writerId: the writing task).
 * - `view="files"` (文件目录): the chapter documents the user may read (`getFileCatalogue`), each with 编辑 (or 查看
 *   when the user may only read) opening the online editor at `/smartdoc/editor?fileId=<id>`; before a project is
 *   chosen, the user's chapters in every project (`myScope`: their writing tasks and the chapters given to them).
 * - `view="scope"` (文档权限): the project's access rows (`project-user-file-scope`, managers) with 删除
 *   (`deleteOne`) and 授权 (`saveChange`: a user, chapters, read or edit — added to the user's rows), and the
 *   caller's own chapters (`myScope`).
 *
 * The server decides every right (src/server/modules/smartdoc): a refused call shows the server's message.
 * Registered as `BidDocuments` (catalog.tsx); pages schemas/_pages/smartdoc-*.json place it.
 */
import React, { useState } from 'react';
import { Button, Empty, Form, Modal, Radio, Select, Space, Table, Tag, Typography } from 'antd';
import { UserName, UserSelect } from './UserPicker.js';
import { useTranslation } from 'react-i18next';
import { Link, useInRouterContext } from 'react-router-dom';
import { useEnv, useGet } from './env.js';

type Row = Record<string, any>;
const B = '/api/smartdoc/biddingbaseinfo';
const C = '/api/smartdoc/biddingcatalogue';
const S = '/api/smartdoc/userfilescope';

export const BID_TEXTS = {
  'cmp.bid.project': { zh: '投标项目', en: 'Bidding project' },
  'cmp.bid.choose': { zh: '请选择投标项目', en: 'Please choose the bidding project' },
  'cmp.bid.title': { zh: '标题', en: 'Title' },
  'cmp.bid.kind': { zh: '类型', en: 'Kind' },
  'cmp.bid.score': { zh: '分值', en: 'Points' },
  'cmp.bid.deadline': { zh: '截止时间', en: 'Due at' },
  'cmp.bid.writer': { zh: '编写人', en: 'Writer' },
  'cmp.bid.file': { zh: '文档', en: 'Document' },
  'cmp.bid.actions': { zh: '操作', en: 'Actions' },
  'cmp.bid.analyse': { zh: '解析招标文件', en: 'Analyse the tender' },
  'cmp.bid.init': { zh: '生成章节文档', en: 'Create chapter documents' },
  'cmp.bid.merge': { zh: '下载合并标书', en: 'Download the merged bid' },
  'cmp.bid.assign': { zh: '分配编写人', en: 'Assign writer' },
  'cmp.bid.writerId': { zh: '编写人', en: 'Writer' },
  'cmp.bid.edit': { zh: '编辑', en: 'Edit' },
  'cmp.bid.view': { zh: '查看', en: 'View' },
  'cmp.bid.done': { zh: '操作成功', en: 'Done' },
  'cmp.bid.user': { zh: '用户', en: 'User' },
  'cmp.bid.userId': { zh: '用户', en: 'User' },
  'cmp.bid.chapters': { zh: '章节', en: 'Chapters' },
  'cmp.bid.access': { zh: '权限', en: 'Access' },
  'cmp.bid.read': { zh: '只读', en: 'Read' },
  'cmp.bid.write': { zh: '编辑', en: 'Edit' },
  'cmp.bid.grant': { zh: '授权', en: 'Grant' },
  'cmp.bid.remove': { zh: '删除', en: 'Remove' },
  'cmp.bid.removeConfirm': { zh: '确定删除该权限?', en: 'Remove this access?' },
  'cmp.bid.mine': { zh: '我的章节', en: 'My chapters' },
  'cmp.bid.all': { zh: '项目权限', en: 'Project access' },
  'cmp.bid.kind.chapter': { zh: '章节', en: 'Chapter' },
  'cmp.bid.kind.scoring': { zh: '评分项', en: 'Scoring item' },
  'cmp.bid.kind.qualification': { zh: '资格项', en: 'Qualification item' },
  'cmp.bid.kind.deadline': { zh: '时间节点', en: 'Deadline' },
  'cmp.bid.kind.requirement': { zh: '其他要求', en: 'Other requirement' },
};

const KIND_COLOR: Record<string, string> = { chapter: 'blue', scoring: 'gold', qualification: 'green', deadline: 'red', requirement: 'default' };

/** The link that opens a chapter's document in the online editor (served by the editor's route). */
export const editorHref = (fileId: string) => `/smartdoc/editor?fileId=${encodeURIComponent(fileId)}`;

export interface BidDocumentsProps {
  view?: 'catalogue' | 'files' | 'scope';
}

export function BidDocuments({ view = 'catalogue' }: BidDocumentsProps) {
  const { t } = useTranslation();
  const [projectId, setProjectId] = useState<string>();
  const projects = useGet<Row[]>(`${B}/select`, {}, { silent: true });
  const options = (projects.data ?? []).map((p) => ({ value: String(p.id), label: String(p.projectName) }));
  const project = (projects.data ?? []).find((p) => String(p.id) === projectId);
  return (
    <div className={`kc-bid kc-bid-${view}`}>
      <Space style={{ marginBottom: 16 }} wrap>
        <Typography.Text>{t('cmp.bid.project')}</Typography.Text>
        <Select aria-label={t('cmp.bid.project')} style={{ minWidth: 320 }} placeholder={t('cmp.bid.choose')} options={options} value={projectId} onChange={setProjectId} showSearch optionFilterProp="label" loading={projects.isLoading} />
      </Space>
      {!projectId && view === 'files' ? (
        <MyChapters />
      ) : !projectId ? (
        <Empty description={t('cmp.bid.choose')} />
      ) : view === 'files' ? (
        <ChapterFiles projectId={projectId} />
      ) : view === 'scope' ? (
        <ChapterScope projectId={projectId} />
      ) : (
        <Catalogue projectId={projectId} projectName={String(project?.projectName ?? '')} />
      )}
    </div>
  );
}

function kindTag(t: (k: string) => string, kind: string) {
  return <Tag color={KIND_COLOR[kind] ?? 'default'}>{t(`cmp.bid.kind.${kind}`)}</Tag>;
}

/** Strips the children of empty tree nodes (antd shows an expander for `children: []`). */
const pruned = (rows: Row[]): Row[] => rows.map((r) => ({ ...r, children: r.children?.length ? pruned(r.children) : undefined }));

/** The ids of the entries that have children, at any depth. */
const withChildren = (rows: Row[]): string[] => rows.flatMap((r) => (r.children?.length ? [String(r.id), ...withChildren(r.children)] : []));

function Catalogue({ projectId, projectName }: { projectId: string; projectName: string }) {
  const { t } = useTranslation();
  const env = useEnv();
  const { data, isLoading, mutate } = useGet<Row[]>(`${C}/getProjectCatalogue`, { projectId });
  const [busy, setBusy] = useState<string>();
  const [assigning, setAssigning] = useState<Row>();
  const [writerId, setWriterId] = useState('');
  const [folded, setFolded] = useState<Set<string>>(() => new Set());
  const run = async (key: string, call: () => Promise<unknown>) => {
    setBusy(key);
    try {
      await call();
      await mutate();
    } catch {
      // the API client toasted the server's message
    } finally {
      setBusy(undefined);
    }
  };
  const assign = () =>
    run('assign', async () => {
      const { children: _children, ...entry } = assigning!;
      await env.request('POST', `${C}/batchSave`, { data: { projectId, records: [{ ...entry, writerId: writerId.trim() || null }] } });
      setAssigning(undefined);
    });
  return (
    <>
      <Space style={{ marginBottom: 12 }} wrap>
        <Button loading={busy === 'analyse'} onClick={() => void run('analyse', () => env.request('POST', `${B}/analysis-file`, { params: { id: projectId } }))}>
          {t('cmp.bid.analyse')}
        </Button>
        <Button loading={busy === 'init'} onClick={() => void run('init', () => env.request('POST', `${B}/initSave`, { data: { id: projectId } }))}>
          {t('cmp.bid.init')}
        </Button>
        <Button type="primary" loading={busy === 'merge'} onClick={() => void run('merge', () => env.download(`${B}/merge?id=${projectId}`, `${projectName || 'bid'}.docx`))}>
          {t('cmp.bid.merge')}
        </Button>
      </Space>
      <Table<Row>
        rowKey="id"
        size="small"
        loading={isLoading}
        pagination={false}
        dataSource={pruned(data ?? [])}
        expandable={{
          // every heading open (also after an analysis brings new rows), but those the user folded
          expandedRowKeys: withChildren(data ?? []).filter((id) => !folded.has(id)),
          onExpand: (open, r) => setFolded((f) => {
            const next = new Set(f);
            if (open) next.delete(String(r.id));
            else next.add(String(r.id));
            return next;
          }),
        }}
        columns={[
          { title: t('cmp.bid.title'), dataIndex: 'title', render: (v: string, r) => (r.content && r.content !== v ? <span title={r.content}>{v}</span> : v) },
          { title: t('cmp.bid.kind'), dataIndex: 'itemType', width: 110, render: (v: string) => kindTag(t, v) },
          { title: t('cmp.bid.score'), dataIndex: 'score', width: 80 },
          { title: t('cmp.bid.deadline'), dataIndex: 'deadlineTime', width: 170 },
          { title: t('cmp.bid.writer'), dataIndex: 'writerId', width: 160, render: (v: string | null) => (v ? <UserName value={String(v)} /> : null) },
          {
            title: t('cmp.bid.actions'),
            width: 120,
            render: (_: unknown, r) =>
              r.itemType === 'chapter' ? (
                <Button type="link" size="small" onClick={() => (setAssigning(r), setWriterId(String(r.writerId ?? '')))}>
                  {t('cmp.bid.assign')}
                </Button>
              ) : null,
          },
        ]}
      />
      <Modal open={!!assigning} title={`${t('cmp.bid.assign')}：${assigning?.title ?? ''}`} onCancel={() => setAssigning(undefined)} onOk={() => void assign()} confirmLoading={busy === 'assign'} destroyOnHidden>
        <UserSelect aria-label={t('cmp.bid.writerId')} style={{ width: '100%' }} value={writerId || undefined} onChange={(v) => setWriterId(v ?? '')} />
      </Modal>
    </>
  );
}

/** Before a project is chosen: the user's chapters in every project (`myScope`) — their writing tasks — with the editor's links. */
function MyChapters() {
  const { t } = useTranslation();
  const inRouter = useInRouterContext();
  const { data, isLoading } = useGet<Row[]>(`${S}/myScope`);
  return (
    <>
      <Typography.Title level={5}>{t('cmp.bid.mine')}</Typography.Title>
      <Table<Row>
        rowKey="catalogueId"
        size="small"
        loading={isLoading}
        pagination={false}
        dataSource={(data ?? []).filter((r) => r.fileId)}
        columns={[
          { title: t('cmp.bid.project'), dataIndex: 'projectName' },
          { title: t('cmp.bid.chapters'), dataIndex: 'title' },
          {
            title: t('cmp.bid.actions'),
            width: 100,
            render: (_: unknown, r) => {
              const label = t(r.canEdit ? 'cmp.bid.edit' : 'cmp.bid.view');
              const href = editorHref(String(r.fileId));
              return inRouter ? <Link to={href}>{label}</Link> : <a href={href}>{label}</a>;
            },
          },
        ]}
      />
    </>
  );
}

function ChapterFiles({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const inRouter = useInRouterContext();
  const { data, isLoading } = useGet<Row[]>(`${C}/getFileCatalogue`, { projectId });
  return (
    <Table<Row>
      rowKey="id"
      size="small"
      loading={isLoading}
      pagination={false}
      dataSource={data ?? []}
      columns={[
        { title: t('cmp.bid.title'), dataIndex: 'title', render: (v: string, r) => <span style={{ paddingLeft: (Number(r.level ?? 1) - 1) * 16 }}>{v}</span> },
        { title: t('cmp.bid.file'), dataIndex: 'fileName' },
        { title: t('cmp.bid.writer'), dataIndex: 'writerId', width: 160, render: (v: string | null) => (v ? <UserName value={String(v)} /> : null) },
        {
          title: t('cmp.bid.actions'),
          width: 100,
          render: (_: unknown, r) => {
            const label = t(r.canEdit ? 'cmp.bid.edit' : 'cmp.bid.view');
            const href = editorHref(String(r.fileId));
            return inRouter ? <Link to={href}>{label}</Link> : <a href={href}>{label}</a>;
          },
        },
      ]}
    />
  );
}

function ChapterScope({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const env = useEnv();
  const rows = useGet<Row[]>(`${S}/project-user-file-scope`, { projectId }, { silent: true });
  const mine = useGet<Row[]>(`${S}/myScope`, { projectId });
  const tree = useGet<Row[]>(`${C}/getProjectCatalogue`, { projectId });
  const [form] = Form.useForm();
  const chapters: Row[] = [];
  const walk = (list: Row[]) => list.forEach((r) => (r.itemType === 'chapter' && chapters.push(r), walk(r.children ?? [])));
  walk(tree.data ?? []);
  const refresh = () => Promise.all([rows.mutate(), mine.mutate()]);
  const grant = async (v: { userId: string; catalogueIds: string[]; scopeType: string }) => {
    // saveChange replaces the user's rows: the ones kept are sent along
    const kept = (rows.data ?? []).filter((r) => r.userId === v.userId.trim() && !v.catalogueIds.includes(r.catalogueId)).map((r) => ({ catalogueId: r.catalogueId, scopeType: r.scopeType }));
    try {
      await env.request('POST', `${S}/saveChange`, { data: { projectId, userId: v.userId.trim(), scopes: [...kept, ...v.catalogueIds.map((catalogueId) => ({ catalogueId, scopeType: v.scopeType }))] } });
      form.resetFields();
      await refresh();
    } catch {
      // toasted by the API client
    }
  };
  const remove = (id: string) =>
    Modal.confirm({
      title: t('cmp.bid.removeConfirm'),
      onOk: async () => {
        await env.request('POST', `${S}/deleteOne`, { params: { id } });
        await refresh();
      },
    });
  return (
    <>
      {rows.data && (
        <>
          <Typography.Title level={5}>{t('cmp.bid.all')}</Typography.Title>
          <Form form={form} layout="inline" initialValues={{ scopeType: 'read' }} onFinish={(v) => void grant(v)} style={{ marginBottom: 12 }}>
            <Form.Item name="userId" label={t('cmp.bid.userId')} rules={[{ required: true, message: t('cmp.bid.userId') }]}>
              <UserSelect aria-label={t('cmp.bid.userId')} style={{ width: 260 }} />
            </Form.Item>
            <Form.Item name="catalogueIds" label={t('cmp.bid.chapters')} rules={[{ required: true, message: t('cmp.bid.chapters') }]}>
              <Select mode="multiple" style={{ minWidth: 260 }} options={chapters.map((c) => ({ value: String(c.id), label: String(c.title) }))} />
            </Form.Item>
            <Form.Item name="scopeType" label={t('cmp.bid.access')}>
              <Radio.Group options={[{ value: 'read', label: t('cmp.bid.read') }, { value: 'edit', label: t('cmp.bid.write') }]} />
            </Form.Item>
            <Button type="primary" htmlType="submit">
              {t('cmp.bid.grant')}
            </Button>
          </Form>
          <Table<Row>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={rows.data}
            columns={[
              { title: t('cmp.bid.chapters'), dataIndex: 'catalogueTitle' },
              { title: t('cmp.bid.user'), dataIndex: 'userName', render: (v: string | null, r) => v ?? r.userId },
              { title: t('cmp.bid.access'), dataIndex: 'scopeType', width: 100, render: (v: string) => t(v === 'edit' ? 'cmp.bid.write' : 'cmp.bid.read') },
              {
                title: t('cmp.bid.actions'),
                width: 90,
                render: (_: unknown, r) => (
                  <Button type="link" size="small" danger onClick={() => remove(String(r.id))}>
                    {t('cmp.bid.remove')}
                  </Button>
                ),
              },
            ]}
          />
        </>
      )}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('cmp.bid.mine')}
      </Typography.Title>
      <Table<Row>
        rowKey="catalogueId"
        size="small"
        pagination={false}
        loading={mine.isLoading}
        dataSource={mine.data ?? []}
        columns={[
          { title: t('cmp.bid.chapters'), dataIndex: 'title' },
          { title: t('cmp.bid.access'), dataIndex: 'canEdit', width: 100, render: (v: boolean) => t(v ? 'cmp.bid.write' : 'cmp.bid.read') },
        ]}
      />
    </>
  );
}
