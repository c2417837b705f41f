/**
 * The generated stories are current: storybook/generated/ holds exactly what `npm run storybook:generate`
 * would write for the schemas now, so a new, renamed or removed schema cannot leave Storybook (and its
 * snapshot tests) behind.
 */
import { describe, expect, it } from 'vitest';
import { generate, onDisk } from '../scripts/storybook-generate.js';

describe('generated stories', () => {
  it('match the schemas (run `npm run storybook:generate` after adding or removing a schema)', () => {
    const want = generate();
    const have = onDisk();
    expect([...have.keys()].sort()).toEqual([...want.keys()].sort());
    for (const [file, text] of want) expect(have.get(file), file).toBe(text);
  });

  it('give every resource schema a stories file with Form, List and Detail', () => {
    const want = generate();
    expect(want.has('basic-patent.stories.tsx')).toBe(true);
    expect(want.has('system-region.stories.tsx')).toBe(true);
    expect([...want.keys()].some((f) => f.startsWith('_meta'))).toBe(false);
    for (const [file, text] of want) {
      if (!file.endsWith('.stories.tsx')) continue;
      for (const story of ['Form', 'List', 'Detail']) expect(text, file).toContain(`export const ${story}: Story`);
    }
  });
});
