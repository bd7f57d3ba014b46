import { get } from './http';

/** Downloads what a GET action answers as a file (exports, templates) under `filename`. */
export async function download(action: string, params: object, filename: string): Promise<void> {
  const blob = await get<Blob>(action, params, { responseType: 'blob' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
