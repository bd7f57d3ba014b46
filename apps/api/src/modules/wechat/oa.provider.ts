import type { Provider } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { loadSandboxOaAccount, type SandboxOaAccount } from '../../core/config/wechat-config';
import { REDIS } from '../../core/redis/redis.provider';
import { WechatOa } from './oa-client';

/** The official account in use: the configured one, or the sandbox's (DATA_DIR/wechat-sandbox/account.json). */
export const OA_ACCOUNT = Symbol('OA_ACCOUNT');
export type OaAccount = SandboxOaAccount & { sandbox: boolean };

/** This process's own address, for the sandbox: known once the HTTP server listens. */
function selfUrl(host: HttpAdapterHost): string {
  const server = host.httpAdapter?.getHttpServer() as { address(): { port: number } | string | null } | undefined;
  const addr = server?.address();
  if (!addr || typeof addr === 'string') throw new Error('the WeChat sandbox needs WECHAT_OA_API_URL in a process without an HTTP server');
  return `http://127.0.0.1:${addr.port}`;
}

export const wechatOaProviders: Provider[] = [
  {
    provide: OA_ACCOUNT,
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig): OaAccount =>
      config.wechatOa
        ? { appid: config.wechatOa.appid, secret: config.wechatOa.secret, token: config.wechatOa.token, sandbox: false }
        : { ...loadSandboxOaAccount(config.dataDir, config.wechatpay?.appid), sandbox: true },
  },
  {
    provide: WechatOa,
    inject: [APP_CONFIG, OA_ACCOUNT, REDIS, HttpAdapterHost],
    useFactory: (config: AppConfig, account: OaAccount, redis: Redis | null, host: HttpAdapterHost) =>
      new WechatOa({
        ...account,
        // the sandbox: the API is this process (or WECHAT_OA_API_URL: a worker); browsers go to the page's own origin
        apiUrl: () => config.wechatOa?.apiUrl ?? config.wechatOaSandboxApiUrl ?? `${selfUrl(host)}/api/dev/wechat/`,
        openUrl: () => config.wechatOa?.openUrl ?? config.wechatOaSandboxOpenUrl ?? '/api/dev/wechat/',
        redis,
        keyPrefix: config.queuePrefix,
      }),
  },
];
