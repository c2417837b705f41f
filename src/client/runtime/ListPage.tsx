/**
 * ListPage: the generic list screen of a resource (spec 000 §9, 002 §2 'Generic list screen behaviour'),
 * entirely from its schema's `list`:
 *
 * - search form from `list.search` plus the creation date range (SearchBar); searching or changing the date
 *   returns to page 1; empty values are dropped;
 * - Table with `list.columns` (labels from the form's titles in the session language; cells by
 *   `renderCell`: dictionary labels, enum labels, -1 empty, dates as text), row selection, server-side sort
 *   of `sortable` columns (`ascs` / `descs`), pagination 10 / 30 / 50 / 100 / 200 (default 10) with the total;
 * - toolbar from `list.toolbar` ('add' 新增, 'remove' 删除 of the selected rows) and row actions from
 *   `list.rowActions` ('detail' 查看, 'edit' 编辑, 'remove' 删除); deleting asks 确定将选择数据删除? and posts
 *   `${api}/remove?ids=`, then says 删除成功; deleting nothing says 请选择至少一条数据;
 * - a tree resource with `lazy-tree` (regions) lists its root level with lazily expanded children, and rows
 *   get 新增子项 (a child with the parent's key filled in); a search switches to the flat, paged list.
 *
 * Workflow actions (`schema.actions`, DESIGN §4, §8): each row shows the buttons of the actions its status and
 * the current role allow (`actionsFor`: status in `from`, role in `roles`, placement 'row'), each opening an
 * ActionDialog (the action's dialog form or its confirmation, then `POST` to its endpoint); rows in a locked
 * status (待审核, 审核通过) hide 编辑 and 删除 (and cannot be selected for removal). The status field is shown
 * as a column and offered as a search (`withStatusList`). The server checks all of it again.
 *
 * Operations (`list.operations`, runtime/operations.ts): toolbar buttons act on the checked rows (请选择至少一条数据
 * when none are), row buttons on their row; each opens an OperationDialog (its form, its confirmation, a file
 * download or a once-shown answer); `list.revealOnSave` shows a new record's once-only values (an account's
 * initial password) after the add. `list.sideTree` puts a lazy tree left of the table (the departments of the
 * user list) whose chosen node filters the list; `fixed` filters every request and `defaults` start a new record
 * (a TreeListView's chosen node: runtime/TreeListView.tsx). Columns the form does not define take their `title` from the
 * column spec (values the list answers beside the record, e.g. a user's roles or lock state).
 *
 * Data: `useGet` keyed by endpoint + params (`${api}/${listEndpoint}`: 'list', 'list-for-myCompany' or
 * 'myList'); every cached GET of the resource revalidates after a submit or a remove. `can(code)` hides
 * buttons the current role lacks (codes `<menu>_add|_edit|_delete|_view`); the server enforces anyway.
 */
import React, { useCallback, useMemo, useState } from 'react';
import { Button, Divider, Modal, Space, Table, message, type TableProps } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ResourceSchema, WorkflowAction } from '../../shared/schema/types.js';
import { currentRole, useSession } from './session.js';
import { post } from './api.js';
import { useGet, useLang, useRevalidate } from './hooks.js';
import { fieldLabel, fieldNodes, localizeSchema } from './schema.js';
import { isBlankCell, renderCell } from './cells.js';
import { fileSize, relativeTime } from './format.js';
import { SearchBar } from './SearchBar.js';
import { FormDialog } from './FormDialog.js';
import { DetailView } from './DetailView.js';
import { useLazyTree, type Row } from './useLazyTree.js';
import { ActionDialog } from './ActionDialog.js';
import { actionLabel, actionsFor, editLocked, removeLocked, withStatusList, type ActorContext } from './actions.js';
import { OperationDialog } from './OperationDialog.js';
import { SideTree } from './SideTree.js';
import { RevealDialog } from './RevealDialog.js';
import { operationLabel, operationsFor, selectionFault, type OperationContext } from './operations.js';
import { DesignLink, designerUrl } from './DesignLink.js';
import type { ListColumn, ListOperation } from '../../shared/schema/types.js';
import type { Page as ContractPage } from '../../shared/contract/envelope.js';
import { ExcelToolbar } from './ExcelToolbar.js';
import { tableWidth, withColumnWidths } from './column-width.js';

/** 'list', 'list-for-myCompany', 'myList', or the `endpoint` of one of the schema's `userLists`. */
export type ListEndpoint = 'list' | 'list-for-myCompany' | 'myList' | (string & {});
export const PAGE_SIZES = [10, 30, 50, 100, 200];

