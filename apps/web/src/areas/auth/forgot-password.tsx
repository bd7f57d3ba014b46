import { Button, Form, Input, Result, Space, Steps, Typography } from 'antd';
import { MOBILE_RE, PASSWORD_RE } from '@wantuo/shared';
import { useState } from 'react';
import { get, post } from '../../api/http';
import { useT } from '../../stores/preferences';
import { SmsCodeButton } from './sms-code-button';

/** Forgot password in two steps (resetpwd GET, then POST with the SMS code). */
export default function ForgotPassword({ onDone }: { onDone: () => void }) {
  const t = useT();
  const [step, setStep] = useState(0);
  const [masked, setMasked] = useState('');
  const [busy, setBusy] = useState(false);
  const [first] = Form.useForm();
  const [second] = Form.useForm();

  const lookup = async ({ account }: { account: string }) => {
    setBusy(true);
    try {
      const r = await get('resetpwd', { account: account.trim() });
      setMasked(r.masked_mobile);
      second.setFieldsValue({ mobile: r.mobile || undefined });
      setStep(1);
    } catch {
      // shown by the request wrapper
    } finally {
      setBusy(false);
    }
  };

  const reset = async (v: { mobile: string; code: string; newpassword: string }) => {
    setBusy(true);
    try {
      await post('resetpwd', v);
      setStep(2);
    } catch {
      // shown by the request wrapper
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <Typography.Title level={4}>{t('reset.title')}</Typography.Title>
      <Steps
        size="small"
        current={Math.min(step, 1)}
        items={[{ title: t('reset.step1') }, { title: t('reset.step2') }]}
        style={{ marginBottom: 24 }}
      />
      {step === 0 && (
        <Form form={first} layout="vertical" onFinish={lookup} requiredMark={false}>
          <Form.Item name="account" label={t('reset.account')} rules={[{ required: true, whitespace: true, message: t('login.account_required') }]}>
            <Input maxLength={64} autoComplete="username" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('reset.next')}
          </Button>
        </Form>
      )}
      {step === 1 && (
        <Form form={second} layout="vertical" onFinish={reset} requiredMark={false}>
          <Typography.Paragraph type="secondary">{t('reset.code_to', { mobile: masked })}</Typography.Paragraph>
          <Form.Item
            name="mobile"
            label={t('reset.mobile_confirm')}
            rules={[
              { required: true, message: t('login.mobile_required') },
              { pattern: MOBILE_RE, message: t('login.mobile_invalid') },
            ]}
          >
            <Input inputMode="tel" maxLength={11} />
          </Form.Item>
          <Form.Item label={t('login.code')} required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="code" noStyle rules={[{ required: true, message: t('login.code_required') }]}>
                <Input inputMode="numeric" maxLength={6} autoComplete="one-time-code" />
              </Form.Item>
              <SmsCodeButton
                event="resetpwd"
                getMobile={async () => {
                  try {
                    return (await second.validateFields(['mobile'])).mobile as string;
                  } catch {
                    return null;
                  }
                }}
              />
            </Space.Compact>
          </Form.Item>
          <Form.Item
            name="newpassword"
            label={t('reset.new_password')}
            rules={[
              { required: true, message: t('login.password_required') },
              { pattern: PASSWORD_RE, message: t('reset.new_password') },
            ]}
          >
            <Input.Password autoComplete="new-password" maxLength={64} />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('common.ok')}
          </Button>
        </Form>
      )}
      {step === 2 && <Result status="success" title={t('reset.done')} />}
      <Button type="link" block onClick={onDone} style={{ marginTop: 8 }}>
        {t('common.back')}
      </Button>
    </div>
  );
}
