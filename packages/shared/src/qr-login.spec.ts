import { describeUserAgent, qrPayload, ticketOfScan } from './qr-login';

const T = 'AbCdEfGhIjKlMnOpQrSt_-';

describe('qrPayload and ticketOfScan', () => {
  it('round-trips through the scan page address', () => {
    expect(qrPayload('https://school.example.cn/', T)).toBe(`https://school.example.cn/qr_scan?ticket=${T}`);
    expect(ticketOfScan(qrPayload('http://127.0.0.1:8080', T))).toBe(T);
  });

  it.each<[string, string | null]>([
    [T, T],
    [`  ${T}\n`, T],
    [`https://other.host/qr_scan?ticket=${T}`, T],
    [`https://a.cn/qr_scan?x=1&ticket=${T}`, T],
    [`https://a.cn/qr_scan?ticket=${T}x`, null],
    [`https://a.cn/qr_scan?ticket=short`, null],
    [`https://a.cn/qr_scan`, null],
    [`https://a.cn/other?ticket=${T}`, null],
    [`javascript:alert(1)//qr_scan?ticket=${T}`, null],
    [`ftp://a.cn/qr_scan?ticket=${T}`, null],
    [`${T}x`, null],
    ['WIFI:S:school;T:WPA;P:secret;;', null],
    ['', null],
  ])('%j → %j', (text, ticket) => expect(ticketOfScan(text)).toBe(ticket));
});

describe('describeUserAgent', () => {
  it.each<[string, string, string]>([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome 131', 'Windows'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
      'Edge 131',
      'Windows',
    ],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15', 'Safari 17', 'macOS'],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox 133', 'Linux'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36', 'Chrome 140', 'Linux'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.50(0x1800323c) NetType/WIFI Language/zh_CN',
      'WeChat 8',
      'iOS',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; V2244A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.193 Mobile Safari/537.36',
      'Chrome 120',
      'Android',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.25 Safari/537.36 Core/1.70.3877.400 QQBrowser/10.8.4506.400',
      'QQ Browser 10',
      'Windows',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
      'Chrome 126',
      'iOS',
    ],
    ['curl/8.5.0', '', ''],
    ['', '', ''],
  ])('%s', (ua, browser, os) => expect(describeUserAgent(ua)).toEqual({ browser, os }));
});
