/** Contract of the insights area: not declared yet. */
import type { AnyEndpoint } from "./endpoint";

export const insights: Record<string, AnyEndpoint> = {};
