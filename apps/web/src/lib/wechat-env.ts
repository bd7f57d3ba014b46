import type { PayChannel } from '@wantuo/shared';

/** Inside WeChat's own browser (the official account's pages, a chat's link): its user agent says MicroMessenger. */
export const inWechat = (ua: string): boolean => /MicroMessenger/i.test(ua);

/** A phone or tablet browser (not a desktop): where a QR on the screen cannot be scanned by the same device. */
export const onPhone = (ua: string): boolean => /Android|iPhone|iPad|iPod|Mobile|HarmonyOS|OpenHarmony|Windows Phone/i.test(ua);

/**
 * How a WeChat payment is made where the page runs (design.md §5b): JSAPI inside WeChat, H5 in another phone browser,
 * the Native QR on a desktop. A kind without phone channels (a school's top-up, renewal, mall, courseware) is always
 * the QR.
 */
export function choosePayChannel(ua: string, phoneChannels: boolean): PayChannel {
  if (!phoneChannels) return 'native';
  if (inWechat(ua)) return 'jsapi';
  if (onPhone(ua)) return 'h5';
  return 'native';
}

/** The browser's user agent ('' outside one). */
export const userAgent = (): string => (typeof navigator === 'undefined' ? '' : navigator.userAgent);
