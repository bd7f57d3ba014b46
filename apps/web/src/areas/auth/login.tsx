import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Divider from 'antd/es/divider';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import Segmented from 'antd/es/segmented';
import { MOBILE_RE, Role, type LoginResult } from '@wantuo/shared';
import { lazy, Suspense, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { get, post } from '../../api/http';
import { feedback } from '../../api/feedback';
import { LANGS, type MessageKey } from '../../i18n/messages';
import { onPhone, userAgent } from '../../lib/wechat-env';
import { destination } from '../../router/guard';
import { PHONE_POLICY_PATHS, POLICY_PATHS, policyLinkStrings } from '../privacy/links';
import { usePageConfig } from '../../stores/page-config';
import { usePreferences, useT } from '../../stores/preferences';
import { useSession } from '../../stores/session';
import { SmsCodeButton } from './sms-code-button';
import { wechatSignInStrings } from './wechat-strings';
import './login.css';

const ForgotPassword = lazy(() => import('./forgot-password'));
const ApplyAccount = lazy(() => import('./apply-account'));
const QrLogin = lazy(() => import('./qr-login'));

type Mode = 'login' | 'forgot' | 'apply' | 'qr';
type Tab = 'account' | 'sms';
type Fields = { account: string; password: string; mobile: string; code: string };
type Errors = Partial<Record<keyof Fields, MessageKey>>;

/** The spec's sign-in validation (§5): required fields, and a mobile number that is one. */
export function validateLogin(tab: Tab, v: Fields): Errors {
  const e: Errors = {};
  if (tab === 'account') {
    if (!v.account.trim()) e.account = 'login.account_required';
    if (!v.password) e.password = 'login.password_required';
  } else {
    if (!v.mobile.trim()) e.mobile = 'login.mobile_required';
    else if (!MOBILE_RE.test(v.mobile.trim())) e.mobile = 'login.mobile_invalid';
    if (!v.code.trim()) e.code = 'login.code_required';
  }
  return e;
}

/** A field with its error under it, laid out like antd's form items (the sign-in page loads no Form code). */
function Field({ error, children }: { error?: string; children: ReactNode }) {
  return (
    <div className="login-field">
      {children}
      <div className="login-error" role={error ? 'alert' : undefined}>
        {error}
      </div>
    </div>
  );
}

export default function LoginPage() {
  const t = useT();
  const { lang, setLang } = usePreferences();
  const signIn = useSession((s) => s.signIn);
  const setUser = useSession((s) => s.setUser);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const siteName = usePageConfig((s) => s.config?.site_name) ?? t('app.name');
  const wx = wechatSignInStrings.use();
  const pl = policyLinkStrings.use();
  // back from the official account with an openid no guardian has yet: one SMS-code sign-in binds it (issue 24)
  const wechatTicket = params.get('wechat_ticket');
  const [tab, setTab] = useState<Tab>(wechatTicket ? 'sms' : 'account');
  // inside WeChat the official account's authorisation comes first (loaded only there)
  const [authorizing, setAuthorizing] = useState(() => /MicroMessenger/i.test(navigator.userAgent) && !wechatTicket && params.get('wx') !== 'skip');
  useEffect(() => {
    if (!authorizing) return;
    void import('./wechat-sign-in').then((m) => m.startWechatSignIn(params.get('redirect'))).catch(() => setAuthorizing(false));
  }, [authorizing, params]);
  const [mode, setMode] = useState<Mode>('login');
  const [busy, setBusy] = useState(false);
  const [remember, setRemember] = useState(false);
  const [values, setValues] = useState<Fields>({ account: '', password: '', mobile: '', code: '' });
  const [errors, setErrors] = useState<Errors>({});

  const set = (name: keyof Fields) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [name]: e.target.value }));
    setErrors((x) => ({ ...x, [name]: undefined }));
  };
  const err = (name: keyof Fields) => (errors[name] ? t(errors[name]!) : undefined);

  /** After any sign-in (password, SMS code, or the QR code a phone confirmed): keep the session, go where the role lands. */
  const finish = async (result: LoginResult) => {
    signIn(result, remember || Boolean(wechatTicket));
    const info = await get('userInfo');
    setUser(info);
    if (wechatTicket) await bindWechat(wechatTicket, info.role);
    feedback().message.success(t('login.welcome', { name: info.nickname }));
    const to = destination(params.get('redirect'), info.role);
    if (to.server) window.location.assign(to.path);
    else navigate(to.path, { replace: true });
  };

  /** The one SMS-code sign-in after the authorisation binds the openid to this guardian (staff are never bound). */
  const bindWechat = async (ticket: string, role: Role) => {
    if (role !== Role.Parent) {
      feedback().message.info(wx('wx.staff_not_bound'));
      return;
    }
    try {
      await post('wechatBind', { ticket }, { silent: true });
      feedback().message.success(wx('wx.bound'));
    } catch {
      feedback().message.info(wx('wx.bind_failed'));
    }
  };

  const submit = async () => {
    const found = validateLogin(tab, values);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const result =
        tab === 'account'
          ? await post('login', { account: values.account.trim(), password: values.password, remember })
          : await post('mobilelogin', { mobile: values.mobile.trim(), code: values.code.trim(), remember });
      await finish(result);
    } catch {
      // the request wrapper has shown why
    } finally {
      setBusy(false);
    }
  };
  // the click guard of every write button (lib/click-guard.ts) locks the submit button once the login is sent
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit();
  };

  const row = (
    <div className="login-row">
      <Checkbox checked={remember} onChange={(e) => setRemember(e.target.checked)}>
        {t('login.remember')}
      </Checkbox>
      <Button type="link" size="small" onClick={() => setMode('forgot')} style={{ padding: 0 }}>
        {t('login.forgot')}
      </Button>
    </div>
  );

  return (
    <div className="login-page">
      <nav className="login-lang" aria-label={t('settings.language')}>
        {LANGS.map((l) => (
          <button key={l.value} type="button" aria-pressed={l.value === lang} onClick={() => setLang(l.value)}>
            {l.label}
          </button>
        ))}
      </nav>
      <main className="login-card">
        <div className="login-head">
          <h1>{siteName}</h1>
          <p>{t('login.subtitle')}</p>
        </div>
        {authorizing && (
          <div className="login-wechat" role="status">
            <p>{wx('wx.authorizing')}</p>
            <Button type="link" onClick={() => setAuthorizing(false)}>
              {wx('wx.use_mobile')}
            </Button>
          </div>
        )}
        {mode === 'login' && !authorizing && (
          <>
            {wechatTicket && (
              <div className="login-notice" role="note" data-testid="wechat-bind-hint">
                <strong>{wx('wx.bind_title')}</strong>
                <p>{wx('wx.bind_hint')}</p>
              </div>
            )}
            <Segmented
              block
              value={tab}
              onChange={(k) => {
                setTab(k as Tab);
                setErrors({});
              }}
              options={[
                { value: 'account', label: t('login.tab_account') },
                { value: 'sms', label: t('login.tab_sms') },
              ]}
              style={{ marginBottom: 20 }}
            />
            <form onSubmit={onSubmit} noValidate>
              {tab === 'account' ? (
                <>
                  <Field error={err('account')}>
                    <Input
                      size="large"
                      placeholder={t('login.account')}
                      autoComplete="username"
                      maxLength={64}
                      value={values.account}
                      onChange={set('account')}
                      status={errors.account && 'error'}
                    />
                  </Field>
                  <Field error={err('password')}>
                    <Password
                      size="large"
                      placeholder={t('login.password')}
                      autoComplete="current-password"
                      maxLength={128}
                      value={values.password}
                      onChange={set('password')}
                      status={errors.password && 'error'}
                    />
                  </Field>
                </>
              ) : (
                <>
                  <Field error={err('mobile')}>
                    <Input
                      size="large"
                      placeholder={t('login.mobile')}
                      inputMode="tel"
                      autoComplete="tel"
                      maxLength={11}
                      value={values.mobile}
                      onChange={set('mobile')}
                      status={errors.mobile && 'error'}
                    />
                  </Field>
                  <Field error={err('code')}>
                    <div className="login-code">
                      <Input
                        size="large"
                        placeholder={t('login.code')}
                        inputMode="numeric"
                        autoComplete="one-time-code"
                        maxLength={6}
                        value={values.code}
                        onChange={set('code')}
                        status={errors.code && 'error'}
                      />
                      <SmsCodeButton
                        event="login"
                        getMobile={async () => {
                          const found = validateLogin('sms', { ...values, code: 'x' });
                          setErrors((x) => ({ ...x, mobile: found.mobile }));
                          return found.mobile ? null : values.mobile.trim();
                        }}
                      />
                    </div>
                  </Field>
                </>
              )}
              {row}
              <Button type="primary" htmlType="submit" size="large" block loading={busy}>
                {t('login.submit')}
              </Button>
            </form>
            <Divider plain>
              <span className="login-muted">{t('login.other')}</span>
            </Divider>
            <div className="login-other">
              <Button onClick={() => setMode('qr')}>{t('login.qr')}</Button>
              <Button type="link" onClick={() => setMode('apply')}>
                {t('login.apply')}
              </Button>
            </div>
          </>
        )}
        <Suspense fallback={null}>
          {mode === 'forgot' && <ForgotPassword onDone={() => setMode('login')} />}
          {mode === 'apply' && <ApplyAccount onDone={() => setMode('login')} />}
          {mode === 'qr' && <QrLogin remember={remember} onDone={() => setMode('login')} onSignedIn={finish} />}
        </Suspense>
        {/* the documents a guardian accepts (issue 37), readable before signing in: the phone app's pages on a phone */}
        <p className="login-policies">
          {(['privacy', 'children'] as const).map((kind) => (
            <a key={kind} href={(onPhone(userAgent()) ? PHONE_POLICY_PATHS : POLICY_PATHS)[kind]} target="_blank" rel="noopener noreferrer">
              {pl(`link.${kind}`)}
            </a>
          ))}
        </p>
      </main>
    </div>
  );
}
