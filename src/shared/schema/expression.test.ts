/**
 * The schema expression evaluator (DESIGN §4: `{{ }}` in x-reactions without `new Function`): what a schema
 * author may write evaluates as JavaScript would, and what could reach outside the scope is refused with
 * ExpressionError (so a published schema cannot run code on the server or in the browser).
 */
import { describe, expect, it } from 'vitest';
import { evaluate, ExpressionError, isTemplate, resolveTemplate } from './expression.js';

const scope = {
  $deps: [3, 'abc', true],
  $self: 'hello',
  $values: { projectSource: 1, tags: ['a', 'b'], nested: { level: { n: 7 } }, name: '专利' },
  $record: { rank: 2 },
};

describe('typeof', () => {
  it('answers the type name, so schemas can guard optional values', () => {
    expect(evaluate('typeof $self', { $self: 3 })).toBe('number');
    expect(evaluate("typeof $self === 'undefined'", {})).toBe(true);
  });
});

describe('evaluate: what schemas write', () => {
  it('compares values strictly and loosely', () => {
    expect(evaluate('$deps[0] === 3', scope)).toBe(true);
    expect(evaluate('$deps[0] === "3"', scope)).toBe(false);
    expect(evaluate('$deps[0] == "3"', scope)).toBe(true);
    expect(evaluate('$deps[0] !== 3', scope)).toBe(false);
    expect(evaluate('$deps[0] != 4', scope)).toBe(true);
    expect(evaluate('$record.rank < 3', scope)).toBe(true);
    expect(evaluate('$record.rank >= 3', scope)).toBe(false);
    expect(evaluate('$record.rank <= 2 && $record.rank > 1', scope)).toBe(true);
  });

  it('combines with && and || (short-circuit, answering the operand as JavaScript does)', () => {
    expect(evaluate('$deps[0] === 1 || $deps[0] === 3', scope)).toBe(true);
    expect(evaluate('$deps[0] === 1 || $deps[0] === 2', scope)).toBe(false);
    expect(evaluate('$deps[2] && $deps[0] === 3', scope)).toBe(true);
    expect(evaluate('$values.missing || "fallback"', scope)).toBe('fallback');
    expect(evaluate('$values.missing && $values.missing.x', scope)).toBeUndefined();
    expect(evaluate('!$deps[2]', scope)).toBe(false);
  });

  it('evaluates the ternary of the patent form (display visible/hidden)', () => {
    expect(evaluate("$deps[0] === 3 ? 'visible' : 'hidden'", scope)).toBe('visible');
    expect(evaluate("$deps[0] === 1 ? 'visible' : 'hidden'", scope)).toBe('hidden');
  });

  it('reads members, indexes, lengths and optional chains', () => {
    expect(evaluate('$values.nested.level.n', scope)).toBe(7);
    expect(evaluate('$values["name"]', scope)).toBe('专利');
    expect(evaluate('$values.tags[1]', scope)).toBe('b');
    expect(evaluate('$values.tags.length', scope)).toBe(2);
    expect(evaluate('$deps[1].length', scope)).toBe(3);
    expect(evaluate('$values.nothing?.deeper', scope)).toBeUndefined();
    expect(evaluate('$values.nothing.deeper', scope)).toBeUndefined();
    expect(evaluate('unknownName', scope)).toBeUndefined();
  });

  it('calls the whitelisted pure methods (.includes, .indexOf, .startsWith, .trim)', () => {
    expect(evaluate('$values.tags.includes("a")', scope)).toBe(true);
    expect(evaluate('$values.tags.includes("z")', scope)).toBe(false);
    expect(evaluate('[1, 2].includes($deps[0])', scope)).toBe(false);
    expect(evaluate('[1, 2, 3].includes($deps[0])', scope)).toBe(true);
    expect(evaluate('$self.includes("ell")', scope)).toBe(true);
    expect(evaluate('$self.indexOf("l")', scope)).toBe(2);
    expect(evaluate('$self.startsWith("he")', scope)).toBe(true);
    expect(evaluate('"  x ".trim()', scope)).toBe('x');
    // a method on a missing value is undefined, not a crash
    expect(evaluate('$values.missing.includes("a")', scope)).toBeUndefined();
  });

  it('does arithmetic and literals', () => {
    expect(evaluate('$record.rank * 10 + 1', scope)).toBe(21);
    expect(evaluate('-$record.rank', scope)).toBe(-2);
    expect(evaluate('null', scope)).toBeNull();
    expect(evaluate('undefined', scope)).toBeUndefined();
    expect(evaluate('$values.missing ?? 5', scope)).toBe(5);
  });

  it('sees only own properties of scope objects (nothing inherited from Object.prototype)', () => {
    expect(evaluate('$values.toString', scope)).toBeUndefined();
    expect(evaluate('$values.hasOwnProperty', scope)).toBeUndefined();
    expect(evaluate('toString', scope)).toBeUndefined();
  });
});

