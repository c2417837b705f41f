/**
 * Generic workflow actions (DESIGN §4 `actions`, §8 Workflow): a resource schema's `actions` section declares
 * buttons that move a record from one status to another (its meta-schema is in
 * schemas/_meta/resource.schema.json, its types are `ActionsSpec`/`WorkflowAction` in shared/schema/types.ts).
 * This part of the engine makes the server enforce them, for any resource:
 *
 * - `ActionRunner.mount(app)` mounts `POST <endpoint>` for every endpoint the schemas' actions name. The body
 *   is `{businessId, businessType, action?, ...dialog values}`: `businessType` is the resource name
 *   (`basic/thesis`) or its last segment (`thesis`), and may be left out when one resource only posts to the
 *   endpoint; `action` names the action (its key) when several actions of the resource share the endpoint,
 *   else `status` (the action's `to`) may pick it. A flow handler may find the business another way (the
 *   examine flow takes an `examineId`).
 * - A request runs in one transaction, the record locked (SELECT … FOR UPDATE), and is refused — with a
 *   message, nothing changed — unless, in this order:
 *   1. an active role of the caller is one of the action's `roles` ('*' = anyone; administrators pass) — 403;
 *   2. the record is visible to the caller (tenant and data scope, as the generic detail) — 404;
 *   3. the caller stands to the record as the action's `actor` says — 403: `owner` = created it; `company` =
 *      its create_dept is a department of the caller's company (OrgCache.companyDepts); `companyTree` = of
 *      the caller's company or a company below it (a group's research management covers its subsidiaries,
 *      a subsidiary's only itself); administrators pass;
 *   4. the record's status (the `statusField`; an empty one counts as the field's default) is one of the
 *      action's `from` — 400 当前状态为「…」，不能执行「…」;
 *   5. the dialog's values pass the dialog's own rules (required, lengths …; the schema's messages, e.g.
 *      请输入审核意见) — 400 with the field errors. Only the dialog's fields are read from the body; strings
 *      are trimmed.
 *   Then the status becomes `to`; when the schema names a BPMN process (`flow`, DESIGN §4, §8) the process
 *   binding (`registerProcess`, src/server/modules/flow) moves the process on in the same transaction — an
 *   action of kind submit starts an instance when none runs, any other completes the open task the caller
 *   may do with the action's `outcome`, so the process's gateways decide what comes next and refuse (403/400,
 *   nothing changed) a step the process does not allow — and the resource's flow handler (`actions.flow`,
 *   e.g. `examine`) records the step and answers the response data.
 * - The status field is written by actions only: the engine's write path (write.ts) keeps every
 *   `x-server-only` field, and the status field in any case, as stored, and refuses edit and remove while the
 *   status is one of `locked`.
 *
 * Routes are mounted for the endpoints known at start (Fastify cannot add routes later); the action itself
 * is looked up per request in the registry's current version of the resource, so a published schema's
 * changed roles, statuses or dialog apply at once.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../core/db/index.js';
import { ApiError, ok } from '../core/envelope.js';
import type { AuthUser, OrgCache } from '../core/context.js';
import { ADMIN_ALIAS } from '../../shared/contract/tenancy.js';
import { isId } from '../../shared/contract/ids.js';
import type { Lang } from '../../shared/i18n/messages.js';
import { dataFields } from '../../shared/schema/derive.js';
import type { ActionsSpec, WorkflowAction } from '../../shared/schema/types.js';
import type { ResourceEngine } from './engine.js';
import type { Resource } from './registry.js';
import { quote } from './query.js';
import { statusLabel, statusOf } from './status.js';
import { assertValid, formValidator } from './validate.js';

type Row = Record<string, unknown>;

export { statusOf, statusLabel };

/** One step of a workflow, as a flow handler sees it (inside the action's transaction). */
export interface ActionStep {
  user: AuthUser;
  resource: Resource;
  spec: ActionsSpec;
  action: WorkflowAction;
  /** The record before the step (as the generic detail answers it). */
  record: Row;
  from: string;
  to: string;
  /** The dialog's values (checked, strings trimmed). */
  values: Row;
  /** The role alias the caller acted as (`administrator` for an administrator outside `roles`). */
  role: string;
  trx: Db;
  lang: Lang;
}

/**
 * The BPMN process engine as the actions see it (registered by src/server/modules/flow): moves the process of
 * the record of `step` on (start, or complete a task), inside the step's transaction.
 */
export interface ProcessBinding {
  advance(step: ActionStep): Promise<void>;
}

/** What a flow (`actions.flow`) adds to the generic step: its history, and the answer. */
export interface FlowHandler {
  /** Finds the business a body names by other means (e.g. an examine id); null = not addressed that way. */
  target?(body: Row, user: AuthUser): Promise<{ businessType: string; businessId: string } | null>;
  /** Runs after the status changed, in the same transaction; answers the response data. */
  afterAction(step: ActionStep): Promise<unknown>;
}

