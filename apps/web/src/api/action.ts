import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PostAction, PostAnswer, PostInput } from '@wantuo/shared';
import { useRef } from 'react';
import { feedback } from './feedback';
import { post, type ApiError, type CallOptions } from './http';
import { queryKey, type QueryAction } from './query';

export interface ActionOptions<K extends PostAction> {
  /** the reads the write changes: every cached query whose key starts with one of these actions is refetched after it */
  invalidates?: readonly QueryAction[];
  /** a toast after success (antd's message, antd-mobile's toast on the phone) */
  success?: string | ((answer: PostAnswer<K>, input: PostInput<K>) => string);
  /** after success (the toast shown, the invalidation started) */
  onDone?: (answer: PostAnswer<K>, input: PostInput<K>) => unknown;
  /** nothing shown on a refusal (the request wrapper's `silent`): the caller shows it in onError */
  silent?: boolean;
  /** after a refusal or failure (the request wrapper has shown it, unless silent) */
  onError?: (err: ApiError, input: PostInput<K>) => unknown;
}

export interface Action<K extends PostAction> {
  /**
   * Sends the write, unless one is under way (a second click while busy is dropped): the answer, or undefined when it
   * was refused (already shown by the request wrapper) or dropped. Never rejects.
   */
  run: (input: PostInput<K>) => Promise<PostAnswer<K> | undefined>;
  /** while the write is under way (a button's loading, a dialog's confirmLoading) */
  busy: boolean;
  /** the input of the write under way, or of the last one (which row's button spins) */
  input: PostInput<K> | undefined;
}

const send = post as <K extends PostAction>(action: K, input: PostInput<K>, opts?: CallOptions) => Promise<PostAnswer<K>>;

/**
 * Every write of the web the same way: `const save = useAction('editStudent', { invalidates: ['studentList'], success:
 * s('saved'), onDone: close })`, then `save.run(input)` and `save.busy`. The request wrapper shows a refusal (the
 * envelope's message through the entry's toast) and dedupes a repeated write; this adds the busy state, the guard
 * against a click while busy, the success toast and the cache invalidation by action.
 */
export function useAction<K extends PostAction>(action: K, opts: ActionOptions<K> = {}): Action<K> {
  const qc = useQueryClient();
  const running = useRef(false);
  const m = useMutation<PostAnswer<K>, ApiError, PostInput<K>>({
    mutationFn: (input) => (opts.silent ? send(action, input, { silent: true }) : send(action, input)),
  });
  const run = async (input: PostInput<K>): Promise<PostAnswer<K> | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    let answer: PostAnswer<K>;
    try {
      answer = await m.mutateAsync(input);
    } catch (e) {
      opts.onError?.(e as ApiError, input);
      return undefined;
    } finally {
      running.current = false;
    }
    const { success, invalidates = [], onDone } = opts;
    if (success) feedback().message.success(typeof success === 'function' ? success(answer, input) : success);
    for (const a of invalidates) void qc.invalidateQueries({ queryKey: queryKey(a) });
    await onDone?.(answer, input);
    return answer;
  };
  return { run, busy: m.isPending, input: m.variables };
}
