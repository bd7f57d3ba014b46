/** The sandbox's keys (platform side included); null in production, where there is no sandbox. */
export const SANDBOX_KEYS = Symbol('wechatpay-sandbox-keys');
