/**
 * The achievement area's routes beyond the generic endpoints, mounted by one call from app.ts: the workflow
 * actions the schemas declare (../flow/actions.ts) with the examine flow (examine.ts), the examination
 * lists, the achievement statistics (statistics.ts), and the dashboards' achievement figures (../dashboard).
 */
import type { FastifyInstance } from 'fastify';
import type { OrgCache } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { ActionRunner } from '../flow/actions.js';
import { registerDashboardRoutes } from '../dashboard/index.js';
import { EXAMINE_ENDPOINTS, EXAMINE_FLOW, examineFlow, registerExamineRoutes } from './examine.js';
import { registerStatisticsRoutes } from './statistics.js';

export function registerAchievementServices(app: FastifyInstance, engine: ResourceEngine, org: OrgCache): ActionRunner {
  const runner = new ActionRunner(engine, org);
  runner.registerFlow(EXAMINE_FLOW, examineFlow(engine, org));
  runner.mount(app, EXAMINE_ENDPOINTS);
  registerExamineRoutes(app, engine, org);
  registerStatisticsRoutes(app, engine, org);
  registerDashboardRoutes(app, engine, org);
  return runner;
}
