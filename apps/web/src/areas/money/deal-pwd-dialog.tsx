import { Form, Input, Modal, Segmented, Space, Typography } from 'antd';
import type { SetDealPwdInput } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { useSession } from '../../stores/session';
import { SmsCodeButton } from '../auth/sms-code-button';
import { moneyStrings } from './strings';

interface Values {
  deal_pwd: string;
  repeat: string;
  password?: string;
  code?: string;
}

/**
 * Sets or changes the school's payment password (setDealPwd): six digits twice, proven by the account password or an
 * SMS code sent to the admin's own mobile (event `dealpwd`).
 */
export function DealPwdDialog({ open, change, onClose, onSaved }: { open: boolean; change: boolean; onClose: () => void; onSaved: () => void }) {
  const s = moneyStrings.use();
  const mobile = useSession((x) => x.user?.mobile ?? null);
  const [proof, setProof] = useState<'password' | 'sms'>('password');
  const [form] = Form.useForm<Values>();
  const required = { required: true, message: s('pwd.required') };
  const sixDigits = { pattern: /^\d{6}$/, message: s('pwd.invalid') };

  // a wrong password or code is shown by the request wrapper
  const setPwd = useAction('setDealPwd', {
    success: s('pwd.saved'),
    onDone: () => {
      form.resetFields();
      onSaved();
    },
  });
  const save = (v: Values) => {
    const input: SetDealPwdInput = { deal_pwd: v.deal_pwd, ...(proof === 'password' ? { password: v.password } : { code: v.code }) };
    return setPwd.run(input);
  };

  return (
    <Modal
      open={open}
      title={change ? s('pwd.title_change') : s('pwd.title_set')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={setPwd.busy}
      destroyOnHidden
      width={420}
    >
      <Form form={form} layout="vertical" onFinish={(v) => void save(v)} requiredMark={false} autoComplete="off">
        <Form.Item name="deal_pwd" label={s('pwd.new')} rules={[required, sixDigits]}>
          <Input.Password inputMode="numeric" maxLength={6} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="repeat"
          label={s('pwd.repeat')}
          dependencies={['deal_pwd']}
          rules={[
            required,
            ({ getFieldValue }) => ({
              validator: (_, v) => (v === getFieldValue('deal_pwd') ? Promise.resolve() : Promise.reject(new Error(s('pwd.mismatch')))),
            }),
          ]}
        >
          <Input.Password inputMode="numeric" maxLength={6} autoComplete="new-password" />
        </Form.Item>
        <Typography.Text strong>{s('pwd.proof')}</Typography.Text>
        <Segmented
          block
          style={{ margin: '8px 0 16px' }}
          value={proof}
          onChange={(v) => setProof(v as 'password' | 'sms')}
          options={[
            { value: 'password', label: s('pwd.by_password') },
            { value: 'sms', label: s('pwd.by_sms'), disabled: !mobile },
          ]}
        />
        {proof === 'password' ? (
          <Form.Item name="password" label={s('pwd.account_password')} rules={[required]}>
            <Input.Password autoComplete="current-password" maxLength={64} />
          </Form.Item>
        ) : (
          <Form.Item
            label={s('pwd.code')}
            extra={mobile ? s('pwd.sms_to', { mobile: `${mobile.slice(0, 3)}****${mobile.slice(-4)}` }) : s('pwd.no_mobile')}
          >
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="code" noStyle rules={[required, { pattern: /^\d{4,6}$/, message: s('pwd.required') }]}>
                <Input inputMode="numeric" maxLength={6} autoComplete="one-time-code" />
              </Form.Item>
              <SmsCodeButton event="dealpwd" getMobile={async () => mobile} />
            </Space.Compact>
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
