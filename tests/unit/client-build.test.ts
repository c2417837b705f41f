/**
 * The staleness check of the client build (src/server/client-build.ts): a build is stale when it is missing
 * or older than any file among its inputs, folders searched recursively.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureClientBuild, isStale } from '../../src/server/client-build.js';

let dir: string;
const at = (p: string, secondsAgo: number) => {
  const t = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(p, t, t);
};
const write = (rel: string, secondsAgo: number) => {
  const p = path.join(dir, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, rel);
  at(p, secondsAgo);
  return p;
};

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kc-build-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('isStale', () => {
  it('is stale when the output is missing', () => {
    write('src/a.ts', 100);
    expect(isStale(path.join(dir, 'dist/index.html'), [path.join(dir, 'src')])).toBe(true);
  });

  it('is fresh when the output is newer than every input file', () => {
    write('src/a.ts', 100);
    write('src/deep/er/b.tsx', 90);
    write('index.html', 80);
    const out = write('dist/index.html', 10);
    expect(isStale(out, [path.join(dir, 'src'), path.join(dir, 'index.html')])).toBe(false);
  });

  it('is stale when a file deep in an input folder is newer than the output', () => {
    write('src/a.ts', 100);
    const out = write('dist/index.html', 50);
    write('src/deep/er/b.tsx', 5);
    expect(isStale(out, [path.join(dir, 'src')])).toBe(true);
  });

  it('is stale when a single input file is newer', () => {
    const out = write('dist/index.html', 50);
    write('vite.config.ts', 1);
    expect(isStale(out, [path.join(dir, 'src'), path.join(dir, 'vite.config.ts')])).toBe(true);
  });

  it('ignores inputs that do not exist', () => {
    const out = write('dist/index.html', 50);
    expect(isStale(out, [path.join(dir, 'no-such-folder'), path.join(dir, 'no-such-file.ts')])).toBe(false);
  });
});

describe('ensureClientBuild', () => {
  it('skips with a message when there is no vite.config.ts', async () => {
    const lines: string[] = [];
    await ensureClientBuild((l) => lines.push(l), dir);
    expect(lines).toEqual(['web client: no vite.config.ts yet, skipping the client build']);
  });

  it('does nothing when the build is current', async () => {
    write('vite.config.ts', 100);
    write('src/client/main.tsx', 100);
    write('dist/client/index.html', 10);
    const lines: string[] = [];
    await ensureClientBuild((l) => lines.push(l), dir);
    expect(lines).toEqual([]);
  });
});
