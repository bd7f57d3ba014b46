// Loaded on the first refused value only (zod-rule.ts imports it lazily): the API's message table, both languages of
// every module, stays out of the pages' chunks.
export { isMessageKey, t } from '@wantuo/shared';
