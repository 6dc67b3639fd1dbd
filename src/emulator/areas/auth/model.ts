/**
 * Identities, tokens and permissions. Access and refresh tokens are signed JWTs (HS256). The signing
 * key lives in the store, so a persisted emulator keeps honouring the tokens it issued before a restart.
 *
 * An access token is verified once: its identity is then kept (by the token's text) until the token
 * expires, so later requests with it skip the signature check. The cache is bounded, and emptied when
 * the signing key changes and when the store is reset or cleared.
 */
import { createHmac, createSecretKey, randomBytes, randomUUID, timingSafeEqual, type KeyObject } from "node:crypto";
import jwt from "jsonwebtoken";
import { errors } from "../../../api/errors";
import type { Store } from "../../store/store";

export interface Identity {
  /** Login name: the e-mail of a user, the client id of a service account. */
  username: string;
  kind: "user" | "service-account" | "edge";
  /** Stable uuid (the audit log's user_id). */
  userId: string;
  /** Permission patterns over `svc.permission.<suffix>`; `*` matches one or more name parts. */
  permissions: string[];
}

export const krnOf = (id: Identity): string => (id.kind === "service-account" ? `krn:service-account:${id.username}` : `krn:user:${id.username}`);

interface UserEntry {
  password: string;
  clientId?: string;
  identity: Identity;
}
interface ClientEntry {
  secret: string;
  identity: Identity;
}

export const ALL_PERMISSIONS = ["svc.permission.*"];
export const READ_PERMISSIONS = ["svc.permission.*.read"];

/** The built-in identities, documented in the README. */
export const BUILTIN_USERS: Record<string, UserEntry & { clientId: string }> = {
  "admin@example.com": {
    password: "admin",
    clientId: "svc-cli",
    identity: { username: "admin@example.com", kind: "user", userId: "6f1c2a7e-0000-4000-8000-000000000001", permissions: ALL_PERMISSIONS },
  },
  "viewer@example.com": {
    password: "viewer",
    clientId: "svc-cli",
    identity: { username: "viewer@example.com", kind: "user", userId: "6f1c2a7e-0000-4000-8000-000000000002", permissions: READ_PERMISSIONS },
  },
};
export const BUILTIN_CLIENTS: Record<string, ClientEntry> = {
  "svc-admin": {
    secret: "svc-admin-secret",
    identity: { username: "svc-admin", kind: "service-account", userId: "6f1c2a7e-0000-4000-8000-000000000003", permissions: ALL_PERMISSIONS },
  },
};
export const EDGE_USERS: Record<string, UserEntry> = {
  edge: {
    password: "edge",
    identity: {
      username: "edge",
      kind: "edge",
      userId: "6f1c2a7e-0000-4000-8000-000000000004",
      permissions: ["svc.permission.workload.*", "svc.permission.*.read"],
    },
  },
};

export const SYSTEM_IDENTITY: Identity = {
  username: "system",
  kind: "service-account",
  userId: "00000000-0000-4000-8000-000000000000",
  permissions: ALL_PERMISSIONS,
};

const permissionMatchers = new Map<string, RegExp>();
export function holds(identity: Identity, suffix: string): boolean {
  const wanted = `svc.permission.${suffix}`;
  return identity.permissions.some((p) => {
    let re = permissionMatchers.get(p);
    if (!re) {
      re = new RegExp(
        "^" +
          p
            .split("*")
            .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
            .join("[a-z0-9_.]+") +
          "$",
      );
      permissionMatchers.set(p, re);
    }
    return re.test(wanted);
  });
}

export interface TokenLifetimes {
  access: number;
  refresh: number;
}
export const DEFAULT_LIFETIMES: TokenLifetimes = { access: 3600, refresh: 7200 };

interface Claims {
  sub: string;
  typ: "Bearer" | "Refresh";
  kind: Identity["kind"];
  preferred_username: string;
  permissions: string[];
  azp?: string;
  sid: string;
}

const unauthorized = (msg: string, kind: typeof errors.UNAUTHORIZED = errors.UNAUTHORIZED) => kind(msg);

/** Most access tokens whose verification is remembered; the oldest is forgotten first. */
export const TOKEN_CACHE_LIMIT = 10_000;

interface VerifiedToken {
  identity: Identity;
  /** The token's `exp` claim, epoch seconds: it is expired from this second on (as jwt.verify counts). */
  exp: number;
}

export interface AuthStats {
  /** Signature checks of access tokens (cache misses). */
  verifications: number;
  /** Requests answered from the cache of verified tokens. */
  cacheHits: number;
  /** Tokens in the cache now. */
  cached: number;
}

export class Auth {
  constructor(
    private readonly store: Store,
    private readonly issuer: () => string,
    readonly lifetimes: TokenLifetimes = DEFAULT_LIFETIMES,
    private readonly clock: () => number = Date.now,
  ) {
    store.onReset(() => this.verified.clear());
  }

  private cachedKey?: { text: string; key: KeyObject };
  /** Verified access tokens by their text, oldest first (see TOKEN_CACHE_LIMIT). */
  private readonly verified = new Map<string, VerifiedToken>();
  /** The signing key the cached tokens were verified with. */
  private verifiedWith: string | undefined;
  private readonly counts = { verifications: 0, cacheHits: 0 };

  /** The signing key: created once and kept with the rest of the state. */
  private key(): KeyObject {
    const meta = this.store.table<string>("_meta");
    let k = meta.get("jwt_key");
    if (!k) {
      k = randomBytes(32).toString("base64url");
      // Written outside a request transaction: restore() keeps it out of the journal, and the
      // persistence layer writes `_meta` with the first snapshot.
      meta.restore("jwt_key", k);
    }
    // A key object built once: verifying with the string would rebuild it on every request.
    if (this.cachedKey?.text !== k) this.cachedKey = { text: k, key: createSecretKey(Buffer.from(k)) };
    return this.cachedKey.key;
  }

