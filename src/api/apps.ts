/** Contract of the apps area: not declared yet. */
import type { AnyEndpoint } from "./endpoint";

export const apps: Record<string, AnyEndpoint> = {};
