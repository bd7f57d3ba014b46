import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { isMessageKey, t, type Lang, type MessageKey } from '@wantuo/shared';
import { z, type ZodType } from 'zod';
import { declarationOfHandler } from './action.decorator';
import { ValidationError } from './app-error';
import { langOf, type AppRequest } from './request-context';

export const INPUT_SCHEMA = Symbol('input-schema');

const localeMaps: Record<Lang, z.core.$ZodErrorMap> = {
  'zh-CN': z.locales.zhCN().localeError,
  en: z.locales.en().localeError,
};

/**
 * Resolves one zod issue to a message. Schemas in packages/shared write their own messages as
 * message keys, optionally with one parameter (`v.too_long|64`); other issues use zod's locale.
 */
function messageOf(issue: z.core.$ZodIssue, lang: Lang): string {
  const [key, param] = issue.message.split('|');
  if (isMessageKey(key)) return t(lang, key as MessageKey, { max: param ?? '', keys: param ?? '' });
  const path = issue.path.join('.');
  return path ? t(lang, 'error.field', { field: path, message: issue.message }) : issue.message;
}

/** Validates raw input against a schema; throws a ValidationError (code 100) in the caller's language. */
export function parseInput<T extends ZodType>(schema: T, raw: unknown, lang: Lang): z.output<T> {
  const result = schema.safeParse(raw ?? {}, { error: localeMaps[lang] });
  if (result.success) return result.data;
  const fields = result.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return { path: '', message: t(lang, 'v.unknown_field', { keys: issue.keys.join(', ') }) };
    }
    return { path: issue.path.join('.'), message: messageOf(issue, lang) };
  });
  throw new ValidationError(fields);
}

// the schema travels wrapped: Nest would take a bare zod schema (it has a `transform` method) for a pipe,
// and `{ schema }` for its own Standard Schema options
const inputParam = createParamDecorator(({ input }: { input: ZodType | null }, ctx: ExecutionContext) => {
  const req = ctx.switchToHttp().getRequest<AppRequest>();
  const raw = req.method === 'GET' ? req.query : req.body;
  const schema = input ?? declarationOfHandler(ctx.getHandler())?.input;
  if (!schema) throw new Error(`${req.method} ${req.path}: @Input() on an action declared without input`);
  return parseInput(schema, raw, langOf(req));
});

/**
 * The action's input: the query of a GET, the body of a POST (the text fields of a multipart POST), validated by the
 * zod schema its declaration names (packages/shared/src/api). Routes outside the catalogue (/api/dev) pass their schema.
 */
export function Input(schema?: ZodType): ParameterDecorator {
  return (target, key, index) => {
    if (key !== undefined && schema) Reflect.defineMetadata(INPUT_SCHEMA, schema, target, key);
    inputParam({ input: schema ?? null })(target, key, index);
  };
}
