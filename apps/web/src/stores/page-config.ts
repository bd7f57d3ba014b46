import { create } from 'zustand';
import type { PageConfig } from '@wantuo/shared';
import { get } from '../api/http';

interface PageConfigState {
  config: (PageConfig & { version: number }) | null;
  /** spec §4: if still empty when the root mounts, call index; keep the data on code 200; otherwise stay silent */
  loadIfEmpty(): Promise<void>;
  set(config: PageConfig & { version: number }): void;
}

export const usePageConfig = create<PageConfigState>((set, getState) => ({
  config: null,
  async loadIfEmpty() {
    if (getState().config) return;
    try {
      set({ config: await get('index', undefined, { silent: true }) });
    } catch {
      // silent, no retry (spec §8)
    }
  },
  set(config) {
    set({ config });
  },
}));
