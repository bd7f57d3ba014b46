import { Alert, Button, Card, Checkbox, Divider, Form, Input, Space } from 'antd';
import { MOBILE_RE } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { useT } from '../../stores/preferences';
import { CareFields, NAME_RE, pickupInput, PickupPeopleFields, ProfileFields, useRules, type PickupValue } from './student-common';
import { studentStrings } from './strings';

interface GuardianValue {
  name: string;
  mobile: string;
  relation: string;
  is_primary?: boolean;
}

interface AddValues {
  name: string;
  gender?: 1 | 2;
  birthday?: string;
  day_school?: string;
  grade?: string;
  class_name?: string;
  photo_url?: string;
  notes?: string;
  needs_shuttle?: boolean;
  needs_dinner?: boolean;
  tutoring_type?: string;
  allergies?: string;
  guardians: GuardianValue[];
  pickup_people?: PickupValue[];
}

/** /principal_educationalsStudent_add: a new student with guardians (parent accounts) and pick-up people. */
export default function StudentAdd() {
  const t = useT();
  const ss = studentStrings.use();
  const navigate = useNavigate();
  const rules = useRules();
  const [form] = Form.useForm<AddValues>();
  const add = useAction('addStudent', { success: ss('stu.added'), onDone: () => navigate('/principal_educationals') });
  const [duplicate, setDuplicate] = useState(false);

  /** is there already an active student with this name and one of these guardian mobiles? */
  const check = async (): Promise<boolean> => {
    const name = (form.getFieldValue('name') as string | undefined)?.trim() ?? '';
    const mobiles = ((form.getFieldValue('guardians') as GuardianValue[] | undefined) ?? [])
      .map((g) => g?.mobile?.trim())
      .filter((m) => m && MOBILE_RE.test(m));
    if (!NAME_RE.test(name) || !mobiles.length) return false;
    const found = await Promise.all(mobiles.map((mobile) => get('checkStudent', { name, mobile }, { silent: true }).catch(() => null)));
    const dup = found.some((r) => r?.exists);
    setDuplicate(dup);
    return dup;
  };

  const submit = async (v: AddValues) => {
    if (await check()) return;
    const opt = (x?: string) => (x?.trim() ? x.trim() : undefined);
    await add.run({
      name: v.name.trim(),
      ...(v.gender ? { gender: v.gender } : {}),
      birthday: opt(v.birthday),
      day_school: opt(v.day_school),
      grade: opt(v.grade),
      class_name: opt(v.class_name),
      photo_url: opt(v.photo_url),
      notes: opt(v.notes),
      allergies: opt(v.allergies),
      tutoring_type: opt(v.tutoring_type),
      needs_shuttle: !!v.needs_shuttle,
      needs_dinner: !!v.needs_dinner,
      guardians: v.guardians.map((g) => ({
        name: g.name.trim(),
        mobile: g.mobile.trim(),
        relation: g.relation.trim(),
        is_primary: !!g.is_primary,
      })),
      pickup_people: pickupInput(v.pickup_people),
    });
  };

  return (
    <Card title={ss('stu.add')}>
      <Form<AddValues>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ guardians: [{ is_primary: true }], pickup_people: [], needs_shuttle: false, needs_dinner: true }}
        style={{ maxWidth: 640 }}
        autoComplete="off"
      >
        <Divider titlePlacement="start">{ss('stu.profile')}</Divider>
        <ProfileFields />
        <Divider titlePlacement="start">{ss('stu.guardians')}</Divider>
        <Form.List name="guardians">
          {(fields, { add, remove }) => (
            <Space orientation="vertical" style={{ width: '100%' }}>
              {fields.map((f) => (
                <Card
                  size="small"
                  key={f.key}
                  extra={
                    fields.length > 1 && (
                      <Button type="link" danger onClick={() => remove(f.name)}>
                        {ss('stu.remove')}
                      </Button>
                    )
                  }
                >
                  <Form.Item name={[f.name, 'name']} label={ss('stu.guardian_name')} rules={rules.name}>
                    <Input maxLength={32} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'mobile']} label={ss('stu.mobile')} rules={rules.mobile}>
                    <Input maxLength={11} inputMode="numeric" onBlur={() => void check()} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'relation']} label={ss('stu.relation')} rules={rules.relation}>
                    <Input maxLength={20} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'is_primary']} valuePropName="checked" style={{ marginBottom: 0 }}>
                    <Checkbox
                      onChange={(e) => {
                        if (!e.target.checked) return;
                        const list = (form.getFieldValue('guardians') as GuardianValue[]).map((g, i) => ({ ...g, is_primary: i === f.name }));
                        form.setFieldValue('guardians', list);
                      }}
                    >
                      {ss('stu.primary')}
                    </Checkbox>
                  </Form.Item>
                </Card>
              ))}
              {fields.length < 4 && (
                <Button type="dashed" block onClick={() => add({})}>
                  {ss('stu.add_guardian')}
                </Button>
              )}
            </Space>
          )}
        </Form.List>
        {duplicate && <Alert type="warning" showIcon style={{ marginTop: 16 }} title={ss('stu.duplicate_warning')} />}
        <Divider titlePlacement="start">{ss('stu.pickup_people')}</Divider>
        <div style={{ color: '#888', marginBottom: 8 }}>{ss('stu.pickup_hint')}</div>
        <PickupPeopleFields />
        <Divider titlePlacement="start">{ss('stu.care_settings')}</Divider>
        <CareFields />
        <Space>
          <Button type="primary" htmlType="submit" loading={add.busy}>
            {t('common.save')}
          </Button>
          <Button onClick={() => navigate('/principal_educationals')}>{t('common.back')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
