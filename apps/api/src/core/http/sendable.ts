/**
 * What a handler (and a repository, for it) may hand the envelope for the answer `A` declared in packages/shared:
 * `A` itself, except that a string may still be the Date JSON turns into an ISO 8601 string (a timestamptz column).
 * A row lacking a field, naming it otherwise, or typing it or its nullability otherwise fails to compile against it.
 */
export type Sendable<A> = A extends string
  ? A | Date
  : A extends null | undefined | number | boolean | bigint
    ? A
    : A extends ReadonlyArray<infer U>
      ? Array<Sendable<U>>
      : A extends object
        ? { [K in keyof A]: Sendable<A[K]> }
        : A;
