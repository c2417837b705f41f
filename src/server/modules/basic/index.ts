/**
 * The achievements area (spec 001 §3, §7 '/basic'). The six achievement types are generic resources from
 * `schemas/basic/*.json`; everything they enforce is declared there and applied by the engine for any
 * resource (DESIGN §4): the review status `examineStatus` is `x-server-only` and `actions.locked` keeps a
 * record waiting for review (1) or approved (2) from being edited or removed; `rules` clear a project id when
 * the project source says there is none (3) and a software's first publication date unless it is published
 * (state 2), and order dates (a thesis's conference end after its start, a standard's implementation after
 * its publication, a software's first publication after its development) and an award's unit rank within its
 * number of units; `x-ref` checks the registering unit and the project exist in the caller's tenant; `stats`
 * names the year, author and company fields of the statistics.
 *
 * What is left here is what no schema key says: the examination flow and its lists (examine.ts), the
 * statistics routes over the `achievement` group (statistics.ts) and the home page's dashboard figures
 * (dashboard.ts).
 */
import type { Module } from '../../core/module.js';
import { EXAMINE_ENDPOINTS, EXAMINE_FLOW, examineFlow, registerExamineRoutes, removeExaminations } from './examine.js';
import { registerStatisticsRoutes } from './statistics.js';
import { registerDashboardRoutes } from './dashboard.js';

export const module: Module = {
  name: 'basic',
  routes(app, k) {
    k.actions.registerFlow(EXAMINE_FLOW, examineFlow(k.engine, k.org), EXAMINE_ENDPOINTS);
    // removing a record under examination removes its examination from the lists (its steps stay)
    k.engine.hooksAll({ afterRemove: removeExaminations });
    registerExamineRoutes(app, k.engine, k.org);
    registerStatisticsRoutes(app, k.engine, k.org);
    registerDashboardRoutes(app, k.engine, k.org);
  },
};
