/** Contract of the bridges area: not declared yet. */
import type { AnyEndpoint } from "./endpoint";

export const bridges: Record<string, AnyEndpoint> = {};
