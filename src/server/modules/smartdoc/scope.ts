/**
 * Chapter access of a bidding project (issue 17; spec 002 §7 smartdoc/userfilescope: myScope,
 * project-user-file-scope, saveChange, deleteOne), over schemas/smartdoc/userfilescope.json; the rule itself is
 * chapter-access.ts.
 *
 * - `GET myScope[?projectId=]`: the chapters the caller may read, with `canEdit` — of one project, or of every
 *   project of the tenant where they have any (their writing tasks and the chapters given to them):
 *   `[{projectId, projectName, catalogueId, title, itemType, fileId, canEdit}]`.
 * - `GET project-user-file-scope?projectId=`: the project's access rows `[{id, catalogueId, catalogueTitle,
 *   userId, userName, scopeType}]`, for its managers.
 * - `POST saveChange` `{projectId, userId, scopes: [{catalogueId, scopeType: read | edit}]}`: replaces the user's
 *   rows in the project with these (an empty list takes every right away), for its managers; every row checked
 *   with the schema's messages, the chapters must be the project's (400 目录不属于该投标项目), one transaction.
 * - `POST deleteOne?id=`: removes one row, for the managers of its project.
 *
 * Readers of bidding projects only (the menu grant; 403 otherwise); another tenant's rows are unknown (404).
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import { nextId } from '../../core/ids.js';
import type { AuthUser } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { isId } from '../../../shared/contract/ids.js';
import { assertManager, chapterRights, loadProject, type ProjectHead } from './chapter-access.js';
import { CATALOGUE_MESSAGES } from './catalogue.js';

const SCOPE = 'smartdoc/userfilescope';
type Row = Record<string, unknown>;

const M = {
  notFound: { zh: '权限记录不存在', en: 'No such access entry' },
  tooMany: { zh: '一次最多保存500条权限', en: 'At most 500 access entries can be saved at once' },
};

/** The chapters of `p` that `user` may read, as myScope answers them. */
async function myChapters(db: Db, user: AuthUser, p: ProjectHead): Promise<Row[]> {
  const rights = await chapterRights(db, user, p);
  if (!rights.size) return [];
  const rows = await sql<{ id: string; title: string; item_type: string; file_id: string | null }>`SELECT id::text AS id, title, item_type, file_id FROM smartdoc_bidding_catalogue
    WHERE tenant_id = ${user.tenantId} AND project_id = ${p.id} AND is_deleted = 0 AND item_type = 'chapter' ORDER BY sort, id`.execute(db);
  return rows.rows
    .filter((r) => rights.get(r.id)?.read)
    .map((r) => ({ projectId: p.id, projectName: p.projectName, catalogueId: r.id, title: r.title, itemType: r.item_type, fileId: r.file_id || null, canEdit: rights.get(r.id)!.edit }));
}

