import { useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Input, Radio, Space, Switch, Tag, Typography, Upload } from 'antd';
import { MOBILE_RE, type StudentDetail, type StudentPickupPerson, type StudentRow } from '@wantuo/shared';
import { useState } from 'react';
import { get, upload } from '../../api/http';
import { queryKey } from '../../api/query';
import { useSchoolToday } from '../../lib/school-time';
import { CallButton } from '../privacy/call-button';
import { studentStrings } from './strings';

export const STUDENT_PAGE_SIZE = 20;

/**
 * The caller's own students (teacherStudentList: the classes they head or hold a duty in), a server page at a time,
 * with the name search both teacher screens put above the table.
 */
export function useMyStudents() {
  const ss = studentStrings.use();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: queryKey('teacherStudentList', { page, limit: STUDENT_PAGE_SIZE, ...(keyword ? { keyword } : {}) }),
    queryFn: () => get('teacherStudentList', { page, limit: STUDENT_PAGE_SIZE, ...(keyword ? { keyword } : {}) }),
  });
  const search = (
    <Input.Search
      allowClear
      placeholder={ss('stu.name')}
      maxLength={32}
      style={{ width: 240, marginBottom: 16 }}
      onSearch={(v) => {
        setKeyword(v.trim());
        setPage(1);
      }}
    />
  );
  return { query, page, setPage, search };
}

