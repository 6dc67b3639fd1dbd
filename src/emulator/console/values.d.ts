// The types of /emulator/ui/values.js, which the emulator serves made from its own constants
// (src/emulator/console-values.ts): the page type-checks against them.
import type { consoleValues } from "../console-values";

type Values = ReturnType<typeof consoleValues>;
export declare const FAULT_STATUSES: Values["FAULT_STATUSES"];
export declare const DEFAULT_FAULT_STATUSES: Values["DEFAULT_FAULT_STATUSES"];
export declare const BUILT_IN_LOGINS: Values["BUILT_IN_LOGINS"];
