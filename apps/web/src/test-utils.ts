import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';

/** The roots mount() made, for unmountAll. */
const roots = new Set<Root>();

/** Unmounts every root mount() made (inside act, so their effects' cleanups run now, not during the worker's teardown). */
export async function unmountAll(): Promise<void> {
  const all = [...roots];
  roots.clear();
  await act(async () => {
    for (const r of all) r.unmount();
  });
}

/** An in-memory Storage (localStorage/sessionStorage stand-in) for tests. */
export function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, v),
  };
}

/** Renders `node` into a new element of the document (React's act environment), answering the element. */
export async function mount(node: ReactNode): Promise<HTMLElement> {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  const el = document.createElement('div');
  document.body.appendChild(el);
  const root = createRoot(el);
  roots.add(root);
  await act(async () => root.render(node));
  return el;
}