/** A person's name as the API accepts it. */
export const NAME_RE = /^[\p{L}\p{M} ·・.\-'’]+$/u;

export { download } from '../../api/download';

/** Validation rules shared by the forms. */
export function useRules() {
  const ss = studentStrings.use();
  return {
    name: [{ required: true, message: ss('stu.required') }, { pattern: NAME_RE, message: ss('stu.name_invalid') }, { max: 32 }],
    mobile: [
      { required: true, message: ss('stu.required') },
      { pattern: MOBILE_RE, message: ss('stu.mobile_invalid') },
    ],
    relation: [{ required: true, message: ss('stu.required') }, { max: 20 }],
  };
}

/** The gender as a tag-free label. */
export function useGenderLabel() {
  const ss = studentStrings.use();
  return (g: 1 | 2 | null | undefined) => (g === 1 ? ss('stu.gender_1') : g === 2 ? ss('stu.gender_2') : '-');
}

export const yesNo = (v: boolean, ss: ReturnType<typeof studentStrings.use>) => (
  <Tag color={v ? 'green' : undefined}>{v ? ss('stu.yes') : ss('stu.no')}</Tag>
);

/** Form values of pick-up people (id kept for existing ones). */
export type PickupValue = Pick<StudentPickupPerson, 'name' | 'relation' | 'mobile'> & { id?: number; photo_url?: string | null };

/** Pick-up people as a form list (name, relation, mobile). */
export function PickupPeopleFields({ name = 'pickup_people' }: { name?: string }) {
  const ss = studentStrings.use();
  const rules = useRules();
  return (
    <Form.List name={name}>
      {(fields, { add, remove }) => (
        <Space orientation="vertical" style={{ width: '100%' }}>
          {fields.map((f) => (
            <Card
              size="small"
              key={f.key}
              extra={
                <Button type="link" danger onClick={() => remove(f.name)}>
                  {ss('stu.remove')}
                </Button>
              }
            >
              <Form.Item name={[f.name, 'id']} hidden>
                <Input />
              </Form.Item>
              <Form.Item name={[f.name, 'name']} label={ss('stu.name')} rules={rules.name}>
                <Input maxLength={32} />
              </Form.Item>
              <Form.Item name={[f.name, 'relation']} label={ss('stu.relation')} rules={rules.relation}>
                <Input maxLength={20} />
              </Form.Item>
              <Form.Item name={[f.name, 'mobile']} label={ss('stu.mobile')} rules={rules.mobile}>
                <Input maxLength={11} inputMode="numeric" />
              </Form.Item>
            </Card>
          ))}
          {fields.length < 10 && (
            <Button onClick={() => add({})} block type="dashed">
              {ss('stu.add_pickup')}
            </Button>
          )}
        </Space>
      )}
    </Form.List>
  );
}

/**
 * The guardians' decision for a child's health notes or photos as the student's answer carries it (issue 37): true
 * granted, false declined, null nobody has decided; undefined when the screen has no answer (a new student) or the
 * answer does not say.
 */
export type Consent = boolean | null | undefined;

/**
 * The hint under the allergies field or the photo: a note or photo is stored only with the guardians' consent. What
 * they decided when the answer says it, else the rule itself.
 */
export function ConsentHint({ kind, consent }: { kind: 'health' | 'photo'; consent: Consent }) {
  const ss = studentStrings.use();
  const testId = `${kind}-consent-hint`;
  if (consent === undefined) return <span data-testid={testId}>{ss(`stu.${kind}_hint`)}</span>;
  if (consent === true)
    return (
      <Typography.Text type="success" data-testid={testId}>
        {ss(`stu.${kind}_granted`)}
      </Typography.Text>
    );
  return (
    <Typography.Text type="warning" data-testid={testId}>
      {ss(consent === false ? `stu.${kind}_refused` : `stu.${kind}_undecided`)}
    </Typography.Text>
  );
}

/** needs_shuttle, needs_dinner, tutoring_type, allergies (with the health consent's hint). */
export function CareFields({ healthConsent }: { healthConsent?: Consent }) {
  const ss = studentStrings.use();
  return (
    <>
      <Form.Item name="needs_shuttle" label={ss('stu.needs_shuttle')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="needs_dinner" label={ss('stu.needs_dinner')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="tutoring_type" label={ss('stu.tutoring_type')} rules={[{ max: 30 }]}>
        <Input maxLength={30} />
      </Form.Item>
      <Form.Item name="allergies" label={ss('stu.allergies')} rules={[{ max: 500 }]} extra={<ConsentHint kind="health" consent={healthConsent} />}>
        <Input.TextArea maxLength={500} rows={2} />
      </Form.Item>
    </>
  );
}

/** The profile fields (name, gender, birthday, day school, grade, class, photo with the photo consent's hint, notes). */
export function ProfileFields({ photoConsent }: { photoConsent?: Consent }) {
  const ss = studentStrings.use();
  const rules = useRules();
  const form = Form.useFormInstance();
  const photo = Form.useWatch('photo_url', form) as string | undefined;
  const today = useSchoolToday();
  return (
    <>
      <Form.Item name="name" label={ss('stu.name')} rules={rules.name}>
        <Input maxLength={32} />
      </Form.Item>
      <Form.Item name="gender" label={ss('stu.gender')}>
        <Radio.Group
          options={[
            { value: 1, label: ss('stu.gender_1') },
            { value: 2, label: ss('stu.gender_2') },
          ]}
        />
      </Form.Item>
      <Form.Item name="birthday" label={ss('stu.birthday')} rules={[{ pattern: /^\d{4}-\d{2}-\d{2}$/, message: 'YYYY-MM-DD' }]}>
        <Input type="date" max={today} />
      </Form.Item>
      <Form.Item name="day_school" label={ss('stu.day_school')} rules={[{ max: 100 }]}>
        <Input maxLength={100} />
      </Form.Item>
      <Space wrap>
        <Form.Item name="grade" label={ss('stu.grade')} rules={[{ max: 20 }]}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item name="class_name" label={ss('stu.class_name')} rules={[{ max: 20 }]}>
          <Input maxLength={20} />
        </Form.Item>
      </Space>
      <Form.Item name="photo_url" label={ss('stu.photo')} extra={<ConsentHint kind="photo" consent={photoConsent} />}>
        <Space>
          {photo && <img src={photo} alt="" style={{ width: 64, height: 64, objectFit: 'cover', borderRadius: 4 }} />}
          <Upload
            accept="image/*"
            showUploadList={false}
            customRequest={async ({ file, onSuccess, onError }) => {
              const fd = new FormData();
              fd.append('file', file as Blob);
              try {
                const res = await upload('upload', fd);
                form.setFieldValue('photo_url', res.url);
                onSuccess?.(res);
              } catch (e) {
                onError?.(e as Error);
              }
            }}
          >
            <Button>{ss('stu.upload_photo')}</Button>
          </Upload>
        </Space>
      </Form.Item>
      <Form.Item name="notes" label={ss('stu.notes')} rules={[{ max: 1000 }]}>
        <Input.TextArea maxLength={1000} rows={2} />
      </Form.Item>
    </>
  );
}

/** Only the fields the API takes for pick-up people. */
export const pickupInput = (list: PickupValue[] | undefined) =>
  (list ?? []).map((p) => ({
    ...(p.id ? { id: Number(p.id) } : {}),
    name: p.name.trim(),
    relation: p.relation.trim(),
    mobile: p.mobile.trim(),
    ...(p.photo_url ? { photo_url: p.photo_url } : {}),
  }));

/** Read-only summary of a student (teacher views); each mobile with its 拨打 (a masked one asked for, issue 37). */
export function StudentSummary({ s }: { s: StudentDetail }) {
  const ss = studentStrings.use();
  const gender = useGenderLabel();
  const row = (label: string, value: React.ReactNode) => (
    <div style={{ display: 'flex', gap: 8, padding: '4px 0' }}>
      <span style={{ color: '#888', minWidth: 96 }}>{label}</span>
      <span style={{ flex: 1, wordBreak: 'break-all' }}>{value ?? '-'}</span>
    </div>
  );
  return (
    <div>
      {row(ss('stu.name'), s.name)}
      {row(ss('stu.gender'), gender(s.gender))}
      {row(ss('stu.birthday'), s.birthday)}
      {row(ss('stu.day_school'), [s.day_school, s.grade, s.class_name].filter(Boolean).join(' '))}
      {row(ss('stu.care_class'), s.care_class?.name)}
      {row(ss('stu.allergies'), s.allergies ? <Tag color="red">{s.allergies}</Tag> : '-')}
      {row(ss('stu.needs_shuttle'), yesNo(s.needs_shuttle, ss))}
      {row(ss('stu.needs_dinner'), yesNo(s.needs_dinner, ss))}
      {row(ss('stu.tutoring_type'), s.tutoring_type)}
      {row(
        ss('stu.guardians'),
        s.guardians.map((g) => (
          <div key={g.user_id} data-testid="summary-guardian">
            {`${g.name}（${g.relation}）${g.mobile}`}
            <CallButton target={{ student_id: s.id, user_id: g.user_id }} name={g.name} mobile={g.mobile} />
          </div>
        )),
      )}
      {row(
        ss('stu.pickup_people'),
        s.pickup_people.map((p) => (
          <div key={p.id} data-testid="summary-pickup">
            {`${p.name}（${p.relation}）${p.mobile}`}
            <CallButton target={{ student_id: s.id, pickup_person_id: p.id }} name={p.name} mobile={p.mobile} />
          </div>
        )),
      )}
      {row(ss('stu.notes'), s.notes)}
    </div>
  );
}

/** The student columns the student tables share, by name; each screen picks the ones it shows, in its order. */
export function useStudentColumns() {
  const ss = studentStrings.use();
  const gender = useGenderLabel();
  return {
    name: { title: ss('stu.name'), dataIndex: 'name', width: 100, fixed: 'left' as const },
    gender: { title: ss('stu.gender'), dataIndex: 'gender', width: 60, render: (g: 1 | 2 | null) => gender(g) },
    school: {
      title: ss('stu.day_school'),
      key: 'school',
      width: 200,
      render: (_: unknown, s: Pick<StudentRow, 'day_school' | 'grade' | 'class_name'>) =>
        [s.day_school, s.grade, s.class_name].filter(Boolean).join(' '),
    },
    care: {
      title: ss('stu.care_class'),
      key: 'care',
      width: 110,
      render: (_: unknown, s: Pick<StudentRow, 'care_class'>) => s.care_class?.name ?? '-',
    },
    shuttle: { title: ss('stu.needs_shuttle'), dataIndex: 'needs_shuttle', width: 90, render: (v: boolean) => yesNo(v, ss) },
    dinner: { title: ss('stu.needs_dinner'), dataIndex: 'needs_dinner', width: 90, render: (v: boolean) => yesNo(v, ss) },
    allergies: {
      title: ss('stu.allergies'),
      dataIndex: 'allergies',
      width: 120,
      render: (v: string | null) => (v ? <Tag color="red">{v}</Tag> : '-'),
    },
  };
}
