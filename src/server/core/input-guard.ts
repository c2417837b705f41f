/**
 * The input guard (DESIGN §11, §13): PostgreSQL refuses NUL characters (U+0000) in text and in jsonb ("invalid
 * byte sequence for encoding UTF8: 0x00", "unsupported Unicode escape sequence"), and an unchecked one would
 * be a 500. This guard refuses them once for every route, before any handler runs, with a 400 that names where
 * the character was:
 *
 * - the query string and the path parameters (names and values): 400 `参数 {param} 不能包含空字符（\u0000）`;
 * - the body, at any depth (keys and values of objects, items of arrays; JSON and form bodies alike): a
 *   `ValidationError`, `data: [{field: 'ownershipDetailForm.0.name', message: '字段 … 不能包含空字符…'}]`;
 *   a text body: `参数 body …`;
 * - multipart uploads: the file's bytes may hold NUL (a .docx does), so they are not looked at; the text
 *   fields sent before the file are (the upload handlers read the file part with `req.file()`, which hands
 *   them over with it). A refused upload's file stream is drained, so the request completes.
 *
 * The messages are in zh and en (`Accept-Language`), like every other error of the pipeline. Install with
 * `installInputGuard(app)` right after `installPipeline` (src/server/app.ts), so every route gets it.
 */
import { Stream } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, ValidationError } from './envelope.js';
import { t } from '../../shared/i18n/messages.js';

const NUL = '\u0000';

/** A path segment for a message: a NUL inside a key is shown as the text `\u0000`, not sent as the character. */
const shown = (key: string) => key.replaceAll(NUL, '\\u0000');

/**
 * The dotted path (`ownershipDetailForm.0.name`) of the first key or string value of `value` that holds a NUL
 * character, `''` when `value` itself is such a string, or undefined when there is none. Walks objects and
 * arrays of any depth without recursion (a deeply nested body cannot overflow the stack); streams are not walked.
 */
export function findNul(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes(NUL)) return path;
      continue;
    }
    if (v === null || typeof v !== 'object' || Buffer.isBuffer(v)) continue;
    // a stream is not input to check: the request stream a raw-body route's parser hands on (an IncomingMessage,
    // whose object graph has cycles through its socket — walking it never ends) is the handler's to read
    if (v instanceof Stream) continue;
    const entries = Array.isArray(v) ? v.map((item, i) => [String(i), item] as const) : Object.entries(v);
    // pushed in reverse, so the first offending field in document order is the one reported
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, child] = entries[i];
      const p = path ? `${path}.${shown(k)}` : shown(k);
      if (k.includes(NUL)) return p;
      stack.push([child, p]);
    }
  }
  return undefined;
}

/** Throws the 400 for a NUL in a query or path parameter of `params` (an object of names to values). */
function checkParams(params: unknown): void {
  if (params === null || typeof params !== 'object') return;
  for (const [name, value] of Object.entries(params)) {
    if (name.includes(NUL) || findNul(value) !== undefined) throw new ApiError(400, 'nulInParam', { param: shown(name) });
  }
}

/** Throws the 400 for a NUL in a body field (a `ValidationError` naming the field) or in a text body. */
function checkBody(body: unknown): void {
  const at = findNul(body);
  if (at === undefined) return;
  if (at === '') throw new ApiError(400, 'nulInParam', { param: 'body' });
  throw new ValidationError([{ field: at, message: t('nulInField', 'zh', { field: at }), messageEn: t('nulInField', 'en', { field: at }) }]);
}

/** The parts of @fastify/multipart the guard uses (decorated only inside the file routes' scope). */
interface MultipartRequest {
  isMultipart?: () => boolean;
  file?: (...args: unknown[]) => Promise<MultipartPart | undefined>;
}
interface MultipartPart {
  file?: NodeJS.ReadableStream;
  fields?: Record<string, unknown>;
}

/**
 * For a multipart request: reads the first file part now (the handler's later `req.file()` answers that same
 * part, stream untouched) and refuses a NUL in the text fields that came before it — their names and values.
 * A part that cannot be read is left for the handler, which answers its own 400.
 */
async function checkMultipart(req: FastifyRequest): Promise<void> {
  const mp = req as unknown as MultipartRequest;
  if (typeof mp.isMultipart !== 'function' || typeof mp.file !== 'function' || !mp.isMultipart()) return;
  const original = mp.file.bind(req);
  let first: Promise<MultipartPart | undefined> | undefined = original();
  first.catch(() => undefined); // read again by the handler below
  mp.file = (...args: unknown[]) => {
    const p = first ?? original(...args);
    first = undefined;
    return p;
  };
  const part = await first.catch(() => undefined);
  if (!part?.fields) return;
  const texts: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(part.fields)) {
    for (const one of Array.isArray(f) ? f : [f]) {
      const field = one as { type?: string; value?: unknown };
      if (field?.type === 'field') texts[name] = field.value;
    }
  }
  const at = findNul(texts);
  if (at === undefined) return;
  part.file?.resume(); // drain the file, so the request completes and the 400 goes out
  checkBody(texts);
}

/**
 * Installs the guard on `app`: a `preValidation` hook for the query string, the path parameters and the body
 * (before route schemas and handlers), and a `preHandler` hook for multipart text fields (after the
 * pipeline's authentication check, so an anonymous upload is not read). Call once, after `installPipeline`.
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    checkParams(req.query);
    checkParams(req.params);
    if (req.body !== undefined) checkBody(req.body);
  });
  app.addHook('preHandler', async (req) => {
    await checkMultipart(req);
  });
}
