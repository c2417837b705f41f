/**
 * The response envelope and the errors that produce it (DESIGN §6).
 *
 * Every answer is `{ code, success, data, msg }` with `success = code === 200` and the HTTP status equal to
 * `code` (200, 400, 401, 403, 404, 500; 499 = a failure the client does not toast). Default messages are
 * 操作成功 / 操作失败 (or their en text).
 *
 * Throw an `ApiError` from anywhere in a route; the error handler (`pipeline.ts`) turns it into the envelope.
 */
import { messages, t, type Lang, type MessageKey } from '../../shared/i18n/messages.js';
import type { Envelope, FieldError } from '../../shared/contract/envelope.js';

export type { Envelope, FieldError } from '../../shared/contract/envelope.js';

/** A successful envelope around `data`. */
export function ok<T>(data: T, msg?: string, lang: Lang = 'zh'): Envelope<T> {
  return { code: 200, success: true, data, msg: msg ?? messages.success[lang] };
}


/**
 * An error with an HTTP/envelope code and a message in both languages. `key` names a message of
 * `shared/i18n/messages.ts`; `text` gives literal zh/en text instead (for example a schema's own message).
 */
export class ApiError extends Error {
  readonly code: number;
  readonly key?: MessageKey;
  readonly params?: Record<string, unknown>;
  readonly text?: { zh: string; en: string };
  readonly data: unknown;

  constructor(
    code: number,
    what: MessageKey | { zh: string; en: string },
    params?: Record<string, unknown>,
    data: unknown = null,
  ) {
    super(typeof what === 'string' ? t(what, 'zh', params) : what.zh);
    this.code = code;
    if (typeof what === 'string') this.key = what;
    else this.text = what;
    this.params = params;
    this.data = data;
  }

  /** The message in `lang`. */
  localized(lang: Lang): string {
    if (this.key) return t(this.key, lang, this.params);
    return this.text ? this.text[lang] : this.message;
  }
}

/** 400 with field errors: `msg` is the first field's message (what a form toast shows), `data` all of them. */
export class ValidationError extends ApiError {
  readonly fields: Array<FieldError & { messageEn: string }>;
  constructor(fields: Array<FieldError & { messageEn: string }>) {
    super(400, { zh: fields[0]?.message ?? messages.validationFailed.zh, en: fields[0]?.messageEn ?? messages.validationFailed.en });
    this.fields = fields;
  }
  override localized(lang: Lang): string {
    return lang === 'en' ? (this.fields[0]?.messageEn ?? messages.validationFailed.en) : (this.fields[0]?.message ?? messages.validationFailed.zh);
  }
  /** The field list in `lang`, as sent in `data`. */
  fieldList(lang: Lang): FieldError[] {
    return this.fields.map((f) => ({ field: f.field, message: lang === 'en' ? f.messageEn : f.message }));
  }
}

export const badRequest = (key: MessageKey, params?: Record<string, unknown>) => new ApiError(400, key, params);
export const notFound = () => new ApiError(404, 'notFound');
export const forbidden = () => new ApiError(403, 'forbidden');
export const unauthorized = () => new ApiError(401, 'unauthorized');
