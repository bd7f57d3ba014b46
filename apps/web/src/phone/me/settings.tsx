import Button from 'antd-mobile/es/components/button';
import Form from 'antd-mobile/es/components/form';
import Input from 'antd-mobile/es/components/input';
import List from 'antd-mobile/es/components/list';
import Popup from 'antd-mobile/es/components/popup';
import Selector from 'antd-mobile/es/components/selector';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PASSWORD_RE, Role, type UserInfo } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { useChangePassword, useSaveNickname } from '../../areas/account/use-account';
import { useMessagePrefs } from '../../areas/wechat/use-message-prefs';
import { usePreferences, useT } from '../../stores/preferences';
import { useSession } from '../../stores/session';
import { OfficeHoursSection } from '../conversations/office-hours';
import { phoneStrings } from '../strings';
import { PhonePage, QueryView } from '../ui/page';
import { ProfileCard } from './profile-card';
import { meStrings } from './strings';
import { WechatBinding } from './wechat-binding';
import './me.css';

type Sheet = 'name' | 'nickname' | 'password' | null;

/**
 * /m/settings (from 我的, teachers and parents): the name (teachers) and nickname, the password, a teacher's office
 * hours for family messages (issue 40), a parent's WeChat binding, and the language; each change in a bottom sheet.
 */
export default function PhoneSettings() {
  const t = phoneStrings.use();
  const mt = meStrings.use();
  const user = useSession((s) => s.user);
  const teacher = user?.role === Role.Teacher || user?.role === Role.HeadTeacher;
  const parent = user?.role === Role.Parent;
  const { lang, setLang } = usePreferences();
  const [sheet, setSheet] = useState<Sheet>(null);
  const qc = useQueryClient();
  const info = useQuery({ queryKey: ['userInfo'], queryFn: () => get('userInfo') });
  const me = info.data ?? user;
  const refresh = () =>
    Promise.all([
      info.refetch(),
      qc.refetchQueries({ queryKey: ['messagePrefs'], type: 'active' }),
      qc.refetchQueries({ queryKey: ['officeHoursInfo'], type: 'active' }),
    ]);
  return (
    <PhonePage onRefresh={refresh}>
      <ProfileCard who={me} />
      <List className="m-section" header={mt('set.profile')}>
        {teacher && (
          <List.Item extra={me?.name} onClick={() => setSheet('name')} data-testid="settings-name">
            {mt('set.name')}
          </List.Item>
        )}
        <List.Item extra={me?.nickname} onClick={() => setSheet('nickname')} data-testid="settings-nickname">
          {mt('set.nickname')}
        </List.Item>
        <List.Item extra={me?.username}>{mt('set.username')}</List.Item>
        {me?.mobile && (
          <List.Item extra={me.mobile} description={mt('set.admin_changes')}>
            {mt('set.mobile')}
          </List.Item>
        )}
      </List>
      <List className="m-section" header={mt('set.security')}>
        <List.Item description={mt('set.password_hint')} onClick={() => setSheet('password')} data-testid="settings-password">
          {mt('set.password')}
        </List.Item>
      </List>
      {teacher && <OfficeHoursSection />}
      {parent && <ParentBinding />}
      <List className="m-section" header={t('m.language')}>
        <List.Item>
          <Selector
            className="m-choice"
            columns={2}
            value={[lang]}
            options={[
              { label: '中文', value: 'zh-CN' },
              { label: 'English', value: 'en' },
            ]}
            onChange={(v) => v[0] && setLang(v[0] as 'zh-CN' | 'en')}
          />
        </List.Item>
      </List>
      <Popup
        visible={sheet !== null}
        onMaskClick={() => setSheet(null)}
        onClose={() => setSheet(null)}
        bodyStyle={{ borderTopLeftRadius: 12, borderTopRightRadius: 12 }}
        destroyOnClose
      >
        {sheet === 'nickname' && <NicknameSheet initial={me?.nickname ?? ''} onClose={() => setSheet(null)} />}
        {sheet === 'name' && <NameSheet onClose={() => setSheet(null)} />}
        {sheet === 'password' && <PasswordSheet onClose={() => setSheet(null)} />}
      </Popup>
    </PhonePage>
  );
}

function ParentBinding() {
  const q = useMessagePrefs();
  return <QueryView query={q}>{(d) => <WechatBinding binding={d.binding} />}</QueryView>;
}

function SheetButtons({ busy, onClose, testId }: { busy: boolean; onClose: () => void; testId: string }) {
  const mt = meStrings.use();
  return (
    <div className="m-sheet-buttons">
      <Button block type="submit" color="primary" size="large" loading={busy} data-testid={testId}>
        {mt('set.save')}
      </Button>
      <Button block size="large" onClick={onClose}>
        {mt('set.cancel')}
      </Button>
    </div>
  );
}

