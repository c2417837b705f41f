/**
 * Tenancy and role constants of the API contract (DESIGN §5, §6; spec 000 §9), one copy for server and client.
 *
 * - `PLATFORM_TENANT` (000000): the platform's own tenant, the default `Tenant-Id` at login (as in BladeX), and
 *   the only tenant whose administrators write platform-wide resources (`scope.platform`: regions, system
 *   dictionaries, schemas).
 * - `ADMIN_ALIAS` (administrator): the role alias of administrators, who pass every grant check of their tenant.
 */
export const PLATFORM_TENANT = '000000';
export const ADMIN_ALIAS = 'administrator';
