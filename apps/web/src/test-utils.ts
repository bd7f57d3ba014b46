import { act, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';

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
  await act(async () => createRoot(el).render(node));
  return el;
}
