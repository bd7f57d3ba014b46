import { useMutation, useQuery } from '@tanstack/react-query';
import { Avatar, Button, Card, Form, Input, Select, Space, Switch, Tabs, Tag, Typography, Upload } from 'antd';
import { ChangePwdInput, ProfileInput, Role, type ActivityRow } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { get, upload } from '../../api/http';
import { queryKey } from '../../api/query';
import { zodRule } from '../../forms';
import { ServerTable } from '../../components/server-table';
import { LoadError, Loading } from '../../components/states';
import { LANGS } from '../../i18n/messages';
import { usePreferences, useT } from '../../stores/preferences';
import { useSession } from '../../stores/session';
import { useSchoolClock } from '../../lib/school-time';
import { accountStrings, type AccountKey } from './strings';
import { TeacherProfile } from './teacher-profile';
import { useChangePassword, useSaveNickname } from './use-account';

function RecentActivity() {
  const t = useT();
  const ta = accountStrings.use();
  const clock = useSchoolClock();
  const [page, setPage] = useState(1);
  const q = useQuery({ queryKey: queryKey('loginLog', { page, limit: 10 }), queryFn: () => get('loginLog', { page, limit: 10 }) });
  return (
    <ServerTable<ActivityRow>
      query={q}
      page={page}
      onPage={setPage}
      pageSize={10}
      size="small"
      scroll={{ x: 560 }}
      columns={[
        { title: t('settings.when'), dataIndex: 'at', width: 170, render: (v: string) => clock.dateTime(v, true) },
        {
          title: t('settings.action'),
          dataIndex: 'action',
          render: (v: string) => <Tag color={v.includes('failed') || v.includes('locked') ? 'red' : 'blue'}>{ta(`activity.${v}` as AccountKey)}</Tag>,
        },
        { title: t('settings.ip'), dataIndex: 'ip', width: 130 },
        { title: t('settings.device'), dataIndex: 'user_agent', ellipsis: true },
      ]}
    />
  );
}

function Profile() {
  const t = useT();
  const q = useQuery({ queryKey: queryKey('userInfo'), queryFn: () => get('userInfo') });
  const { save, saved, busy } = useSaveNickname();
  // a refusal is shown by the request wrapper
  const avatar = useMutation({ mutationFn: (form: FormData) => upload('profile', form), onSuccess: saved });
  if (q.isLoading) return <Loading />;
  if (q.isError || !q.data) return <LoadError onRetry={() => q.refetch()} />;

  const saveNickname = async ({ nickname }: { nickname: string }) => {
    await save(nickname);
  };
  const uploadAvatar = (file: File) => {
    const form = new FormData();
    form.append('avatar', file);
    avatar.mutate(form);
    return false;
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%', maxWidth: 480 }}>
      <Space align="center" size="large">
        <Avatar size={72} src={q.data.avatar_text || undefined} style={{ backgroundColor: '#1677ff', fontSize: 28 }}>
          {q.data.nickname.slice(0, 1)}
        </Avatar>
        <div>
          <Upload accept="image/jpeg,image/png,image/gif,image/webp" showUploadList={false} beforeUpload={uploadAvatar}>
            <Button loading={avatar.isPending}>{t('settings.upload_avatar')}</Button>
          </Upload>
          <div>
            <Typography.Text type="secondary">{t('settings.avatar_hint')}</Typography.Text>
          </div>
        </div>
      </Space>
      <Form layout="vertical" initialValues={{ nickname: q.data.nickname }} onFinish={saveNickname}>
        <Form.Item
          name="nickname"
          label={t('settings.nickname')}
          rules={zodRule(ProfileInput, 'nickname', { label: t('settings.nickname'), required: true })}
        >
          <Input maxLength={32} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('common.save')}
        </Button>
      </Form>
    </Space>
  );
}

function ChangePassword() {
  const t = useT();
  const navigate = useNavigate();
  const { change, busy } = useChangePassword(() => navigate('/login', { replace: true }));
  const submit = async (v: { oldpassword: string; newpassword: string }) => {
    await change(v.oldpassword, v.newpassword);
  };
  return (
    <Form layout="vertical" onFinish={submit} style={{ maxWidth: 420 }}>
      <Form.Item name="oldpassword" label={t('settings.old_password')} rules={zodRule(ChangePwdInput, 'oldpassword', t('settings.old_password'))}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item name="newpassword" label={t('settings.new_password')} rules={zodRule(ChangePwdInput, 'newpassword', t('settings.new_password'))}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('settings.confirm_password')}
        dependencies={['newpassword']}
        rules={[
          { required: true, message: t('login.password_required') },
          ({ getFieldValue }) => ({
            validator: (_, value) =>
              value === getFieldValue('newpassword') ? Promise.resolve() : Promise.reject(new Error(t('settings.password_mismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy}>
        {t('common.save')}
      </Button>
    </Form>
  );
}

function Preferences() {
  const t = useT();
  const { lang, setLang, dark, setDark } = usePreferences();
  return (
    <Form layout="vertical" style={{ maxWidth: 420 }}>
      <Form.Item label={`${t('settings.night_mode')} (${t('settings.beta')})`}>
        <Switch checked={dark} onChange={setDark} aria-label={t('settings.night_mode')} />
      </Form.Item>
      <Form.Item label={t('settings.language')}>
        <Select value={lang} onChange={setLang} options={LANGS} aria-label={t('settings.language')} />
      </Form.Item>
    </Form>
  );
}

/**
 * User settings: recent activity, personal info, password, night mode and language; a teacher's or head teacher's
 * own profile (我的资料, teacherInfo / teacherSaveInfo). `?tab=<key>` opens a tab (?tab=teacher: 我的资料).
 */
export default function Settings() {
  const t = useT();
  const ta = accountStrings.use();
  const role = useSession((s) => s.user?.role);
  const [params, setParams] = useSearchParams();
  const teacher = role === Role.Teacher || role === Role.HeadTeacher;
  const tab = params.get('tab') ?? (teacher ? 'teacher' : 'activity');
  return (
    <Card title={t('settings.title')}>
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams({ tab: key }, { replace: true })}
        items={[
          ...(teacher ? [{ key: 'teacher', label: ta('tab.teacher'), children: <TeacherProfile /> }] : []),
          { key: 'activity', label: t('settings.activity'), children: <RecentActivity /> },
          { key: 'profile', label: t('settings.profile'), children: <Profile /> },
          { key: 'security', label: t('settings.security'), children: <ChangePassword /> },
          { key: 'preferences', label: t('settings.preferences'), children: <Preferences /> },
        ]}
      />
    </Card>
  );
}
