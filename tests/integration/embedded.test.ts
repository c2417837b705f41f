/**
 * The embedded PostgreSQL's lifecycle (issue 2; DESIGN §5, §13): a server left running by a killed Node
 * process is detected and handled on the next start; a second start reuses the data; secrets and the
 * initial password are generated into the data folder with mode 600, and reused.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startEmbedded } from '../../src/server/core/db/embedded.js';
import { loadOrCreateSecrets } from '../../src/server/core/secrets.js';
import { repoRoot } from '../../src/server/core/config.js';
import { freePort } from './global-setup.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'kc-emb-'));
  fs.chmodSync(d, 0o755);
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('embedded PostgreSQL', () => {
  it('takes over from a server left running by a killed process, and keeps the data', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const port = await freePort();
    // node itself with tsx's loader (not the tsx wrapper, whose node child would outlive the SIGKILL below)
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/embedded-child.ts', dir, String(port), 'pw1'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (b) => {
        out += b;
        if (out.includes('READY')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`child exited ${code}: ${out}`)));
    });
    // write something through the first server
    const c1 = new pg.Client(`postgres://postgres:pw1@127.0.0.1:${port}/kechuang`);
    await c1.connect();
    await c1.query('CREATE TABLE kept (v text)');
    await c1.query('INSERT INTO kept VALUES ($1)', ['粮食']);
    await c1.end();
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const pidFile = path.join(dir, 'pg', 'postmaster.pid');
    const leftover = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    expect(alive(leftover)).toBe(true); // the postmaster outlived its parent

    const db = await startEmbedded({ dataDir: dir, port, password: 'pw1' });
    try {
      expect(alive(leftover)).toBe(false);
      const c2 = new pg.Client(db.url);
      await c2.connect();
      expect((await c2.query('SELECT v FROM kept')).rows).toEqual([{ v: '粮食' }]);
      await c2.end();
    } finally {
      await db.stop();
    }
    expect(fs.existsSync(pidFile)).toBe(false); // stopped cleanly
  });

  it('refuses a non-empty folder that holds no cluster, with a message saying what to do', async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'pg'));
    fs.writeFileSync(path.join(dir, 'pg', 'stray.txt'), 'x');
    await expect(startEmbedded({ dataDir: dir, port: await freePort(), password: 'x' })).rejects.toThrow(/not empty but holds no PostgreSQL cluster/);
  });
});

describe('secrets and the initial password', () => {
  it('generates secrets once, mode 600, and reuses them', () => {
    const dir = tempDir();
    const a = loadOrCreateSecrets(dir);
    const b = loadOrCreateSecrets(dir);
    expect(b).toEqual(a);
    expect(Buffer.from(a.jwtKey, 'base64')).toHaveLength(32);
    expect(fs.statSync(path.join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(loadOrCreateSecrets(tempDir()).jwtKey).not.toBe(a.jwtKey);
  });

  it('writes the generated demo password to initial-password with mode 600', () => {
    const { dataDir, password } = inject('db');
    const file = path.join(dataDir, 'initial-password');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(password).toMatch(/^(?=.*[A-Z])(?=.*[a-z])(?=.*\d)(?=.*[^A-Za-z0-9]).{16}$/);
  });
});
