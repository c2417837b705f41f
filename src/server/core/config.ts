/**
 * Server configuration, read once from the environment.
 *
 * | variable       | default                  | meaning                                                        |
 * | -------------- | ------------------------ | -------------------------------------------------------------- |
 * | PORT           | 8080                     | HTTP port (the server binds HOST)                              |
 * | HOST           | 127.0.0.1                | bind address                                                   |
 * | DATA_DIR       | `<repo>/data`            | runtime state: embedded PostgreSQL, secrets, files, passwords  |
 * | DATABASE_URL   | (unset)                  | use this external PostgreSQL instead of the embedded one       |
 * | PG_PORT        | 54329                    | port of the embedded PostgreSQL (127.0.0.1 only)               |
 * | TZ_DB          | Asia/Shanghai            | time zone dates are read and written in (`yyyy-MM-dd HH:mm:ss`) |
 * | NODE_ENV       | development              | `test` enables the X-Test-Captcha header (never otherwise)     |
 * | LOGIN_RATE_MAX | 30                       | token/captcha requests per minute per IP (@fastify/rate-limit) |
 *
 * Secrets are never configured here: they are generated on first start into DATA_DIR (see `secrets.ts`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The nearest folder at or above `from` that holds a package.json: the repository root, whether the server
 * runs from its sources (src/server/core, `npm run dev`) or from its build (dist/server/main.mjs, `npm start`).
 */
export function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json at or above ${from}`);
  }
}

/** Absolute path of the repository root (see findRepoRoot). */
export const repoRoot = findRepoRoot(path.dirname(fileURLToPath(import.meta.url)));

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  pgPort: number;
  timeZone: string;
  isTest: boolean;
  loginRateMax: number;
  /** Bound of the list count (DESIGN §5): total is exact up to this many rows. */
  countBound: number;
  /** Largest JSON body accepted, in bytes. */
  bodyLimit: number;
}

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`Environment variable ${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

/** Reads the configuration from `env` (default `process.env`); `overrides` win (tests use them). */
export function loadConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    port: intFromEnv('PORT', 8080),
    host: process.env.HOST || '127.0.0.1',
    dataDir: path.resolve(process.env.DATA_DIR || path.join(repoRoot, 'data')),
    databaseUrl: process.env.DATABASE_URL || undefined,
    pgPort: intFromEnv('PG_PORT', 54329),
    timeZone: process.env.TZ_DB || 'Asia/Shanghai',
    isTest: process.env.NODE_ENV === 'test',
    loginRateMax: intFromEnv('LOGIN_RATE_MAX', 30),
    countBound: intFromEnv('COUNT_BOUND', 10000),
    bodyLimit: intFromEnv('BODY_LIMIT', 1024 * 1024),
    ...overrides,
  };
}
