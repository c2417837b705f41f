/**
 * Project team and annex calls (spec 001 §7 "Annex: … GET /project/annex/clearFile. Team: GET
 * /project/team/list"; issue 12):
 *
 * - `GET /api/project/team/list?current=&size=&projectId=&name=`: the team members of the declarations the
 *   caller may read (read grant of project/baseinfo; tenant and data scope as its list), one row per member:
 *   `{projectId, projectName, name, unit, title, role, workload}`, newest project first, paged
 *   (`{records, total, size, current, pages}`); `name` matches anywhere in the member's name.
 * - `GET /api/project/annex/clearFile?id=`: empties the files of a project document record (edit grant of
 *   project/annex, the record visible to the caller) through the generic submit — its audit and hooks apply;
 *   the uploads stay in the attachment administration. Answers the saved record.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, ok } from '../../core/envelope.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { Conditions, paging } from '../../resources/query.js';
import { isId } from '../../../shared/contract/ids.js';
import { PROJECT } from './declaration.js';
import { resourceOf } from './routes.js';

type Row = Record<string, unknown>;

export function registerTeamAndAnnex(app: FastifyInstance, engine: ResourceEngine): void {
  const q = (req: FastifyRequest) => (req.query ?? {}) as Row;

  app.get('/api/project/team/list', { schema: { tags: ['project/team'], summary: 'Team members of the projects the caller may read' } }, async (req) => {
    const user = req.user!;
    const r = resourceOf(engine, PROJECT);
    await engine.authorize(user, r, 'read');
    const query = q(req);
    const { current, size } = paging(query);
    const cond = new Conditions();
    await engine.scope(r, user, cond);
    if (query.projectId !== undefined && query.projectId !== '') {
      if (typeof query.projectId !== 'string' || !isId(query.projectId)) throw new ApiError(400, 'badParam', { param: 'projectId' });
      cond.add(`id = ${cond.param(query.projectId)}::bigint`);
    }
    const member = new Conditions(cond.params);
    if (typeof query.name === 'string' && query.name.trim()) member.add(`m->>'name' ILIKE ${member.param(`%${query.name.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
    const from = `FROM (SELECT id, name, team_members FROM project_baseinfo WHERE ${cond.sql()}) p, jsonb_array_elements(CASE WHEN jsonb_typeof(p.team_members) = 'array' THEN p.team_members ELSE '[]'::jsonb END) WITH ORDINALITY AS t(m, n)
                  WHERE ${member.sql()}`;
    const total = Number((await engine.query(`SELECT count(*)::int AS n ${from}`, member.params))[0].n);
    const rows = await engine.query(
      `SELECT p.id::text AS "projectId", p.name AS "projectName", m->>'name' AS name, m->>'unit' AS unit, m->>'title' AS title, m->>'role' AS role,
              CASE WHEN jsonb_typeof(m->'workload') = 'number' THEN (m->>'workload')::float END AS workload
         ${from} ORDER BY p.id DESC, t.n LIMIT ${size} OFFSET ${(current - 1) * size}`,
      member.params,
    );
    return ok({ records: rows, total, size, current, pages: Math.ceil(total / size) }, undefined, req.lang);
  });

  app.get('/api/project/annex/clearFile', { schema: { tags: ['project/annex'], summary: 'Empties the files of a project document record' } }, async (req) => {
    const user = req.user!;
    const r = resourceOf(engine, 'project/annex');
    await engine.authorize(user, r, 'edit');
    const id = q(req).id;
    if (typeof id !== 'string' || !isId(id)) throw new ApiError(400, id === undefined || id === '' ? 'missingParam' : 'badParam', { param: 'id' });
    if (!(await engine.findOne(r, user, id))) throw new ApiError(404, 'notFound');
    return ok(await engine.submit(r, user, { id, files: [] }, req.lang), undefined, req.lang);
  });
}
