import type { GetAction, GetAnswer, GetInput } from '@wantuo/shared';
import { get } from './http';

/** The GET actions that answer a file (declared with FileAnswer). */
export type FileAction = { [K in GetAction]: GetAnswer<K> extends Blob ? K : never }[GetAction];

/** Downloads what a GET action answers as a file (exports, templates) under `filename`. */
export async function download<K extends FileAction>(action: K, params: GetInput<K>, filename: string): Promise<void> {
  const blob = (await get(action, params as GetInput<FileAction>, { responseType: 'blob' })) as Blob;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
