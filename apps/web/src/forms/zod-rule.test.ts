import { AddStudentInput, GuardianInput, PickupPersonInput } from '@wantuo/shared';
import type { FormRule } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { usePreferences } from '../stores/preferences';
import { isRequired, zodRule } from './zod-rule';

type Validator = (rule: unknown, value: unknown) => Promise<void>;
/** the one rule zodRule gives, and its validator's verdict on a value: undefined when it passes, else the message */
const check = async (rules: FormRule[], value: unknown): Promise<string | undefined> => {
  expect(rules).toHaveLength(1);
  const validator = (rules[0] as { validator: Validator }).validator;
  try {
    await validator({}, value);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
};
const required = (rules: FormRule[]) => (rules[0] as { required?: boolean }).required;

describe('zodRule: antd rules from a shared zod field', () => {
  afterEach(() => usePreferences.setState({ lang: 'zh-CN' }));

  it('a field no empty value passes is required: the asterisk and 请输入{label}, spaces counting as empty', async () => {
    const rules = zodRule(GuardianInput, 'name', '姓名');
    expect(required(rules)).toBe(true);
    expect(await check(rules, undefined)).toBe('请输入姓名');
    expect(await check(rules, '')).toBe('请输入姓名');
    expect(await check(rules, '   ')).toBe('请输入姓名');
    expect(await check(rules, '张三')).toBeUndefined();
    expect(await check(zodRule(GuardianInput, 'name'), '')).toBe('此项必填');
  });

  it('a value the schema refuses shows the schema’s own message from the API’s table, zh-CN by default', async () => {
    const name = zodRule(GuardianInput, 'name', '姓名');
    expect(await check(name, '张'.repeat(33))).toBe('内容过长（最多 32 个字符）');
    expect(await check(name, '<b>x</b>')).toContain('姓名需 1-32 个字符');
    expect(await check(zodRule(GuardianInput, 'mobile', '手机号'), '12345')).toBe('手机号格式不正确');
    // the schema trims, as the API does
    expect(await check(name, '  张三  ')).toBeUndefined();
  });

  it('in English when the user chose English', async () => {
    usePreferences.setState({ lang: 'en' });
    expect(await check(zodRule(GuardianInput, 'mobile', 'Mobile'), '12345')).toBe('Not a valid mobile number');
    expect(await check(zodRule(GuardianInput, 'name', 'Name'), '')).toBe('Please input Name');
  });

  it('an optional field is not required and lets an empty value through, but still checks a given one', async () => {
    const notes = zodRule(AddStudentInput, 'notes', '备注');
    expect(required(notes)).toBe(false);
    expect(await check(notes, undefined)).toBeUndefined();
    expect(await check(notes, '')).toBeUndefined();
    expect(await check(notes, 'x'.repeat(1001))).toBe('内容过长（最多 1000 个字符）');
    expect(isRequired(AddStudentInput.shape.grade)).toBe(false);
    // a form may require what a partial update may leave out
    const grade = zodRule(AddStudentInput, 'grade', { label: '年级', required: true });
    expect(required(grade)).toBe(true);
    expect(await check(grade, '')).toBe('请输入年级');
  });

  it('a refined object schema still gives its fields; toInput turns the form value into the input’s', async () => {
    expect(required(zodRule(PickupPersonInput, 'relation'))).toBe(true);
    const gender = zodRule(AddStudentInput, 'gender', { label: '性别', toInput: (v) => (v === 'm' ? 1 : v === 'f' ? 2 : v) });
    expect(await check(gender, 'm')).toBeUndefined();
    expect(await check(gender, 'x')).toBe('性别只能是 1（男）或 2（女）');
  });

  it('a message of zod’s own (no key of the table) gives way to a plain “not valid”', async () => {
    const schema = { shape: { n: { safeParse: () => ({ success: false, error: { issues: [{ message: 'Invalid input' }] } }) } } };
    expect(await check(zodRule(schema, 'n', '数量'), 3)).toBe('数量格式不正确');
    expect(await check(zodRule(schema, 'n'), 3)).toBe('格式不正确');
  });

  it('a field the schema does not have is a programming error', () => {
    expect(() => zodRule(GuardianInput as unknown as { shape: Record<string, never> }, 'nope')).toThrow(/no field nope/);
  });
});
