import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, Input, Radio, Space, Tag } from 'antd';
import { TeacherSaveInfoInput, type UserInfo } from '@wantuo/shared';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { zodRule } from '../../forms';
import { LoadError, Loading } from '../../components/states';
import { useSession } from '../../stores/session';
import { accountStrings } from './strings';

type Key = Parameters<ReturnType<typeof accountStrings.use>>[0];

interface Values {
  name: string;
  nickname: string;
  gender: 0 | 1 | 2;
  email: string;
  remark: string;
}

/**
 * 我的资料 (teacherInfo / teacherSaveInfo): a teacher's or head teacher's own profile. Name, nickname, gender, e-mail
 * and the introduction are theirs to edit (on the version read); the mobile, role and duties are shown, the admin
 * changes them. Made for a phone.
 */
export function TeacherProfile() {
  const t = accountStrings.use();
  const queryClient = useQueryClient();
  const user = useSession((s) => s.user);
  const setUser = useSession((s) => s.setUser);
  const q = useQuery({ queryKey: queryKey('teacherInfo'), queryFn: () => get('teacherInfo') });
  const saveInfo = useAction('teacherSaveInfo', {
    success: t('teacher.saved'),
    onDone: (saved) => {
      queryClient.setQueryData(queryKey('teacherInfo'), saved);
      if (user) setUser({ ...(user as UserInfo), nickname: saved.nickname, name: saved.name });
    },
    // shown by the request wrapper (a stale version: reload and try again)
    onError: () => void q.refetch(),
  });
  const [form] = Form.useForm<Values>();
  if (q.isLoading) return <Loading />;
  if (q.isError || !q.data) return <LoadError onRetry={() => q.refetch()} />;
  const me = q.data;

  const save = (v: Values) =>
    void saveInfo.run({
      version: me.version,
      name: v.name.trim(),
      nickname: v.nickname.trim(),
      gender: v.gender === 0 ? null : v.gender,
      email: v.email.trim(),
      remark: v.remark.trim(),
    });

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%', maxWidth: 520 }} data-testid="teacher-profile">
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t('teacher.username')}>{me.username}</Descriptions.Item>
        <Descriptions.Item label={t('teacher.mobile')}>{me.mobile ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('teacher.role')}>{t(`teacher.role_${me.role}` as Key)}</Descriptions.Item>
        <Descriptions.Item label={t('teacher.duties')}>
          {me.duties.length ? me.duties.map((d) => <Tag key={d}>{t(`teacher.duty_${d}` as Key)}</Tag>) : t('teacher.no_duty')}
        </Descriptions.Item>
      </Descriptions>
      <Alert type="info" showIcon title={t('teacher.readonly_hint')} />
      <Form<Values>
        form={form}
        layout="vertical"
        key={me.version}
        initialValues={{ name: me.name, nickname: me.nickname, gender: me.gender ?? 0, email: me.email ?? '', remark: me.remark ?? '' }}
        onFinish={save}
      >
        <Form.Item name="name" label={t('teacher.name')} rules={zodRule(TeacherSaveInfoInput, 'name', { label: t('teacher.name'), required: true })}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item
          name="nickname"
          label={t('teacher.nickname')}
          rules={zodRule(TeacherSaveInfoInput, 'nickname', { label: t('teacher.nickname'), required: true })}
        >
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="gender" label={t('teacher.gender')}>
          <Radio.Group
            options={[
              { value: 0, label: t('teacher.gender_none') },
              { value: 1, label: t('teacher.male') },
              { value: 2, label: t('teacher.female') },
            ]}
          />
        </Form.Item>
        <Form.Item name="email" label={t('teacher.email')} rules={zodRule(TeacherSaveInfoInput, 'email', t('teacher.email'))}>
          <Input inputMode="email" autoComplete="email" maxLength={254} />
        </Form.Item>
        <Form.Item
          name="remark"
          label={t('teacher.remark')}
          extra={t('teacher.remark_hint')}
          rules={zodRule(TeacherSaveInfoInput, 'remark', t('teacher.remark'))}
        >
          <Input.TextArea rows={3} maxLength={500} showCount />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saveInfo.busy} block>
          {t('teacher.save')}
        </Button>
      </Form>
    </Space>
  );
}