export interface ListPageProps {
  resource: ResourceSchema;
  listEndpoint?: ListEndpoint;
  /** True when the current role holds the button `code` (`patent_add` ...); absent = everything shown. */
  can?: (code: string) => boolean;
  /** Filters sent with every request (e.g. `{ parentId_equal: '12' }`: the node chosen in a TreeListView). */
  fixed?: Record<string, string>;
  /** Values a new record starts with (the chosen node as the parent, and what it passes down). */
  defaults?: Record<string, unknown>;
}

type Page = ContractPage<Row>;

interface Query {
  params: Record<string, string>;
  current: number;
  size: number;
  sort?: { field: string; order: 'ascend' | 'descend' };
}

type Op = 'add' | 'edit' | 'remove' | 'view';
const CODE_SUFFIX: Record<Op, string> = { add: 'add', edit: 'edit', remove: 'delete', view: 'view' };

export function ListPage({ resource: given, listEndpoint = 'list', can, fixed, defaults }: ListPageProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const resource = useMemo(() => withStatusList(given), [given]);
  const session = useSession();
  const actor: ActorContext = { roleAlias: currentRole(session)?.roleAlias, userId: session.user?.userId };
  const [msg, msgHolder] = message.useMessage();
  const [modal, modalHolder] = Modal.useModal();
  const revalidate = useRevalidate();
  const keyField = resource.key ?? 'id';
  const allowed = (op: Op) => !can || !resource.menu || can(`${resource.menu}_${CODE_SUFFIX[op]}`);

  const [query, setQuery] = useState<Query>({ params: {}, current: 1, size: PAGE_SIZES[0] });
  const onSearch = useCallback((params: Record<string, string>) => setQuery((q) => ({ ...q, params, current: 1 })), []);
  const sideTree = resource.list?.sideTree;
  const [side, setSide] = useState<string | undefined>();
  const filters = { ...(sideTree && side ? { ...query.params, [sideTree.param]: side } : query.params), ...fixed };
  const searching = Object.keys(filters).length > 0;
  const treeMode = !!resource.tree && resource.endpoints.includes('lazy-tree') && !searching;
  // a generic list the schema mounts, or one of its userLists (records that name the caller: myProject …)
  const endpoint = (resource.endpoints as string[]).includes(listEndpoint) || resource.userLists?.some((l) => l.endpoint === listEndpoint) ? listEndpoint : 'list';
  const params = {
    ...filters,
    current: query.current,
    size: query.size,
    ...(query.sort ? { [query.sort.order === 'ascend' ? 'ascs' : 'descs']: query.sort.field } : {}),
  };
  const list = useGet<Page>(treeMode ? null : `${resource.api}/${endpoint}`, params, { keepPreviousData: true });
  const tree = useLazyTree(resource, treeMode);

  const [selected, setSelected] = useState<React.Key[]>([]);
  const [editing, setEditing] = useState<{ open: boolean; recordKey?: string; initialValues?: Record<string, unknown> }>({ open: false });
  const [viewing, setViewing] = useState<{ open: boolean; recordKey?: string }>({ open: false });
  const [acting, setActing] = useState<{ action: WorkflowAction; row: Row } | null>(null);
  const [operating, setOperating] = useState<{ op: ListOperation; ctx: OperationContext } | null>(null);
  const [revealed, setRevealed] = useState<Row[] | null>(null);
  const revealOnSave = resource.list?.revealOnSave;

  const refresh = useCallback(() => {
    void revalidate(resource.api);
    if (treeMode) void tree.reload();
  }, [revalidate, resource.api, treeMode, tree]);

  const remove = (keys: React.Key[]) => {
    if (!keys.length) {
      void msg.warning(t('rt.selectOne'));
      return;
    }
    modal.confirm({
      title: t('rt.confirmTitle'),
      content: t('rt.removeConfirm'),
      okText: t('rt.ok'),
      cancelText: t('rt.cancel'),
      onOk: async () => {
        try {
          await post(`${resource.api}/remove`, undefined, { params: { ids: keys.join(',') } });
          void msg.success(t('rt.removed'));
          setSelected((s) => s.filter((k) => !keys.includes(k)));
          refresh();
        } catch {
          /* the api client has shown the server's message */
        }
      },
    });
  };

  const localized = useMemo(() => localizeSchema(resource, lang), [resource, lang]);
  const nodes = useMemo(() => fieldNodes(localized), [localized]);
  const columns = (() => {
    const specs: ListColumn[] = resource.list?.columns ?? [...nodes.keys()].slice(0, 6).map((field) => ({ field }));
    const cols: NonNullable<TableProps<Row>['columns']> = specs.map((c) => ({
      key: c.field,
      dataIndex: c.field,
      title: nodes.has(c.field) || !c.title ? fieldLabel(resource, c.field, lang) : lang === 'en' ? (c.titleEn ?? c.title) : c.title,
      width: c.width,
      ellipsis: c.ellipsis,
      sorter: c.sortable ? true : undefined,
      sortOrder: query.sort?.field === c.field ? query.sort.order : null,
      render: (v: unknown) => {
        if (c.type === 'fileSize') return fileSize(v);
        if (c.type === 'relativeTime') return <span title={isBlankCell(v) ? undefined : String(v)}>{relativeTime(v, lang)}</span>;
        return nodes.has(c.field) || c.type !== 'boolean' ? renderCell(nodes.get(c.field), v, t) : v ? t('rt.yes') : t('rt.no');
      },
    }));
    const actions = resource.list?.rowActions ?? [];
    const addChild = treeMode && allowed('add') && resource.endpoints.includes('submit');
    const rows = treeMode ? tree.rows : (list.data?.records ?? []);
    // the widest row's workflow buttons (about 14px a character)
    const flowWidth = Math.max(
      0,
      ...rows.map((r) => [...actionsFor(resource, r, actor, 'row'), ...operationsFor(resource, 'row', can, r)].reduce((w, a) => w + 24 + (lang === 'en' ? 8 : 14) * actionLabel(a, lang).length, 0)),
    );
    if (actions.length || addChild || flowWidth > 0) {
      cols.push({
        key: '__actions',
        title: t('rt.actions'),
        fixed: 'right',
        width: 80 + 50 * (actions.length + (addChild ? 1 : 0)) + flowWidth,
        render: (_: unknown, row: Row) => {
          const key = String(row[keyField]);
          const flow = actionsFor(resource, row, actor, 'row');
          const ops = operationsFor(resource, 'row', can, row);
          return (
            <Space size={0} split={<Divider type="vertical" />}>
              {addChild && (
                <Button type="link" size="small" onClick={() => setEditing({ open: true, initialValues: { [tree.parentField ?? 'parentId']: key } })}>
                  {t('rt.addChild')}
                </Button>
              )}
              {actions.includes('detail') && allowed('view') && (
                <Button type="link" size="small" onClick={() => setViewing({ open: true, recordKey: key })}>
                  {t('rt.detail')}
                </Button>
              )}
              {actions.includes('edit') && allowed('edit') && !editLocked(resource, row) && (
                <Button type="link" size="small" onClick={() => setEditing({ open: true, recordKey: key })}>
                  {t('rt.edit')}
                </Button>
              )}
              {actions.includes('remove') && allowed('remove') && !removeLocked(resource, row, actor) && (
                <Button type="link" size="small" danger onClick={() => remove([key])}>
                  {t('rt.remove')}
                </Button>
              )}
              {flow.map((a) => (
                <Button key={a.key} type="link" size="small" danger={a.danger} onClick={() => setActing({ action: a, row })}>
                  {actionLabel(a, lang)}
                </Button>
              ))}
              {ops.map((op) =>
                op.result === 'design' ? (
                  <DesignLink key={`op-${op.key}`} to={designerUrl(resource, op, key)}>
                    {operationLabel(op, lang)}
                  </DesignLink>
                ) : (
                  <Button key={`op-${op.key}`} type="link" size="small" danger={op.danger} onClick={() => setOperating({ op, ctx: { keys: [key], row, query: queryOf(params) } })}>
                    {operationLabel(op, lang)}
                  </Button>
                ),
              )}
            </Space>
          );
        },
      });
    }
    return withColumnWidths(cols);
  })();

  const toolbar = resource.list?.toolbar ?? [];
  const page = list.data;
  const onTableChange: TableProps<Row>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'sort') {
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      setQuery((q) => ({ ...q, current: 1, sort: s?.order && s.columnKey ? { field: String(s.columnKey), order: s.order } : undefined }));
    } else if (extra.action === 'paginate') {
      setQuery((q) => ({ ...q, current: pagination.pageSize !== q.size ? 1 : (pagination.current ?? 1), size: pagination.pageSize ?? q.size }));
    }
  };

  const bigPage = !treeMode && query.size >= 100;
  const runToolbar = (op: ListOperation) => {
    const fault = selectionFault(op, selected.length);
    if (fault) {
      void msg.warning(t(fault));
      return;
    }
    const keys = op.selection === 'none' ? [] : selected.map(String);
    const rows = treeMode ? tree.rows : (list.data?.records ?? []);
    const row = keys.length === 1 ? rows.find((r) => String(r[keyField]) === keys[0]) : undefined;
    setOperating({ op, ctx: { keys, row, query: queryOf(params) } });
  };
  const body = (
    <div className="kc-list-page">
      {msgHolder}
      {modalHolder}
      <SearchBar key={lang} resource={resource} lang={lang} onSearch={onSearch} />
      <Space style={{ marginBottom: 12 }}>
        {toolbar.includes('add') && allowed('add') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ open: true, initialValues: treeMode && tree.parentField ? { [tree.parentField]: tree.root } : defaults })}>
            {t('rt.add')}
          </Button>
        )}
        {toolbar.includes('remove') && allowed('remove') && (
          <Button danger icon={<DeleteOutlined />} onClick={() => remove(selected)}>
            {t('rt.remove')}
          </Button>
        )}
        {operationsFor(resource, 'toolbar', can).map((op) => (
          <Button key={op.key} danger={op.danger} onClick={() => runToolbar(op)}>
            {operationLabel(op, lang)}
          </Button>
        ))}
      </Space>
      {/* Excel export / import / template beside them (spec 002 §2); after an import: page 1 with 500 rows (§4) */}
      <ExcelToolbar resource={resource} params={filters} listEndpoint={endpoint} selected={selected} onImported={() => (setQuery((q) => ({ ...q, current: 1, size: 500 })), refresh())} />
      <Table<Row>
        rowKey={(r) => String(r[keyField])}
        size="middle"
        bordered
        columns={columns}
        dataSource={treeMode ? tree.rows : (page?.records ?? [])}
        loading={treeMode ? tree.loading : list.isLoading}
        // a long page (100 rows or more) renders only the rows in view (antd's virtual table needs numeric sizes):
        // 200 rows × 20 columns stay within the render budget of DESIGN §10
        virtual={bigPage}
        // every column has a width and the table scrolls sideways past their sum: the pinned 操作 column never
        // covers another, and an empty list scrolls to its headers too (issue 18 defect 5)
        scroll={bigPage ? { x: tableWidth(columns), y: 640 } : { x: tableWidth(columns) }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys), checkStrictly: true, getCheckboxProps: (row) => ({ disabled: removeLocked(resource, row, actor) }) }}
        expandable={treeMode ? { expandedRowKeys: tree.expanded, onExpand: tree.onExpand } : undefined}
        onChange={onTableChange}
        pagination={
          treeMode
            ? false
            : {
                current: query.current,
                pageSize: query.size,
                total: page?.total ?? 0,
                showSizeChanger: true,
                pageSizeOptions: PAGE_SIZES,
                showTotal: (total) => t(page?.totalBounded ? 'rt.totalBounded' : 'rt.total', { total }),
              }
        }
      />
      <FormDialog
        resource={resource}
        open={editing.open}
        recordKey={editing.recordKey}
        initialValues={editing.initialValues}
        onClose={() => setEditing((e) => ({ ...e, open: false }))}
        onSaved={(saved, isNew) => {
          refresh();
          // a new record's once-only values (an account's initial password): shown now or never
          if (isNew && revealOnSave && revealOnSave.columns.every((c) => saved?.[c.field] !== undefined && saved?.[c.field] !== null)) setRevealed([saved]);
        }}
      />
      {revealOnSave && <RevealDialog title={t('rt.add')} spec={revealOnSave} rows={revealed} onClose={() => setRevealed(null)} />}
      <DetailView resource={resource} open={viewing.open} recordKey={viewing.recordKey} onClose={() => setViewing((v) => ({ ...v, open: false }))} onChanged={refresh} />
      <ActionDialog resource={resource} action={acting?.action ?? null} record={acting?.row ?? null} onClose={() => setActing(null)} onDone={refresh} />
      <OperationDialog resource={resource} op={operating?.op ?? null} ctx={operating?.ctx ?? { keys: [] }} onClose={() => setOperating(null)} onDone={refresh} />
    </div>
  );
  if (!sideTree) return body;
  return (
    <div className="kc-list-with-tree" style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
      <div style={{ flex: '0 0 240px', minWidth: 0 }}>
        <SideTree
          spec={sideTree}
          value={side}
          onSelect={(v) => {
            setSide(v);
            setQuery((q) => ({ ...q, current: 1 }));
          }}
        />
      </div>
      <div style={{ flex: 1, minWidth: 0 }}>{body}</div>
    </div>
  );
}

/** The list's filters as query parameters (an operation's `$query`: the export of what the list shows). */
function queryOf(params: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) if (k !== 'current' && k !== 'size' && v !== undefined && v !== null && v !== '') out[k] = String(v);
  return out;
}
