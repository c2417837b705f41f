/**
 * The system parameters the web client reads (spec 000 §3.1 'common params', §3.4 'menu/route-related system
 * parameters', §9 'Developer-tool blocking is on when parameter disable_devtool equals 1'; issue 18).
 *
 * `GET /api/blade-system/param/client-params` — public (no login: the login page obeys them too) →
 * `{disable_devtool: '0' | '1'}`: only the parameters in `CLIENT_PARAMS`, whatever else blade_param holds
 * (the parameters themselves stay readable by platform administrators only: schemas/system/param.json). A
 * parameter that is not stored answers its default. Parameters are platform-wide rows (one value for every
 * tenant), so the answer does not depend on the caller.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../core/db/index.js';
import { ok } from '../../core/envelope.js';
import { paramValue } from './account.js';

/** The parameters the client may read, with their default: nothing else is ever answered. */
export const CLIENT_PARAMS: Readonly<Record<string, string>> = { disable_devtool: '0' };

/** Registers client-params (see the module comment). */
export function registerClientParams(app: FastifyInstance, db: Db): void {
  app.get('/api/blade-system/param/client-params', { config: { public: true }, schema: { tags: ['system/param'], summary: 'Public: the parameters the web client obeys (disable_devtool)' } }, async (req) => {
    const out: Record<string, string> = {};
    for (const [key, def] of Object.entries(CLIENT_PARAMS)) out[key] = (await paramValue(db, key)) ?? def;
    return ok(out, undefined, req.lang);
  });
}
