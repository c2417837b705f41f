/**
 * Process models, deployments and instances (spec 001 §7 '/blade-flow'; spec 002 §7 'Workflow'). Every call
 * is for the caller's tenant; the management calls (model/*, manager/*, follow/*) are for administrators
 * (403 otherwise), the history calls for anyone who may see the instance.
 *
 * - GET `model/list` (`name`, `modelKey` contain): the models the tenant may use (its own, the platform's);
 *   POST `model/remove?ids=` (own models; the platform's only by its administrators); POST `model/deploy`
 *   `{modelId, category?, tenantIds?}`: deploys the model's file as the next version.
 * - GET `manager/list` (`processKey`, `category`, `name`): deployed versions (`processDefinitionId`,
 *   `deploymentId`, key, name, version, category, `suspensionState` 1 active / 2 suspended, deploy time);
 *   POST `manager/change-state` `{processId, state: 'active' | 'suspend'}`; POST `manager/deploy-upload`
 *   (multipart: `category`, `tenantIds`, `files` — one or more .bpmn/.xml files, each checked before anything
 *   is stored: a refused file stores nothing of the upload, 400 with the file's name and the reason; the same
 *   as JSON `{category, tenantIds, files: [{name, xml}]}` from the screen's dialog, BpmnFileInput);
 *   POST `manager/delete-deployment?deploymentIds=` — refused while an instance of it runs.
 * - GET `follow/list`: running instances; POST `follow/delete-process-instance` `{processInstanceId,
 *   deleteReason}`: ends an instance (reason required), its open tasks and their to-dos.
 * - GET `process/history-flow-list?processInstanceId=`: the finished steps, oldest first (activity, type, who,
 *   outcome, comment, start, end, duration). GET `process/steps` (`processInstanceId`, or `businessType` +
 *   `businessId` for the record's newest instance, or `processDefinitionId`): what the diagram needs — the
 *   definition's XML, the current and finished nodes, and the history.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import { nextId } from '../../core/ids.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { paging } from '../../resources/query.js';
import { isId } from '../../../shared/contract/ids.js';
import { deployXml, PLATFORM, visibleTo, type Deployed } from './deploy.js';
import { closeTaskTodos } from './todo.js';

type Row = Record<string, unknown>;
const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const toJson = (row: Row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [camel(k), v]));

const adminOnly = (u: AuthUser | null | undefined) => {
  if (!u) throw new ApiError(401, 'unauthorized');
  if (!u.isAdmin) throw new ApiError(403, 'forbidden');
  return u;
};

function ids(raw: unknown, param: string): string[] {
  const list = (Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' || typeof raw === 'number' ? String(raw).split(',') : []).map((s) => s.trim()).filter(Boolean);
  if (list.length === 0) throw new ApiError(400, 'missingParam', { param });
  if (list.some((s) => !isId(s))) throw new ApiError(400, 'badParam', { param });
  return list;
}

function tenantList(raw: unknown): string[] {
  if (raw === undefined || raw === null || raw === '') return [];
  const list = (Array.isArray(raw) ? raw.map(String) : String(raw).split(',')).map((s) => s.trim()).filter(Boolean);
  if (list.some((t) => !/^\d{6}$/.test(t))) throw new ApiError(400, 'badParam', { param: 'tenantIds' });
  return list;
}

const like = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? '%' + v.trim().replace(/[\\%_]/g, (c) => '\\' + c) + '%' : null);

export function registerManagerRoutes(app: FastifyInstance, db: Db, engine: ResourceEngine): void {
  const tags = ['blade-flow'];
  const base = '/api/blade-flow';

  const page = async (q: Row, select: string, from: string, where: ReturnType<typeof sql>, order: string) => {
    const { current, size } = paging(q);
    const rows = (await sql<Row>`SELECT ${sql.raw(select)} FROM ${sql.raw(from)} WHERE ${where} ORDER BY ${sql.raw(order)} LIMIT ${size} OFFSET ${(current - 1) * size}`.execute(db)).rows;
    const total = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.raw(from)} WHERE ${where}`.execute(db)).rows[0].n);
    return { records: rows.map(toJson), total, size, current, pages: Math.ceil(total / size) };
  };

  // ---- models ----
  app.get(`${base}/model/list`, { schema: { tags, summary: 'Process models' } }, async (req) => {
    const u = adminOnly(req.user);
    const q = req.query as Row;
    const where = sql`m.is_deleted = 0 AND (m.tenant_id = ${u.tenantId} OR m.tenant_id = ${PLATFORM}) ${like(q.name) ? sql`AND m.name ILIKE ${like(q.name)}` : sql``} ${like(q.modelKey) ? sql`AND m.model_key ILIKE ${like(q.modelKey)}` : sql``}`;
    return ok(await page(q, 'm.id::text AS id, m.tenant_id, m.model_key, m.name, m.category, m.description, m.version, m.create_time, m.update_time', 'flow_model m', where, 'm.update_time DESC, m.id DESC'), undefined, req.lang);
  });

  const ownModels = async (u: AuthUser, list: string[]) => {
    const rows = (await sql<Row>`SELECT id::text AS id, tenant_id, xml, category FROM flow_model WHERE id = ANY(${list}::bigint[]) AND is_deleted = 0`.execute(db)).rows;
    for (const m of rows) if (m.tenant_id !== u.tenantId && !(m.tenant_id === PLATFORM && u.tenantId === PLATFORM)) throw new ApiError(404, 'notFound');
    if (rows.length !== new Set(list).size) throw new ApiError(404, 'notFound');
    return rows;
  };

  app.post(`${base}/model/remove`, { schema: { tags, summary: 'Removes process models (their deployments stay)' } }, async (req) => {
    const u = adminOnly(req.user);
    const list = ids((req.query as Row).ids, 'ids');
    await ownModels(u, list);
    await sql`UPDATE flow_model SET is_deleted = 1, update_time = now() WHERE id = ANY(${list}::bigint[])`.execute(db);
    return ok(true, undefined, req.lang);
  });

  app.post(`${base}/model/deploy`, { schema: { tags, summary: 'Deploys a model as the next version' } }, async (req) => {
    const u = adminOnly(req.user);
    const b = (req.body ?? {}) as Row;
    const [modelId] = ids(b.modelId ?? (req.query as Row).modelId, 'modelId');
    const [m] = await ownModels(u, [modelId]);
    const tenantIds = tenantList(b.tenantIds);
    const deployed = await db.transaction().execute((trx) =>
      deployXml(trx, { xml: String(m.xml), tenantId: u.tenantId, tenantIds, category: typeof b.category === 'string' ? b.category.slice(0, 64) : (m.category as string | null), source: 'model', userId: u.userId }),
    );
    return ok(deployed, req.lang === 'en' ? 'Deployed' : '部署成功', req.lang);
  });

  // ---- definitions and deployments ----
  app.get(`${base}/manager/list`, { schema: { tags, summary: 'Deployed process versions' } }, async (req) => {
    const u = adminOnly(req.user);
    const q = req.query as Row;
    const key = typeof q.processKey === 'string' && q.processKey !== '' ? q.processKey : null;
    const where = sql`d.is_deleted = 0 AND ${visibleTo(u.tenantId)} ${key ? sql`AND d.process_key = ${key}` : sql``} ${like(q.name) ? sql`AND d.name ILIKE ${like(q.name)}` : sql``}
                      ${typeof q.category === 'string' && q.category !== '' ? sql`AND d.category = ${q.category}` : sql``}`;
    return ok(
      await page(q, `d.id::text AS id, d.id::text AS process_definition_id, d.deployment_id::text AS deployment_id, d.tenant_id, d.process_key AS key, d.name, d.version, d.category,
                     d.suspension_state, d.resource_name, d.source, d.deploy_time`, 'flow_definition d', where, 'd.process_key, d.version DESC'),
      undefined,
      req.lang,
    );
  });

  app.post(`${base}/manager/change-state`, { schema: { tags, summary: 'Activates or suspends a process version' } }, async (req) => {
    const u = adminOnly(req.user);
    const b = { ...(req.query as Row), ...((req.body ?? {}) as Row) };
    const [id] = ids(b.processId ?? b.processDefinitionId, 'processId');
    const state = b.state === 'active' ? 1 : b.state === 'suspend' || b.state === 'suspended' ? 2 : null;
    if (state === null) throw new ApiError(400, 'badParam', { param: 'state' });
    const res = await sql`UPDATE flow_definition SET suspension_state = ${state} WHERE id = ${id}::bigint AND tenant_id = ${u.tenantId} AND is_deleted = 0`.execute(db);
    if (Number(res.numAffectedRows ?? 0) === 0) throw new ApiError(404, 'notFound');
    return ok(true, undefined, req.lang);
  });

  app.post(`${base}/manager/delete-deployment`, { schema: { tags, summary: 'Deletes deployments without running instances' } }, async (req) => {
    const u = adminOnly(req.user);
    const list = ids((req.query as Row).deploymentIds ?? ((req.body ?? {}) as Row).deploymentIds, 'deploymentIds');
    await db.transaction().execute(async (trx) => {
      const defs = (await sql<{ id: string }>`SELECT id::text AS id FROM flow_definition WHERE deployment_id = ANY(${list}::bigint[]) AND tenant_id = ${u.tenantId} AND is_deleted = 0 FOR UPDATE`.execute(trx)).rows;
      if (defs.length === 0) throw new ApiError(404, 'notFound');
      const running = await sql`SELECT 1 FROM flow_instance WHERE tenant_id <> '' AND definition_id = ANY(${defs.map((d) => d.id)}::bigint[]) AND run_status = 'running' LIMIT 1`.execute(trx);
      if (running.rows.length) throw new ApiError(400, { zh: '该部署下有正在运行的流程实例，不能删除', en: 'Process instances of this deployment are running: it cannot be deleted' });
      await sql`UPDATE flow_definition SET is_deleted = 1 WHERE id = ANY(${defs.map((d) => d.id)}::bigint[])`.execute(trx);
    });
    return ok(true, undefined, req.lang);
  });

  // the upload: its own scope, so the multipart parser serves only it
  void app.register(async (scope) => {
    await scope.register(multipart, { attachFieldsToBody: true, throwFileSizeLimit: false, limits: { fileSize: 2 * 1024 * 1024, files: 20, fields: 10, fieldSize: 10_000, parts: 40 } });
    scope.post(`${base}/manager/deploy-upload`, { schema: { tags, summary: 'Uploads and deploys BPMN 2.0 files (multipart: category, tenantIds, files; or JSON with the files read)' } }, async (req: FastifyRequest) => {
      const u = adminOnly(req.user);
      const fields: Row = {};
      const files: Array<{ name: string; xml: string }> = [];
      const fileName = (n: string) => {
        if (!/\.(bpmn|xml)$/i.test(n)) throw new ApiError(400, { zh: `只能上传 .bpmn 或 .xml 流程文件：${n}`, en: `Only .bpmn or .xml process files can be uploaded: ${n}` });
        return n.slice(0, 255);
      };
      const tooLarge = (n: string) => new ApiError(400, { zh: `文件 ${n} 超过 2MB`, en: `The file ${n} is larger than 2 MB` });
      if (req.isMultipart()) {
        // the parser has read every part (attachFieldsToBody): text fields and files side by side in the body
        const body = (req.body ?? {}) as Record<string, unknown>;
        for (const value of Object.values(body)) {
          for (const part of (Array.isArray(value) ? value : [value]) as Array<{ type?: string; fieldname: string; value?: unknown; filename?: string; toBuffer?: () => Promise<Buffer>; file?: { truncated?: boolean } }>) {
            if (part?.type === 'file') {
              if (part.file?.truncated) throw tooLarge(String(part.filename));
              files.push({ name: fileName(part.filename ?? ''), xml: (await part.toBuffer!()).toString('utf8') });
            } else if (part?.type === 'field') fields[part.fieldname] = part.value;
          }
        }
      } else {
        // the screen's dialog (BpmnFileInput) sends the files it read as JSON: {category, tenantIds, files: [{name, xml}]}
        const b = req.body;
        if (!b || typeof b !== 'object' || Array.isArray(b)) throw new ApiError(400, 'fileRequired');
        const body = b as Row;
        fields.category = body.category;
        fields.tenantIds = Array.isArray(body.tenantIds) ? body.tenantIds.join(',') : body.tenantIds;
        for (const f of Array.isArray(body.files) ? body.files : []) {
          const name = f && typeof f === 'object' && typeof (f as Row).name === 'string' ? String((f as Row).name) : '';
          const xml = f && typeof f === 'object' && typeof (f as Row).xml === 'string' ? String((f as Row).xml) : null;
          if (xml === null) throw new ApiError(400, 'fileRequired');
          if (Buffer.byteLength(xml) > 2 * 1024 * 1024) throw tooLarge(name);
          files.push({ name: fileName(name), xml });
        }
      }
      if (files.length === 0) throw new ApiError(400, 'fileRequired');
      const tenantIds = tenantList(fields.tenantIds);
      if (tenantIds.some((t) => t !== u.tenantId) && u.tenantId !== PLATFORM) throw new ApiError(403, 'platformAdminOnly');
      const category = typeof fields.category === 'string' && fields.category.trim() !== '' ? fields.category.trim().slice(0, 64) : null;
      const deploymentId = nextId();
      const deployed: Deployed[] = await db.transaction().execute(async (trx) => {
        const out: Deployed[] = [];
        for (const f of files) out.push(...(await deployXml(trx, { xml: f.xml, tenantId: u.tenantId, tenantIds, category, source: 'upload', resourceName: f.name, userId: u.userId, deploymentId })));
        return out;
      });
      return ok(deployed, req.lang === 'en' ? 'Deployed' : '部署成功', req.lang);
    });
  });

  // ---- instances ----
  app.get(`${base}/follow/list`, { schema: { tags, summary: 'Running process instances' } }, async (req) => {
    const u = adminOnly(req.user);
    const q = req.query as Row;
    const where = sql`i.tenant_id = ${u.tenantId} AND i.run_status = 'running' ${typeof q.processKey === 'string' && q.processKey !== '' ? sql`AND i.process_key = ${q.processKey}` : sql``}
                      ${like(q.businessName) ? sql`AND i.business_name ILIKE ${like(q.businessName)}` : sql``}`;
    return ok(
      await page(q, `i.id::text AS id, i.id::text AS process_instance_id, i.definition_id::text AS process_definition_id, i.process_key, i.business_type, i.business_id::text AS business_id,
                     i.business_name, i.start_user::text AS start_user, i.start_user_name, i.current_nodes, i.start_time`, 'flow_instance i', where, 'i.start_time DESC, i.id DESC'),
      undefined,
      req.lang,
    );
  });

  app.post(`${base}/follow/delete-process-instance`, { schema: { tags, summary: 'Ends a process instance, with a reason' } }, async (req) => {
    const u = adminOnly(req.user);
    const b = { ...(req.query as Row), ...((req.body ?? {}) as Row) };
    const [id] = ids(b.processInstanceId, 'processInstanceId');
    const reason = typeof b.deleteReason === 'string' ? b.deleteReason.trim() : '';
    if (!reason) throw new ApiError(400, { zh: '请输入删除原因', en: 'Please enter the reason' });
    if (reason.length > 500) throw new ApiError(400, { zh: '删除原因不能超过500个字符', en: 'The reason must be at most 500 characters' });
    await db.transaction().execute(async (trx) => {
      const inst = (await sql<Row>`SELECT id FROM flow_instance WHERE id = ${id}::bigint AND tenant_id = ${u.tenantId} AND run_status = 'running' FOR UPDATE`.execute(trx)).rows[0];
      if (!inst) throw new ApiError(404, 'notFound');
      await sql`UPDATE flow_instance SET run_status = 'deleted', delete_reason = ${reason}, end_time = now(), update_time = now(), current_nodes = '{}' WHERE id = ${id}::bigint`.execute(trx);
      const open = (await sql<{ id: string }>`UPDATE flow_task SET end_time = now(), cancelled = true WHERE instance_id = ${id}::bigint AND end_time IS NULL RETURNING id::text AS id`.execute(trx)).rows;
      for (const t of open) await closeTaskTodos(trx, u.tenantId, t.id, null);
    });
    return ok(true, undefined, req.lang);
  });

  // ---- history and diagram ----
  /** The instance `id` when `u` may see it: an administrator, its starter, a task holder or candidate, or a reader of its record. */
  const visibleInstance = async (u: AuthUser, id: string): Promise<Row | null> => {
    const inst = (await sql<Row>`SELECT * FROM flow_instance WHERE id = ${id}::bigint AND tenant_id = ${u.tenantId}`.execute(db)).rows[0];
    if (!inst) return null;
    if (u.isAdmin || String(inst.start_user) === u.userId) return inst;
    const mine = await sql`SELECT 1 FROM flow_task WHERE instance_id = ${id}::bigint AND (assignee = ${u.userId}::bigint OR operator_user = ${u.userId}::bigint OR candidate_roles && ${u.activeRoleAliases}::text[]) LIMIT 1`.execute(db);
    if (mine.rows.length) return inst;
    const r = engine.registry.resources.get(String(inst.business_type));
    if (r && (await engine.findOne(r, u, String(inst.business_id)).catch(() => null))) return inst;
    return null;
  };

  const history = async (u: AuthUser, id: string) =>
    (await sql<Row>`SELECT id::text AS id, activity_id AS history_activity_id, activity_name AS history_activity_name, activity_type AS history_activity_type,
                           assignee::text AS assignee, assignee_name, outcome, comment, start_time AS create_time, end_time,
                           (extract(epoch FROM (end_time - start_time)) * 1000)::bigint AS duration_in_millis
                      FROM flow_history WHERE tenant_id = ${u.tenantId} AND instance_id = ${id}::bigint ORDER BY end_time, id`.execute(db)).rows.map(toJson);

  app.get(`${base}/process/history-flow-list`, { schema: { tags, summary: 'The finished steps of a process instance' } }, async (req) => {
    const u = req.user!;
    const [id] = ids((req.query as Row).processInstanceId, 'processInstanceId');
    if (!(await visibleInstance(u, id))) return ok([], undefined, req.lang);
    return ok(await history(u, id), undefined, req.lang);
  });

  app.get(`${base}/process/steps`, { schema: { tags, summary: 'What the diagram of an instance needs: XML, current and finished nodes, history' } }, async (req) => {
    const u = req.user!;
    const q = req.query as Row;
    let instanceId: string | null = null;
    if (q.processInstanceId !== undefined && q.processInstanceId !== '') [instanceId] = ids(q.processInstanceId, 'processInstanceId');
    else if (q.businessId !== undefined && q.businessId !== '') {
      const [bid] = ids(q.businessId, 'businessId');
      if (typeof q.businessType !== 'string' || q.businessType === '') throw new ApiError(400, 'missingParam', { param: 'businessType' });
      const row = (await sql<{ id: string }>`SELECT id::text AS id FROM flow_instance WHERE tenant_id = ${u.tenantId} AND business_type = ${q.businessType} AND business_id = ${bid}::bigint
                                                ORDER BY start_time DESC, id DESC LIMIT 1`.execute(db)).rows[0];
      if (!row) throw new ApiError(404, 'notFound');
      instanceId = row.id;
    } else if (q.processDefinitionId !== undefined && q.processDefinitionId !== '') {
      adminOnly(u);
      const [did] = ids(q.processDefinitionId, 'processDefinitionId');
      const d = (await sql<Row>`SELECT d.xml, d.process_key, d.name, d.version FROM flow_definition d WHERE d.id = ${did}::bigint AND ${visibleTo(u.tenantId)}`.execute(db)).rows[0];
      if (!d) throw new ApiError(404, 'notFound');
      return ok({ xml: d.xml, processKey: d.process_key, name: d.name, version: d.version, currentNodes: [], finishedNodes: [], history: [] }, undefined, req.lang);
    } else throw new ApiError(400, 'missingParam', { param: 'processInstanceId' });
    const inst = await visibleInstance(u, instanceId!);
    if (!inst) throw new ApiError(404, 'notFound');
    const d = (await sql<Row>`SELECT xml, name, version FROM flow_definition WHERE id = ${String(inst.definition_id)}::bigint`.execute(db)).rows[0];
    const h = await history(u, instanceId!);
    return ok(
      {
        processInstanceId: instanceId, processKey: inst.process_key, name: d.name, version: d.version, status: inst.run_status, xml: d.xml,
        currentNodes: inst.current_nodes, finishedNodes: [...new Set(h.map((x) => x.historyActivityId))], history: h,
      },
      undefined,
      req.lang,
    );
  });
}
