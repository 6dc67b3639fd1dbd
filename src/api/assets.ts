/** Contract of the assets area: not declared yet. */
import type { AnyEndpoint } from "./endpoint";

export const assets: Record<string, AnyEndpoint> = {};
