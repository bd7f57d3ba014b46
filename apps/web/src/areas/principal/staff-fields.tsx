import { Checkbox, Form, Input, Radio } from 'antd';
import { MOBILE_RE, type PostInput, type StaffDuty } from '@wantuo/shared';
import { staffStrings, type StaffKey } from './strings';

/** Person names as the API takes them: letters of any script, spaces and the punctuation names use. */
const PERSON_NAME_RE = /^[\p{L}\p{M} ·・.\-'’]+$/u;
const EMAIL_RE = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
/** STAFF_DUTIES of the shared schemas, repeated here so that the page does not load zod */
const STAFF_DUTIES: readonly StaffDuty[] = ['shuttle', 'tutor', 'head'];
export const USERNAME_RE = /^[A-Za-z0-9_]{3,32}$/;

export const dutyKey = (d: StaffDuty) => `staff.duty_${d}` as StaffKey;
export const roleKey = (r: number) => `staff.role_${r}` as StaffKey;

/** The profile fields of a teacher account, shared by the add page and the edit dialog (one column). */
export function StaffFields() {
  const sf = staffStrings.use();
  return (
    <>
      <Form.Item
        name="name"
        label={sf('staff.name')}
        rules={[
          { required: true, whitespace: true, message: sf('staff.name_required') },
          { max: 32 },
          { pattern: PERSON_NAME_RE, message: sf('staff.name_required') },
        ]}
      >
        <Input maxLength={32} autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="mobile"
        label={sf('staff.mobile')}
        rules={[
          { required: true, message: sf('staff.mobile_invalid') },
          { pattern: MOBILE_RE, message: sf('staff.mobile_invalid') },
        ]}
      >
        <Input maxLength={11} inputMode="numeric" autoComplete="off" />
      </Form.Item>
      <Form.Item name="role" label={sf('staff.role')} rules={[{ required: true, message: sf('staff.role_required') }]}>
        <Radio.Group options={[2, 5].map((r) => ({ value: r, label: sf(roleKey(r)) }))} />
      </Form.Item>
      <Form.Item name="duties" label={sf('staff.duties')}>
        <Checkbox.Group options={STAFF_DUTIES.map((d) => ({ value: d, label: sf(dutyKey(d)) }))} />
      </Form.Item>
      <Form.Item name="gender" label={sf('staff.gender')}>
        <Radio.Group options={[1, 2].map((g) => ({ value: g, label: sf(`staff.gender_${g}` as StaffKey) }))} />
      </Form.Item>
      <Form.Item name="nickname" label={sf('staff.nickname')} rules={[{ max: 32 }]}>
        <Input maxLength={32} />
      </Form.Item>
      <Form.Item name="email" label={sf('staff.email')} rules={[{ max: 254 }, { pattern: EMAIL_RE, message: sf('staff.email_invalid') }]}>
        <Input maxLength={254} autoComplete="off" />
      </Form.Item>
      <Form.Item name="remark" label={sf('staff.remark')} rules={[{ max: 500 }]}>
        <Input.TextArea maxLength={500} rows={2} showCount />
      </Form.Item>
    </>
  );
}

export interface StaffFormValues {
  name: string;
  mobile: string;
  role: 2 | 5;
  duties?: StaffDuty[];
  gender?: 1 | 2 | null;
  nickname?: string;
  email?: string;
  remark?: string;
}

/** The form values as the API takes them (trimmed; empty optional text left out on add, '' clears on edit). */
export function toInput(v: StaffFormValues, clearEmpty: boolean): Omit<PostInput<'addTeacher'>, 'password' | 'username'> {
  const out: Omit<PostInput<'addTeacher'>, 'password' | 'username'> = {
    name: v.name.trim(),
    mobile: v.mobile.trim(),
    role: v.role,
    duties: v.duties ?? [],
  };
  if (v.gender !== undefined) out.gender = v.gender;
  for (const key of ['nickname', 'email', 'remark'] as const) {
    const value = v[key]?.trim() ?? '';
    if (value || clearEmpty) out[key] = key === 'nickname' && !value ? v.name.trim() : value;
  }
  return out;
}
