import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { SMS_GATEWAYS, type SmsKind, type SmsProviderName } from '@wantuo/shared';
import { APP_CONFIG, type AppConfig } from '../../../core/config/config';
import type { GatewayEndpoint, SmsTemplates } from '../../../core/config/sms-config';
import { AliyunGateway } from './aliyun.gateway';
import type { SmsGateway } from './gateway';
import { OutboxGateway } from './outbox.gateway';
import { OutboxPhone } from './outbox-phone';
import { SANDBOX_ALIYUN, SANDBOX_TENCENT } from './sandbox-account';
import { TencentGateway } from './tencent.gateway';

/** This process's own address: the fake gateways are served by the API itself (outside production). */
function selfHost(host: HttpAdapterHost, path: string): GatewayEndpoint {
  const server = host.httpAdapter?.getHttpServer() as { address(): { port: number } | string | null } | undefined;
  const addr = server?.address();
  if (!addr || typeof addr === 'string')
    throw new Error(`the SMS fake gateway needs an HTTP server: set the gateway's endpoint in a worker (${path})`);
  return { protocol: 'http', host: `127.0.0.1:${addr.port}${path}` };
}

/**
 * The gateways this process can send through: the outbox always, Aliyun and Tencent with their accounts (outside
 * production, a gateway named by SMS_PROVIDER or SMS_FALLBACK_PROVIDER without one uses the local fake's sandbox
 * account at this process's /api/dev/sms/<provider>), and which template each kind has at each.
 */
@Injectable()
export class SmsGateways {
  private readonly byName = new Map<SmsProviderName, SmsGateway>();
  private readonly templates = new Map<SmsProviderName, SmsTemplates>();

  constructor(
    @Inject(APP_CONFIG) readonly config: AppConfig,
    host: HttpAdapterHost,
    phone: OutboxPhone,
  ) {
    const sms = config.sms;
    const used = new Set<SmsProviderName>([sms.provider, ...(sms.fallback ? [sms.fallback] : [])]);
    this.byName.set('outbox', new OutboxGateway(phone));
    const aliyun = sms.aliyun ?? (sms.fakes && used.has('aliyun') ? { ...SANDBOX_ALIYUN, endpoint: sms.endpoints.aliyun } : null);
    if (aliyun) {
      const at = aliyun.endpoint;
      this.byName.set('aliyun', new AliyunGateway(aliyun, () => at ?? selfHost(host, '/api/dev/sms/aliyun')));
      this.templates.set('aliyun', aliyun.templates);
    }
    const tencent =
      sms.tencent ?? (sms.fakes && used.has('tencent') ? { ...SANDBOX_TENCENT, region: 'ap-guangzhou', endpoint: sms.endpoints.tencent } : null);
    if (tencent) {
      const at = tencent.endpoint;
      this.byName.set('tencent', new TencentGateway(tencent, () => at ?? selfHost(host, '/api/dev/sms/tencent')));
      this.templates.set('tencent', tencent.templates);
    }
  }

  /** The provider new texts go to, and the one that takes what it refused. */
  get primary(): SmsProviderName {
    return this.config.sms.provider;
  }

  get fallback(): SmsProviderName | null {
    return this.config.sms.fallback;
  }

  get(name: SmsProviderName): SmsGateway | undefined {
    return this.byName.get(name);
  }

  /** Gateways with receipts to poll (not the outbox). */
  receiptGateways(): SmsGateway[] {
    return SMS_GATEWAYS.map((n) => this.byName.get(n)).filter((g): g is SmsGateway => !!g);
  }

  /** A kind's approved template at a provider; the outbox needs none (the kind itself); undefined: none configured. */
  templateOf(provider: SmsProviderName, kind: SmsKind): string | undefined {
    return provider === 'outbox' ? kind : this.templates.get(provider)?.[kind];
  }

  /** Each gateway in use with its templates (the operator's console: which kinds have none). */
  configured(): Array<{ provider: SmsProviderName; templates: SmsTemplates }> {
    return [...this.templates.entries()].map(([provider, templates]) => ({ provider, templates }));
  }
}
