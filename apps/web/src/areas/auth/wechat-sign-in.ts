import { get } from '../../api/http';
import { inWechat } from '../../lib/wechat-env';

/** The page WeChat sends the guardian back to with the code (must be a path of this site: the API checks it). */
export const WECHAT_CALLBACK_PATH = '/wechat/callback';

/**
 * Whether the sign-in page should go through the official account's authorisation first: inside WeChat, not on its
 * way back from one (a bind ticket, or the guardian chose the mobile sign-in: `wx=skip`).
 */
export function shouldAuthorize(ua: string, params: URLSearchParams): boolean {
  return inWechat(ua) && !params.has('wechat_ticket') && params.get('wx') !== 'skip';
}

/** Starts the authorisation: asks the API for the official account's page (a one-use state) and goes there. */
export async function startWechatSignIn(redirect: string | null): Promise<void> {
  const { url } = await get('wechatAuthorize', {
    redirect: redirect && redirect.startsWith('/') && !redirect.startsWith('//') ? redirect : '/',
    callback: `${window.location.origin}${WECHAT_CALLBACK_PATH}`,
  });
  window.location.assign(url);
}
