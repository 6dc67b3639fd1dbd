/** Contract of the acps area: not declared yet. */
import type { AnyEndpoint } from "./endpoint";

export const acps: Record<string, AnyEndpoint> = {};
