/** Contract of the schedules area: not declared yet. */
import type { AnyEndpoint } from "./endpoint";

export const schedules: Record<string, AnyEndpoint> = {};
