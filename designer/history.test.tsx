// @vitest-environment jsdom
/**
 * The designer's history (spec 002 §4, §9) on the real studio: each change is a step; ctrl-Z undoes,
 * ctrl-shift-Z and ctrl-Y redo, and so do the toolbar buttons; undo is disabled at the first step and redo at
 * the last; a change after an undo discards the later steps; at most 20 steps are kept. Loading a form is the
 * first step (nothing to undo).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, fireEvent, waitFor } from '@testing-library/react';
import fs from 'node:fs';
import path from 'node:path';
import { FakeServer, setLang } from '../src/client/runtime/test-utils.js';
import { clickPalette, keys, renderStudio, waitForHistory, waitForStepWith } from './test-utils.js';

const EMPTY = { type: 'object' as const, properties: {} };
const undoButton = () => screen.getByRole('button', { name: /撤销/ }) as HTMLButtonElement;
const redoButton = () => screen.getByRole('button', { name: /重做/ }) as HTMLButtonElement;

beforeEach(() => {
  setLang('zh');
  new FakeServer().install();
});

describe('designer history', () => {
  it('starts with the loaded form as its only step', async () => {
    const patent = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../schemas/basic/patent.json'), 'utf8'));
    const { ws } = renderStudio(patent.form, patent);
    await waitFor(() => expect(ws().operation.tree.children.length).toBe(Object.keys(patent.form.properties).length));
    await waitForHistory(ws(), 1);
    expect(undoButton().disabled).toBe(true);
    expect(redoButton().disabled).toBe(true);
  });

  it('undoes with ctrl-Z and redoes with ctrl-shift-Z, ctrl-Y and the buttons', async () => {
    const { ws, tree } = renderStudio(EMPTY);
    await waitForHistory(ws(), 1);
    clickPalette('input');
    await waitForHistory(ws(), 2);
    clickPalette('select');
    await waitForHistory(ws(), 3);
    const names = () => tree().children.map((c) => c.props['x-component']);
    expect(names()).toEqual(['Input', 'Select']);
    await waitFor(() => expect(undoButton().disabled).toBe(false));
    expect(redoButton().disabled).toBe(true);

    keys('z', { ctrl: true });
    expect(names()).toEqual(['Input']);
    keys('z', { ctrl: true });
    expect(names()).toEqual([]);
    await waitFor(() => expect(undoButton().disabled).toBe(true));
    expect(redoButton().disabled).toBe(false);
    keys('z', { ctrl: true });
    expect(ws().history.current).toBe(0);

    keys('z', { ctrl: true, shift: true });
    expect(names()).toEqual(['Input']);
    keys('y', { ctrl: true });
    expect(names()).toEqual(['Input', 'Select']);
    await waitFor(() => expect(redoButton().disabled).toBe(true));

    fireEvent.click(undoButton());
    expect(names()).toEqual(['Input']);
    fireEvent.click(redoButton());
    expect(names()).toEqual(['Input', 'Select']);
  });

  it('discards the later steps when something changes after an undo', async () => {
    const { ws, tree } = renderStudio(EMPTY);
    await waitForHistory(ws(), 1);
    clickPalette('input');
    await waitForHistory(ws(), 2);
    clickPalette('select');
    await waitForHistory(ws(), 3);
    keys('z', { ctrl: true });
    expect(ws().history.current).toBe(1);
    clickPalette('number');
    await waitForHistory(ws(), 3);
    expect(tree().children.map((c) => c.props['x-component'])).toEqual(['Input', 'NumberPicker']);
    await waitFor(() => expect(redoButton().disabled).toBe(true));
    keys('y', { ctrl: true });
    expect(tree().children.map((c) => c.props['x-component'])).toEqual(['Input', 'NumberPicker']);
  });

  it('keeps 20 steps at most', async () => {
    const { ws, tree } = renderStudio(EMPTY);
    await waitForHistory(ws(), 1);
    for (let i = 1; i <= 24; i++) {
      clickPalette('input');
      await waitForStepWith(ws(), i);
    }
    expect(tree().children).toHaveLength(24);
    expect(ws().history.list()).toHaveLength(20);
    for (let i = 0; i < 25; i++) keys('z', { ctrl: true });
    // the oldest kept step has 24 - 19 = 5 fields
    expect(tree().children).toHaveLength(5);
    await waitFor(() => expect(undoButton().disabled).toBe(true));
    // 24 additions, each redrawing a canvas that grows by one field: ~25 s alone, twice that while the other
    // client test files run beside it on this 2-core machine
  }, 180_000);
});