/**
 * True when the department `recordDept` belongs to the company of `actorDept` (`tree`: or to a company below
 * it). Departments without a company never match.
 */
export async function companyCovers(org: OrgCache, tenantId: string, actorDept: string, recordDept: string | null | undefined, tree: boolean): Promise<boolean> {
  if (!recordDept || !actorDept) return false;
  const mine = await org.companyOf(tenantId, actorDept);
  if (!mine) return false;
  if (!tree) return (await org.companyDepts(tenantId, mine)).includes(String(recordDept));
  return (await org.subtree(tenantId, mine)).includes(String(recordDept));
}

/** The role the user may act as for `action` (`administrator` for administrators), or null. */
export function roleFor(user: AuthUser, action: WorkflowAction): string | null {
  if (action.roles.includes('*')) return user.activeRoleAliases[0] ?? '*';
  const role = user.activeRoleAliases.find((a) => action.roles.includes(a));
  if (role) return role;
  return user.isAdmin ? ADMIN_ALIAS : null;
}

const ACTOR_TEXT: Record<'owner' | 'company' | 'companyTree', (l: string, e: string) => { zh: string; en: string }> = {
  owner: (l, e) => ({ zh: `只有登记人才能执行「${l}」`, en: `Only the person who registered the record may ${e.toLowerCase()} it` }),
  company: (l, e) => ({ zh: `只能对本单位的记录执行「${l}」`, en: `You may ${e.toLowerCase()} only records of your own company` }),
  companyTree: (l, e) => ({ zh: `只能对本单位及下属单位的记录执行「${l}」`, en: `You may ${e.toLowerCase()} only records of your company and the companies below it` }),
};

export class ActionRunner {
  private readonly flows = new Map<string, FlowHandler>();
  private readonly always = new Set<string>();
  private process?: ProcessBinding;

  constructor(
    readonly engine: ResourceEngine,
    readonly org: OrgCache,
  ) {}

  /**
   * Registers the flow `name` (a schema's `actions.flow` names it); `endpoints` are mounted even when no schema
   * served at start posts to them (a type published later may).
   */
  registerFlow(name: string, handler: FlowHandler, endpoints: string[] = []): void {
    this.flows.set(name, handler);
    for (const e of endpoints) this.always.add(e);
  }

  /** Registers the process engine that schemas naming a `flow` run their actions through. */
  registerProcess(binding: ProcessBinding): void {
    this.process = binding;
  }

  /** The resources (current versions) with an action posting to `endpoint`. */
  resourcesFor(endpoint: string): Resource[] {
    return [...this.engine.registry.resources.values()].filter((r) => r.schema.actions?.items.some((a) => a.endpoint === endpoint));
  }

  /** Every endpoint the current schemas' actions post to. */
  endpoints(): string[] {
    const out = new Set<string>();
    for (const r of this.engine.registry.resources.values()) for (const a of r.schema.actions?.items ?? []) out.add(a.endpoint);
    return [...out].sort();
  }

  /** The resource a `businessType` names among `candidates` (the full name or its last segment). */
  private resolveType(candidates: Resource[], raw: unknown): Resource {
    if (raw === undefined || raw === null || raw === '') {
      if (candidates.length === 1) return candidates[0];
      throw new ApiError(400, 'missingParam', { param: 'businessType' });
    }
    if (typeof raw !== 'string') throw new ApiError(400, 'badParam', { param: 'businessType' });
    const hit = candidates.find((r) => r.schema.name === raw) ?? candidates.filter((r) => r.schema.name.split('/').pop() === raw).at(0);
    if (!hit) throw new ApiError(400, 'badParam', { param: 'businessType' });
    return hit;
  }

  /** The action of `r` the body asks for at `endpoint`. */
  private pickAction(r: Resource, endpoint: string, body: Row): WorkflowAction {
    const here = r.schema.actions!.items.filter((a) => a.endpoint === endpoint);
    if (body.action !== undefined && body.action !== null && body.action !== '') {
      const a = here.find((x) => x.key === body.action);
      if (!a) throw new ApiError(400, 'badParam', { param: 'action' });
      return a;
    }
    if (body.status !== undefined && body.status !== null && body.status !== '') {
      const a = here.find((x) => x.to !== undefined && x.to === String(body.status));
      if (!a) throw new ApiError(400, 'badParam', { param: 'status' });
      return a;
    }
    if (here.length === 1) return here[0];
    throw new ApiError(400, 'missingParam', { param: 'action' });
  }

