/**
 * The emulated edge: how long a workload package download takes, and whether it fails. Set by the
 * emulator's `packageMs` option (`--package-ms`), and by the fault configuration while it sets
 * `package_ms` or `package_failure_rate` (a slow or failing edge). Each download reads them when it
 * starts and keeps what they said; the record then moves as time passes (see `asOf` in
 * areas/workloads/model.ts).
 */

/** How long a package download takes unless told otherwise: short, but long enough to be seen. */
export const DEFAULT_PACKAGE_MS = 1000;

export interface Edge {
  /** How long a package download starting now takes, ms (0: it is done at once). */
  packageMs(): number;
  /** Whether a package download starting now fails. */
  packageFails(): boolean;
}

/** What the fault configuration says about downloads, when it says anything. */
export interface EdgeFaults {
  packageMs(): number | undefined;
  packageFails(): boolean;
}

export function edgeOf(packageMs: number | undefined, faults?: EdgeFaults): Edge {
  return {
    packageMs: () => faults?.packageMs() ?? packageMs ?? DEFAULT_PACKAGE_MS,
    packageFails: () => faults?.packageFails() ?? false,
  };
}
