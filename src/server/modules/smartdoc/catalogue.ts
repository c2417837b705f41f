/**
 * The catalogue of a bidding project (issue 17; spec 002 §7 smartdoc/biddingcatalogue): getProjectCatalogue,
 * getFileCatalogue and batchSave, over schemas/smartdoc/biddingcatalogue.json.
 *
 * - `GET getProjectCatalogue?projectId=`: the whole catalogue as a tree (`children`), in order (sort, id): each
 *   entry is the record plus `canRead` / `canEdit` — the caller's right on it (chapter-access.ts); the document
 *   (`fileId`) is answered only where the caller may read it. For readers of bidding projects (the menu grant).
 * - `GET getFileCatalogue?projectId=`: the chapter documents the caller may read — the screen's chapter list, each
 *   `{id, title, level, sort, writerId, fileId, fileName, canEdit}`; the online editor opens
 *   `/smartdoc/editor?fileId=<fileId>`.
 * - `POST batchSave` `{projectId, records: [entry …], removeIds?: [id …]}` (or a bare array of entries): the
 *   project's managers add and edit entries (an entry with `id` edits that entry of this project) — titles,
 *   order, requirements and each chapter's writer (`writerId`: the writing task); every entry checked as a
 *   submit (its messages), all in one transaction, none stored at the first refusal; then `removeIds` are
 *   removed. An entry of another project, or a parent outside the project, is refused (400 目录不属于该投标项目).
 *   Entries may be sent as getProjectCatalogue answered them (its `canRead`, `canEdit` and `children` are ignored).
 *   Answers the new tree.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { isId } from '../../../shared/contract/ids.js';
import { assertManager, chapterRights, loadProject } from './chapter-access.js';

const CATALOGUE = 'smartdoc/biddingcatalogue';
type Row = Record<string, unknown>;

export const CATALOGUE_MESSAGES = {
  foreign: { zh: '目录不属于该投标项目', en: 'The catalogue entry does not belong to this bidding project' },
  empty: { zh: '请至少提交一条目录', en: 'Please send at least one catalogue entry' },
  tooMany: { zh: '一次最多保存500条目录', en: 'At most 500 catalogue entries can be saved at once' },
};

/** The catalogue entries of project `projectId` (tenant of `user`), in order, with `user`'s rights. */
async function entries(engine: ResourceEngine, user: AuthUser, projectId: string): Promise<Row[]> {
  const r = engine.registry.resources.get(CATALOGUE)!;
  const project = await loadProject(engine.db, user, projectId);
  const rights = await chapterRights(engine.db, user, project);
  const rows = await engine.query(
    `SELECT ${engine.selectList(r)} FROM smartdoc_bidding_catalogue WHERE tenant_id = $1 AND project_id = $2 AND is_deleted = 0 ORDER BY sort, id`,
    [user.tenantId, project.id],
  );
  return rows.map((row) => {
    const rec = engine.toRecord(r, row);
    const right = rights.get(String(rec.id));
    return { ...rec, fileId: right?.read ? rec.fileId : null, canRead: right?.read === true, canEdit: right?.edit === true };
  });
}

/** The catalogue of `projectId` as a tree (`children`, in order) with `user`'s rights on each entry. */
export async function catalogueTree(engine: ResourceEngine, user: AuthUser, projectId: string): Promise<Row[]> {
  const list = await entries(engine, user, projectId);
  const byId = new Map<string, Row & { children: Row[] }>(list.map((e) => [String(e.id), { ...e, children: [] }]));
  const roots: Row[] = [];
  for (const e of byId.values()) {
    const parent = byId.get(String(e.parentId));
    (parent ? parent.children : roots).push(e);
  }
  return roots;
}

const projectParam = (q: Record<string, unknown>) => q.projectId ?? q.id;

