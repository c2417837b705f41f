/**
 * The API contract in one place (DESIGN §3, §6): what the server answers and the client sends, imported by
 * both sides — envelope and page shapes, the token answer, ids, tenancy and role constants, list query
 * conventions and date formats, system fields, grant codes, flow statuses and languages.
 */
export * from './envelope.js';
export * from './ids.js';
export * from './tenancy.js';
export * from './query.js';
export * from './records.js';
export * from './grants.js';
export * from './flow.js';
export * from './lang.js';
