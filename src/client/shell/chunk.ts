/**
 * Lazily loaded screens that say so when they cannot load (spec 000 §8: "Chunk load failure gives 'Loading chunk
 * failed' after a 120-second timeout"; issue 18: "'Loading chunk failed' after 120 s offers a reload").
 *
 * `lazyChunk(load)` is React's `lazy` whose import gives up after CHUNK_TIMEOUT_MS (120,000 ms) and whose failure
 * — a timeout, or the chunk gone after a new release — is a `ChunkLoadError` ('Loading chunk failed'). The
 * routes' error element (RouteError.tsx) shows it with a reload button rather than the 500 page.
 */
import { lazy, type ComponentType } from 'react';

export const CHUNK_TIMEOUT_MS = 120_000;

/** A screen's code could not be loaded (timeout or missing chunk). */
export class ChunkLoadError extends Error {
  constructor(readonly reason?: unknown) {
    super('Loading chunk failed');
    this.name = 'ChunkLoadError';
  }
}

/** `load()` within `ms`, any failure turned into a ChunkLoadError. */
export function withChunkTimeout<T>(load: () => Promise<T>, ms = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError('timeout')), ms);
    load().then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(e));
      },
    );
  });
}

/** True for a chunk failure: ours, or the browser's own wording of a failed dynamic import. */
export function isChunkError(e: unknown): boolean {
  if (e instanceof ChunkLoadError) return true;
  const msg = e instanceof Error ? e.message : String(e ?? '');
  return /Loading chunk failed|Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed/i.test(msg);
}

/** React `lazy` with the 120 s limit. */
export function lazyChunk<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  return lazy(() => withChunkTimeout(load));
}
