/**
 * What `npm start` runs (issue 13's memory budget): scripts/build-server.ts bundles the server into
 * dist/server/main.mjs, run by plain node; and the repository root the server finds from its sources as from
 * that bundle (core/config.ts `findRepoRoot`: schemas, migrations, data and dist/client are found from it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findRepoRoot, repoRoot } from '../../src/server/core/config.js';
import { buildServer, SERVER_BUNDLE } from '../../scripts/build-server.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('findRepoRoot', () => {
  it('answers the nearest folder at or above the start that holds a package.json', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kc-root-'));
    fs.writeFileSync(path.join(dir, 'package.json'), '{}');
    fs.mkdirSync(path.join(dir, 'dist/server'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'src/server/core'), { recursive: true });
    expect(findRepoRoot(path.join(dir, 'dist/server'))).toBe(dir);
    expect(findRepoRoot(path.join(dir, 'src/server/core'))).toBe(dir);
    expect(findRepoRoot(dir)).toBe(dir);
  });

  it('throws when no folder above holds one', () => {
    expect(() => findRepoRoot(path.parse(os.tmpdir()).root)).toThrow(/no package\.json/);
  });

  it('finds this repository from the server sources', () => {
    expect(fs.existsSync(path.join(repoRoot, 'schemas'))).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).name).toBe('kechuang');
  });
});

describe('the server bundle of npm start', () => {
  it('is built from src/server/main.ts with the packages left as imports and the heavy ones still loaded at first use', async () => {
    const before = Date.now() - 1000;
    await buildServer();
    expect(SERVER_BUNDLE).toBe(path.join(repoRoot, 'dist/server/main.mjs'));
    expect(fs.statSync(SERVER_BUNDLE).mtimeMs).toBeGreaterThan(before);
    const code = fs.readFileSync(SERVER_BUNDLE, 'utf8');
    // the project's modules are inside (no import of a .ts source is left for plain node)
    expect(code).not.toMatch(/from\s+["'][^"']*\.ts["']/);
    expect(code).toMatch(/\btuneHeap\(\)/);
    // node_modules stay imports, and core/lazy-libs.ts's libraries dynamic ones (not loaded at start)
    expect(code).toMatch(/from\s+["']fastify["']/);
    expect(code).toMatch(/import\(["']exceljs["']\)/);
    expect(code).not.toMatch(/from\s+["']exceljs["']/);
  });

  it('is what the start script runs, with the memory options of DESIGN §10', () => {
    const start = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;
    expect(start).toMatch(/^tsx scripts\/build-server\.ts && /);
    expect(start).toMatch(/MALLOC_ARENA_MAX=2 node --max-semi-space-size=2 --optimize-for-size dist\/server\/main\.mjs$/);
    expect(start).not.toMatch(/max-old-space-size/);
  });
});
