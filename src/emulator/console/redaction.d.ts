// The types of /emulator/ui/redaction.js, which the emulator serves made from the rule in
// src/emulator/redaction.ts (console.ts): the page type-checks against the rule itself.
export { isSecretKey, redact } from "../redaction";
