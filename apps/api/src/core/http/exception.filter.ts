import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Inject } from '@nestjs/common';
import { Code, t } from '@wantuo/shared';
import type { Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { LOGGER } from '../logging/logger';
import { AppError, ValidationError } from './app-error';
import { AnswerMismatch } from './envelope.interceptor';
import { langOf, type AppRequest } from './request-context';

/**
 * Turns every failure into the envelope of design.md §2: code 100/401 with HTTP 200 for expected
 * failures, HTTP 404 for unknown actions, HTTP 500 with an error id (stack only in the log) for the rest.
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly log: Logger) {}

  catch(err: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<AppRequest>();
    const res = ctx.getResponse<Response>();
    const lang = langOf(req);
    if (res.headersSent) return;

    if (err instanceof AnswerMismatch) {
      // tests only (the envelope interceptor): the mismatch itself is the message, so the failing test shows it
      this.log.error({ errorId: 'answer-mismatch', path: req.path }, err.message);
      res.status(HttpStatus.INTERNAL_SERVER_ERROR).json({ code: Code.Unexpected, msg: err.message, data: { answerMismatch: true } });
      return;
    }
    if (err instanceof AppError) {
      res.locals.code = err.code;
      const msg = err instanceof ValidationError ? (err.fields[0]?.message ?? t(lang, err.key)) : t(lang, err.key, err.params);
      res.status(HttpStatus.OK).json({ code: err.code, msg, data: err.data });
      return;
    }
    if (err instanceof HttpException) {
      const status = err.getStatus();
      const body = (status: number, code: number, msg: string) => {
        res.locals.code = code;
        res.status(status).json({ code, msg, data: null });
      };
      switch (status) {
        case HttpStatus.NOT_FOUND:
          return body(HttpStatus.NOT_FOUND, HttpStatus.NOT_FOUND, t(lang, 'error.not_found'));
        case HttpStatus.PAYLOAD_TOO_LARGE:
          return body(HttpStatus.OK, Code.Error, t(lang, 'error.body_too_large'));
        case HttpStatus.BAD_REQUEST:
          // body-parser (bad JSON) and multer (bad multipart) failures are the caller's input
          return body(
            HttpStatus.OK,
            Code.Error,
            t(lang, isJsonSyntax(err) ? 'error.bad_json' : isMultipart(req) ? 'error.bad_multipart' : 'error.validation'),
          );
        case HttpStatus.UNSUPPORTED_MEDIA_TYPE:
          // body-parser: a charset or content-encoding it cannot read
          return body(HttpStatus.OK, Code.Error, t(lang, 'error.bad_encoding'));
        case HttpStatus.REQUEST_TIMEOUT:
          return this.unexpected(err, req, res, 'error.timeout', HttpStatus.GATEWAY_TIMEOUT);
      }
    }
    // express body-parser errors that did not become HttpExceptions
    const status = (err as { status?: number; type?: string } | null)?.status;
    if (status === 413) {
      res.locals.code = Code.Error;
      res.status(HttpStatus.OK).json({ code: Code.Error, msg: t(lang, 'error.body_too_large'), data: null });
      return;
    }
    if (status === 400) {
      res.locals.code = Code.Error;
      res.status(HttpStatus.OK).json({ code: Code.Error, msg: t(lang, 'error.bad_json'), data: null });
      return;
    }
    // body-parser's other refusals of what the caller sent (415: a charset or content-encoding it cannot read)
    if (typeof status === 'number' && status > 400 && status < 500 && (err as { type?: string }).type !== undefined) {
      res.locals.code = Code.Error;
      res.status(HttpStatus.OK).json({ code: Code.Error, msg: t(lang, 'error.bad_encoding'), data: null });
      return;
    }
    this.unexpected(err, req, res, 'error.unexpected', HttpStatus.INTERNAL_SERVER_ERROR);
  }

  private unexpected(err: unknown, req: AppRequest, res: Response, key: 'error.unexpected' | 'error.timeout', status: number) {
    const errorId = randomUUID();
    this.log.error({ err, errorId, method: req.method, path: req.path, userId: req.user?.id }, 'unexpected error');
    res.locals.code = Code.Unexpected;
    res.status(status).json({ code: Code.Unexpected, msg: t(langOf(req), key, { errorId }), data: { errorId } });
  }
}

const isMultipart = (req: AppRequest) => /^multipart\//i.test(req.headers['content-type'] ?? '');

function isJsonSyntax(err: HttpException): boolean {
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof SyntaxError || /JSON/i.test(err.message);
}
