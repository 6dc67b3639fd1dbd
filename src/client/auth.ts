/**
 * Where the bearer token comes from: a static token, the OIDC token endpoint (password or
 * client_credentials grant, renewed with the refresh token), or the edge API's token endpoint.
 *
 * A token is fetched once for all concurrent callers (single flight) and reused until about 90 % of
 * its lifetime has passed; then it is renewed with the refresh token while that is still fresh,
 * or by logging in again. A 401 on a call invalidates the token it was sent with, once.
 */
import type { Credentials } from "./config";
import { SvcApiError, SvcResponseError } from "./errors";

/** What a token endpoint answered, read leniently: only access_token is required. */
export interface TokenAnswer {
  access_token: string;
  expires_in?: number;
  refresh_token?: string;
  refresh_expires_in?: number;
}

/** Sends one form to a token endpoint (with the client's retries) and returns the decoded JSON. */
export type TokenRequester = (endpoint: "oidc" | "edge", form: Record<string, string>, grant: string) => Promise<unknown>;

export interface TokenSource {
  token(): Promise<string>;
  /** Forget `token` if it is still the current one; true when a fresh token can be fetched. */
  invalidate(token: string): boolean;
}

/** Renew at this share of a lifetime. */
const RENEW_AT = 0.9;
/** Lifetime assumed when an answer gives none: short, so that a token is not trusted for long. */
const UNKNOWN_LIFETIME_S = 60;

export class StaticTokenSource implements TokenSource {
  constructor(private readonly value: string) {}
  token(): Promise<string> {
    return Promise.resolve(this.value);
  }
  invalidate(): boolean {
    return false;
  }
}

interface Held {
  access: string;
  renewAccessAt: number;
  refresh?: string;
  renewRefreshAt?: number;
}

function readAnswer(raw: unknown, endpointId: string): TokenAnswer {
  const a = raw as Partial<TokenAnswer> | undefined;
  if (!a || typeof a.access_token !== "string" || a.access_token === "") {
    throw new SvcResponseError(endpointId, [{ path: "access_token", message: "missing: the token endpoint issued no access token" }]);
  }
  const int = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : undefined);
  return {
    access_token: a.access_token,
    expires_in: int(a.expires_in),
    refresh_token: typeof a.refresh_token === "string" && a.refresh_token ? a.refresh_token : undefined,
    refresh_expires_in: int(a.refresh_expires_in),
  };
}

export class FetchedTokenSource implements TokenSource {
  private held?: Held;
  private inflight?: Promise<string>;

  constructor(
    private readonly credentials: Exclude<Credentials, { kind: "static" }>,
    private readonly request: TokenRequester,
    /** Remembers every secret the source learns, so that it can be scrubbed from any text. */
    private readonly remember: (secret: string) => void,
    private readonly log: (message: string, extra?: Record<string, unknown>) => void,
    private readonly now: () => number = Date.now,
  ) {}

  token(): Promise<string> {
    if (this.held && this.now() < this.held.renewAccessAt) return Promise.resolve(this.held.access);
    // Single flight: every caller that arrives while a token is being fetched waits for that one.
    this.inflight ??= this.obtain().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  invalidate(token: string): boolean {
    if (this.held?.access === token) this.held = { ...this.held, renewAccessAt: 0 };
    return true;
  }

  private async obtain(): Promise<string> {
    const held = this.held;
    if (held?.refresh && held.renewRefreshAt !== undefined && this.now() < held.renewRefreshAt) {
      try {
        return this.keep(await this.request("oidc", this.refreshForm(held.refresh), "refresh_token"));
      } catch (err) {
        // A refused refresh (revoked session, restarted identity provider) is answered by logging in again.
        if (!(err instanceof SvcApiError) || (err.status !== 400 && err.status !== 401)) throw err;
        this.log(`refresh was refused (${err.status}); logging in again`, { grant: "refresh_token", status: err.status });
      }
    }
    return this.keep(await this.login());
  }

  private login(): Promise<unknown> {
    const c = this.credentials;
    switch (c.kind) {
      case "password":
        return this.request(
          "oidc",
          { grant_type: "password", username: c.username, password: c.password, client_id: c.clientId, ...(c.clientSecret ? { client_secret: c.clientSecret } : {}) },
          "password",
        );
      case "client_credentials":
        return this.request("oidc", { grant_type: "client_credentials", client_id: c.clientId, client_secret: c.clientSecret }, "client_credentials");
      case "edge":
        return this.request("edge", { username: c.username, password: c.password }, "edge");
    }
  }

  private refreshForm(refreshToken: string): Record<string, string> {
    const c = this.credentials;
    const clientId = c.kind === "edge" ? "" : c.clientId;
    const secret = c.kind === "edge" ? undefined : c.clientSecret;
    return { grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId, ...(secret ? { client_secret: secret } : {}) };
  }

  private keep(raw: unknown): string {
    const a = readAnswer(raw, this.credentials.kind === "edge" ? "auth.edgeToken" : "auth.token");
    const now = this.now();
    this.remember(a.access_token);
    if (a.refresh_token) this.remember(a.refresh_token);
    // The edge endpoint issues no refresh token: its tokens are renewed by logging in again.
    const refresh = this.credentials.kind === "edge" ? undefined : a.refresh_token;
    this.held = {
      access: a.access_token,
      renewAccessAt: now + (a.expires_in ?? UNKNOWN_LIFETIME_S) * 1000 * RENEW_AT,
      ...(refresh && a.refresh_expires_in ? { refresh, renewRefreshAt: now + a.refresh_expires_in * 1000 * RENEW_AT } : {}),
    };
    return a.access_token;
  }
}
