import { Button, Card, Checkbox, Divider, Form, Input, Select, Space, Tabs, Typography } from 'antd';
import { MOBILE_RE, type LoginResult, type UserInfo } from '@wantuo/shared';
import { lazy, Suspense, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { get, post } from '../../api/http';
import { feedback } from '../../api/feedback';
import { LANGS } from '../../i18n/messages';
import { useClickGuard } from '../../lib/click-guard';
import { mayEnter } from '../../router/guard';
import { HOME_OF, ROUTES } from '../../router/route-table';
import { usePageConfig } from '../../stores/page-config';
import { usePreferences, useT } from '../../stores/preferences';
import { useSession } from '../../stores/session';
import { SmsCodeButton } from './sms-code-button';
import './login.css';

const ForgotPassword = lazy(() => import('./forgot-password'));
const ApplyAccount = lazy(() => import('./apply-account'));
const QrLogin = lazy(() => import('./qr-login'));

type Mode = 'login' | 'forgot' | 'apply' | 'qr';

/** Where to go after sign-in: back to where the visitor was going if the role may go there, else the role's home. */
function destination(redirect: string | null, role: UserInfo['role']): string {
  if (redirect && redirect.startsWith('/') && !redirect.startsWith('//')) {
    const path = redirect.split('?')[0];
    const def = ROUTES.find((r) => r.path === path);
    if (def && mayEnter(def.area, role)) return redirect;
  }
  return HOME_OF[role];
}

export default function LoginPage() {
  const t = useT();
  const { lang, setLang } = usePreferences();
  const signIn = useSession((s) => s.signIn);
  const setUser = useSession((s) => s.setUser);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const siteName = usePageConfig((s) => s.config?.site_name) ?? t('app.name');
  const [tab, setTab] = useState<'account' | 'sms'>('account');
  const [mode, setMode] = useState<Mode>('login');
  const [busy, setBusy] = useState(false);
  const [accountForm] = Form.useForm();
  const [smsForm] = Form.useForm();

  const finish = async (result: LoginResult, remember: boolean) => {
    signIn(result, remember);
    const info = await get<UserInfo>('userInfo');
    setUser(info);
    feedback().message.success(t('login.welcome', { name: info.nickname }));
    navigate(destination(params.get('redirect'), info.role), { replace: true });
  };

  const submit = async () => {
    const form = tab === 'account' ? accountForm : smsForm;
    let values: Record<string, string | boolean>;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setBusy(true);
    try {
      const remember = values.remember === true;
      const result =
        tab === 'account'
          ? await post<LoginResult>('login', { account: values.account, password: values.password, remember })
          : await post<LoginResult>('mobilelogin', { mobile: values.mobile, code: values.code, remember });
      await finish(result, remember);
    } catch {
      // shown by the request wrapper
    } finally {
      setBusy(false);
    }
  };
  const [guardedSubmit, guarded] = useClickGuard(submit);

  const remember = (
    <Form.Item name="remember" valuePropName="checked" noStyle>
      <Checkbox>{t('login.remember')}</Checkbox>
    </Form.Item>
  );
  const row = (
    <div className="login-row">
      {remember}
      <Typography.Link onClick={() => setMode('forgot')}>{t('login.forgot')}</Typography.Link>
    </div>
  );

  return (
    <div className="login-page">
      <Select className="login-lang" size="small" value={lang} onChange={setLang} options={LANGS} aria-label={t('settings.language')} />
      <Card className="login-card" variant="borderless">
        <div className="login-head">
          <Typography.Title level={3} style={{ marginBottom: 4 }}>
            {siteName}
          </Typography.Title>
          <Typography.Text type="secondary">{t('login.subtitle')}</Typography.Text>
        </div>
        {mode === 'login' && (
          <>
            <Tabs
              centered
              activeKey={tab}
              onChange={(k) => setTab(k as 'account' | 'sms')}
              items={[
                {
                  key: 'account',
                  label: t('login.tab_account'),
                  children: (
                    <Form form={accountForm} layout="vertical" size="large" onFinish={guardedSubmit} requiredMark={false}>
                      <Form.Item name="account" rules={[{ required: true, whitespace: true, message: t('login.account_required') }]}>
                        <Input placeholder={t('login.account')} autoComplete="username" maxLength={64} />
                      </Form.Item>
                      <Form.Item name="password" rules={[{ required: true, message: t('login.password_required') }]}>
                        <Input.Password placeholder={t('login.password')} autoComplete="current-password" maxLength={128} />
                      </Form.Item>
                      {row}
                      <Button type="primary" htmlType="submit" block loading={busy} disabled={guarded && !busy}>
                        {t('login.submit')}
                      </Button>
                    </Form>
                  ),
                },
                {
                  key: 'sms',
                  label: t('login.tab_sms'),
                  children: (
                    <Form form={smsForm} layout="vertical" size="large" onFinish={guardedSubmit} requiredMark={false}>
                      <Form.Item
                        name="mobile"
                        rules={[
                          { required: true, message: t('login.mobile_required') },
                          { pattern: MOBILE_RE, message: t('login.mobile_invalid') },
                        ]}
                      >
                        <Input placeholder={t('login.mobile')} inputMode="tel" autoComplete="tel" maxLength={11} />
                      </Form.Item>
                      <Form.Item>
                        <Space.Compact style={{ width: '100%' }}>
                          <Form.Item name="code" noStyle rules={[{ required: true, message: t('login.code_required') }]}>
                            <Input placeholder={t('login.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
                          </Form.Item>
                          <SmsCodeButton
                            event="login"
                            getMobile={async () => {
                              try {
                                return (await smsForm.validateFields(['mobile'])).mobile as string;
                              } catch {
                                return null;
                              }
                            }}
                          />
                        </Space.Compact>
                      </Form.Item>
                      {row}
                      <Button type="primary" htmlType="submit" block loading={busy} disabled={guarded && !busy}>
                        {t('login.submit')}
                      </Button>
                    </Form>
                  ),
                },
              ]}
            />
            <Divider plain>
              <Typography.Text type="secondary">{t('login.other')}</Typography.Text>
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
          {mode === 'qr' && <QrLogin onDone={() => setMode('login')} />}
        </Suspense>
      </Card>
    </div>
  );
}
