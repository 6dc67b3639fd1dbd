/** Contract of the workloads area: not declared yet. */
import type { AnyEndpoint } from "./endpoint";

export const workloads: Record<string, AnyEndpoint> = {};
