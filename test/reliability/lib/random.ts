// Seeded randomness for the reliability tests: every random choice (kill moments,
// operation mixes) comes from one seed, so a failing run can be replayed exactly.

/** The seed a run uses: RELIABILITY_SEED from the environment, else a fixed one. */
export function reliabilitySeed(fallback: number): number {
  const fromEnv = Number(process.env.RELIABILITY_SEED);
  return Number.isInteger(fromEnv) && fromEnv !== 0 ? fromEnv : fallback;
}

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  /** A new generator derived from this one (for one agent, one cycle …). */
  fork(): Rng;
}

/** mulberry32: small, fast, and good enough to spread kill moments and choices. */
export function seededRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
    fork: () => seededRng(Math.floor(next() * 4294967296)),
  };
  return rng;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
