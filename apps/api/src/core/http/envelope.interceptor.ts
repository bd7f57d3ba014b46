import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor, RequestTimeoutException } from '@nestjs/common';
import { Code, FileAnswer, REQUEST_TIMEOUT_MS, t, type Declaration } from '@wantuo/shared';
import { catchError, map, Observable, throwError, timeout, TimeoutError } from 'rxjs';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { LOGGER } from '../logging/logger';
import { declarationOfHandler } from './action.decorator';
import { langOf, type AppRequest } from './request-context';

/** An answer that does not match its declared schema (tests and development only). */
export class AnswerMismatch extends Error {}

/**
 * Wraps every successful answer in `{ code: 200, msg, data }` and bounds each request by the spec's 30 s. Outside
 * production each answer is checked, as JSON carries it, against the schema its action declares: under test a mismatch
 * fails the request (so the API suite keeps every declaration true), in development it is logged.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  private readonly check: 'fail' | 'log' | 'off';

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {
    this.check = process.env.ANSWER_CHECK === 'off' ? 'off' : config.env === 'test' ? 'fail' : config.env === 'development' ? 'log' : 'off';
  }

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = ctx.switchToHttp();
    const req = http.getRequest<AppRequest>();
    const declaration = this.check === 'off' ? undefined : declarationOfHandler(ctx.getHandler());
    // every answer is HTTP 200 with the envelope, POST included (Nest would say 201)
    http.getResponse<Response>().status(200);
    return next.handle().pipe(
      timeout(REQUEST_TIMEOUT_MS),
      catchError((err: unknown) => throwError(() => (err instanceof TimeoutError ? new RequestTimeoutException() : err))),
      map((data) => {
        if (declaration && declaration.answer !== FileAnswer) this.checkAnswer(declaration, data ?? {});
        return { code: Code.Ok, msg: t(langOf(req), 'ok'), data: data ?? {} };
      }),
    );
  }

  private checkAnswer(d: Declaration, data: unknown): void {
    const result = d.answer.safeParse(JSON.parse(JSON.stringify(data)));
    if (result.success) return;
    const problem = `${d.method} ${d.action}: the answer does not match its declaration:\n${z.prettifyError(result.error)}`;
    if (this.check === 'fail') {
      process.stderr.write(`${problem}\n`);
      throw new AnswerMismatch(problem);
    }
    this.log.warn({ action: d.action }, problem);
  }
}
