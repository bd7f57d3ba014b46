import { defineStrings } from '../i18n/strings';

/** The form rules' own messages (zod-rule.ts); the schemas' messages are the API's (packages/shared/src/messages). */
export const formStrings = defineStrings({
  required: { zh: '请输入{label}', en: 'Please input {label}' },
  required_plain: { zh: '此项必填', en: 'This field is required' },
  invalid: { zh: '{label}格式不正确', en: '{label} is not valid' },
  invalid_plain: { zh: '格式不正确', en: 'Not a valid value' },
});
