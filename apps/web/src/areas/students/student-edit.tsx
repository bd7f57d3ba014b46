import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Divider, Form, Space } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, Loading, LoadError } from '../../components/states';
import { useT } from '../../stores/preferences';
import { CareFields, pickupInput, PickupPeopleFields, ProfileFields, type PickupValue } from './student-common';
import { GuardiansSection } from './student-guardians';
import { studentStrings } from './strings';

interface EditValues {
  name: string;
  gender?: 1 | 2 | null;
  birthday?: string | null;
  day_school?: string | null;
  grade?: string | null;
  class_name?: string | null;
  photo_url?: string | null;
  notes?: string | null;
  allergies?: string | null;
  tutoring_type?: string | null;
  needs_shuttle: boolean;
  needs_dinner: boolean;
  pickup_people: PickupValue[];
}

/**
 * /principal_educationals_student?id=: the admin edits a student's profile, care settings and pick-up people; the guardians
 * (add, remove, relation, primary, with their history) are saved on their own (GuardiansSection).
 */
export default function StudentEdit() {
  const t = useT();
  const ss = studentStrings.use();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isSafeInteger(id) && id > 0;
  const q = useQuery({ queryKey: queryKey('studentInfo', { id }), queryFn: () => get('studentInfo', { id }), enabled: valid });
  // a conflict says to refresh (shown by the request wrapper)
  const setting = useAction('studentSetting', { success: t('common.saved'), onDone: () => q.refetch() });
  const back = () => navigate('/principal_educationals');

  if (!valid)
    return (
      <Card>
        <EmptyState description={ss('stu.no_student')}>
          <Button onClick={back}>{ss('stu.back_list')}</Button>
        </EmptyState>
      </Card>
    );
  if (q.isLoading) return <Loading />;
  if (q.isError || !q.data)
    return (
      <Card>
        <LoadError onRetry={() => q.refetch()} />
      </Card>
    );
  const s = q.data;

  const submit = async (v: EditValues) => {
    const text = (x?: string | null) => (x ?? '').trim();
    await setting.run({
      id: s.id,
      version: s.version,
      name: v.name.trim(),
      gender: v.gender ?? null,
      birthday: text(v.birthday),
      day_school: text(v.day_school),
      grade: text(v.grade),
      class_name: text(v.class_name),
      photo_url: text(v.photo_url),
      notes: text(v.notes),
      allergies: text(v.allergies),
      tutoring_type: text(v.tutoring_type),
      needs_shuttle: !!v.needs_shuttle,
      needs_dinner: !!v.needs_dinner,
      pickup_people: pickupInput(v.pickup_people),
    });
  };

  return (
    <Card
      title={`${ss('stu.edit')}：${s.name}`}
      extra={
        <Space>
          <Button onClick={() => navigate(`/principal_educationals_studentrecord?id=${s.id}`)}>{ss('stu.record')}</Button>
          <Button onClick={back}>{t('common.back')}</Button>
        </Space>
      }
    >
      {s.status === 0 && <Alert type="info" style={{ marginBottom: 16 }} title={ss('stu.archived')} />}
      <Form<EditValues>
        key={s.version}
        layout="vertical"
        onFinish={submit}
        initialValues={{ ...s, pickup_people: s.pickup_people }}
        style={{ maxWidth: 640 }}
        autoComplete="off"
      >
        <Divider titlePlacement="start">{ss('stu.profile')}</Divider>
        <ProfileFields photoConsent={s.photo_consent} />
        <Divider titlePlacement="start">{ss('stu.guardians')}</Divider>
        <GuardiansSection student={s} onChanged={() => q.refetch()} />
        <div style={{ padding: '4px 0' }}>
          {ss('stu.care_class')}：{s.care_class?.name ?? '-'}
        </div>
        <Divider titlePlacement="start">{ss('stu.care_settings')}</Divider>
        <CareFields healthConsent={s.health_consent} />
        <Divider titlePlacement="start">{ss('stu.pickup_people')}</Divider>
        <div style={{ color: '#888', marginBottom: 8 }}>{ss('stu.pickup_hint')}</div>
        <PickupPeopleFields />
        <Space style={{ marginTop: 16 }}>
          <Button type="primary" htmlType="submit" loading={setting.busy}>
            {t('common.save')}
          </Button>
          <Button onClick={back}>{t('common.back')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
