/**
 * The expressions bpmn-engine resolves while it runs a process (runtime.ts builds every engine with these):
 *
 * - ours, `${…}` conditions over the process variables (`${outcome == 'approve'}`): bpmn.ts `evaluate`, no code
 *   run; one outside the grammar throws with the reason (the step fails with 400, nothing stored);
 * - bpmn-elements' own (`${environment.variables.x}`, `${content.id}`, `${properties.…}`, `${fields.…}`): the
 *   value at the path in the engine's message; inside a text, the text with the value put in.
 */
import { compile, evaluate, lookup } from './bpmn.js';

type Row = Record<string, unknown>;

const DEFAULT_EXPRESSION = /^\s*\$\{\s*(environment|content|properties|fields)\./;

/** The `expressions` option of a bpmn-engine `Engine` whose conditions read `vars`. */
export function engineExpressions(vars: Row) {
  return {
    resolveExpression(expr: string, message?: unknown): unknown {
      if (typeof expr === 'string' && !DEFAULT_EXPRESSION.test(expr) && /^\s*\$\{[\s\S]*\}\s*$/.test(expr)) {
        compile(expr); // throws a readable reason for a condition outside the grammar
        return evaluate(expr, vars);
      }
      return defaultResolve(expr, message);
    },
    isExpression: (text: string) => typeof text === 'string' && /^\$\{(.+?)\}$/.test(text),
    hasExpression: (text: string) => typeof text === 'string' && /\$\{(.+?)\}/.test(text),
  };
}

/** bpmn-elements' own expressions (module comment). */
function defaultResolve(expr: string, message: unknown): unknown {
  const ctx = (message ?? {}) as Row;
  const whole = /^\$\{\s*([\w.]+)\s*\}$/.exec(expr);
  if (whole) return lookup(ctx, whole[1]);
  return expr.replace(/\$\{\s*([\w.]+)\s*\}/g, (_, p: string) => {
    const v = lookup(ctx, p);
    return v === undefined || v === null ? '' : String(v);
  });
}
