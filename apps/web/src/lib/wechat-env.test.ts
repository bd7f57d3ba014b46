import { describe, expect, it } from 'vitest';
import { choosePayChannel, inWechat, onPhone } from './wechat-env';

const UA = {
  wechatAndroid:
    'Mozilla/5.0 (Linux; Android 13; V2183A Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MMWEBID/2247 MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64',
  wechatIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN',
  wechatWindows:
    'Mozilla/5.0 (Windows NT 10.0; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/81.0.4044.138 Safari/537.36 NetType/WIFI MicroMessenger/7.0.20.1781(0x6700143B) WindowsWechat(0x6309092b) XWEB/9129 Flue',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  huawei:
    'Mozilla/5.0 (Phone; OpenHarmony 4.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile HuaweiBrowser/5.0',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  chromeDesktop: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15',
  headlessChromium: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
  empty: '',
};

describe('where the page runs, and how a parent pays there', () => {
  it.each([
    // ua, inWechat, onPhone, channel (phone channels offered), channel (not offered)
    ['wechatAndroid', true, true, 'jsapi', 'native'],
    ['wechatIphone', true, true, 'jsapi', 'native'],
    ['wechatWindows', true, false, 'jsapi', 'native'],
    ['safariIphone', false, true, 'h5', 'native'],
    ['chromeAndroid', false, true, 'h5', 'native'],
    ['huawei', false, true, 'h5', 'native'],
    ['ipad', false, true, 'h5', 'native'],
    ['chromeDesktop', false, false, 'native', 'native'],
    ['safariMac', false, false, 'native', 'native'],
    ['headlessChromium', false, false, 'native', 'native'],
    ['empty', false, false, 'native', 'native'],
  ] as const)('%s', (name, wechat, phone, offered, notOffered) => {
    const ua = UA[name];
    expect(inWechat(ua)).toBe(wechat);
    expect(onPhone(ua)).toBe(phone);
    expect(choosePayChannel(ua, true)).toBe(offered);
    expect(choosePayChannel(ua, false)).toBe(notOffered);
  });
});