  stats(): AuthStats {
    return { ...this.counts, cached: this.verified.size };
  }

  private sign(identity: Identity, typ: Claims["typ"], lifetime: number, sid: string, clientId?: string): string {
    const nowSec = Math.floor(this.clock() / 1000);
    const claims: Claims & { iat: number; exp: number } = {
      sub: identity.userId,
      typ,
      kind: identity.kind,
      preferred_username: identity.username,
      permissions: identity.permissions,
      sid,
      ...(clientId ? { azp: clientId } : {}),
      iat: nowSec,
      exp: nowSec + lifetime,
    };
    return jwt.sign(claims, this.key(), { algorithm: "HS256", issuer: this.issuer(), jwtid: randomUUID() });
  }

  /** Full OIDC token answer: both lifetimes are always present so callers can cache. */
  issue(identity: Identity, clientId?: string) {
    const sid = randomUUID();
    return {
      access_token: this.sign(identity, "Bearer", this.lifetimes.access, sid, clientId),
      expires_in: this.lifetimes.access,
      refresh_expires_in: this.lifetimes.refresh,
      refresh_token: this.sign(identity, "Refresh", this.lifetimes.refresh, sid, clientId),
      token_type: "Bearer" as const,
      "not-before-policy": 0,
      session_state: sid,
      scope: "openid profile email",
    };
  }

  issueEdge(identity: Identity) {
    return {
      access_token: this.sign(identity, "Bearer", this.lifetimes.access, randomUUID()),
      expires_in: this.lifetimes.access,
      token_type: "Bearer" as const,
    };
  }

  private decode(token: string, typ: Claims["typ"]): Identity {
    return this.verify(token, typ).identity;
  }

  private verify(token: string, typ: Claims["typ"]): VerifiedToken {
    let claims: Claims & { exp: number };
    try {
      claims = jwt.verify(token, this.key(), {
        algorithms: ["HS256"],
        issuer: this.issuer(),
        clockTimestamp: Math.floor(this.clock() / 1000),
      }) as Claims & { exp: number };
    } catch (err) {
      if (err instanceof jwt.TokenExpiredError) {
        throw unauthorized(typ === "Bearer" ? "access token expired: request a new one from the token endpoint" : "refresh token expired: log in again", errors.TOKEN_EXPIRED);
      }
      throw unauthorized(typ === "Bearer" ? "access token is invalid (bad signature or malformed)" : "refresh token is invalid");
    }
    if (claims.typ !== typ) throw unauthorized(`${claims.typ === "Refresh" ? "a refresh" : "an access"} token cannot be used here`);
    return {
      identity: { username: claims.preferred_username, kind: claims.kind, userId: claims.sub, permissions: claims.permissions },
      exp: claims.exp,
    };
  }

  /** An access token's identity: from the cache while the token lives, else verified (and then cached). */
  private access(token: string): Identity {
    const keyText = this.store.table<string>("_meta").get("jwt_key");
    if (keyText !== this.verifiedWith) {
      // A new signing key: what the old one verified says nothing about the new one.
      this.verified.clear();
      this.verifiedWith = keyText;
    }
    const hit = this.verified.get(token);
    if (hit) {
      if (Math.floor(this.clock() / 1000) < hit.exp) {
        this.counts.cacheHits++;
        return hit.identity;
      }
      // Expired: forgotten, and verified again below so the caller gets the expiry error.
      this.verified.delete(token);
    }
    this.counts.verifications++;
    const verified = this.verify(token, "Bearer");
    // The key may have been created by this very verification (a store without one yet).
    this.verifiedWith = this.store.table<string>("_meta").get("jwt_key");
    if (this.verified.size >= TOKEN_CACHE_LIMIT) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, verified);
    return verified.identity;
  }

  /** The identity behind an `Authorization` header; 401 when missing, malformed, wrongly signed or expired. */
  authenticate(header: string | undefined): Identity {
    if (!header) throw unauthorized("missing Authorization header: send 'Authorization: Bearer <access token>'");
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (!m) throw unauthorized("malformed Authorization header: expected 'Bearer <access token>'");
    return this.access(m[1]);
  }

  refresh(token: string): Identity {
    return this.decode(token, "Refresh");
  }

  /** The signature of a direct link to `path` valid until `expires` (epoch seconds), made with the token key. */
  signLink(path: string, expires: number): string {
    return createHmac("sha256", this.key()).update(`${path}\n${expires}`).digest("base64url");
  }

  /**
   * The identity of a request that comes with a link signature instead of a token: it may read
   * `permission` only. 401 when the signature is not this server's for the path and `expires`; an
   * expired link is the operation's to refuse (it names the expiry).
   */
  linkIdentity(path: string, query: URLSearchParams, permission: string): Identity {
    const expires = Number(query.get("expires"));
    const given = Buffer.from(query.get("signature") ?? "");
    const wanted = Buffer.from(Number.isInteger(expires) ? this.signLink(path, expires) : "");
    if (given.length !== wanted.length || wanted.length === 0 || !timingSafeEqual(given, wanted)) {
      throw unauthorized("the download link is not valid (its signature does not match its path and expiry): request a new one with address=true");
    }
    return { username: "signed-link", kind: "service-account", userId: LINK_USER_ID, permissions: [`svc.permission.${permission}`] };
  }
}

/** The audit user id of requests made through a signed link. */
const LINK_USER_ID = "00000000-0000-4000-8000-00000000000a";
