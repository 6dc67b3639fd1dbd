/** Contract of the datatypes area: not declared yet. */
import type { AnyEndpoint } from "./endpoint";

export const datatypes: Record<string, AnyEndpoint> = {};
