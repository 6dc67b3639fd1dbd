/** Contract of the datalabels area: not declared yet. */
import type { AnyEndpoint } from "./endpoint";

export const datalabels: Record<string, AnyEndpoint> = {};
