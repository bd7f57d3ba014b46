/** The sandbox's authorisation page (网页授权): pick a WeChat user already seen or type one, follow or not, 同意. */

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page's own policy: no script at all; its form may go back here, and the confirm redirects to the app's callback. */
export const AUTHORIZE_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; base-uri 'none'; frame-ancestors 'none'";

export interface AuthorizeRequest {
  appid: string;
  redirect_uri: string;
  response_type: 'code';
  scope: string;
  state: string;
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 -apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#ededed;color:#191919}
main{max-width:480px;margin:0 auto;padding:24px 16px}header{text-align:center;margin-bottom:20px}
.logo{width:56px;height:56px;border-radius:12px;background:#07c160;color:#fff;font-size:28px;line-height:56px;margin:0 auto 8px}
h1{font-size:18px;margin:0}.sub{color:#888;font-size:13px;margin:4px 0 0}section{background:#fff;border-radius:8px;padding:14px 16px;margin-bottom:12px}
h2{font-size:14px;color:#888;font-weight:normal;margin:0 0 8px}.users{display:flex;flex-wrap:wrap;gap:8px}
.users button{border:1px solid #d9d9d9;background:#f7f7f7;border-radius:16px;padding:4px 12px;font-size:14px;min-height:32px}
label{display:block}input[type=text]{width:100%;font-size:16px;padding:10px;border:1px solid #d9d9d9;border-radius:6px;margin-top:6px}
.follow{display:flex;align-items:center;gap:8px;min-height:44px}.follow input{width:20px;height:20px}
.consent{display:block;width:100%;min-height:46px;border:0;border-radius:8px;background:#07c160;color:#fff;font-size:17px;margin-top:8px}
.err{color:#fa5151;font-size:14px;margin:8px 0 0}.note{color:#999;font-size:12px;text-align:center;margin-top:16px}`;

/** The page; `users`: the names already seen with this app id (newest first); `error`: why the last try was refused. */
export function authorizePage(req: AuthorizeRequest, users: string[], error?: string): string {
  const hidden = (Object.keys(req) as (keyof AuthorizeRequest)[]).map((k) => `<input type="hidden" name="${k}" value="${esc(req[k])}">`).join('');
  const seen = users.length
    ? `<section><h2>选择微信用户</h2><div class="users">${users
        .map((u) => `<button type="submit" name="pick" value="${esc(u)}" data-testid="wx-pick">${esc(u)}</button>`)
        .join('')}</div></section>`
    : '';
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>微信授权（沙箱）</title><style>${STYLE}</style></head>
<body><main>
<header><div class="logo">微</div><h1>微信网页授权（本地沙箱）</h1><p class="sub">公众号 ${esc(req.appid)} 申请获取你的身份标识（openid）</p></header>
<form method="post" action="authorize/confirm">${hidden}
${seen}
<section><label>或输入一个新的微信用户名<input type="text" name="name" maxlength="20" autocomplete="off" placeholder="例如：张三妈妈" data-testid="wx-user"></label>
${error ? `<p class="err" role="alert">${esc(error)}</p>` : ''}</section>
<section><label class="follow"><input type="checkbox" name="follow" value="1" checked data-testid="wx-follow">关注公众号（接收消息通知）</label></section>
<button type="submit" class="consent" data-testid="wx-consent">同意</button>
</form>
<p class="note">这是开发用的微信沙箱，不会连接真实的微信。</p>
</main></body></html>`;
}

/** The refusal WeChat shows for a bad authorisation request. */
export function authorizeErrorPage(message: string): string {
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>微信授权（沙箱）</title><style>${STYLE}</style></head>
<body><main><header><div class="logo">微</div><h1>授权请求有误</h1></header>
<section><p class="err" role="alert" data-testid="wx-error">${esc(message)}</p></section></main></body></html>`;
}
