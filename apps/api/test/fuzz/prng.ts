/**
 * The fuzz test's seeded randomness: one mulberry32 stream per (seed, route, caller), so a route's cases do not
 * change when another route is added, removed or filtered out (FUZZ_ONLY).
 */

/** The default seed: fixed, so CI is deterministic; FUZZ_SEED=<n> replays or explores, FUZZ_SEED=random picks one. */
export const DEFAULT_SEED = 20_261_123;

export function seedFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.FUZZ_SEED?.trim();
  if (!raw) return DEFAULT_SEED;
  if (raw === 'random') return Math.floor(Math.random() * 2 ** 31);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`FUZZ_SEED must be a non-negative integer or "random", not ${JSON.stringify(raw)}`);
  return n;
}

export interface Rng {
  /** uniform in [0, 1) */
  next(): number;
  /** an integer in [min, max] */
  int(min: number, max: number): number;
  pick<T>(list: readonly T[]): T;
  /** k distinct items of the list (all of them when k >= length), in the list's order */
  sample<T>(list: readonly T[], k: number): T[];
  chance(p: number): boolean;
}

function hashString(s: string): number {
  // FNV-1a, 32 bits
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function rngFor(seed: number, stream: string): Rng {
  let a = (hashString(stream) ^ Math.imul(seed >>> 0, 0x9e3779b1)) >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    sample(list, k) {
      if (k >= list.length) return [...list];
      const idx = list.map((_, i) => i);
      for (let i = idx.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [idx[i], idx[j]] = [idx[j], idx[i]];
      }
      return idx
        .slice(0, k)
        .sort((x, y) => x - y)
        .map((i) => list[i]);
    },
    chance: (p) => next() < p,
  };
  return rng;
}
