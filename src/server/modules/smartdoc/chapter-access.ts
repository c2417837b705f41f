/**
 * Who may read or edit which chapter of a bidding project (issue 17; spec 002 §7 smartdoc/userfilescope) — the
 * one rule every read and write of a chapter or its document goes through:
 *
 * | who                                                         | chapters            | right |
 * | ----------------------------------------------------------- | ------------------- | ----- |
 * | an administrator of the tenant; the project's leader or creator (its managers) | every chapter | edit  |
 * | the chapter's writer (biddingcatalogue.writerId, the writing task)            | that chapter  | edit  |
 * | a user named by a userfilescope row (read or edit)                            | that chapter  | that  |
 *
 * Anyone else — cooperating users included — has no right on a chapter until a manager gives one (saveChange)
 * or makes them its writer (batchSave). The chapters of a removed project are nobody's: asking for one answers
 * 404 投标项目不存在. Everything is in the caller's tenant: another tenant's project, chapter
 * or file is unknown (404), never a 403 that would confirm it exists.
 *
 * `registerChapterRule` adds the rule to the kernel's file access rules (core/file-access.ts `fileAccessOf`): a
 * chapter's document (the blade_attach row a biddingcatalogue entry names in `fileId`) is then opened, locked and
 * saved by the online editor only for those the rule allows; `checkChapterFile` is the same check for callers
 * that want the refusal's message (403 无权查看该章节 / 无权编辑该章节).
 */
import { sql, type Db } from '../../core/db/index.js';
import { ApiError } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import { fileAccessOf, type FileOperation } from '../../core/file-access.js';
import { isId } from '../../../shared/contract/ids.js';

export const ACCESS_MESSAGES = {
  project: { zh: '投标项目不存在', en: 'No such bidding project' },
  notManager: { zh: '只有项目负责人可以进行此操作', en: 'Only the project leader may do this' },
  read: { zh: '无权查看该章节', en: 'You may not read this chapter' },
  edit: { zh: '无权编辑该章节', en: 'You may not edit this chapter' },
};

/** A bidding project as the rules need it. */
export interface ProjectHead {
  id: string;
  projectName: string;
  leaderId: string | null;
  createUser: string;
  cooperationUserIds: string[];
}

/** The live project `id` of `user`'s tenant, or 404 投标项目不存在 (also for an id that is not one: 400 first). */
export async function loadProject(db: Db, user: AuthUser, id: unknown): Promise<ProjectHead> {
  if (typeof id !== 'string' || id === '') throw new ApiError(400, 'missingParam', { param: 'projectId' });
  if (!isId(id)) throw new ApiError(400, 'badParam', { param: 'projectId' });
  const row = (
    await sql<{ id: string; project_name: string; leader_id: string | null; create_user: string; cooperation_user_ids: unknown }>`
      SELECT id::text AS id, project_name, leader_id, create_user::text AS create_user, cooperation_user_ids
        FROM smartdoc_bidding_base_info WHERE id = ${id}::bigint AND tenant_id = ${user.tenantId} AND is_deleted = 0`.execute(db)
  ).rows[0];
  if (!row) throw new ApiError(404, ACCESS_MESSAGES.project);
  const coop = Array.isArray(row.cooperation_user_ids) ? row.cooperation_user_ids.map(String) : [];
  return { id: row.id, projectName: row.project_name, leaderId: row.leader_id, createUser: row.create_user, cooperationUserIds: coop };
}

/** True when `user` manages `p`: an administrator, its leader or its creator. */
export function isManager(user: AuthUser, p: ProjectHead): boolean {
  return user.isAdmin || p.leaderId === user.userId || p.createUser === user.userId;
}

/** Throws 403 只有项目负责人可以进行此操作 unless `user` manages `p`. */
export function assertManager(user: AuthUser, p: ProjectHead): void {
  if (!isManager(user, p)) throw new ApiError(403, ACCESS_MESSAGES.notManager);
}

/** A chapter's rights for one user. */
export interface ChapterRight {
  catalogueId: string;
  read: boolean;
  edit: boolean;
}

/**
 * `user`'s rights on every catalogue entry of project `p` (the table of the module comment), by catalogue id;
 * entries the user has no right on are left out.
 */
export async function chapterRights(db: Db, user: AuthUser, p: ProjectHead): Promise<Map<string, ChapterRight>> {
  const rows = await sql<{ id: string; writer_id: string | null; scope_read: boolean | null; scope_edit: boolean | null }>`
    SELECT c.id::text AS id, c.writer_id, bool_or(s.scope_type IS NOT NULL) AS scope_read, bool_or(s.scope_type = 'edit') AS scope_edit
      FROM smartdoc_bidding_catalogue c
      LEFT JOIN smartdoc_user_file_scope s
        ON s.tenant_id = c.tenant_id AND s.catalogue_id = c.id::text AND s.user_id = ${user.userId} AND s.is_deleted = 0
     WHERE c.tenant_id = ${user.tenantId} AND c.project_id = ${p.id} AND c.is_deleted = 0
     GROUP BY c.id, c.writer_id`.execute(db);
  const manager = isManager(user, p);
  const out = new Map<string, ChapterRight>();
  for (const r of rows.rows) {
    const edit = manager || r.writer_id === user.userId || r.scope_edit === true;
    const read = edit || r.scope_read === true;
    if (read) out.set(r.id, { catalogueId: r.id, read, edit });
  }
  return out;
}

/**
 * The chapter whose document is `attachId` in `user`'s tenant and `user`'s right on it, or null when the file
 * is no chapter's document.
 */
export async function chapterOfFile(db: Db, user: AuthUser, attachId: string): Promise<{ project: ProjectHead; catalogueId: string; right: ChapterRight | undefined } | null> {
  if (!isId(attachId)) return null;
  const row = (
    await sql<{ id: string; project_id: string }>`SELECT id::text AS id, project_id FROM smartdoc_bidding_catalogue
      WHERE tenant_id = ${user.tenantId} AND file_id = ${attachId} AND is_deleted = 0 LIMIT 1`.execute(db)
  ).rows[0];
  if (!row) return null;
  const project = await loadProject(db, user, row.project_id);
  return { project, catalogueId: row.id, right: (await chapterRights(db, user, project)).get(row.id) };
}

/**
 * The check of a chapter's document (exported for any module that reads or writes a file's bytes): undefined
 * when `attachId` is no chapter's document; true when `user` may `op` it; otherwise 403 无权查看该章节 /
 * 无权编辑该章节.
 */
export async function checkChapterFile(db: Db, user: AuthUser, attachId: string, op: FileOperation): Promise<true | undefined> {
  const found = await chapterOfFile(db, user, attachId);
  if (!found) return undefined;
  if (op === 'edit' ? found.right?.edit : found.right?.read) return true;
  throw new ApiError(403, op === 'edit' ? ACCESS_MESSAGES.edit : ACCESS_MESSAGES.read);
}

/**
 * Adds the chapter rule to the kernel's file access rules (core/file-access.ts, which the online editor asks
 * before it opens, shows the versions of, locks or saves a file): a chapter's document is allowed to whom the
 * table of the module comment gives the right and denied to everyone else; other files are left to the other
 * rules and the default.
 */
export function registerChapterRule(kernel: object, db: Db): void {
  fileAccessOf(kernel).add(async (user, file, op) => {
    const found = await chapterOfFile(db, user, file.id);
    if (!found) return undefined;
    return op === 'edit' ? found.right?.edit === true : found.right?.read === true;
  });
}
