import type { FormRule as Rule } from 'antd';
import { currentLang } from '../stores/preferences';
import { formStrings } from './strings';

/** What a rule needs of a zod schema (structural: the web does not depend on zod itself). */
export interface FieldSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: readonly { message: string }[] } };
}
/** A zod object schema (z.object / z.strictObject, refined or not): its fields by name. */
export interface ObjectSchema<K extends string = string> {
  shape: Record<K, FieldSchema>;
}

export interface ZodRuleOptions {
  /** the field's label: the required message says it (请输入姓名), and a refusal without a message of its own */
  label?: string;
  /** the form value as the input sends it (a dayjs to YYYY-MM-DD, a switch to 0/1); the value itself by default */
  toInput?: (value: unknown) => unknown;
  /** whether the form must have it, where the form differs from the input (a field a partial update may leave out) */
  required?: boolean;
}

/** An empty form value: not given, or a text of spaces only (the schemas trim). */
const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && !v.length);

/** true when no empty value passes the field's schema: the form must have it. */
export const isRequired = (field: FieldSchema) => !['', undefined, null].some((v) => field.safeParse(v).success);

/**
 * A zod issue's message in the user's language: the schemas write message keys of the API's table, some with one
 * parameter (`v.too_long|64`, as apps/api's input decorator reads them); anything else (zod's own English) gives way to
 * a plain "not valid".
 */
export async function issueText(message: string, label?: string): Promise<string> {
  const [key, param = ''] = message.split('|');
  const { isMessageKey, t } = await import('./messages');
  if (isMessageKey(key)) return t(currentLang(), key, { max: param, keys: param });
  return label ? formStrings.t('invalid', { label }) : formStrings.t('invalid_plain');
}

/**
 * antd Form rules from a field of a shared input schema (packages/shared/src/schemas): the field is required (with the
 * asterisk) when no empty value passes the schema, and a value is checked by the schema itself, its refusal shown in
 * the user's language, so a form never restates the API's limits: `rules={zodRule(StudentSettingInput, 'name', label)}`.
 */
export function zodRule<K extends string>(schema: ObjectSchema<K>, field: K, opts: string | ZodRuleOptions = {}): Rule[] {
  const { label, toInput = (v: unknown) => v, required: must } = typeof opts === 'string' ? { label: opts } : opts;
  const fieldSchema = schema.shape[field];
  if (!fieldSchema) throw new Error(`zodRule: the schema has no field ${field}`);
  const required = must ?? isRequired(fieldSchema);
  return [
    {
      required,
      validator: async (_rule, value: unknown) => {
        if (required && isEmpty(value)) throw new Error(label ? formStrings.t('required', { label }) : formStrings.t('required_plain'));
        if (value === undefined || value === null) return;
        const result = fieldSchema.safeParse(toInput(value));
        if (result.success) return;
        throw new Error(await issueText(result.error?.issues[0]?.message ?? '', label));
      },
    },
  ];
}
