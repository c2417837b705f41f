/**
 * utf8Chunks (utf8-chunks.ts): however a UTF-8 byte stream is cut, every chunk it yields decodes on its own to
 * whole characters, and together they are the original bytes.
 */
import { describe, expect, it } from 'vitest';
import { utf8Chunks } from './utf8-chunks.js';

async function rechunk(text: string, size: number): Promise<string[]> {
  const bytes = Buffer.from(text);
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  const out: string[] = [];
  for await (const c of utf8Chunks((async function* () { yield* pieces; })())) out.push(c.toString('utf8'));
  return out;
}

describe('utf8Chunks', () => {
  it('never cuts a character, at any chunk size', async () => {
    const text = '<c><is><t>集团科技信息部 𠀀 é ok 低温储粮</t></is></c>'.repeat(3);
    for (let size = 1; size <= 9; size++) {
      const chunks = await rechunk(text, size);
      expect(chunks.join(''), `size ${size}`).toBe(text);
      expect(chunks.some((c) => c.includes('\uFFFD')), `size ${size}`).toBe(false);
    }
  });
});
