/** Contract of the appregistry area: not declared yet. */
import type { AnyEndpoint } from "./endpoint";

export const appregistry: Record<string, AnyEndpoint> = {};
