/** The known name nearest to a mistyped one, for messages that say "did you mean …?". */

/** The known name nearest to `typed` (by `closeness`); undefined when there is none. */
export function nearest(typed: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  return known.reduce((best, k) => (closeness(typed, k) < closeness(typed, best) ? k : best));
}

/** How far a mistyped name is from a known one: its edit distance, or 1 when one begins the other (`user`, `username`). */
function closeness(typed: string, known: string): number {
  const a = typed.toLowerCase();
  const b = known.toLowerCase();
  return a.length > 1 && (b.startsWith(a) || a.startsWith(b)) ? Math.min(1, distance(a, b)) : distance(a, b);
}

/** Edit distance (insertions, deletions, substitutions, swaps of neighbours). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
