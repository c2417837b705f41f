/**
 * The one id rule of the API contract (DESIGN §4, §6, §11), one copy for server and client.
 *
 * Ids are snowflakes stored in PostgreSQL `bigint` columns and carried in JSON as decimal strings (they exceed
 * 2^53, so a JavaScript number would lose digits). An id text is valid when it is 1–19 ASCII digits AND its
 * value is at most PostgreSQL's bigint maximum, 9223372036854775807 (2^63 − 1; see the PostgreSQL manual,
 * "Numeric Types": bigint is −9223372036854775808 to +9223372036854775807). Negative ids are never issued.
 *
 * The range matters: `'9999999999999999999'` has 19 digits but `::bigint` refuses it ("value out of range for
 * type bigint"), which would be a 500 (DESIGN §13). Check every id a request carries with `isId` and answer 400.
 *
 * - `BIGINT_MAX`: the bigint maximum as text (`'9223372036854775807'`);
 * - `ID_PATTERN`: a regular expression source (for JSON Schema `pattern`, ajv and Formily alike) that matches
 *   exactly the texts `isId` accepts;
 * - `ID_RE`: `ID_PATTERN` compiled;
 * - `isId(s)`: true when `s` is a string that is a valid id.
 */

/** PostgreSQL's bigint maximum, 2^63 − 1, as decimal text. */
export const BIGINT_MAX = '9223372036854775807';

/**
 * A regular expression source matching the decimal texts 0 … `max` (digits only, leading zeros allowed up to
 * `max.length` digits): any shorter text, or a text of `max.length` digits that is not greater than `max`,
 * spelled digit by digit (for 19 digits: `[0-8]\d{18}`, `9[01]\d{17}`, `92[01]\d{16}`, …, and `max` itself).
 */
export function rangePattern(max: string): string {
  const n = max.length;
  const branches: string[] = [];
  if (n > 1) branches.push(`\\d{1,${n - 1}}`);
  for (let i = 0; i < n; i++) {
    const d = Number(max[i]);
    if (d === 0) continue;
    const rest = n - i - 1;
    const digit = d === 1 ? '0' : `[0-${d - 1}]`;
    branches.push(`${max.slice(0, i)}${digit}${rest ? `\\d{${rest}}` : ''}`);
  }
  branches.push(max);
  return `^(?:${branches.join('|')})$`;
}

/** The id pattern: 1–19 digits, not above 9223372036854775807 (PostgreSQL bigint max). */
export const ID_PATTERN = rangePattern(BIGINT_MAX);

/** `ID_PATTERN` compiled. */
export const ID_RE = new RegExp(ID_PATTERN);

/**
 * True when `s` is an id: a string of 1–19 decimal digits whose value fits PostgreSQL's bigint
 * (≤ 9223372036854775807). `'1'`, `'1234567890123456789'` and `'9223372036854775807'` are ids;
 * `''`, `'-1'`, `'1.0'`, `' 1'`, `'12a'`, `'9223372036854775808'` and `'9999999999999999999'` are not.
 */
export function isId(s: unknown): s is string {
  return typeof s === 'string' && s.length <= BIGINT_MAX.length && ID_RE.test(s);
}
