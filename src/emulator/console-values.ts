/**
 * The emulator's values the console's page shows and offers: the statuses a fault may answer and the
 * one it answers by default (faults.ts), and the built-in logins (areas/auth/model.ts). The page
 * imports them from /emulator/ui/values.js, a module made here from those constants, so it never
 * keeps a copy that could fall behind them.
 */
import { BUILTIN_USERS, READ_PERMISSIONS } from "./areas/auth/model";
import { DEFAULT_FAULT_STATUSES, FAULT_STATUSES } from "./faults";

/** The values, by the name the page imports them under. */
export function consoleValues() {
  return {
    FAULT_STATUSES: [...FAULT_STATUSES] as number[],
    DEFAULT_FAULT_STATUSES: [...DEFAULT_FAULT_STATUSES] as number[],
    /** The built-in users' logins, read-only ones first: the page signs in with the first. */
    BUILT_IN_LOGINS: Object.values(BUILTIN_USERS)
      .map(({ identity, password, clientId }) => ({
        /** The token endpoint's form fields for this user. */
        login: { grant_type: "password", username: identity.username, password, client_id: clientId },
        readOnly: identity.permissions.every((p) => READ_PERMISSIONS.includes(p)),
      }))
      .sort((a, b) => Number(b.readOnly) - Number(a.readOnly)),
  };
}

/** The text of /emulator/ui/values.js. */
export function consoleValuesModule(): string {
  const lines = Object.entries(consoleValues()).map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};`);
  return `// The emulator's values the console uses (src/emulator/console-values.ts), served as a module.\n${lines.join("\n")}\n`;
}
