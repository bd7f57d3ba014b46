import { Button, Card, Form, Input, Space } from 'antd';
import { PASSWORD_RE } from '@wantuo/shared';
import { useNavigate } from 'react-router';
import { useAction } from '../../api/action';
import { useT } from '../../stores/preferences';
import { StaffFields, toInput, USERNAME_RE, type StaffFormValues } from './staff-fields';
import { staffStrings } from './strings';

interface AddValues extends StaffFormValues {
  username?: string;
  password: string;
  confirm: string;
}

/** A new teacher or head-teacher account of the school; back to the account list after saving. */
export default function TeacherAdd() {
  const t = useT();
  const sf = staffStrings.use();
  const navigate = useNavigate();
  const add = useAction('addTeacher', {
    success: (row) => sf('staff.added', { username: row.username }),
    onDone: () => navigate('/principal_account'),
  });
  const submit = (v: AddValues) =>
    void add.run({ ...toInput(v, false), password: v.password, ...(v.username?.trim() ? { username: v.username.trim() } : {}) });
  return (
    <Card title={sf('staff.add_title')}>
      <Form<AddValues> layout="vertical" onFinish={submit} initialValues={{ role: 2, duties: [] }} style={{ maxWidth: 560 }} autoComplete="off">
        <StaffFields />
        <Form.Item
          name="username"
          label={sf('staff.username')}
          extra={sf('staff.username_hint')}
          rules={[{ pattern: USERNAME_RE, message: sf('staff.username_invalid') }]}
        >
          <Input maxLength={32} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="password"
          label={sf('staff.password')}
          rules={[
            { required: true, message: sf('staff.password_rule') },
            { pattern: PASSWORD_RE, message: sf('staff.password_rule') },
          ]}
        >
          <Input.Password maxLength={64} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={sf('staff.confirm_password')}
          dependencies={['password']}
          rules={[
            { required: true, message: sf('staff.password_mismatch') },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(sf('staff.password_mismatch'))),
            }),
          ]}
        >
          <Input.Password maxLength={64} autoComplete="new-password" />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={add.busy}>
            {t('common.save')}
          </Button>
          <Button onClick={() => navigate('/principal_account')}>{t('common.back')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
