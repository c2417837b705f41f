/**
 * Safe evaluation of schema expressions (`{{ ... }}` in `x-reactions`, DESIGN §4) without `new Function`,
 * so the app runs under a strict Content-Security-Policy and the server can evaluate the same reactions.
 *
 * Expressions are parsed by jsep (a maintained JavaScript expression parser) and walked here. Supported:
 * literals, identifiers from the scope, member access (`a.b`, `a[0]`, `a?.b`), unary `! - + typeof`, binary and
 * logical operators, `a ? b : c`, array literals, and calls of a small set of pure methods (`includes`,
 * `indexOf`, `startsWith`, `endsWith`, `trim`, `toString`). Access to `__proto__`, `constructor` and
 * `prototype` is refused. Parsed expressions are cached by their text.
 *
 * Scope names follow Formily: `$deps` (values of the reaction's dependencies), `$self` (the field's value),
 * `$values` (the whole record), `$record` (the enclosing array item in sub-forms).
 *
 * Errors: a syntax error or a forbidden construct throws `ExpressionError` with the expression text.
 */
import jsep from 'jsep';

export class ExpressionError extends Error {}

// jsep does not know `typeof` as a unary operator until told
jsep.addUnaryOp('typeof');

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const METHODS = new Set(['includes', 'indexOf', 'startsWith', 'endsWith', 'trim', 'toString']);
const cache = new Map<string, jsep.Expression>();

function parse(src: string): jsep.Expression {
  let ast = cache.get(src);
  if (!ast) {
    try {
      ast = jsep(src);
    } catch (e) {
      throw new ExpressionError(`Cannot parse expression "${src}": ${(e as Error).message}`);
    }
    cache.set(src, ast);
  }
  return ast;
}

function member(obj: unknown, key: unknown, src: string): unknown {
  if (obj === null || obj === undefined) return undefined;
  const k = String(key);
  if (FORBIDDEN.has(k)) throw new ExpressionError(`Forbidden property "${k}" in "${src}"`);
  if (typeof obj === 'string' || Array.isArray(obj)) {
    if (k === 'length') return obj.length;
    if (/^\d+$/.test(k)) return (obj as any)[Number(k)];
    return undefined;
  }
  if (typeof obj === 'object' && Object.prototype.hasOwnProperty.call(obj, k)) return (obj as any)[k];
  return undefined;
}

function evalNode(n: jsep.Expression, scope: Record<string, unknown>, src: string): unknown {
  switch (n.type) {
    case 'Literal':
      return (n as jsep.Literal).value;
    case 'Identifier': {
      const name = (n as jsep.Identifier).name;
      if (name === 'undefined') return undefined;
      if (FORBIDDEN.has(name)) throw new ExpressionError(`Forbidden identifier "${name}" in "${src}"`);
      return Object.prototype.hasOwnProperty.call(scope, name) ? scope[name] : undefined;
    }
    case 'ThisExpression':
      throw new ExpressionError(`"this" is not allowed in "${src}"`);
    case 'MemberExpression': {
      const m = n as jsep.MemberExpression;
      const obj = evalNode(m.object, scope, src);
      const key = m.computed ? evalNode(m.property, scope, src) : (m.property as jsep.Identifier).name;
      return member(obj, key, src);
    }
    case 'UnaryExpression': {
      const u = n as jsep.UnaryExpression;
      const v = evalNode(u.argument, scope, src);
      switch (u.operator) {
        case '!': return !v;
        case '-': return -(v as number);
        case '+': return +(v as number);
        case 'typeof': return typeof v;
        default: throw new ExpressionError(`Operator "${u.operator}" is not allowed in "${src}"`);
      }
    }
    case 'BinaryExpression': {
      const b = n as jsep.BinaryExpression;
      if (b.operator === '&&') return evalNode(b.left, scope, src) && evalNode(b.right, scope, src);
      if (b.operator === '||') return evalNode(b.left, scope, src) || evalNode(b.right, scope, src);
      if (b.operator === '??') return evalNode(b.left, scope, src) ?? evalNode(b.right, scope, src);
      const l = evalNode(b.left, scope, src) as any;
      const r = evalNode(b.right, scope, src) as any;
      switch (b.operator) {
        case '===': return l === r;
        case '!==': return l !== r;
        case '==': return l == r;
        case '!=': return l != r;
        case '<': return l < r;
        case '>': return l > r;
        case '<=': return l <= r;
        case '>=': return l >= r;
        case '+': return l + r;
        case '-': return l - r;
        case '*': return l * r;
        case '/': return l / r;
        case '%': return l % r;
        default: throw new ExpressionError(`Operator "${b.operator}" is not allowed in "${src}"`);
      }
    }
    case 'ConditionalExpression': {
      const c = n as jsep.ConditionalExpression;
      return evalNode(c.test, scope, src) ? evalNode(c.consequent, scope, src) : evalNode(c.alternate, scope, src);
    }
    case 'ArrayExpression':
      return (n as jsep.ArrayExpression).elements.map((e) => (e ? evalNode(e, scope, src) : undefined));
    case 'Compound':
      throw new ExpressionError(`Only one expression is allowed in "${src}"`);
    case 'CallExpression': {
      const c = n as jsep.CallExpression;
      if (c.callee.type !== 'MemberExpression') throw new ExpressionError(`Only method calls are allowed in "${src}"`);
      const m = c.callee as jsep.MemberExpression;
      const name = m.computed ? String(evalNode(m.property, scope, src)) : (m.property as jsep.Identifier).name;
      if (!METHODS.has(name)) throw new ExpressionError(`Method "${name}" is not allowed in "${src}"`);
      const target = evalNode(m.object, scope, src) as any;
      if (target === null || target === undefined) return undefined;
      if (typeof target !== 'string' && !Array.isArray(target) && typeof target !== 'number') return undefined;
      const fn = (target as any)[name];
      if (typeof fn !== 'function') return undefined;
      return fn.apply(target, c.arguments.map((a) => evalNode(a, scope, src)));
    }
    default:
      throw new ExpressionError(`Unsupported syntax "${n.type}" in "${src}"`);
  }
}

/** Evaluates the JavaScript expression `src` (no braces) against `scope`. */
export function evaluate(src: string, scope: Record<string, unknown>): unknown {
  return evalNode(parse(src), scope, src);
}

const TEMPLATE = /^\s*\{\{([\s\S]*)\}\}\s*$/;

/** True when `v` is a whole-string `{{ expression }}` template. */
export function isTemplate(v: unknown): v is string {
  return typeof v === 'string' && TEMPLATE.test(v);
}

/** Evaluates `v` when it is a `{{ }}` template, otherwise answers it unchanged. */
export function resolveTemplate(v: unknown, scope: Record<string, unknown>): unknown {
  if (!isTemplate(v)) return v;
  return evaluate(TEMPLATE.exec(v)![1], scope);
}
