/** Concurrency limits for provider operations, as the engine's `--parallel` gives them. */
import { SvcError } from "../../errors";

export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new SvcError("SVC_KIT_PARALLEL_INVALID", `parallel must be a positive integer, got ${limit}`);
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/**
 * Runs `work` for every item, an item starting only once every item it must wait for has finished
 * (`waitsFor(a)` lists the items that must finish before `a`), at most `semaphore.limit` at a time.
 * After the first failure nothing new starts; running work finishes; the first error is rethrown.
 */
export async function runOrdered<T>(items: readonly T[], waitsFor: (item: T) => readonly T[], semaphore: Semaphore, work: (item: T) => Promise<void>): Promise<void> {
  const order = topologicalOrder(items, waitsFor);
  const position = new Map(order.map((item, i) => [item, i] as const));
  const finished = new Map<T, Promise<void>>();
  let failure: { error: unknown } | undefined;
  for (const item of order) {
    // Only earlier items are awaited, which also breaks any cycle instead of deadlocking on it.
    const before = waitsFor(item).filter((x) => (position.get(x) ?? Infinity) < position.get(item)!);
    const run = async () => {
      await Promise.all(before.map((x) => finished.get(x)));
      if (failure) return;
      await semaphore.run(async () => {
        if (failure) return;
        try {
          await work(item);
        } catch (error) {
          failure ??= { error };
        }
      });
    };
    finished.set(item, run());
  }
  await Promise.all(finished.values());
  if (failure) throw failure.error;
}

/** Depth-first order in which every item comes after the items it waits for (back edges ignored). */
function topologicalOrder<T>(items: readonly T[], waitsFor: (item: T) => readonly T[]): T[] {
  const members = new Set(items);
  const out: T[] = [];
  const state = new Map<T, "visiting" | "done">();
  const visit = (item: T) => {
    if (state.has(item)) return;
    state.set(item, "visiting");
    for (const x of waitsFor(item)) if (members.has(x)) visit(x);
    state.set(item, "done");
    out.push(item);
  };
  items.forEach(visit);
  return out;
}
