/**
 * The input guard's walk (DESIGN §11): where the first NUL character of a request value is, at any depth, in
 * keys and values, without recursion. The guard's answers on real routes are in tests/integration/bad-input.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { findNul } from './input-guard.js';

describe('findNul', () => {
  it('finds none in clean values of every shape', () => {
    for (const v of [undefined, null, 0, true, '', 'text', [], {}, { a: ['x', { b: 'y' }] }, Buffer.from([0, 0])]) expect(findNul(v)).toBeUndefined();
  });

  it('names the path of the first string holding NUL, in document order', () => {
    expect(findNul('a\u0000b')).toBe('');
    expect(findNul({ name: 'x\u0000' })).toBe('name');
    expect(findNul({ a: 'ok', list: [{ n: 'ok' }, { n: '\u0000' }], z: '\u0000' })).toBe('list.1.n');
    expect(findNul(['ok', ['\u0000']])).toBe('1.0');
  });

  it('names a key holding NUL, shown as the text \\u0000', () => {
    expect(findNul({ 'na\u0000me': 'x' })).toBe('na\\u0000me');
    expect(findNul({ outer: { 'k\u0000': 1 } })).toBe('outer.k\\u0000');
  });

  it('walks very deep values without overflowing the stack', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findNul(deep)).toBe(Array(100_000).fill('0').join('.'));
  });

  it('does not walk a stream (a raw body: its object graph is cyclic)', () => {
    const stream = new PassThrough() as PassThrough & { self?: unknown; text?: string };
    stream.self = stream;
    stream.text = '\u0000';
    expect(findNul(stream)).toBeUndefined();
    expect(findNul({ body: stream, q: 'a\u0000' })).toBe('q');
  });
});
