/**
 * Local file storage, shared by every module that reads or writes stored files (the files module's endpoints, the
 * documents, the bidding chapters: what two modules share lives in core/, DESIGN §3) (DESIGN §8 Files: local disk under `<DATA_DIR>/files` by default; S3-compatible storage
 * by configuration later — that store would implement the same three steps: receive, commit, open).
 *
 * Stored names are `upload/{yyyyMMdd}/{uuid}.{ext}` (spec 000 §9), relative to the root. A name is only ever
 * produced here (a fresh UUID and a whitelisted extension), and `resolve` accepts nothing but that exact shape
 * and checks that the absolute path stays under the root, so no request can reach another file
 * (`../`, absolute paths, encoded separators, symbolic links out of the folder).
 *
 * An upload is first written to `<root>/tmp/` (same file system, so the final rename is atomic) while its
 * size is counted and its first bytes kept for the content check; only a file that passed every check is
 * moved under `upload/`.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** The endpoints of the stored files (spec 000 §7 `/blade-resource/oss/endpoint`). */
export const FILE_BASE = '/api/blade-resource/oss/endpoint';
/** Where stored files are served: `link` = `FILE_DOMAIN/name`. */
export const FILE_DOMAIN = `${FILE_BASE}/file`;

const NAME_RE = /^upload\/\d{8}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{1,8}$/;

export interface Received {
  /** Absolute path of the temporary file. */
  tmp: string;
  size: number;
  /** The first bytes (up to `headBytes`). */
  head: Buffer;
}

/** `yyyyMMdd` of `at` in `timeZone` (the day folder of an upload). */
export function dayFolder(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${get('year')}${get('month')}${get('day')}`;
}

export class LocalFileStore {
  readonly root: string;
  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** A fresh stored name for extension `ext` (already whitelisted). */
  newName(ext: string, timeZone: string, at = new Date()): string {
    return `upload/${dayFolder(at, timeZone)}/${randomUUID()}.${ext}`;
  }

  /** The absolute path of stored name `name`, or null when `name` is not a name this store hands out. */
  resolve(name: string): string | null {
    if (!NAME_RE.test(name)) return null;
    const abs = path.resolve(this.root, name);
    return abs.startsWith(this.root + path.sep) ? abs : null;
  }

  /** Writes `stream` to a temporary file, counting bytes and keeping the first `headBytes`. */
  async receive(stream: Readable, headBytes: number): Promise<Received> {
    const dir = path.join(this.root, 'tmp');
    await fsp.mkdir(dir, { recursive: true });
    const tmp = path.join(dir, randomUUID());
    let size = 0;
    const chunks: Buffer[] = [];
    let kept = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (kept < headBytes) {
          const part = chunk.subarray(0, headBytes - kept);
          chunks.push(part);
          kept += part.length;
        }
        done(null, chunk);
      },
    });
    try {
      await pipeline(stream, tap, fs.createWriteStream(tmp, { mode: 0o640 }));
    } catch (e) {
      await this.discard(tmp);
      throw e;
    }
    return { tmp, size, head: Buffer.concat(chunks) };
  }

  /** Moves a received file to its stored name. */
  async commit(tmp: string, name: string): Promise<string> {
    const abs = this.resolve(name);
    if (!abs) throw new Error(`not a stored name: ${name}`);
    await fsp.mkdir(path.dirname(abs), { recursive: true });
    await fsp.rename(tmp, abs);
    return abs;
  }

  /** Removes a file (temporary or stored); a missing one is fine. */
  async discard(abs: string): Promise<void> {
    await fsp.rm(abs, { force: true });
  }

  /**
   * Opens stored name `name` for reading: its size and a stream, or null when there is no such regular file
   * inside the root (a symbolic link leading out of the folder counts as none).
   */
  async open(name: string): Promise<{ size: number; stream: fs.ReadStream } | null> {
    const abs = this.resolve(name);
    if (!abs) return null;
    try {
      const [real, realRoot] = await Promise.all([fsp.realpath(abs), fsp.realpath(this.root)]);
      if (!real.startsWith(realRoot + path.sep)) return null;
      const st = await fsp.stat(real);
      if (!st.isFile()) return null;
      return { size: st.size, stream: fs.createReadStream(real) };
    } catch {
      return null;
    }
  }
}