/** Registers the calls of the module comment. */
export function registerScope(app: FastifyInstance, db: Db, engine: ResourceEngine): void {
  const readGrant = (user: AuthUser | null) => engine.authorize(user, engine.registry.resources.get('smartdoc/biddingbaseinfo')!, 'read');
  const q = (req: { query: unknown }) => (req.query ?? {}) as Row;

  app.get('/api/smartdoc/userfilescope/myScope', async (req) => {
    const user = await readGrant(req.user);
    const pid = q(req).projectId;
    if (pid !== undefined && pid !== '') return ok(await myChapters(db, user, await loadProject(db, user, pid)), undefined, req.lang);
    const projects = await sql<{ id: string }>`
      SELECT p.id::text AS id FROM smartdoc_bidding_base_info p
       WHERE p.tenant_id = ${user.tenantId} AND p.is_deleted = 0
         AND (${user.isAdmin} OR p.leader_id = ${user.userId} OR p.create_user = ${user.userId}::bigint
              OR EXISTS (SELECT 1 FROM smartdoc_bidding_catalogue c WHERE c.tenant_id = p.tenant_id AND c.project_id = p.id::text AND c.writer_id = ${user.userId} AND c.is_deleted = 0)
              OR EXISTS (SELECT 1 FROM smartdoc_user_file_scope s WHERE s.tenant_id = p.tenant_id AND s.project_id = p.id::text AND s.user_id = ${user.userId} AND s.is_deleted = 0))
       ORDER BY p.create_time DESC LIMIT 200`.execute(db);
    const out: Row[] = [];
    for (const { id } of projects.rows) out.push(...(await myChapters(db, user, await loadProject(db, user, id))));
    return ok(out, undefined, req.lang);
  });

  app.get('/api/smartdoc/userfilescope/project-user-file-scope', async (req) => {
    const user = await readGrant(req.user);
    const project = await loadProject(db, user, q(req).projectId);
    assertManager(user, project);
    const rows = await sql<{ id: string; catalogue_id: string; title: string | null; user_id: string; real_name: string | null; scope_type: string }>`
      SELECT s.id::text AS id, s.catalogue_id, c.title, s.user_id, u.real_name, s.scope_type
        FROM smartdoc_user_file_scope s
        LEFT JOIN smartdoc_bidding_catalogue c ON c.tenant_id = s.tenant_id AND c.id::text = s.catalogue_id
        LEFT JOIN blade_user u ON u.tenant_id = s.tenant_id AND u.id::text = s.user_id
       WHERE s.tenant_id = ${user.tenantId} AND s.project_id = ${project.id} AND s.is_deleted = 0
       ORDER BY c.sort, s.catalogue_id, s.id`.execute(db);
    return ok(
      rows.rows.map((r) => ({ id: r.id, projectId: project.id, catalogueId: r.catalogue_id, catalogueTitle: r.title, userId: r.user_id, userName: r.real_name, scopeType: r.scope_type })),
      undefined,
      req.lang,
    );
  });

  app.post('/api/smartdoc/userfilescope/saveChange', async (req) => {
    const user = await readGrant(req.user);
    const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Row) : null;
    if (!body) throw new ApiError(400, 'bodyNotObject');
    const project = await loadProject(db, user, typeof body.projectId === 'number' ? String(body.projectId) : body.projectId);
    assertManager(user, project);
    const scopes = body.scopes ?? [];
    if (!Array.isArray(scopes)) throw new ApiError(400, 'badParam', { param: 'scopes' });
    if (scopes.length > 500) throw new ApiError(400, M.tooMany);
    const r = engine.registry.resources.get(SCOPE)!;
    const userId = typeof body.userId === 'number' ? String(body.userId) : body.userId;
    // every row checked with the schema's own messages (请选择用户, 请选择权限 …)
    const rows = (scopes.length ? scopes : [{}]).map((s) => {
      const values: Row = { projectId: project.id, userId, catalogueId: s && typeof s === 'object' ? (s as Row).catalogueId : undefined, scopeType: s && typeof s === 'object' ? (s as Row).scopeType : undefined };
      if (typeof values.catalogueId === 'number') values.catalogueId = String(values.catalogueId);
      if (!scopes.length) Object.assign(values, { catalogueId: '0', scopeType: 'read' }); // only the user is checked
      engine.validate(r, values);
      return values;
    });
    if (typeof userId !== 'string' || !isId(userId)) throw new ApiError(400, 'badParam', { param: 'userId' });
    const known = await sql`SELECT 1 FROM blade_user WHERE id = ${userId}::bigint AND tenant_id = ${user.tenantId} AND is_deleted = 0`.execute(db);
    if (!known.rows.length) throw new ApiError(400, { zh: '用户不存在', en: 'No such user' });
    const chapters = scopes.length ? [...new Set(rows.map((v) => String(v.catalogueId)))] : [];
    if (!chapters.every(isId)) throw new ApiError(400, CATALOGUE_MESSAGES.foreign);
    if (chapters.length) {
      const own = await sql<{ n: number }>`SELECT count(*)::int AS n FROM smartdoc_bidding_catalogue WHERE id = ANY(${chapters}::bigint[]) AND tenant_id = ${user.tenantId} AND project_id = ${project.id} AND is_deleted = 0`.execute(db);
      if (own.rows[0].n !== chapters.length) throw new ApiError(400, CATALOGUE_MESSAGES.foreign);
    }
    await db.transaction().execute(async (trx) => {
      await sql`UPDATE smartdoc_user_file_scope SET is_deleted = 1, update_user = ${user.userId}::bigint, update_time = now()
                 WHERE tenant_id = ${user.tenantId} AND project_id = ${project.id} AND user_id = ${userId} AND is_deleted = 0`.execute(trx);
      if (!scopes.length) return;
      // one row per chapter: 'edit' wins over 'read' when a chapter is sent twice
      const best = new Map<string, string>();
      for (const v of rows) if (best.get(String(v.catalogueId)) !== 'edit') best.set(String(v.catalogueId), String(v.scopeType));
      for (const [catalogueId, scopeType] of best) {
        await sql`INSERT INTO smartdoc_user_file_scope (id, tenant_id, project_id, catalogue_id, user_id, scope_type, create_user, create_dept, update_user)
                  VALUES (${nextId()}::bigint, ${user.tenantId}, ${project.id}, ${catalogueId}, ${userId}, ${scopeType}, ${user.userId}::bigint, ${user.deptId || null}::bigint, ${user.userId}::bigint)`.execute(trx);
      }
    });
    engine.changed('smartdoc_user_file_scope');
    return ok(null, undefined, req.lang);
  });

  app.post('/api/smartdoc/userfilescope/deleteOne', async (req) => {
    const user = await readGrant(req.user);
    const id = q(req).id;
    if (typeof id !== 'string' || id === '') throw new ApiError(400, 'missingParam', { param: 'id' });
    if (!isId(id)) throw new ApiError(400, 'badParam', { param: 'id' });
    const row = (await sql<{ p: string }>`SELECT project_id AS p FROM smartdoc_user_file_scope WHERE id = ${id}::bigint AND tenant_id = ${user.tenantId} AND is_deleted = 0`.execute(db)).rows[0];
    if (!row) throw new ApiError(404, M.notFound);
    assertManager(user, await loadProject(db, user, row.p));
    await sql`UPDATE smartdoc_user_file_scope SET is_deleted = 1, update_user = ${user.userId}::bigint, update_time = now() WHERE id = ${id}::bigint`.execute(db);
    engine.changed('smartdoc_user_file_scope');
    return ok(null, undefined, req.lang);
  });
}
