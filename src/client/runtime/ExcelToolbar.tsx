/**
 * The Excel toolbar of a list (spec 002 §2, §4, §5, §8, §9; issue 13): export, import and template-download
 * buttons beside the list's own.
 *
 * - Which buttons: those of the current menu's button entries (the role's `GET /api/blade-system/menu/buttons`
 *   tree, the menu that shows this resource) whose code ends in `export` (export) or `import` (import and
 *   template download), unless one of the list's own operations carries that code (it is the button already);
 *   none → no toolbar. The template is the one the button's path names
 *   (`GET /api/system/exceltemplate/detailByCode?code=<path>`, spec 002 §2).
 * - Export asks 'confirm export N records?' (the checked rows) or 'confirm export all data?' (everything the
 *   list's current filters select, in the list's scope), then downloads
 *   `GET /api/system/exceltemplate/exportData` (the server names the file: template name + yyyyMMddHHmmss).
 *   A large export answers a job instead of a file.
 * - Import opens the ImportDialog; success closes it and shows the server's message for 60 s ('、' as line
 *   breaks, spec 002 §8), then `onImported()` (the list goes to page 1 with 500 rows, spec 002 §4/§9); a
 *   refused file shows the faults for 60 s with the error workbook to download.
 * - Jobs (large exports and imports, DESIGN §8 "Jobs"): a progress bar each (percent, rows read / written /
 *   failed) polled every second from `/api/blade-job/job/detail`; after a reload the toolbar finds its
 *   unfinished jobs again (`/api/blade-job/job/list?ref=<template id>`), so the bar survives it. A finished
 *   export offers its file, a finished import refreshes the list.
 * - Failed status or download calls are ignored silently (spec 002 §8).
 */
import React, { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Modal, Progress, Space, message } from 'antd';
import { DownloadOutlined, ExportOutlined, ImportOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ResourceSchema } from '../../shared/schema/types.js';
import { authHeaders, get, withParams } from './api.js';
import { downloadFile } from './download.js';
import { useGet } from './hooks.js';
import { useSession } from './session.js';
import { ImportDialog, ImportMessage, type ImportResult } from './ImportDialog.js';

export const BUTTONS_URL = '/api/blade-system/menu/buttons';
export const TEMPLATE_URL = '/api/system/exceltemplate/detailByCode';
export const EXPORT_URL = '/api/system/exceltemplate/exportData';
export const TEMPLATE_FILE_URL = '/api/system/exceltemplate/exportTemplate';
export const JOB_URL = '/api/blade-job/job/detail';
export const JOBS_URL = '/api/blade-job/job/list';
const MESSAGE_SECONDS = 60; // spec 002 §9

interface MenuNode {
  code: string;
  path: string | null;
  category: number;
  resource?: string | null;
  children?: MenuNode[];
}

/** What the UI sees of a job (core/jobs.ts `JobView`). */
export interface JobView {
  id: string;
  kind: string;
  title: string | null;
  status: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  readCount: number;
  writtenCount: number;
  failedCount: number;
  error: string | null;
  resultName: string | null;
  hasFile: boolean;
  result: { message?: string } | null;
}

export interface ExcelToolbarProps {
  resource: ResourceSchema;
  /** The list's current search values (as the list sends them). */
  params: Record<string, string>;
  /** The list the screen shows ('list', 'myList', 'list-for-myCompany'): the export selects the same rows. */
  listEndpoint?: string;
  /** The checked rows' keys: the export takes them instead of the filters. */
  selected: React.Key[];
  /** After a successful import: show the list's page 1 with 500 rows. */
  onImported(): void;
}

/** The export and import button codes' paths (template codes) of the menu that shows `resource`. */
export function excelButtons(tree: MenuNode[] | undefined, resource: ResourceSchema): { exportCode?: string; importCode?: string } {
  const find = (nodes: MenuNode[]): MenuNode | undefined => {
    for (const n of nodes) {
      if (n.category !== 2 && (n.resource === resource.name || (!!resource.menu && n.code === resource.menu))) return n;
      const hit = find(n.children ?? []);
      if (hit) return hit;
    }
    return undefined;
  };
  const menu = find(tree ?? []);
  const btns = (menu?.children ?? []).filter((c) => c.category === 2);
  // a list operation of the schema that carries the button's own code is that button (the user list's export
  // calls blade-user/export-user, spec 002 §7): the toolbar does not add a second one
  const own = new Set((resource.list?.operations ?? []).map((o) => o.code).filter(Boolean));
  const pathOf = (suffix: string) => {
    const b = btns.find((c) => c.code.endsWith(suffix) && !own.has(c.code));
    return b ? b.path || resource.menu || undefined : undefined;
  };
  return { exportCode: pathOf('export'), importCode: pathOf('import') };
}

