import { Code, type MessageKey } from '@wantuo/shared';

/**
 * An answer that is not a success: code 100 (business or validation error) or 401 (untoken).
 * The message is a key, translated into the caller's language by the exception filter.
 */
export class AppError extends Error {
  constructor(
    readonly key: MessageKey,
    readonly params: Record<string, string | number> = {},
    readonly code: number = Code.Error,
    readonly data: unknown = null,
  ) {
    super(key);
  }

  static untoken(): AppError {
    return new AppError('auth.untoken', {}, Code.Untoken);
  }
}

/** Input that failed validation: code 100 with the first problem in msg and every problem in data.fields. */
export class ValidationError extends AppError {
  constructor(readonly fields: { path: string; message: string }[]) {
    super('error.validation', {}, Code.Error, { fields });
  }
}
