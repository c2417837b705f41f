/**
 * Opening a stored file: file links (`/api/blade-resource/oss/endpoint/file/upload/...`) need the same headers
 * as every call (Blade-Auth ...), so a plain <a href> cannot fetch them. `downloadFile(link, name)` fetches the
 * file with the api client's headers and hands the browser a blob URL saved as `name`; a failure shows the
 * server's message in the api client's single error toast. It is the renderer environment's `download`
 * (runtime/env.tsx), so components (FileUpload) reach it through context, not by import.
 */
import i18n from 'i18next';
import { authHeaders, toastError } from './api.js';

/** Fetches `link` with the API headers and saves it as `name`; false (after one error toast) on failure. */
export async function downloadFile(link: string, name: string): Promise<boolean> {
  try {
    const res = await fetch(link, { headers: authHeaders() });
    if (!res.ok) {
      let msg = i18n.t('error.unknown');
      try {
        msg = ((await res.json()) as { msg?: string }).msg || msg;
      } catch {
        /* not JSON */
      }
      toastError(msg);
      return false;
    }
    const url = URL.createObjectURL(await res.blob());
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
