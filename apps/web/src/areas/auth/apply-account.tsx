import { Button, Form, Input, InputNumber, Result, Typography } from 'antd';
import { MOBILE_RE, type PostInput } from '@wantuo/shared';
import { useState } from 'react';
import { post } from '../../api/http';
import { useT } from '../../stores/preferences';

/** The form's values; a cleared number field is null. */
export interface ApplyValues {
  institution_name: string;
  contact_name: string;
  mobile: string;
  city?: string;
  students_estimate?: number | null;
  message?: string;
}

/** The applyAccount input: the optional fields left empty (or a cleared number) are not sent. */
export function applyInput(v: ApplyValues): PostInput<'applyAccount'> {
  return {
    institution_name: v.institution_name,
    contact_name: v.contact_name,
    mobile: v.mobile,
    ...(v.city ? { city: v.city } : {}),
    ...(v.students_estimate !== undefined && v.students_estimate !== null ? { students_estimate: v.students_estimate } : {}),
    ...(v.message ? { message: v.message } : {}),
  };
}

/** "Create new account": an institution applies; the platform operator sees it under 入驻申请. */
export default function ApplyAccount({ onDone }: { onDone: () => void }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  const submit = async (v: ApplyValues) => {
    setBusy(true);
    try {
      await post('applyAccount', applyInput(v));
      setSent(true);
    } catch {
      // shown by the request wrapper
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <Typography.Title level={4}>{t('apply.title')}</Typography.Title>
      {sent ? (
        <Result status="success" title={t('apply.done')} />
      ) : (
        <Form layout="vertical" onFinish={submit} requiredMark="optional">
          <Form.Item name="institution_name" label={t('apply.institution')} rules={[{ required: true, whitespace: true, min: 2, max: 100 }]}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="contact_name" label={t('apply.contact')} rules={[{ required: true, whitespace: true, max: 64 }]}>
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item
            name="mobile"
            label={t('apply.mobile')}
            rules={[
              { required: true, message: t('login.mobile_required') },
              { pattern: MOBILE_RE, message: t('login.mobile_invalid') },
            ]}
          >
            <Input inputMode="tel" maxLength={11} />
          </Form.Item>
          <Form.Item name="city" label={t('apply.city')}>
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item name="students_estimate" label={t('apply.students')}>
            <InputNumber min={1} max={100000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="message" label={t('apply.message')}>
            <Input.TextArea maxLength={1000} rows={3} showCount />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('apply.submit')}
          </Button>
        </Form>
      )}
      <Button type="link" block onClick={onDone} style={{ marginTop: 8 }}>
        {t('common.back')}
      </Button>
    </div>
  );
}
