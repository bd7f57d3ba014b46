import pino, { type Logger } from 'pino';
import type { NextFunction, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { LoggerService } from '@nestjs/common';
import type { AppRequest } from '../http/request-context';

export const LOGGER = Symbol('LOGGER');

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'wantuo-api' }, timestamp: pino.stdTimeFunctions.isoTime });
}

/** One structured line per request: method, path, HTTP status, envelope code, duration, user. */
export function requestLog(log: Logger) {
  return (req: AppRequest, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    req.requestId = (req.headers['x-request-id'] as string | undefined)?.slice(0, 64) || randomUUID();
    res.setHeader('x-request-id', req.requestId);
    res.on('finish', () => {
      log.info(
        {
          reqId: req.requestId,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          code: res.locals.code ?? (res.statusCode === 200 ? 200 : undefined),
          ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
          userId: req.user?.id,
          schoolId: req.user?.schoolId,
        },
        'request',
      );
    });
    next();
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