describe('evaluate: what it refuses', () => {
  const refused: Array<[string, RegExp]> = [
    ['constructor', /Forbidden identifier "constructor"/],
    ['__proto__', /Forbidden identifier "__proto__"/],
    ['$values.constructor', /Forbidden property "constructor"/],
    ['$values["constructor"]', /Forbidden property "constructor"/],
    ['$values.__proto__', /Forbidden property "__proto__"/],
    ['$values["__proto__"]', /Forbidden property "__proto__"/],
    ['$self.prototype', /Forbidden property "prototype"/],
    ['this', /"this" is not allowed/],
    ['this.x', /"this" is not allowed/],
    ['$values.constructor("x")', /Method "constructor" is not allowed/],
    ['$self.constructor.constructor("return process")()', /Only method calls are allowed/],
    ["eval('1')", /Only method calls are allowed/],
    ['Function("return 1")', /Only method calls are allowed/],
    ['$values.tags.map(x)', /Method "map" is not allowed/],
    ['$self["constructor"]("x")', /Method "constructor" is not allowed/],
    ['a; b', /Only one expression is allowed/],
    ['$record.rank | 1', /Operator "\|" is not allowed/],
    ['$deps[0] ===', /Cannot parse expression/],
  ];
  it.each(refused)('%s → ExpressionError', (src, message) => {
    expect(() => evaluate(src, scope)).toThrow(ExpressionError);
    expect(() => evaluate(src, scope)).toThrow(message);
  });

  it('names the expression in the error', () => {
    expect(() => evaluate('a.constructor("x")', { a: {} })).toThrow('in "a.constructor("x")"');
  });

  it('refuses a forbidden access even when the object is a string or an array', () => {
    expect(() => evaluate('"x".constructor', scope)).toThrow(ExpressionError);
    expect(() => evaluate('$values.tags.constructor', scope)).toThrow(ExpressionError);
  });
});

describe('templates', () => {
  it('recognises whole-string {{ }} templates only', () => {
    expect(isTemplate('{{$deps[0] === 3}}')).toBe(true);
    expect(isTemplate('  {{ $self }}  ')).toBe(true);
    expect(isTemplate('visible')).toBe(false);
    expect(isTemplate('a {{b}}')).toBe(false);
    expect(isTemplate(3)).toBe(false);
  });

  it('evaluates a template and passes other values through unchanged', () => {
    expect(resolveTemplate('{{$deps[0] === 3}}', scope)).toBe(true);
    expect(resolveTemplate("{{ $deps[0] === 3 ? 'visible' : 'hidden' }}", scope)).toBe('visible');
    expect(resolveTemplate('hidden', scope)).toBe('hidden');
    expect(resolveTemplate(false, scope)).toBe(false);
  });

  it('refuses a forbidden construct inside a template', () => {
    expect(() => resolveTemplate('{{ $values.constructor }}', scope)).toThrow(ExpressionError);
  });
});
