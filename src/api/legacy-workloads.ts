/** Contract of the legacy-workloads area: not declared yet. */
import type { AnyEndpoint } from "./endpoint";

export const legacyWorkloads: Record<string, AnyEndpoint> = {};
