import type { INestApplication } from '@nestjs/common';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { FileAnswer } from '@wantuo/shared';
import { z } from 'zod';
import { RouteCatalogue } from '../auth/route-catalogue';
import { MULTIPART_FIELD } from '../http/multipart';

type Json = Record<string, unknown>;

const ENVELOPE: Json = {
  type: 'object',
  required: ['code', 'msg', 'data'],
  properties: {
    code: { type: 'integer', enum: [200, 100, 401], description: '200 success, 100 error (see msg), 401 missing or invalid token' },
    msg: { type: 'string' },
    data: {},
  },
};

function schemaOf(input: z.ZodType | null): Json | null {
  if (!input) return null;
  return z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as Json;
}

/** The 200 response of an action: the envelope with its declared answer as `data`, or the file it sends. */
function responseOf(answer: z.ZodType | undefined): Json {
  if (answer === FileAnswer) {
    return { description: 'the file', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } };
  }
  const data = answer ? (z.toJSONSchema(answer, { io: 'output', unrepresentable: 'any' }) as Json) : {};
  delete data.$schema;
  const schema = { ...ENVELOPE, properties: { ...(ENVELOPE.properties as Json), data } };
  return { description: 'envelope', content: { 'application/json': { schema } } };
}

/**
 * The OpenAPI document, built from what the app really serves: each route with its catalogue meaning, its access
 * rule and the JSON schema of its zod input. Served at /api/docs (UI) and /api/docs-json.
 */
export function buildOpenApi(app: INestApplication): OpenAPIObject {
  const paths: Record<string, Json> = {};
  for (const r of app.get(RouteCatalogue).all()) {
    const schema = schemaOf(r.input);
    const who = r.access.kind === 'roles' ? `roles ${r.access.roles.join(', ')}` : r.access.kind;
    const op: Json = {
      tags: [r.action?.module ?? 'platform'],
      summary: r.action?.meaning ?? r.path,
      description: `Access: ${who}.`,
      security: r.access.kind === 'public' ? [] : [{ token: [] }],
      responses: { '200': responseOf(r.declaration?.answer) },
    };
    const multipartField: string | undefined = Reflect.getMetadata(MULTIPART_FIELD, r.handler);
    if (r.method === 'GET' && schema) {
      const props = (schema.properties ?? {}) as Record<string, Json>;
      const required = new Set((schema.required as string[] | undefined) ?? []);
      op.parameters = Object.entries(props).map(([name, s]) => ({ name, in: 'query', required: required.has(name), schema: s }));
    } else if (multipartField) {
      const props = { ...((schema?.properties as Json) ?? {}), [multipartField]: { type: 'string', format: 'binary' } };
      op.requestBody = { content: { 'multipart/form-data': { schema: { type: 'object', properties: props } } } };
    } else if (schema) {
      op.requestBody = { required: true, content: { 'application/json': { schema } } };
    }
    paths[r.path] = { ...(paths[r.path] ?? {}), [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: '晚托管理平台 API',
      version: '1.0.0',
      description: 'Every answer is HTTP 200 with the envelope { code, msg, data } (design.md §2); HTTP 500 carries data.errorId.',
    },
    components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'token' } } },
    paths: paths as OpenAPIObject['paths'],
  };
}

export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup('api/docs', app, () => buildOpenApi(app), { jsonDocumentUrl: 'api/docs-json' });
}
