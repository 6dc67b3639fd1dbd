/** Contract of the parameters area: not declared yet. */
import type { AnyEndpoint } from "./endpoint";

export const parameters: Record<string, AnyEndpoint> = {};
