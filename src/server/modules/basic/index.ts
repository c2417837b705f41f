/**
 * The achievements area (spec 001 §3, §7 '/basic'). The six achievement types are generic resources from
 * `schemas/basic/*.json`; what JSON cannot say lives here as engine hooks.
 *
 * projectSource (spec 001 §3, every achievement): 1 = a project declared on the platform, 2 = a project on the
 * platform not yet declared, 3 = none. The form shows the project picker for 1 and 2 (the schema's
 * x-reactions drop projectId otherwise) and a free project name for 3. Here the server keeps the record
 * consistent whatever the client sent: with source 3 any project id is cleared, so a record never points at
 * a project its source says it has none of.
 */
import type { FastifyInstance } from 'fastify';
import type { ResourceEngine } from '../../resources/engine.js';
import type { PatentInput } from '../../../shared/generated/resources.js';

/** Resources that carry the projectSource/projectId/projectName trio. */
export const ACHIEVEMENT_RESOURCES = ['basic/patent'];

export function registerBasicModule(_app: FastifyInstance, engine: ResourceEngine): void {
  for (const name of ACHIEVEMENT_RESOURCES) {
    if (!engine.registry.resources.has(name)) continue;
    engine.hooks(name, {
      beforeSubmit(ctx) {
        // every achievement type shares these three fields; the patent's generated type names them
        const record = ctx.record as Pick<PatentInput, 'projectSource' | 'projectId'>;
        if (record.projectSource === 3) record.projectId = null;
      },
    });
  }
}