/** The nickname (profile): the signed-in user and the cached userInfo take the answer. */
function NicknameSheet({ initial, onClose }: { initial: string; onClose: () => void }) {
  const mt = meStrings.use();
  const { save, busy } = useSaveNickname();
  return (
    <div className="m-sheet" data-testid="nickname-sheet">
      <div className="m-sheet-title">{mt('set.edit_nickname')}</div>
      <Form
        layout="vertical"
        initialValues={{ nickname: initial }}
        onFinish={async (v: { nickname: string }) => {
          if (await save(v.nickname)) onClose();
        }}
        footer={<SheetButtons busy={busy} onClose={onClose} testId="nickname-save" />}
      >
        <Form.Item
          name="nickname"
          label={mt('set.nickname')}
          rules={[
            { required: true, whitespace: true, message: mt('set.nickname_required') },
            { max: 32, message: mt('set.too_long', { n: 32 }) },
          ]}
        >
          <Input clearable maxLength={32} autoComplete="nickname" />
        </Form.Item>
      </Form>
    </div>
  );
}

/** A teacher's or head teacher's name (teacherSaveInfo on the version read; a stale one is refused and read again). */
function NameSheet({ onClose }: { onClose: () => void }) {
  const mt = meStrings.use();
  const qc = useQueryClient();
  const user = useSession((s) => s.user);
  const setUser = useSession((s) => s.setUser);
  const q = useQuery({ queryKey: queryKey('teacherInfo'), queryFn: () => get('teacherInfo') });
  // a refusal is shown by the request wrapper (a stale version: read again, then try again)
  const saveInfo = useAction('teacherSaveInfo', {
    success: mt('set.saved'),
    invalidates: ['userInfo'],
    onDone: (saved) => {
      qc.setQueryData(queryKey('teacherInfo'), saved);
      if (user) setUser({ ...(user as UserInfo), name: saved.name });
      onClose();
    },
    onError: () => void q.refetch(),
  });
  const save = async (name: string) => {
    if (q.data) await saveInfo.run({ version: q.data.version, name: name.trim() });
  };
  return (
    <div className="m-sheet" data-testid="name-sheet">
      <div className="m-sheet-title">{mt('set.edit_name')}</div>
      <QueryView query={q} rows={2}>
        {(me) => (
          <Form
            layout="vertical"
            initialValues={{ name: me.name }}
            onFinish={(v: { name: string }) => void save(v.name)}
            footer={<SheetButtons busy={saveInfo.busy} onClose={onClose} testId="name-save" />}
          >
            <Form.Item
              name="name"
              label={mt('set.name')}
              rules={[
                { required: true, whitespace: true, message: mt('set.name_required') },
                { max: 32, message: mt('set.too_long', { n: 32 }) },
              ]}
            >
              <Input clearable maxLength={32} autoComplete="name" />
            </Form.Item>
          </Form>
        )}
      </QueryView>
    </div>
  );
}

/** The password (changepwd): the session ends here and the sign-in page follows. */
function PasswordSheet({ onClose }: { onClose: () => void }) {
  const t = useT();
  const mt = meStrings.use();
  const { change, busy } = useChangePassword(() => window.location.replace('/login?redirect=%2Fm%2F'));
  const [form] = Form.useForm<{ oldpassword: string; newpassword: string; confirm: string }>();
  return (
    <div className="m-sheet" data-testid="password-sheet">
      <div className="m-sheet-title">{mt('set.password')}</div>
      <Form
        form={form}
        layout="vertical"
        onFinish={(v: { oldpassword: string; newpassword: string }) => void change(v.oldpassword, v.newpassword)}
        footer={<SheetButtons busy={busy} onClose={onClose} testId="password-save" />}
      >
        <Form.Item name="oldpassword" label={t('settings.old_password')} rules={[{ required: true, message: t('login.password_required') }]}>
          <Input type="password" autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="newpassword"
          label={t('settings.new_password')}
          rules={[
            { required: true, message: t('login.password_required') },
            { pattern: PASSWORD_RE, message: t('reset.new_password') },
          ]}
        >
          <Input type="password" autoComplete="new-password" placeholder={t('reset.new_password')} />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('settings.confirm_password')}
          dependencies={['newpassword']}
          rules={[
            { required: true, message: t('login.password_required') },
            {
              validator: (_, value) =>
                value === form.getFieldValue('newpassword') ? Promise.resolve() : Promise.reject(new Error(t('settings.password_mismatch'))),
            },
          ]}
        >
          <Input type="password" autoComplete="new-password" />
        </Form.Item>
      </Form>
    </div>
  );
}
