/**
 * Formily's expression compiler without `new Function` (DESIGN §4: the app runs under a strict
 * Content-Security-Policy). `{{ expression }}` in a schema (x-reactions, state and schema patches) is evaluated
 * by the shared safe evaluator (src/shared/schema/expression.ts), the same one the server uses to decide which
 * fields a record must fill.
 *
 * Formily's scope ($deps, $self, $form, $values, $record, $index, $target ...) is a lazy proxy whose values
 * include class instances (Field, Form). The shared evaluator reads own properties only (so prototypes stay out
 * of reach); `view()` presents such instances as read-only objects whose readable members look like own
 * properties — `$self.value`, `$form.values.name`, `$self.parent.value` work — while methods read as
 * undefined, so nothing can be called.
 *
 * A failing expression (a syntax error, a construct the evaluator refuses) is logged with its text and
 * evaluates to undefined: Formily then leaves the state it would have set unchanged, and one bad expression
 * does not take the whole form down.
 *
 * Importing this module registers the compiler (idempotent); the registry imports it, so every SchemaField
 * uses it.
 */
import { Schema } from '@formily/json-schema';
import { evaluate } from '../../shared/schema/expression.js';

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const views = new WeakMap<object, object>();

/** Plain data the evaluator reads as is: primitives, arrays, plain (or null-prototype) objects. */
function isPlain(v: object): boolean {
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** A read-only view of `v` whose readable members are own properties; functions are hidden. */
export function view(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return typeof v === 'function' ? undefined : v;
  if (isPlain(v)) return v;
  const cached = views.get(v);
  if (cached) return cached;
  const read = (key: string | symbol) => {
    if (typeof key === 'symbol' || FORBIDDEN.has(key)) return undefined;
    return view(Reflect.get(v, key));
  };
  const p = new Proxy(Object.create(null) as object, {
    get: (_t, key) => read(key),
    has: (_t, key) => typeof key === 'string' && !FORBIDDEN.has(key) && key in v,
    getOwnPropertyDescriptor: (_t, key) =>
      typeof key === 'string' && !FORBIDDEN.has(key) && key in v ? { value: read(key), enumerable: true, configurable: true } : undefined,
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
  views.set(v, p);
  return p;
}

/** The scope as the evaluator sees it: every member of Formily's scope through `view`. */
function scopeView(scope: Record<string, unknown>): Record<string, unknown> {
  return new Proxy(Object.create(null) as Record<string, unknown>, {
    get: (_t, key) => (typeof key === 'string' ? view(scope[key]) : undefined),
    getOwnPropertyDescriptor: (_t, key) =>
      typeof key === 'string' && key in scope ? { value: view(scope[key]), enumerable: true, configurable: true } : undefined,
    has: (_t, key) => typeof key === 'string' && key in scope,
  });
}

/** Evaluates one `{{ }}` body for Formily; undefined (and a console error) when the evaluator refuses it. */
export function compileExpression(expression: string, scope: Record<string, unknown> = {}): unknown {
  try {
    return evaluate(expression.trim(), scopeView(scope ?? {}));
  } catch (e) {
    console.error(`[schema] ${(e as Error).message}`);
    return undefined;
  }
}

let registered = false;
/** Registers the compiler with Formily (idempotent). */
export function registerCompiler(): void {
  if (registered) return;
  Schema.registerCompiler(compileExpression);
  registered = true;
}

registerCompiler();
