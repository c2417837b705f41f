/**
 * Helpers of the designer's tests (used by designer/*.test.tsx only, never by the app).
 *
 * - jsdom shims: under vitest's jsdom environment the global object is Node's (its tag reads `global`), so
 *   Designable — which attaches its drivers to `window` and recognises it by its `[object Window]` tag —
 *   would treat it as an element; giving the global object the Window tag makes Designable attach to the
 *   document, as in a browser.
 * - `renderStudio(form, resource?)`: the designer studio (engine, palette, canvas, settings, toolbar) inside
 *   antd's App, with a fresh engine; answers the engine and helpers to reach the workspace.
 * - `waitForHistory(ws, n)`: Designable takes its history snapshots when the browser is idle; waits for the
 *   history to have `n` steps.
 * - `clickPalette(key)`, `keys(combo)`.
 * - after each test, the work Designable left for when the browser is idle (attaching its drivers to the
 *   canvas, through the `requestIdleCallback` shim's timer) runs while the file's jsdom still exists: left
 *   pending, it fired after the environment was torn down and failed the run with "document is not defined".
 */
import React from 'react';
import { afterEach } from 'vitest';
import { App } from 'antd';
import { cleanup, fireEvent, waitFor } from '@testing-library/react';
import type { Engine, Workspace } from '@pind/designable-core';
import { renderApp } from '../src/client/runtime/test-utils.js';
import type { ResourceSchema } from '../src/shared/schema/types.js';
import { DesignerStudio } from './DesignerPage.js';
import { createEngine } from './engine.js';
import type { DesignedForm } from './transform.js';

if (Object.prototype.toString.call(globalThis) !== '[object Window]') {
  Object.defineProperty(globalThis, Symbol.toStringTag, { value: 'Window', configurable: true });
}
// jsdom has no layout: Designable's hit test of a click asks for the element at a point
if (typeof document !== 'undefined' && !document.elementFromPoint) document.elementFromPoint = () => null;

afterEach(async () => {
  // unmount first (RTL's cleanup, which runs again harmlessly afterwards); the shim runs its tasks in order:
  // once this one ran, the ones Designable queued before it did too
  cleanup();
  const idle = (globalThis as { requestIdleCallback?: (cb: () => void) => number }).requestIdleCallback;
  if (idle) await new Promise<void>((resolve) => idle(() => resolve()));
});

/** Renders the studio for `form` (and `resource`) with a fresh engine; answers the engine and the workspace. */
export function renderStudio(form: DesignedForm, resource?: ResourceSchema) {
  const engine: Engine = createEngine();
  const view = renderApp(
    <App>
      <DesignerStudio engine={engine} form={form} resource={resource} title="designer" />
    </App>,
  );
  const ws = () => engine.workbench.currentWorkspace as Workspace;
  return { engine, view, ws, tree: () => ws().operation.tree };
}

/** Waits until the history has `length` steps with `current` the current one. */
export async function waitForHistory(ws: Workspace, length: number, current = length - 1): Promise<void> {
  await waitFor(() => {
    if (ws.history.list().length !== length || ws.history.current !== current) {
      throw new Error(`history ${ws.history.list().length}/${ws.history.current}, want ${length}/${current}`);
    }
  }, { timeout: 8000 });
}

/** Waits until the newest step of the history holds a tree of `fields` top-level fields. */
export async function waitForStepWith(ws: Workspace, fields: number): Promise<void> {
  await waitFor(() => {
    const last = ws.history.list().at(-1) as { data?: { operation?: { tree?: { children?: unknown[] } } } } | undefined;
    const n = last?.data?.operation?.tree?.children?.length;
    if (n !== fields || ws.history.current !== ws.history.list().length - 1) throw new Error(`newest step has ${n} fields, want ${fields}`);
  }, { timeout: 8000 });
}

/** Clicks the palette item `key`. */
export function clickPalette(key: string): void {
  const el = document.querySelector(`[data-palette-key="${key}"]`);
  if (!el) throw new Error(`no palette item ${key}`);
  fireEvent.click(el);
}

const CODES: Record<string, { key: string; code: string; keyCode: number }> = {
  z: { key: 'z', code: 'KeyZ', keyCode: 90 },
  y: { key: 'y', code: 'KeyY', keyCode: 89 },
};

/** Presses `key` with modifiers on the document body (where Designable listens). */
export function keys(key: 'z' | 'y', mods: { ctrl?: boolean; shift?: boolean; meta?: boolean } = {}): void {
  const init = { ...CODES[key], ctrlKey: !!mods.ctrl, shiftKey: !!mods.shift, metaKey: !!mods.meta };
  fireEvent.keyDown(document.body, init);
  fireEvent.keyUp(document.body, init);
}
