/**
 * The editor page's calls (shapes and paths: src/shared/contract/editor.ts; server: modules/files/editor.ts).
 * JSON calls go through the API client (its headers, envelope, toasts, 401 handling); the two that carry bytes
 * — a version's .docx (`file-history-data`) and the save (`POST save`, the .docx as the body) — use `fetch` with
 * the same headers (authHeaders), decode an error reply's envelope, and toast its message once.
 */
import i18n from 'i18next';
import { ApiError, authHeaders, get, post, toastError } from '../../runtime/api.js';
import { blobFailure } from '../../runtime/download.js';
import { EDITOR_API, type EditorOpen, type EditStatus, type FileHistory, type SavedVersion } from '../../../shared/contract/editor.js';

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Opens the document (takes or refreshes the edit lock); `silent` for the heartbeat. */
export const openDoc = (fileId: string, silent = false) => get<EditorOpen>(`${EDITOR_API}/edit`, { fileId }, { silent });
export const editStatus = (fileId: string) => get<EditStatus>(`${EDITOR_API}/editStatus`, { fileId }, { silent: true });
export const fileHistory = (fileId: string) => get<FileHistory>(`${EDITOR_API}/file-history`, { fileId });
export const restoreVersion = (fileId: string, version: number) =>
  post<SavedVersion>(`${EDITOR_API}/restore?fileId=${encodeURIComponent(fileId)}&version=${version}`);

/** Releases the caller's lock; `keepalive` lets it leave with a closing page. Never throws. */
export function closeDoc(fileId: string): void {
  void fetch(`${EDITOR_API}/close?fileId=${encodeURIComponent(fileId)}`, { method: 'POST', headers: authHeaders(), keepalive: true }).catch(() => undefined);
}

/** The bytes of `version` (default: the current one); throws ApiError (after one toast) on failure. */
export async function versionBytes(fileId: string, version?: number): Promise<ArrayBuffer> {
  const qs = new URLSearchParams({ fileId, ...(version ? { version: String(version) } : {}) });
  let res: Response;
  try {
    res = await fetch(`${EDITOR_API}/file-history-data?${qs.toString()}`, { headers: authHeaders(), cache: 'no-store' });
  } catch (e) {
    toastError(i18n.t('error.network'));
    throw new ApiError(0, i18n.t('error.network'), [], e);
  }
  const blob = await res.blob();
  const failure = await blobFailure(res.ok, res.headers.get('content-type'), blob);
  if (failure !== null) {
    toastError(failure);
    throw new ApiError(res.status, failure);
  }
  return blob.arrayBuffer();
}

/** Saves `bytes` as the document's new version; answers the envelope's data and message. */
export async function saveDoc(fileId: string, bytes: ArrayBuffer): Promise<{ data: SavedVersion; msg: string }> {
  let res: Response;
  try {
    res = await fetch(`${EDITOR_API}/save?fileId=${encodeURIComponent(fileId)}`, {
      method: 'POST', headers: { ...authHeaders(), 'Content-Type': DOCX_MIME }, body: bytes,
    });
  } catch (e) {
    toastError(i18n.t('error.network'));
    throw new ApiError(0, i18n.t('error.network'), [], e);
  }
  const json = (await res.json().catch(() => null)) as { code?: number; msg?: string; data?: SavedVersion } | null;
  if (res.ok && json?.code === 200 && json.data) return { data: json.data, msg: json.msg ?? '' };
  const msg = json?.msg || i18n.t('error.unknown');
  toastError(msg);
  throw new ApiError(json?.code ?? res.status, msg);
}
