import { CallHandler, ExecutionContext, Injectable, NestInterceptor, RequestTimeoutException } from '@nestjs/common';
import { Code, REQUEST_TIMEOUT_MS, t } from '@wantuo/shared';
import { catchError, map, Observable, throwError, timeout, TimeoutError } from 'rxjs';
import type { Response } from 'express';
import { langOf, type AppRequest } from './request-context';

/** Wraps every successful answer in `{ code: 200, msg, data }` and bounds each request by the spec's 30 s. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = ctx.switchToHttp();
    const req = http.getRequest<AppRequest>();
    // every answer is HTTP 200 with the envelope, POST included (Nest would say 201)
    http.getResponse<Response>().status(200);
    return next.handle().pipe(
      timeout(REQUEST_TIMEOUT_MS),
      catchError((err: unknown) => throwError(() => (err instanceof TimeoutError ? new RequestTimeoutException() : err))),
      map((data) => ({ code: Code.Ok, msg: t(langOf(req), 'ok'), data: data ?? {} })),
    );
  }
}
