import Button from 'antd/es/button';
import Result from 'antd/es/result';
import Spin from 'antd/es/spin';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { get, post } from '../../api/http';
import { destination } from '../../router/guard';
import { useSession } from '../../stores/session';
import { startWechatSignIn } from './wechat-sign-in';
import { wechatSignInStrings } from './wechat-strings';
import './login.css';

/**
 * Where the official account's authorisation comes back (issue 24): the code and state go to the API once. A bound
 * guardian is signed in and goes where the authorisation started; an openid no guardian has yet goes to the SMS-code
 * sign-in with its bind ticket, which binds it. A code WeChat never gave, or gave before, ends here with a way out.
 */
export default function WechatCallbackPage() {
  const s = wechatSignInStrings.use();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signIn = useSession((x) => x.signIn);
  const setUser = useSession((x) => x.setUser);
  const missing = !params.get('code') || !params.get('state');
  const [failure, setError] = useState<string | null>(null);
  const error = missing ? s('wx.failed') : failure;
  const once = useRef(false);

  useEffect(() => {
    if (once.current) return; // the code is spent by the first call (StrictMode mounts twice)
    once.current = true;
    const code = params.get('code');
    const state = params.get('state');
    if (!code || !state) return; // answered as a failure above, without a call
    void (async () => {
      try {
        const answer = await post('wechatOauth', { code, state }, { silent: true });
        if (answer.userinfo) {
          signIn({ userinfo: answer.userinfo }, true);
          const info = await get('userInfo');
          setUser(info);
          const to = destination(answer.redirect, info.role);
          if (to.server) window.location.assign(to.path);
          else navigate(to.path, { replace: true });
          return;
        }
        const q = new URLSearchParams({ wechat_ticket: answer.bind_ticket ?? '', redirect: answer.redirect });
        navigate(`/login?${q.toString()}`, { replace: true });
      } catch (err) {
        setError(err instanceof Error ? err.message : s('wx.failed'));
      }
    })();
  }, [params, navigate, signIn, setUser, s]);

  if (error) {
    return (
      <div className="login-page">
        <main className="login-card">
          <Result
            status="warning"
            title={s('wx.failed')}
            subTitle={error}
            extra={[
              <Button key="retry" type="primary" onClick={() => void startWechatSignIn(null)} data-testid="wx-retry">
                {s('wx.retry')}
              </Button>,
              <Button key="mobile" onClick={() => navigate('/login?wx=skip', { replace: true })}>
                {s('wx.use_mobile')}
              </Button>,
            ]}
          />
        </main>
      </div>
    );
  }
  return (
    <div className="login-page">
      <main className="login-card" role="status" style={{ textAlign: 'center', padding: 48 }}>
        <Spin />
        <p>{s('wx.authorizing')}</p>
      </main>
    </div>
  );
}