  /** The dialog's values from `body`, checked against the dialog's rules (ValidationError otherwise). */
  dialogValues(action: WorkflowAction, body: Row): Row {
    const dialog = action.dialog;
    if (!dialog) return {};
    const values: Row = {};
    for (const f of dataFields(dialog)) {
      const v = body[f.name];
      if (v !== undefined) values[f.name] = typeof v === 'string' ? v.trim() : v;
    }
    assertValid(dialog, formValidator(dialog), values);
    return values;
  }

  /** Runs the action the body asks for at `endpoint`; answers the flow's data and the action. */
  async run(endpoint: string, user: AuthUser, body: unknown, lang: Lang): Promise<{ data: unknown; action: WorkflowAction }> {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'bodyNotObject');
    const b = body as Row;
    const candidates = this.resourcesFor(endpoint);
    if (candidates.length === 0) throw new ApiError(404, 'notFound');
    let typeRaw = b.businessType;
    let idRaw = b.businessId ?? b.id;
    if (idRaw === undefined || idRaw === null || idRaw === '') {
      for (const flow of new Set(candidates.map((r) => r.schema.actions!.flow))) {
        const target = flow ? await this.flows.get(flow)?.target?.(b, user) : null;
        if (target) {
          typeRaw = target.businessType;
          idRaw = target.businessId;
          break;
        }
      }
    }
    if (idRaw === undefined || idRaw === null || idRaw === '') throw new ApiError(400, 'missingParam', { param: 'businessId' });
    const id = String(idRaw);
    if ((typeof idRaw !== 'string' && typeof idRaw !== 'number') || !isId(id)) throw new ApiError(400, 'badParam', { param: 'businessId' });
    const r = this.resolveType(candidates, typeRaw);
    const spec = r.schema.actions!;
    const action = this.pickAction(r, endpoint, b);
    const role = roleFor(user, action);
    if (!role) throw new ApiError(403, { zh: `当前角色无权执行「${action.label}」`, en: `Your role may not ${action.labelEn.toLowerCase()}` });
    const flow = spec.flow ? this.flows.get(spec.flow) : undefined;
    const table = r.schema.table;
    try {
      return await this.engine.db.transaction().execute(async (trx) => {
        const record = await this.engine.findOne(r, user, id, trx, true);
        if (!record) throw new ApiError(404, 'notFound');
        const actor = action.actor ?? 'any';
        if (actor !== 'any' && !user.isAdmin) {
          const fits =
            actor === 'owner'
              ? String(record.createUser ?? '') === user.userId
              : await companyCovers(this.org, user.tenantId, user.deptId, record.createDept as string | null, actor === 'companyTree');
          if (!fits) throw new ApiError(403, ACTOR_TEXT[actor](action.label, action.labelEn));
        }
        const from = statusOf(r, record);
        if (action.from && !action.from.includes(from)) {
          const l = await statusLabel(trx, spec, from);
          throw new ApiError(400, { zh: `当前状态为「${l.zh}」，不能执行「${action.label}」`, en: `The record is ${l.en.toLowerCase()}: "${action.labelEn}" is not possible` });
        }
        const values = this.dialogValues(action, b);
        const to = action.to ?? from;
        if (spec.statusField && action.to !== undefined) {
          const col = r.byField.get(spec.statusField)!;
          const keyCast = r.byField.get(r.key)!.sqlType === 'bigint' ? '::bigint' : '';
          await this.engine.query(
            `UPDATE ${quote(table)} SET ${quote(col.column)} = $1, update_user = $2::bigint, update_time = now() WHERE ${quote(r.keyColumn)} = $3${keyCast}`,
            [to, user.userId, id],
            trx,
          );
        }
        const step: ActionStep = { user, resource: r, spec, action, record, from, to, values, role, trx, lang };
        if (r.schema.flow && this.process) await this.process.advance(step);
        const data = flow ? await flow.afterAction(step) : { ...record, ...(spec.statusField ? { [spec.statusField]: to } : {}) };
        return { data, action };
      });
    } finally {
      this.engine.changed(table);
    }
  }

  /** Mounts `POST <endpoint>` for every endpoint the schemas' actions name, and those the flows registered. */
  mount(app: FastifyInstance): void {
    for (const endpoint of new Set([...this.endpoints(), ...this.always])) {
      if (app.hasRoute({ method: 'POST', url: endpoint })) continue;
      app.post(endpoint, { schema: { tags: ['workflow'], summary: `Workflow action (${endpoint})`, body: { type: 'object' } } }, async (req) => {
        if (!req.user) throw new ApiError(401, 'unauthorized');
        const { data, action } = await this.run(endpoint, req.user, req.body, req.lang);
        return ok(data, req.lang === 'en' ? action.successEn : action.success, req.lang);
      });
    }
  }
}
