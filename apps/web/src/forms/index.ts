export { zodRule, isRequired, issueText, type FieldSchema, type ObjectSchema, type ZodRuleOptions } from './zod-rule';
