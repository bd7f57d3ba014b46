import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { findUnsafeText, t, type UnsafeText } from '@wantuo/shared';
import type { NextFunction, Response } from 'express';
import type { Observable } from 'rxjs';
import { ValidationError } from './app-error';
import { langOf, type AppRequest } from './request-context';

/**
 * The input layer's one text check (issue 9): every string that reaches any action — the query, a JSON or form body
 * at any depth and its keys, multipart fields and the uploaded file's name — is refused with code 100 naming the
 * field when it holds a character no text may hold (NUL and other control characters but tab and line breaks,
 * unpaired surrogates; rules in packages/shared/src/text-safety.ts), before validation, before the database sees it.
 * Schemas keep their own rules on top (plain text, lengths, patterns).
 */
function refusal(req: AppRequest, found: UnsafeText): ValidationError {
  const lang = langOf(req);
  // `body.nav.1.title` → `nav.1.title`: the field as the schema's own messages name it
  const field = found.path.replace(/^(query|body)\.?/, '') || found.path;
  const message = found.reason === 'depth' ? t(lang, 'v.too_deep') : t(lang, 'v.unsafe_text', { field });
  return new ValidationError([{ path: field, message }]);
}

/** Throws the code-100 refusal when one of the request's inputs holds unsafe text. */
export function assertSafeInput(req: AppRequest, inputs: ReadonlyArray<readonly [string, unknown]>): void {
  for (const [root, value] of inputs) {
    const found = findUnsafeText(value, root);
    if (found) throw refusal(req, found);
  }
}

/**
 * Express middleware after the body parsers: the query and a JSON / urlencoded body. A multipart body is parsed later,
 * by the route's interceptor (Multipart), and checked there by MultipartSafetyInterceptor.
 */
export function inputSafety(req: AppRequest, _res: Response, next: NextFunction): void {
  try {
    assertSafeInput(req, [
      ['query', req.query],
      // a raw body (the payment notify, the sandbox) is bytes checked by signature, not text
      ['body', Buffer.isBuffer(req.body) ? undefined : req.body],
    ]);
    next();
  } catch (err) {
    next(err);
  }
}

/** The multipart fields and the file name, once multer has read them (runs right after the FileInterceptor). */
@Injectable()
export class MultipartSafetyInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = ctx.switchToHttp().getRequest<AppRequest & { file?: { originalname?: string } }>();
    assertSafeInput(req, [
      ['body', req.body],
      ['file.name', req.file?.originalname],
    ]);
    return next.handle();
  }
}
