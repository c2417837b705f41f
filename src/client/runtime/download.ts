/**
 * Opening a stored file: file links (`/api/blade-resource/oss/endpoint/file/upload/...`) need the same headers
 * as every call (Blade-Auth ...), so a plain <a href> cannot fetch them. `downloadFile(link, name)` fetches the
 * file with the api client's headers and hands the browser a blob URL saved as `name`; a failure shows the
 * server's message in the api client's single error toast. It is the renderer environment's `download`
 * (runtime/env.tsx), so components (FileUpload) reach it through context, not by import.
 */
import i18n from 'i18next';
import { authHeaders, toastError } from './api.js';

/**
 * The message of a failed file reply, or null when `blob` is the file: a non-OK status or a JSON envelope with a
 * code other than 200 → its `msg` (or `error_description`, else 'unknown error').
 */
export async function blobFailure(ok: boolean, contentType: string | null, blob: Blob): Promise<string | null> {
  const json = (contentType ?? '').includes('json');
  if (ok && !json) return null;
  type Envelope = { code?: number; msg?: string; error_description?: string };
  let body: Envelope | null = null;
  try {
    body = JSON.parse(await blob.text()) as Envelope;
  } catch {
    body = null;
  }
  if (ok && (body?.code === undefined || body.code === 200)) return null;
  return body?.msg || body?.error_description || i18n.t('error.unknown');
}

/** Fetches `link` with the API headers and saves it as `name`; false (after one error toast) on failure. */
export async function downloadFile(link: string, name: string): Promise<boolean> {
  try {
    const res = await fetch(link, { headers: authHeaders() });
    const blob = await res.blob();
    // a blob error reply (spec 000 §8 'Blob error responses are decoded first'): a failed status, or a JSON
    // envelope whose code is not 200 where a file was expected, is read and its message shown — never saved
    const failure = await blobFailure(res.ok, res.headers.get('content-type'), blob);
    if (failure !== null) {
      toastError(failure);
      return false;
    }
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    return true;
  } catch {
    toastError(i18n.t('error.network'));
    return false;
  }
}
