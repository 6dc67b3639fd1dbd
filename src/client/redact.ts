/**
 * Keeps secrets out of messages and logs. The client never puts a password, client secret or token
 * into a message itself; this is the second line of defence for text that comes from a server (an
 * error body, a proxy's HTML page) and might echo what it was sent.
 */

const MARK = "[redacted]";
/** JWTs (three base64url segments, the first a JSON header) and bearer credentials. */
const JWT = /eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]+/g;
const BEARER = /\bBearer\s+[\w.~+/=-]+/gi;
/**
 * Shorter known secrets are not scrubbed from server text: a password such as `admin` also appears
 * inside user names (`admin@example.com`) and scrubbing it would garble every message; the client
 * never sends a secret anywhere a server could echo it into an error besides the token endpoint.
 */
const MIN_SCRUBBED_LENGTH = 8;

export class Secrets {
  private readonly values = new Set<string>();

  add(value: string | undefined): void {
    if (value && value.length >= MIN_SCRUBBED_LENGTH) this.values.add(value);
  }

  scrub(text: string): string {
    let out = text.replace(JWT, MARK).replace(BEARER, `Bearer ${MARK}`);
    for (const v of this.values) out = out.split(v).join(MARK);
    return out;
  }
}
