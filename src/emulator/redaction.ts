/**
 * Which fields hold secrets, and a record's copy with them redacted: the one rule of the audit log
 * (audit.ts), the console page (console/api.js), snapshots (plant/secrets.ts) and the secret
 * settings of `svc-emulator adopt-plan` (cli.ts).
 *
 * The console runs in the browser as a plain ES module, with no bundler, so the emulator serves it
 * this rule as a module made from the text of the same function (`redactionModule`, served at
 * /emulator/ui/redaction.js): there is no second copy that could drift. That function therefore
 * closes over nothing outside itself.
 */

/** How much of a record a redacted copy keeps: nesting past `maxDepth` becomes "[truncated]", arrays keep `maxItems` items. */
export interface RedactLimits {
  maxDepth: number;
  maxItems?: number;
}

function redactionRule() {
  /** Words naming a secret wherever they stand in a key: `password`, `db_passwd`, `clientSecret`, `api_token`, `x-api-key`, `private_key`, `pwd`, ... */
  const SECRET_WORD = /password|passwd|passphrase|pwd|secret|token|credential|api[_-]?key|private[_-]?key/i;
  /** `pass` names one only as a word of its own (`pass`, `db_pass`, `dbPass`, `DB_PASS`), not inside compass, passive or bypass. */
  const PASS_WORD = /(^|[^a-z])pass($|[^a-z])/;
  const MARK = "[redacted]";
  /** Secret values shorter than this are not searched for in other fields (too likely to match by chance). */
  const MIN_REPEATED_SECRET = 8;

  /** Whether a field of this name holds a secret. */
  function isSecretKey(key: string): boolean {
    if (SECRET_WORD.test(key)) return true;
    // camelCase and acronyms split into words: dbPass → db_Pass, DBPass → DB_Pass.
    const words = key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/([A-Z])([A-Z][a-z])/g, "$1_$2");
    return PASS_WORD.test(words.toLowerCase());
  }

  /** The text values found under secret keys, at any depth. */
  function secretValues(v: unknown, out: Set<string>, underSecret: boolean): Set<string> {
    if (typeof v === "string") {
      if (underSecret && v.length >= MIN_REPEATED_SECRET) out.add(v);
    } else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) secretValues(x, out, underSecret || (!Array.isArray(v) && isSecretKey(k)));
    }
    return out;
  }

  /**
   * A copy of `record` in which the fields named like secrets are "[redacted]" at any depth, and so is
   * each of their values wherever another field repeats it (a script embedding a token). Nesting past
   * the limit is cut, never copied raw. Keys are copied as data (`__proto__` included).
   */
  function redact(record: unknown, limits: RedactLimits = { maxDepth: 32 }): unknown {
    const secrets = [...secretValues(record, new Set(), false)];
    const copy = (v: unknown, depth: number): unknown => {
      if (typeof v === "string") return secrets.reduce((s, secret) => s.split(secret).join(MARK), v);
      if (v === null || typeof v !== "object") return v;
      if (depth >= limits.maxDepth) return "[truncated]";
      if (Array.isArray(v)) return (limits.maxItems === undefined ? v : v.slice(0, limits.maxItems)).map((x) => copy(x, depth + 1));
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, isSecretKey(k) ? MARK : copy(x, depth + 1)]));
    };
    return copy(record, 0);
  }

  return { isSecretKey, redact };
}

export const { isSecretKey, redact } = redactionRule();

/**
 * The rule as the ES module the console imports (`import { redact } from "./redaction.js"`): the
 * rule's own function, as JavaScript (the build's and the test runner's output of this file).
 */
export function redactionModule(): string {
  return `// The emulator's secret-key rule (src/emulator/redaction.ts), served as a module.\nexport const { isSecretKey, redact } = (${redactionRule.toString()})();\n`;
}
