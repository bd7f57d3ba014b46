import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { NextFunction, Response } from 'express';
import { AsyncResource } from 'node:async_hooks';
import type { LoggerService } from '@nestjs/common';
import type { AppRequest } from '../http/request-context';
import { currentLogFields, requestIdOf, runInRequestContext } from './log-context';
import { REDACT } from './redaction';

export const LOGGER = Symbol('LOGGER');

/**
 * The one root logger. Every line written inside a request or a job carries its context (log-context.ts: req_id,
 * user_id, school_id, action; job_id, queue, job) through `mixin`, so the LOGGER services inject needs no child per
 * request; secrets are redacted (redaction.ts). `destination`: where lines go (stdout; a test's stream).
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    base: { service: 'wantuo-api' },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: currentLogFields,
    redact: REDACT,
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Opens the request's log context (log-context.ts) around everything after it, and writes one structured line per
 * request: method, path, HTTP status, envelope code, duration, with the context's req_id, user_id, school_id, action.
 */
export function requestLog(log: Logger) {
  return (req: AppRequest, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    // the path as it arrived: a mounted handler (/uploads) rewrites req.url before the answer is finished
    const path = req.path;
    const requestId = requestIdOf(req.headers['x-request-id']);
    req.requestId = requestId;
    res.setHeader('x-request-id', requestId);
    runInRequestContext(req, requestId, () => {
      // `finish` is emitted outside the request's context: the listener is bound to it
      res.on(
        'finish',
        AsyncResource.bind(() => {
          log.info(
            {
              method: req.method,
              path,
              status: res.statusCode,
              code: res.locals.code ?? (res.statusCode === 200 ? 200 : undefined),
              ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
            },
            'request',
          );
        }),
      );
      next();
    });
  };
}

/** Routes Nest's own log lines through pino. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    // Nest's start-up chatter (modules loaded, each route mapped) is debug detail
    const chatter = context === 'InstanceLoader' || context === 'RouterExplorer' || context === 'RoutesResolver';
    this.logger[chatter ? 'debug' : 'info']({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
