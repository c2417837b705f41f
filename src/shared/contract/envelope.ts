/**
 * The answer shapes of the API contract (DESIGN §6; spec 000 §7–§9), one copy for server and client.
 *
 * - `Envelope<T>`: every JSON answer but the token's: `{code, success, data, msg}`, `success = code === 200`,
 *   the HTTP status equal to `code`; `SILENT_CODE` (499) is a failure the client does not toast.
 * - `FieldError`: one entry of a 400's `data` — the dotted field path and the message in the asked language.
 * - `Page<T>`: a list page `{records, total, size, current, pages}`; `totalBounded: true` when the count hit the
 *   server's bound and `total` is that bound (DESIGN §5).
 * - `PAGE_SIZES`: the page sizes the lists offer (spec 000 §9), `DEFAULT_PAGE_SIZE` the first one.
 * - `TokenAnswer`: the OAuth-style answer of `POST /api/blade-auth/oauth/token` (snake_case, not enveloped;
 *   `expires_in` in seconds).
 */
export interface Envelope<T = unknown> {
  code: number;
  success: boolean;
  data: T;
  msg: string;
}

/** A failure the client does not show (spec 000 §8). */
export const SILENT_CODE = 499;

export interface FieldError {
  field: string;
  message: string;
}

export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
  totalBounded?: boolean;
}

export const PAGE_SIZES = [10, 30, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = PAGE_SIZES[0];

export interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
  /** Lifetime of the access token in seconds. */
  expires_in: number;
  tenant_id: string;
  user_id: string;
  dept_id: string;
  /** Comma list of the user's role ids. */
  role_id: string;
  /** Comma list of the user's role aliases. */
  role_name: string;
  account: string;
  user_name: string;
  nick_name: string;
  real_name: string;
  avatar: string;
}
