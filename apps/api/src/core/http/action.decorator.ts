import { applyDecorators, Get, Post } from '@nestjs/common';
import {
  declarationOf,
  type Declaration,
  type GetAction,
  type GetAnswer,
  type GetParsed,
  type PostAction,
  type PostAnswer,
  type PostParsed,
} from '@wantuo/shared';

import type { Sendable } from './sendable';

export const DECLARATION = Symbol('declaration');

type AnswerOf<M, N> = M extends 'GET' ? (N extends GetAction ? GetAnswer<N> : never) : N extends PostAction ? PostAnswer<N> : never;
// a handler that writes a file itself (@Res) returns nothing the envelope sees
// not distributive: an answer that is a union (PendingPayment) is one answer, its promise one promise
type Returns<A> = [A] extends [Blob] ? unknown : Sendable<A> | Promise<Sendable<A>>;
type InputOf<M, N> = M extends 'GET' ? (N extends GetAction ? GetParsed<N> : never) : N extends PostAction ? PostParsed<N> : never;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/**
 * A handler of an action with an input takes exactly the declared input (validated, defaults applied) as its first
 * parameter (the @Input() one), or `unknown` when it ignores it (an empty input); an action without one is not
 * constrained. A mismatch makes the decorator not apply (TS1241 at the handler).
 */
type Handler<I, R> = [I] extends [null] ? (...args: never[]) => R : (input: I, ...rest: never[]) => R;
type Checked<T, I> = [I] extends [null]
  ? T
  : T extends (input: infer P, ...rest: never[]) => unknown
    ? unknown extends P
      ? T
      : Same<P, I> extends true
        ? T
        : never
    : never;

/**
 * The route of a declared action (packages/shared/src/api): GET or POST under the controller's path, the declared input
 * for @Input(), the declaration for the guard, the answer check and the OpenAPI document. The handler's return type is
 * checked against the declared answer, and its first parameter against the declared input (issue 38). An undeclared
 * name stops the app at start.
 */
export function Action<M extends 'GET' | 'POST', N extends (M extends 'GET' ? GetAction : PostAction)>(method: M, action: N) {
  const declaration = declarationOf(method, action);
  if (!declaration) throw new Error(`${method} ${action} has a handler but no declaration in packages/shared/src/api`);
  const route = method === 'GET' ? Get(routeName(declaration)) : Post(routeName(declaration));
  const decorate = applyDecorators(route, (target: object, key: string | symbol, desc: PropertyDescriptor) => {
    Reflect.defineMetadata(DECLARATION, declaration, desc.value as object);
  });
  return <T extends Handler<InputOf<M, N>, Returns<AnswerOf<M, N>>>>(
    target: object,
    key: string | symbol,
    desc: TypedPropertyDescriptor<Checked<T, InputOf<M, N>>>,
  ) => {
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
