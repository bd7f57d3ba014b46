import { Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { DealPasswordService } from './deal-password.service';
import { NotifyController } from './notify.controller';
import { PaymentKinds } from './payment-kinds';
import { PaymentsMerchantsRepository } from './payments-merchants.repository';
import { PaymentsReconciliationRepository } from './payments-reconciliation.repository';
import { PaymentsRefundsRepository } from './payments-refunds.repository';
import { PaymentsRepository } from './payments.repository';
import { PaymentsService } from './payments.service';
import { PaymentProvider } from './provider';
import { PaymentRefunders } from './refunders';
import { RefundsService } from './refunds.service';
import { ReconciliationService } from './reconciliation/reconciliation.service';
import { PaymentSettlers } from './settlers';
import { SubMerchantsService } from './sub-merchants.service';
import { loadSandboxKeys, type SandboxKeys } from './wechatpay/credentials';
import { WechatPayProvider } from './wechatpay/wechatpay.provider';
import { SANDBOX_KEYS } from './wechatpay/wechatpay.tokens';

/** This process's own address, for the sandbox: known once the HTTP server listens. */
function selfUrl(host: HttpAdapterHost): string {
  const server = host.httpAdapter?.getHttpServer() as { address(): { port: number } | string | null } | undefined;
  const addr = server?.address();
  if (!addr || typeof addr === 'string') throw new Error('the WeChat Pay sandbox needs WECHATPAY_BASE_URL in a process without an HTTP server');
  return `http://127.0.0.1:${addr.port}`;
}

/** The money core's services, provided here and to every module that takes money. */
const SERVICES = [
  DealPasswordService,
  PaymentSettlers,
  PaymentRefunders,
  PaymentKinds,
  PaymentsService,
  RefundsService,
  SubMerchantsService,
  ReconciliationService,
];

/**
 * The money core (design.md §5a): the ledger, the payment password, provider payments with their notify, the
 * `payments.check` job, refunds and the settlers and refunders registries, used by every module that takes money.
 */
@Module({
  controllers: [NotifyController],
  providers: [
    PaymentsRepository,
    PaymentsMerchantsRepository,
    PaymentsRefundsRepository,
    PaymentsReconciliationRepository,
    ...SERVICES,
    {
      provide: SANDBOX_KEYS,
      inject: [APP_CONFIG],
      // the sandbox pays for the official account's appid when one is configured (the guardians are bound under it)
      useFactory: (config: AppConfig): SandboxKeys | null => (config.wechatpay ? null : loadSandboxKeys(config.dataDir, config.wechatOa?.appid)),
    },
    {
      provide: PaymentProvider,
      inject: [APP_CONFIG, SANDBOX_KEYS, HttpAdapterHost],
      useFactory: (config: AppConfig, sandbox: SandboxKeys | null, host: HttpAdapterHost) => {
        const wp = config.wechatpay;
        return new WechatPayProvider(
          wp ?? sandbox!,
          () => wp?.baseUrl ?? config.wechatpaySandboxUrl ?? `${selfUrl(host)}/api/dev/wechatpay/`,
          () => wp?.notifyUrl ?? config.wechatpayNotifyUrl ?? `${selfUrl(host)}/api/pay/wechat/notify`,
        );
      },
    },
  ],
  exports: [...SERVICES, PaymentProvider, SANDBOX_KEYS],
})
export class PaymentsModule {}
