import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * A fake weixin-js-sdk that behaves as 1.6.5 does: wx.config's verdict comes later; on a refusal the wx.error handler
 * runs first, then the ready callbacks (the SDK runs them either way); once a config has finished, ready runs at once.
 */
const fake = vi.hoisted(() => {
  type Cb = { success?(r: unknown): void; fail?(r: unknown): void; cancel?(r: unknown): void } & Record<string, unknown>;
  const s = {
    configs: [] as Array<Record<string, unknown>>,
    finished: false,
    readyQueue: [] as Array<() => void>,
    errorFns: [] as Array<(r: { errMsg: string }) => void>,
    scans: [] as Cb[],
    shares: [] as Array<{ api: string; args: Cb }>,
    /** how the next scan ends */
    scan: { kind: 'ok', text: 'PK-1' } as { kind: 'ok' | 'cancel' | 'fail'; text?: string; errMsg?: string },
    shareFails: new Set<string>(),
  };
  const wx = {
    config: (c: Record<string, unknown>) => s.configs.push(c),
    ready: (fn: () => void) => (s.finished ? fn() : s.readyQueue.push(fn)),
    error: (fn: (r: { errMsg: string }) => void) => s.errorFns.push(fn),
    scanQRCode: (p: Cb) => {
      s.scans.push(p);
      setTimeout(() => {
        if (s.scan.kind === 'ok') p.success?.({ errMsg: 'scanQRCode:ok', resultStr: s.scan.text });
        else if (s.scan.kind === 'cancel') p.cancel?.({ errMsg: 'scanQRCode:cancel' });
        else p.fail?.({ errMsg: s.scan.errMsg ?? 'scanQRCode:fail' });
      });
    },
    updateAppMessageShareData: (p: Cb) => share('updateAppMessageShareData', p),
    updateTimelineShareData: (p: Cb) => share('updateTimelineShareData', p),
  };
  function share(api: string, p: Cb) {
    s.shares.push({ api, args: p });
    setTimeout(() => (s.shareFails.has(api) ? p.fail?.({ errMsg: `${api}:permission denied` }) : p.success?.({ errMsg: `${api}:ok` })));
  }
  /** WeChat's answer to the latest config */
  function verdict(ok: boolean) {
    if (!ok) for (const fn of s.errorFns) fn({ errMsg: 'config:invalid signature' });
    s.finished = true;
    const q = s.readyQueue.splice(0);
    for (const fn of q) fn();
  }
  function reset() {
    s.configs = [];
    s.finished = false;
    s.readyQueue = [];
    s.errorFns = [];
    s.scans = [];
    s.shares = [];
    s.scan = { kind: 'ok', text: 'PK-1' };
    s.shareFails = new Set();
  }
  return { s, wx, verdict, reset, get: vi.fn() };
});

vi.mock('weixin-js-sdk', () => ({ default: fake.wx }));
vi.mock('../../api/http', () => ({ get: fake.get }));

import { CONFIG_TIMEOUT_MS, JS_API_LIST, resetWechatJs, signedUrl, wechatJs, wechatScan, wechatShare } from './jssdk';

const ANDROID_WX =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0 Mobile Safari/537.36 MicroMessenger/8.0.54.2660(0x28003637) NetType/WIFI Language/zh_CN';
const IOS_WX =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.54(0x1800362c) NetType/4G Language/zh_CN';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

const answer = { appId: 'wx0123456789abcdef', timestamp: 1767225600, nonceStr: 'Wm3WZYTPz0wzccnW', signature: 'a'.repeat(40) };
/** lets the pending promises and the fake's timers run */
const flush = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
};

