/**
 * Keeps secrets out of a snapshot. The records' own secret fields (a cluster's service account
 * token, kubeconfig and scripts, registry and edge API passwords) are never copied in the first
 * place; this guard covers the free-form parts a snapshot does copy (payloads, configurations,
 * manifests, metadata): a text field whose key names a secret, and any text holding a secret value
 * the snapshot knows (the credentials it logged in with, the tokens the platform answered).
 */
import { isSecretKey } from "../redaction";

/** Values shorter than this are matched whole only (a short password must not flag every text containing it). */
const SUBSTRING_MIN = 8;

export class SecretGuard {
  private readonly values = new Set<string>();

  /** A secret value that must not appear in the file. */
  add(value: string | null | undefined): void {
    if (typeof value === "string" && value.trim() !== "") this.values.add(value);
  }

  private holdsSecret(text: string): boolean {
    for (const v of this.values) {
      if (text === v || (v.length >= SUBSTRING_MIN && text.includes(v))) return true;
    }
    return false;
  }

  /**
   * A copy of `value` without its secrets, and the paths of what was taken out (`payload.password`).
   * A text under a secret-looking key goes, as does any text that holds a known secret value; keys
   * and non-text values stay.
   */
  clean<T>(value: T, path = ""): { value: T; removed: string[] } {
    const removed: string[] = [];
    const walk = (v: unknown, at: string, key: string | undefined): { keep: boolean; value: unknown } => {
      if (typeof v === "string") {
        if ((key !== undefined && v !== "" && isSecretKey(key)) || this.holdsSecret(v)) {
          removed.push(at);
          return { keep: false, value: undefined };
        }
        return { keep: true, value: v };
      }
      if (Array.isArray(v)) {
        const out: unknown[] = [];
        v.forEach((x, i) => {
          const r = walk(x, `${at}[${i}]`, undefined);
          if (r.keep) out.push(r.value);
        });
        return { keep: true, value: out };
      }
      if (v && typeof v === "object") {
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) {
          const r = walk(x, at ? `${at}.${k}` : k, k);
          if (r.keep) Object.defineProperty(out, k, { value: r.value, enumerable: true, writable: true, configurable: true });
        }
        return { keep: true, value: out };
      }
      return { keep: true, value: v };
    };
    const r = walk(value, path, undefined);
    return { value: r.value as T, removed };
  }
}
