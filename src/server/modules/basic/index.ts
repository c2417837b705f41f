/**
 * The achievements area (spec 001 §3, §7 '/basic'). The six achievement types are generic resources from
 * `schemas/basic/*.json`; what JSON cannot say lives here as engine hooks.
 *
 * projectSource (spec 001 §3, every achievement): 1 = a project declared on the platform, 2 = a project on the
 * platform not yet declared, 3 = none. The form shows the project picker for 1 and 2 (the schema's
 * x-reactions drop projectId otherwise) and a free project name for 3. Here the server keeps the record
 * consistent whatever the client sent: with source 3 any project id is cleared, so a record never points at
 * a project its source says it has none of.
 *
 * Software copyright (spec 001 §4): the first publication date belongs to published software only. The schema
 * makes it required and editable for state 2 and disabled without a rule otherwise; a disabled Formily field
 * keeps whatever it held, so here an unpublished record loses a first publication date the client left behind.
 *
 * Rules across two fields, which a field's own schema cannot state (checked after the schema, before the
 * record is stored; a failure is a 400 with the rule's own message and nothing is stored):
 * - a later date may not precede an earlier one: a thesis's conference end and start, a standard's
 *   implementation and publication, a software's first publication and development completion (the CPCC
 *   registration form asks for a first publication on or after completion);
 * - an award's unit rank may not exceed the number of participating units.
 *
 * Examination (examine.ts, the schemas' `actions`): the review status `examineStatus` is written by the review
 * actions only — a submit keeps the stored value (a new record starts as 0 草稿) — and a record waiting for
 * review (1) or approved (2) can be neither edited nor removed (400 当前状态为「待审核」，不能修改); removing a
 * record removes its examination from the examination lists (its steps stay in basic_examine_record).
 */
import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../../core/envelope.js';
import { sql } from '../../core/db/index.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { guardStatusOnRemove, guardStatusOnSubmit } from '../flow/actions.js';
import type { PatentInput, SoftwarecopyrightInput } from '../../../shared/generated/resources.js';

/** Resources that carry the projectSource/projectId/projectName trio. */
export const ACHIEVEMENT_RESOURCES = ['basic/patent', 'basic/thesis', 'basic/softwarecopyright', 'basic/book', 'basic/award', 'basic/standard'];

/**
 * `high` may not be less than `low` (dates as yyyy-MM-dd texts, numbers as numbers), checked when both are
 * present; a failure is reported on `field` (default `high`).
 */
interface OrderRule {
  low: string;
  high: string;
  field?: string;
  message: string;
  messageEn: string;
}

/** Order rules per resource (see the module comment). */
export const ORDER_RULES: Record<string, OrderRule[]> = {
  'basic/thesis': [
    { low: 'meetingStartDate', high: 'meetingEndDate', message: '会议结束日期不能早于会议开始日期', messageEn: 'The conference end date may not be before its start date' },
  ],
  'basic/softwarecopyright': [
    { low: 'devEndTime', high: 'firstPublishTime', message: '首次发表日期不能早于开发完成日期', messageEn: 'The first publication date may not be before the development completion date' },
  ],
  'basic/standard': [
    { low: 'publishTime', high: 'execTime', message: '实施日期不能早于发布日期', messageEn: 'The implementation date may not be before the publication date' },
  ],
  'basic/award': [
    { low: 'deptRank', high: 'participateInDept', field: 'deptRank', message: '单位排名不能大于参与单位数', messageEn: 'The unit rank may not exceed the number of participating units' },
  ],
};

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/** The faults of `record` against `rules` (yyyy-MM-dd texts sort as the dates do). */
export function orderFaults(record: Record<string, unknown>, rules: OrderRule[]) {
  return rules
    .filter((r) => present(record[r.low]) && present(record[r.high]))
    .filter((r) => {
      const a = record[r.low];
      const b = record[r.high];
      return typeof a === 'number' && typeof b === 'number' ? b < a : String(b) < String(a);
    })
    .map((r) => ({ field: r.field ?? r.high, message: r.message, messageEn: r.messageEn }));
}

export function registerBasicModule(_app: FastifyInstance, engine: ResourceEngine): void {
  for (const name of ACHIEVEMENT_RESOURCES) {
    if (!engine.registry.resources.has(name)) continue;
    engine.hooks(name, {
      async beforeSubmit(ctx) {
        await guardStatusOnSubmit(ctx);
        // every achievement type shares these three fields; the patent's generated type names them
        const record = ctx.record as Pick<PatentInput, 'projectSource' | 'projectId'>;
        if (record.projectSource === 3) record.projectId = null;
        if (name === 'basic/softwarecopyright') {
          const soft = ctx.record as Pick<SoftwarecopyrightInput, 'state' | 'firstPublishTime'>;
          if (soft.state !== '2') soft.firstPublishTime = null;
        }
        const faults = orderFaults(ctx.record, ORDER_RULES[name] ?? []);
        if (faults.length) throw new ValidationError(faults);
      },
      beforeRemove: guardStatusOnRemove,
      async afterRemove(ctx) {
        await sql`UPDATE basic_examine SET is_deleted = 1, update_user = ${ctx.user.userId}::bigint, update_time = now()
                   WHERE tenant_id = ${ctx.user.tenantId} AND business_type = ${name} AND business_id = ANY(${ctx.ids}::bigint[]) AND is_deleted = 0`.execute(ctx.trx);
      },
    });
  }
}