beforeEach(() => {
  fake.reset();
  resetWechatJs();
  fake.get.mockReset();
  fake.get.mockResolvedValue(answer);
  history.replaceState(null, '', '/m/teacher_pickup?class=3');
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** a scan started, the config answered by WeChat, then the scan's own result */
async function scanWith(ok: boolean, ua = ANDROID_WX): Promise<string | null> {
  const scanned = wechatScan(ua);
  await flush();
  if (!fake.s.finished || fake.s.readyQueue.length) fake.verdict(ok);
  return scanned;
}

describe('outside WeChat', () => {
  it('answers null and false without loading the SDK or asking the API', async () => {
    expect(await wechatScan(SAFARI)).toBeNull();
    expect(await wechatShare({ title: 't', desc: 'd', link: 'http://localhost:3000/m/parent' }, SAFARI)).toBe(false);
    expect(fake.get).not.toHaveBeenCalled();
    expect(fake.s.configs).toEqual([]);
  });
});

describe('wx.config', () => {
  it('signs the page URL without its #fragment and configures once per URL', async () => {
    history.replaceState(null, '', '/m/teacher_pickup?class=3#top');
    expect(await scanWith(true)).toBe('PK-1');
    expect(fake.get).toHaveBeenCalledWith('wechatJsConfig', { url: 'http://localhost:3000/m/teacher_pickup?class=3' }, { silent: true });
    expect(fake.s.configs).toEqual([{ ...answer, jsApiList: JS_API_LIST }]);
    expect(JS_API_LIST).toEqual(['scanQRCode', 'updateAppMessageShareData', 'updateTimelineShareData']);
    // the same page again (another #fragment too): no new config
    location.hash = '#other';
    fake.s.scan = { kind: 'ok', text: 'PK-2' };
    expect(await wechatScan(ANDROID_WX)).toBe('PK-2');
    expect(await wechatShare({ title: 't', desc: 'd', link: 'http://localhost:3000/m/parent' }, ANDROID_WX)).toBe(true);
    expect(fake.get).toHaveBeenCalledTimes(1);
    expect(fake.s.configs).toHaveLength(1);
    // a route change (Android signs the current URL): configured again for it
    history.pushState(null, '', '/m/teacher_today');
    expect(await wechatScan(ANDROID_WX)).toBe('PK-2');
    expect(fake.get).toHaveBeenLastCalledWith('wechatJsConfig', { url: 'http://localhost:3000/m/teacher_today' }, { silent: true });
    expect(fake.s.configs).toHaveLength(2);
    // back to the first page: WeChat holds the second one's, so again
    history.back();
    await new Promise((r) => setTimeout(r, 20));
    await wechatScan(ANDROID_WX);
    expect(fake.s.configs).toHaveLength(3);
  });

  it('calls at the same time share one config', async () => {
    const both = Promise.all([wechatScan(ANDROID_WX), wechatScan(ANDROID_WX), wechatJs(ANDROID_WX)]);
    await flush();
    fake.verdict(true);
    const [a, b, wx] = await both;
    expect([a, b]).toEqual(['PK-1', 'PK-1']);
    expect(wx).toBe(fake.wx);
    expect(fake.get).toHaveBeenCalledTimes(1);
    expect(fake.s.configs).toHaveLength(1);
  });

  it('on iOS signs the URL the page was entered by, whatever pushState did since', async () => {
    vi.spyOn(performance, 'getEntriesByType').mockReturnValue([{ name: 'http://localhost:3000/m/teacher_today?from=menu#x' } as PerformanceEntry]);
    expect(signedUrl(IOS_WX)).toBe('http://localhost:3000/m/teacher_today?from=menu');
    expect(signedUrl(ANDROID_WX)).toBe('http://localhost:3000/m/teacher_pickup?class=3');
    expect(await scanWith(true, IOS_WX)).toBe('PK-1');
    history.pushState(null, '', '/m/teacher_pickup?class=4');
    expect(await wechatScan(IOS_WX)).toBe('PK-1');
    expect(fake.s.configs).toHaveLength(1);
    expect(fake.get).toHaveBeenCalledWith('wechatJsConfig', { url: 'http://localhost:3000/m/teacher_today?from=menu' }, { silent: true });
  });

  it('a refused config (wx.error) answers null, scans nothing, and the next call asks again', async () => {
    expect(await scanWith(false)).toBeNull();
    expect(fake.s.scans).toHaveLength(0);
    expect(await wechatShare({ title: 't', desc: 'd', link: 'http://localhost:3000/m/parent' }, ANDROID_WX)).toBe(true);
    expect(fake.get).toHaveBeenCalledTimes(2);
    expect(fake.s.configs).toHaveLength(2);
  });

  it('the API refusing the config answers null (wx.config never called)', async () => {
    fake.get.mockRejectedValue(new Error('微信暂不可用'));
    expect(await wechatScan(ANDROID_WX)).toBeNull();
    expect(fake.s.configs).toEqual([]);
  });

  it('no verdict in time (no bridge) answers null', async () => {
    vi.useFakeTimers();
    const scanned = wechatScan(ANDROID_WX);
    await vi.advanceTimersByTimeAsync(CONFIG_TIMEOUT_MS - 1);
    expect(fake.s.configs).toHaveLength(1);
    let settled = false;
    void scanned.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await scanned).toBeNull();
    expect(fake.s.scans).toHaveLength(0);
  });

  it('a re-config refused after the SDK already said ready is forgotten: the next call configures again', async () => {
    expect(await scanWith(true)).toBe('PK-1');
    history.pushState(null, '', '/m/teacher_today');
    // 1.6.5 runs ready at once for a second config; its refusal arrives afterwards
    expect(await wechatScan(ANDROID_WX)).toBe('PK-1');
    for (const fn of fake.s.errorFns) fn({ errMsg: 'config:invalid signature' });
    await wechatScan(ANDROID_WX);
    expect(fake.s.configs).toHaveLength(3);
  });
});

describe('wechatScan', () => {
  it('asks for the result of a QR code', async () => {
    expect(await scanWith(true)).toBe('PK-1');
    expect(fake.s.scans[0]).toMatchObject({ needResult: 1, scanType: ['qrCode'] });
  });

  it('the user cancelling answers null', async () => {
    fake.s.scan = { kind: 'cancel' };
    expect(await scanWith(true)).toBeNull();
  });

  it('permission denied answers null and configures again next time', async () => {
    fake.s.scan = { kind: 'fail', errMsg: 'scanQRCode:permission denied' };
    expect(await scanWith(true)).toBeNull();
    fake.s.scan = { kind: 'ok', text: 'PK-9' };
    expect(await wechatScan(ANDROID_WX)).toBe('PK-9');
    expect(fake.s.configs).toHaveLength(2);
  });
});

describe('wechatShare', () => {
  it('sets the card for friends and for Moments (the app icon by default)', async () => {
    const shared = wechatShare({ title: '接送码', desc: '陈小雨今天的接送码', link: 'http://localhost:3000/m/parent_pickup' }, ANDROID_WX);
    await flush();
    fake.verdict(true);
    expect(await shared).toBe(true);
    const byApi = Object.fromEntries(fake.s.shares.map((x) => [x.api, x.args]));
    expect(byApi.updateAppMessageShareData).toMatchObject({
      title: '接送码',
      desc: '陈小雨今天的接送码',
      link: 'http://localhost:3000/m/parent_pickup',
      imgUrl: 'http://localhost:3000/m-icon.svg',
    });
    expect(byApi.updateTimelineShareData).toMatchObject({ title: '接送码', link: 'http://localhost:3000/m/parent_pickup' });
    expect(byApi.updateTimelineShareData).not.toHaveProperty('desc');
  });

  it('answers false when either could not be set', async () => {
    fake.s.shareFails.add('updateTimelineShareData');
    const shared = wechatShare({ title: 't', desc: 'd', link: 'http://localhost:3000/m/parent', imgUrl: 'http://localhost:3000/a.png' }, ANDROID_WX);
    await flush();
    fake.verdict(true);
    expect(await shared).toBe(false);
  });
});
