import type { BrowserContext, Page } from 'playwright-core';
import { CONTEXT, type Stack } from './stack';

/** A mid-range phone's browser: 375 × 812 CSS px at 2×, touch, a phone's user agent (Safari on iOS, or WeChat's). */
export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
/** WeChat's in-app browser on the same phone (what the official account's pages and a chat's links open in). */
export const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.54(0x1800362c) NetType/4G Language/zh_CN';

export interface PhoneOptions {
  /** inside WeChat (its user agent) */
  wechat?: boolean;
  /** the context's own options over the phone's (e.g. serviceWorkers) */
  extra?: Parameters<Stack['browser']['newContext']>[0];
}

/** A new phone context (375 px, touch, a phone's user agent; Chinese, reduced motion as every journey's). */
export async function phoneContext(stack: Stack, opts: PhoneOptions = {}): Promise<BrowserContext> {
  return stack.browser.newContext({
    ...CONTEXT,
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    userAgent: opts.wechat ? WECHAT_UA : IPHONE_UA,
    ...opts.extra,
  });
}

/**
 * A phone signed in as `account` (the demo password) through the sign-in page, sent on to `path` (a phone route, /m/…)
 * as a user following a link while signed out would be; answers once the phone page has its tab bar or content.
 */
export async function signedInPhone(stack: Stack, account: string, path: string, opts: PhoneOptions = {}): Promise<Page> {
  const context = await phoneContext(stack, opts);
  const page = await context.newPage();
  await page.goto(`${stack.url}/login?redirect=${encodeURIComponent(path)}`);
  await page.getByPlaceholder('用户名 / 手机号 / 邮箱').fill(account);
  await page.getByPlaceholder('密码', { exact: true }).fill('Demo@2026');
  await page.locator('form button[type=submit]').tap();
  await page.waitForURL((u) => u.pathname.startsWith('/m'));
  await page.locator('.m-top').first().waitFor();
  return page;
}

/**
 * Checks the phone page as a user's thumb would: nothing wider than the screen (no sideways scroll), and every visible
 * button, link, tab and list row at least 44 px high (answers the ones that are not, with their text).
 */
export async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const bad: string[] = [];
    const seen = document.querySelectorAll('button, a[href], [role=button], .adm-tab-bar-item, .adm-list-item-content');
    for (const el of seen) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      // an inline link inside a paragraph of text is sized by the text (WCAG's inline exception)
      if (el.tagName === 'A' && getComputedStyle(el).display === 'inline') continue;
      if (r.height < 44 - 0.5) bad.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 20)}" ${Math.round(r.height)}px`);
    }
    if (document.documentElement.scrollWidth > window.innerWidth + 1) bad.push(`page ${document.documentElement.scrollWidth}px wide`);
    return bad;
  });
}
