import type { AppConfig } from './config';
import type { GatewayEndpoint } from './sms-config';

/**
 * The one rule for reaching the API's local sandboxes and fakes (the WeChat Pay sandbox, the official account's
 * sandbox, the SMS fake gateways): the API serves them itself, so a process with an HTTP server uses its own listening
 * address, and a process without one (the worker) uses the API's, `config.apiInternalUrl` (API_INTERNAL_URL, default
 * http://127.0.0.1:PORT). An explicit WECHATPAY_BASE_URL / WECHATPAY_NOTIFY_URL / WECHAT_OA_API_URL /
 * SMS_<PROVIDER>_ENDPOINT still wins; real providers (a merchant, an account, a gateway's account) are left alone.
 */
export function withApiAddress(config: AppConfig): AppConfig {
  const api = config.apiInternalUrl;
  const { protocol, host } = new URL(api);
  const fake = (provider: 'aliyun' | 'tencent'): GatewayEndpoint => ({
    protocol: protocol === 'https:' ? 'https' : 'http',
    host: `${host}/api/dev/sms/${provider}`,
  });
  const sms = config.sms;
  return {
    ...config,
    wechatpaySandboxUrl: config.wechatpay ? config.wechatpaySandboxUrl : (config.wechatpaySandboxUrl ?? `${api}/api/dev/wechatpay/`),
    wechatpayNotifyUrl: config.wechatpay ? config.wechatpayNotifyUrl : (config.wechatpayNotifyUrl ?? `${api}/api/pay/wechat/notify`),
    wechatOaSandboxApiUrl: config.wechatOa ? config.wechatOaSandboxApiUrl : (config.wechatOaSandboxApiUrl ?? `${api}/api/dev/wechat/`),
    sms: sms.fakes
      ? { ...sms, endpoints: { aliyun: sms.endpoints.aliyun ?? fake('aliyun'), tencent: sms.endpoints.tencent ?? fake('tencent') } }
      : sms,
  };
}
