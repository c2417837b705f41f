/**
 * Who may read or edit a stored file (issue 17 "the online editor"; DESIGN §1.3 "the server enforces"): the
 * per-file permission the online editor (modules/files/editor.ts) asks before it serves a document, its
 * versions or its lock, and before it saves a new version.
 *
 * Default rule, with no module rule deciding:
 * - `read`: any signed-in user of the file's tenant (the same as the files module's download of that file);
 * - `edit`: the user who uploaded the file, or an administrator of its tenant.
 * The tenant itself is never a rule's business: the editor finds a file among the caller's tenant's live
 * attachments only, so another tenant's file is a 404 before any rule runs.
 *
 * Modules add rules (e.g. the bidding documents' user file scope: "who may read or edit which chapter") with
 * `fileAccessOf(kernel).add(rule)` in their `routes()`. A rule answers `true` (allow), `false` (deny) or
 * `undefined` (no opinion) for one user, file and operation. Combination: any `false` denies, else any `true`
 * allows, else the default rule decides. Rules live per kernel (a WeakMap keyed by it), so two apps in one
 * process (tests) keep theirs apart, and a module never imports another module's internals to add one.
 */
import type { AuthUser } from './context.js';

/** What a caller wants to do with a file. */
export type FileOperation = 'read' | 'edit';

/** The stored file a rule decides on: a live `blade_attach` row of the caller's tenant. */
export interface StoredFile {
  /** `blade_attach.id` (decimal string). */
  id: string;
  tenantId: string;
  /** Stored name, `upload/{yyyyMMdd}/{uuid}.{ext}`. */
  name: string;
  originalName: string;
  extension: string;
  /** Bytes of the current content. */
  size: number;
  /** Id of the uploader (decimal string). */
  createUser: string;
}

/** The refusal of a read the rules deny (the online editor, downloads, file links, checkid). */
export const FILE_READ_DENIED = { zh: '您没有查看该文档的权限', en: 'You do not have permission to view this document' };

/**
 * The rules' view of a `blade_attach` row of `tenantId` read as `id::text AS id, name, original_name, extension,
 * attach_size::text AS size, coalesce(create_user, 0)::text AS create_user`.
 */
export function storedFileOf(tenantId: string, row: { id: unknown; name: unknown; original_name: unknown; extension: unknown; size: unknown; create_user: unknown }): StoredFile {
  return {
    id: String(row.id), tenantId, name: String(row.name), originalName: String(row.original_name), extension: String(row.extension),
    size: Number(row.size), createUser: String(row.create_user),
  };
}

/** One module's rule: true allows, false denies, undefined leaves the decision to the others and the default. */
export type FileRule = (user: AuthUser, file: StoredFile, op: FileOperation) => boolean | undefined | Promise<boolean | undefined>;

export class FileAccess {
  private readonly rules: FileRule[] = [];

  /** Adds a rule (see the module comment for how rules combine). */
  add(rule: FileRule): void {
    this.rules.push(rule);
  }

  /** The default rule of the module comment. */
  static byDefault(user: AuthUser, file: StoredFile, op: FileOperation): boolean {
    if (op === 'read') return true;
    return user.isAdmin || file.createUser === user.userId;
  }

  /** True when `user` may `op` `file` (rules first, then the default). */
  async allows(user: AuthUser, file: StoredFile, op: FileOperation): Promise<boolean> {
    let allowed = false;
    for (const rule of this.rules) {
      const r = await rule(user, file, op);
      if (r === false) return false;
      if (r === true) allowed = true;
    }
    return allowed || FileAccess.byDefault(user, file, op);
  }
}

const byOwner = new WeakMap<object, FileAccess>();

/** The file access rules of `owner` (the kernel): created on first use, the same object afterwards. */
export function fileAccessOf(owner: object): FileAccess {
  let fa = byOwner.get(owner);
  if (!fa) {
    fa = new FileAccess();
    byOwner.set(owner, fa);
  }
  return fa;
}
