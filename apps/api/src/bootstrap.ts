import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import type { Logger } from 'pino';
import { AppModule, WorkerAppModule } from './app.module';
import { RouteCatalogue } from './core/auth/route-catalogue';
import type { AppConfig } from './core/config/config';
import { inputSafety } from './core/http/input-safety';
import { securityHeaders } from './core/http/security-headers';
import { serveWeb } from './core/http/web-static';
import { PinoNestLogger, requestLog } from './core/logging/logger';
import { Metrics } from './core/metrics/metrics';
import { serveQueueBoard } from './core/jobs/queue-board';
import { serveOpenApi } from './core/openapi/openapi';

/** Routes whose body is verified by signature over its bytes: the WeChat Pay notify and the local sandbox; the
 * official account's server messages (XML, signed in the query). */
const RAW_BODY_PATHS = ['/api/pay/wechat/notify', '/api/dev/wechatpay/v3', '/api/wechat/server'];
const SMS_RAW_BODY_PATHS = ['/api/sms-report', '/api/dev/sms/aliyun', '/api/dev/sms/tencent'];

export type ResolvedConfig = AppConfig & { databaseUrl: string };

/**
 * Builds the HTTP app (not listening yet): used by main.ts and by the tests, so both run the same stack.
 * `forceCloseConnections` (main.ts, after its HTTP drain: core/shutdown/graceful-shutdown.ts): the close cuts the
 * connections still open (a websocket whose client never answers the close) instead of waiting for them.
 */
export async function createApp(
  config: ResolvedConfig,
  logger: Logger,
  opts: { runJobs: boolean; forceCloseConnections?: boolean },
): Promise<NestExpressApplication> {
  const server = express();
  // action names are case-sensitive (design.md §2): userInfo exists, userinfo does not. Set before the router exists.
  server.set('case sensitive routing', true);
  server.disable('x-powered-by');
  if (config.trustProxy) server.set('trust proxy', 1);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, logger, opts), new ExpressAdapter(server), {
    logger: new PinoNestLogger(logger),
    bodyParser: false,
    forceCloseConnections: opts.forceCloseConnections ?? false,
  });
  app.use(requestLog(logger));
  // http_request_duration_seconds by action and envelope code, observed on the same 'finish' as the request log
  app.use(app.get(Metrics).httpMiddleware());
  // helmet's headers and the CSP on every answer: web app, API, docs, queue board, uploads (security-headers.ts)
  securityHeaders(app);
  // signed payment traffic is verified over its exact bytes: kept raw (express.json then leaves it alone)
  app.use(RAW_BODY_PATHS, express.raw({ type: () => true, limit: '64kb' }));
  // SMS: the fake gateways check the SDKs' signatures over the exact bytes; the providers' reports come in batches
  app.use(SMS_RAW_BODY_PATHS, express.raw({ type: () => true, limit: '2mb' }));
  app.use(express.json({ limit: '1mb' }));
  app.use(express.urlencoded({ extended: false, limit: '1mb' }));
  // every string of the query and body is checked before any guard, validation or query sees it (input-safety.ts)
  app.use(inputSafety);
  app.use('/uploads', express.static(config.uploadDir, { index: false, maxAge: '7d', immutable: true }));
  serveWeb(app, config.webDist);
  serveOpenApi(app);
  serveQueueBoard(app);
  // fail at start, not at the first request, when a route has no access rule
  app.get(RouteCatalogue).all();
  return app;
}

export async function createWorker(config: ResolvedConfig, logger: Logger) {
  return NestFactory.createApplicationContext(WorkerAppModule.forRoot(config, logger), { logger: new PinoNestLogger(logger) });
}