/** Registers the calls of the module comment and the catalogue's write rules (manager, same project). */
export function registerCatalogue(app: FastifyInstance, db: Db, engine: ResourceEngine): void {
  const resource = () => engine.registry.resources.get(CATALOGUE)!;
  const readGrant = (user: AuthUser | null) => engine.authorize(user, engine.registry.resources.get('smartdoc/biddingbaseinfo')!, 'read');

  // every write of an entry (batchSave, and any submit of the resource): the project's managers, within one project
  engine.hooks(CATALOGUE, {
    async beforeSubmit({ user, record, existing, trx }) {
      const project = await loadProject(trx, user, String(record.projectId ?? ''));
      assertManager(user, project);
      if (existing && String(existing.projectId) !== project.id) throw new ApiError(400, CATALOGUE_MESSAGES.foreign);
      const parent = String(record.parentId ?? '0') || '0';
      record.parentId = parent;
      if (parent !== '0') {
        const [row] = await engine.query<{ p: string }>('SELECT project_id AS p FROM smartdoc_bidding_catalogue WHERE id = $1::bigint AND tenant_id = $2 AND is_deleted = 0', [parent, user.tenantId], trx);
        if (!row || row.p !== project.id || (existing && parent === String(existing.id))) throw new ApiError(400, CATALOGUE_MESSAGES.foreign);
      }
    },
    async beforeRemove({ user, ids, trx }) {
      const rows = await engine.query<{ p: string }>('SELECT DISTINCT project_id AS p FROM smartdoc_bidding_catalogue WHERE id = ANY($1::bigint[]) AND tenant_id = $2', [ids, user.tenantId], trx);
      for (const { p } of rows) assertManager(user, await loadProject(trx, user, p));
    },
  });

  app.get('/api/smartdoc/biddingcatalogue/getProjectCatalogue', async (req) => {
    const user = await readGrant(req.user);
    return ok(await catalogueTree(engine, user, projectParam((req.query ?? {}) as Row) as string), undefined, req.lang);
  });

  app.get('/api/smartdoc/biddingcatalogue/getFileCatalogue', async (req) => {
    const user = await readGrant(req.user);
    const list = (await entries(engine, user, projectParam((req.query ?? {}) as Row) as string)).filter((e) => e.itemType === 'chapter' && e.canRead && e.fileId);
    const names = new Map(
      (await engine.query<{ id: string; n: string }>('SELECT id::text AS id, original_name AS n FROM blade_attach WHERE tenant_id = $1 AND id = ANY($2::bigint[]) AND is_deleted = 0', [user.tenantId, list.map((e) => String(e.fileId))])).map((r) => [r.id, r.n]),
    );
    return ok(
      list.map((e) => ({ id: e.id, title: e.title, level: e.level, sort: e.sort, parentId: e.parentId, writerId: e.writerId, fileId: e.fileId, fileName: names.get(String(e.fileId)) ?? null, canEdit: e.canEdit })),
      undefined,
      req.lang,
    );
  });

  app.post('/api/smartdoc/biddingcatalogue/batchSave', async (req) => {
    const user = await readGrant(req.user);
    const body = req.body as unknown;
    const obj = body && typeof body === 'object' && !Array.isArray(body) ? (body as Row) : null;
    const records = Array.isArray(body) ? body : obj?.records;
    if (!Array.isArray(records)) throw new ApiError(400, 'bodyNotObject');
    const removeIds = obj?.removeIds ?? [];
    if (!Array.isArray(removeIds) || !removeIds.every(isId)) throw new ApiError(400, 'badParam', { param: 'removeIds' });
    if (records.length === 0 && removeIds.length === 0) throw new ApiError(400, CATALOGUE_MESSAGES.empty);
    if (records.length + removeIds.length > 500) throw new ApiError(400, CATALOGUE_MESSAGES.tooMany);
    const projectId = (obj?.projectId ?? (records[0] as Row | undefined)?.projectId) as unknown;
    const project = await loadProject(db, user, typeof projectId === 'number' ? String(projectId) : projectId);
    assertManager(user, project);
    // entries as getProjectCatalogue answers them may come back: the answer's own keys are not fields
    const bodies = records.map((r) => {
      if (!r || typeof r !== 'object' || Array.isArray(r)) return r;
      const { canRead: _r, canEdit: _e, children: _c, ...fields } = r as Row;
      return { ...fields, projectId: project.id };
    });
    for (const b of bodies as Row[]) if (b && typeof b === 'object' && b.projectId !== project.id) throw new ApiError(400, CATALOGUE_MESSAGES.foreign);
    if (removeIds.length) {
      const [{ n }] = await engine.query<{ n: number }>('SELECT count(*)::int AS n FROM smartdoc_bidding_catalogue WHERE id = ANY($1::bigint[]) AND tenant_id = $2 AND project_id = $3 AND is_deleted = 0', [removeIds, user.tenantId, project.id]);
      if (n !== new Set(removeIds).size) throw new ApiError(400, CATALOGUE_MESSAGES.foreign);
    }
    if (bodies.length) await engine.submitMany(resource(), user, bodies, req.lang);
    if (removeIds.length) await engine.remove(resource(), user, removeIds.join(','), req.lang);
    return ok(await catalogueTree(engine, user, project.id), undefined, req.lang);
  });
}