/** The file name of a download (RFC 5987 `filename*`, else `filename`). */
function fileNameOf(res: Response, fallback: string): string {
  const cd = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(cd);
  if (star) return decodeURIComponent(star[1]);
  return /filename="([^"]+)"/i.exec(cd)?.[1] ?? fallback;
}

function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

const unfinished = (j: JobView) => j.status === 'queued' || j.status === 'running';

export function ExcelToolbar({ resource, params, listEndpoint = 'list', selected, onImported }: ExcelToolbarProps) {
  const { t } = useTranslation();
  const session = useSession();
  const [msg, msgHolder] = message.useMessage();
  const [modal, modalHolder] = Modal.useModal();
  const buttons = useGet<MenuNode[]>(session.currentRoleId ? BUTTONS_URL : null, { roleId: session.currentRoleId }, { silent: true, revalidateIfStale: false });
  const { exportCode, importCode } = useMemo(() => excelButtons(buttons.data, resource), [buttons.data, resource]);
  const code = exportCode ?? importCode;
  const template = useGet<{ id: string }>(code ? TEMPLATE_URL : null, { code }, { silent: true, revalidateIfStale: false });
  const templateId = template.data?.id;
  const [jobs, setJobs] = useState<JobView[]>([]);
  const [importing, setImporting] = useState(false);

  const show = useCallback(
    (ok: boolean, text: string, errorFile?: string | null) =>
      void msg.open({
        type: ok ? 'success' : 'error',
        duration: MESSAGE_SECONDS,
        content: <ImportMessage text={text} errorFile={errorFile} errorLabel={t('rt.excel.errorFile')} onDownload={() => errorFile && void downloadFile(errorFile, 'errors.xlsx')} />,
      }),
    [msg, t],
  );

  // after a reload: the unfinished jobs of this template come back
  useEffect(() => {
    if (!templateId) return;
    get<JobView[]>(JOBS_URL, { ref: templateId }, { silent: true })
      .then((list) => setJobs((cur) => [...cur, ...list.filter((j) => unfinished(j) && !cur.some((c) => c.id === j.id))]))
      .catch(() => undefined);
  }, [templateId]);

  // every second, the unfinished jobs' status; a finished import refreshes the list and says how it went
  const open = jobs.filter(unfinished).map((j) => j.id).join(',');
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(async () => {
      const fresh = await Promise.all(open.split(',').map((id) => get<JobView>(JOB_URL, { id }, { silent: true }).catch(() => null)));
      setJobs((cur) => cur.map((j) => fresh.find((f) => f?.id === j.id) ?? j));
      for (const f of fresh) {
        if (!f || unfinished(f) || f.kind !== 'excel-import') continue;
        if (f.status === 'done') {
          show(true, f.result?.message ?? t('rt.excel.done'), f.hasFile ? `/api/blade-job/job/file?id=${f.id}` : null);
          onImported();
        } else show(false, f.error ?? t('rt.excel.failed'), f.hasFile ? `/api/blade-job/job/file?id=${f.id}` : null);
      }
    }, 1000);
    return () => clearTimeout(timer);
  }, [open, jobs, show, onImported, t]);

  const track = (id: string, kind: string) => {
    void get<JobView>(JOB_URL, { id }, { silent: true })
      .then((j) => setJobs((cur) => [...cur.filter((c) => c.id !== id), j]))
      .catch(() => setJobs((cur) => [...cur, { id, kind, title: null, status: 'queued', progress: 0, readCount: 0, writtenCount: 0, failedCount: 0, error: null, resultName: null, hasFile: false, result: null }]));
  };

  /** GET `url` as a download; a JSON answer carrying a job starts tracking it. Failures are ignored (spec 002 §8). */
  const fetchFile = async (url: string, query: Record<string, string>, fallback: string) => {
    try {
      const res = await fetch(withParams(url, query), { headers: authHeaders() });
      if (!res.ok) return;
      if ((res.headers.get('content-type') ?? '').includes('json')) {
        const body = (await res.json()) as { data?: { jobId?: string }; msg?: string };
        if (body.data?.jobId) {
          void msg.info(body.msg ?? '');
          track(body.data.jobId, 'excel-export');
        }
        return;
      }
      saveBlob(await res.blob(), fileNameOf(res, fallback));
    } catch {
      /* spec 002 §8: failed download calls are silently ignored */
    }
  };

  const exportData = () => {
    if (!templateId) return;
    const count = selected.length;
    modal.confirm({
      title: t('rt.confirmTitle'),
      content: count ? t('rt.excel.confirmCount', { count }) : t('rt.excel.confirmAll'),
      okText: t('rt.ok'),
      cancelText: t('rt.cancel'),
      onOk: () => {
        const query: Record<string, string> = count ? { templateId, ids: selected.join(',') } : { ...params, templateId, scope: listEndpoint };
        void fetchFile(EXPORT_URL, query, 'export.xlsx');
      },
    });
  };

  const onResult = (r: ImportResult) => {
    if (!r.ok) return show(false, r.message, r.errorFile);
    if (r.queued && r.jobId) {
      void msg.info(r.message);
      track(r.jobId, 'excel-import');
      return;
    }
    show(true, r.message);
    onImported();
  };

  if (!exportCode && !importCode) return null;
  return (
    <>
      {msgHolder}
      {modalHolder}
      <Space wrap className="kc-excel-toolbar" style={{ marginLeft: 8, marginBottom: 12 }}>
        {exportCode && (
          <Button icon={<ExportOutlined />} disabled={!templateId} onClick={exportData}>
            {t('rt.excel.export')}
          </Button>
        )}
        {importCode && (
          <Button icon={<ImportOutlined />} disabled={!templateId} onClick={() => setImporting(true)}>
            {t('rt.excel.import')}
          </Button>
        )}
        {importCode && (
          <Button icon={<DownloadOutlined />} disabled={!templateId} onClick={() => templateId && void fetchFile(TEMPLATE_FILE_URL, { templateId }, 'template.xlsx')}>
            {t('rt.excel.template')}
          </Button>
        )}
      </Space>
      {jobs.length > 0 && (
        <div className="kc-excel-jobs" style={{ marginTop: 8 }}>
          {jobs.map((j) => (
            <div key={j.id} className="kc-excel-job" style={{ display: 'flex', alignItems: 'center', gap: 12, maxWidth: 720 }}>
              <span style={{ whiteSpace: 'nowrap' }}>{`${t(j.kind === 'excel-import' ? 'rt.excel.jobImport' : 'rt.excel.jobExport')} ${j.title ?? ''}`}</span>
              <Progress
                style={{ flex: 1, margin: 0 }}
                percent={j.progress}
                size="small"
                status={j.status === 'failed' ? 'exception' : j.status === 'done' ? 'success' : 'active'}
                aria-label={t('rt.excel.counts', { read: j.readCount, written: j.writtenCount, failed: j.failedCount })}
              />
              <span style={{ whiteSpace: 'nowrap', fontSize: 12 }}>
                {j.status === 'queued' ? t('rt.excel.queued') : t('rt.excel.counts', { read: j.readCount, written: j.writtenCount, failed: j.failedCount })}
              </span>
              {j.status === 'done' && j.hasFile && j.kind === 'excel-export' && (
                <Button type="link" size="small" onClick={() => void downloadFile(`/api/blade-job/job/file?id=${j.id}`, j.resultName ?? 'export.xlsx')}>
                  {t('rt.excel.download')}
                </Button>
              )}
              {!unfinished(j) && (
                <Button type="link" size="small" onClick={() => setJobs((cur) => cur.filter((c) => c.id !== j.id))}>
                  {t('rt.excel.dismiss')}
                </Button>
              )}
            </div>
          ))}
        </div>
      )}
      {templateId && importing && <ImportDialog open templateId={templateId} onClose={() => setImporting(false)} onResult={onResult} />}
    </>
  );
}
