/**
 * The online editor's calls (spec 002 §7 `onlyoffice/endpoint`: GET edit, getFileStatus, editStatus,
 * file-history, file-history-data; issue 17; DESIGN §8 "Documents": our own editor, no document server), one
 * copy for the server (src/server/modules/files/editor.ts) and the editor page (src/client/shell/DocxEditorPage.tsx).
 *
 * The spec names the calls and says "(params)"; the shapes are ours and written here. Every call takes the
 * document as `fileId` (the `blade_attach` id of an uploaded .docx; `id` is accepted too). Besides the spec's
 * five, the editor needs three writes an OnlyOffice document server would do through its callback:
 * `POST save?fileId=` (body: the .docx bytes), `POST restore?fileId=&version=` and `POST close?fileId=`.
 *
 * Dates are `yyyy-MM-dd HH:mm:ss` in the server's time zone (DESIGN §6); ids are strings; sizes are bytes.
 */
export const EDITOR_API = '/api/onlyoffice/endpoint';

/** Who holds a document's edit lock. */
export interface EditLock {
  userId: string;
  /** The holder's real name (else account). */
  userName: string;
  /** When the holder opened the document. */
  since: string;
  /** The holder's last sign of life (open, heartbeat, save). */
  lastActive: string;
  /** When the lock lapses unless the holder shows life again. */
  expiresAt: string;
  /** True when the caller holds it. */
  mine: boolean;
}

/** `GET edit?fileId=`: opens the document — takes (or refreshes) the lock for the caller, else read-only. */
export interface EditorOpen {
  fileId: string;
  fileName: string;
  extension: string;
  size: number;
  /** The current version (1 = as uploaded). */
  version: number;
  /** `edit`: the caller holds the lock; `view`: read-only (someone else holds it, or the caller may not edit). */
  mode: 'edit' | 'view';
  /** True when the caller may edit the document at all (their permission, whatever the lock). */
  canEdit: boolean;
  lock: EditLock | null;
  /** Seconds without a sign of life after which a lock lapses. */
  lockIdleSeconds: number;
}

/** `GET editStatus?fileId=`: the lock's state. */
export interface EditStatus {
  fileId: string;
  locked: boolean;
  lock: EditLock | null;
  canEdit: boolean;
}

/** `GET getFileStatus?fileId=`: the document as stored now. */
export interface FileStatus {
  fileId: string;
  fileName: string;
  extension: string;
  size: number;
  version: number;
  /** Number of versions kept (the current one included). */
  versions: number;
  updateTime: string;
  updateUser: string;
  updateUserName: string;
  locked: boolean;
  lock: EditLock | null;
}

/** One version in `GET file-history?fileId=`. */
export interface FileVersion {
  version: number;
  size: number;
  createUser: string;
  createUserName: string;
  createTime: string;
  /** The version whose bytes a restore copied, else null. */
  restoredFrom: number | null;
  current: boolean;
}

/** `GET file-history?fileId=`: versions newest first. */
export interface FileHistory {
  fileId: string;
  currentVersion: number;
  history: FileVersion[];
}

/** `POST save` and `POST restore`: the version just written. */
export interface SavedVersion {
  fileId: string;
  version: number;
  size: number;
  createTime: string;
  restoredFrom: number | null;
}
