import { mulberry32 } from "../../src/emulator/seeded-random";

/** A small seeded generator (mulberry32): the same seed gives the same choices. */
export class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed >>> 0 || 0x9e3779b9);
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
}
