import type { ParentChild } from '@wantuo/shared';
import { useCallback } from 'react';
import { create } from 'zustand';

const KEY = 'wantuo.chosen_child';

const stored = (): number | null => {
  try {
    const n = Number(window.sessionStorage.getItem(KEY));
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
};

interface ChosenChild {
  /** the child the guardian last chose (an id of theirs, or null: none chosen yet) */
  id: number | null;
  choose(id: number): void;
}

/**
 * The child a guardian with several children chose (on the home page's switcher or a page's own), remembered for the
 * other per-child pages of the visit (kept in the tab's sessionStorage: only the id, no child's data). No antd: the
 * phone app and the consoles share it.
 */
export const useChosenChildStore = create<ChosenChild>((set) => ({
  id: stored(),
  choose(id) {
    try {
      window.sessionStorage.setItem(KEY, String(id));
    } catch {
      // private mode without storage: remembered for this page's life only
    }
    set({ id });
  },
}));

/** The child chosen among `kids` (an id that is not one of them, or none: the first) and the way to choose another. */
export function chosenOf(kids: readonly ParentChild[], id: number | null): ParentChild | undefined {
  return kids.find((k) => k.id === id) ?? kids[0];
}

/** `[the chosen child of kids (undefined when there are none), choose]`: the per-child pages' one way to know whose page it is. */
export function useChosenChild(kids: readonly ParentChild[]): [ParentChild | undefined, (id: number) => void] {
  const id = useChosenChildStore((s) => s.id);
  const choose = useChosenChildStore((s) => s.choose);
  return [chosenOf(kids, id), useCallback((n: number) => choose(n), [choose])];
}
