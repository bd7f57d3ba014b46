import { applyDecorators, Get, Post } from '@nestjs/common';
import { declarationOf, type Declaration, type GetAction, type GetAnswer, type PostAction, type PostAnswer } from '@wantuo/shared';

import type { Sendable } from './sendable';

export const DECLARATION = Symbol('declaration');

type AnswerOf<M, N> = M extends 'GET' ? (N extends GetAction ? GetAnswer<N> : never) : N extends PostAction ? PostAnswer<N> : never;
// a handler that writes a file itself (@Res) returns nothing the envelope sees
// not distributive: an answer that is a union (PendingPayment) is one answer, its promise one promise
type Returns<A> = [A] extends [Blob] ? unknown : Sendable<A> | Promise<Sendable<A>>;

/**
 * The route of a declared action (packages/shared/src/api): GET or POST under the controller's path, the declared input
 * for @Input(), the declaration for the guard, the answer check and the OpenAPI document. The handler's return type is
 * checked against the declared answer. An undeclared name stops the app at start.
 */
export function Action<M extends 'GET' | 'POST', N extends (M extends 'GET' ? GetAction : PostAction)>(method: M, action: N) {
  const declaration = declarationOf(method, action);
  if (!declaration) throw new Error(`${method} ${action} has a handler but no declaration in packages/shared/src/api`);
  const route = method === 'GET' ? Get(routeName(declaration)) : Post(routeName(declaration));
  const decorate = applyDecorators(route, (target: object, key: string | symbol, desc: PropertyDescriptor) => {
    Reflect.defineMetadata(DECLARATION, declaration, desc.value as object);
  });
  return <T extends (...args: never[]) => Returns<AnswerOf<M, N>>>(target: object, key: string | symbol, desc: TypedPropertyDescriptor<T>) => {
    decorate(target, key, desc as PropertyDescriptor);
  };
}

/** `sms/send` is served by the /api/sms controller as `send`; every other action by /api/index under its name. */
function routeName(d: Declaration): string {
  return d.action.includes('/') ? d.action.slice(d.action.indexOf('/') + 1) : d.action;
}

export function declarationOfHandler(handler: unknown): Declaration | undefined {
  return typeof handler === 'function' ? Reflect.getMetadata(DECLARATION, handler) : undefined;
}
