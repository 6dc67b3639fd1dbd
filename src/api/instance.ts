/** Contract of the instance area: not declared yet. */
import type { AnyEndpoint } from "./endpoint";

export const instance: Record<string, AnyEndpoint> = {};
