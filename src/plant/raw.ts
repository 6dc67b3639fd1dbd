/**
 * Answers as the server sent them, for the parity check: the typed client checks every answer against
 * the table's schema and keeps only the fields the schema knows, which is right for a program and
 * wrong for a comparison of what two servers send. Same credentials, configuration, paths, query
 * encoding, paging and retries as the client (its modules are reused); the answer is the decoded
 * JSON, unchecked.
 */
import type { AnyEndpoint } from "../api/endpoint";
import { areas } from "../api/endpoints";
import { FetchedTokenSource, StaticTokenSource, type TokenSource } from "../client/auth";
import { mergeOptions, optionsFromEnv, resolveConfig, type ResolvedConfig, type SvcClientOptions } from "../client/config";
import { API_ROOT, encodeBody, encodeQuery, fillPath, isOutsideApiRoot, type RawInput } from "../client/encode";
import { firstPageQuery, nextPageQuery } from "../client/pagination";
import { backoffDelay, parseRetryAfter, RETRYABLE_STATUSES, sleep } from "../client/retry";
import { SvcError } from "../errors";

export interface RawAnswer {
  status: number;
  /** The decoded JSON (undefined for an empty or non-JSON body). */
  body: unknown;
}

const DEFAULT_RETRY = { maxAttempts: 10, maxElapsedMs: 120_000, baseDelayMs: 200, maxDelayMs: 10_000 };

export class RawApi {
  private readonly config: ResolvedConfig;
  private readonly tokens: TokenSource;

  /** `options` as the client takes them; unset ones fall back to `env` (default none). */
  constructor(options: SvcClientOptions, env: NodeJS.ProcessEnv = {}) {
    this.config = resolveConfig(mergeOptions({ retry: DEFAULT_RETRY, ...options }, optionsFromEnv(env)));
    const c = this.config.credentials;
    this.tokens =
      c.kind === "static"
        ? new StaticTokenSource(c.token)
        : new FetchedTokenSource(
            c,
            (which, form) => this.token(which, form),
            () => undefined,
            () => undefined,
          );
  }

  /** Where this API is, as shown in reports. */
  get origin(): string {
    return `${this.config.origin}${this.config.basePath}`;
  }

  /** One operation; 429, 502, 503, 504 and network failures repeated with backoff, a refused token renewed once. */
  async send(ep: AnyEndpoint, input: RawInput = {}): Promise<RawAnswer> {
    const policy = this.config.retry;
    const started = Date.now();
    const path = `${this.config.basePath}${isOutsideApiRoot(ep) ? "" : API_ROOT}${fillPath(ep, input.params)}${encodeQuery(input.query)}`;
    const { body, contentType } = encodeBody(ep, input);
    let renewed = false;
    for (let attempt = 1; ; attempt++) {
      const token = ep.permission === null ? undefined : await this.tokens.token();
      let retryAfter: number | undefined;
      let failure: string;
      let cause: unknown;
      try {
        const res = await fetch(`${this.config.origin}${path}`, {
          method: ep.method,
          headers: {
            accept: "application/json",
            "user-agent": this.config.userAgent,
            ...(contentType ? { "content-type": contentType } : {}),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: body as string | undefined,
          signal: AbortSignal.timeout(this.config.timeoutMs),
        });
        const text = await res.text();
        const status = res.status;
        if (status === 401 && token && !renewed && this.tokens.invalidate(token)) {
          renewed = true;
          attempt--;
          continue;
        }
        if (!RETRYABLE_STATUSES.has(status)) return { status, body: parseJson(text) };
        retryAfter = parseRetryAfter(res.headers.get("retry-after") ?? undefined);
        failure = `answered ${status}`;
      } catch (err) {
        failure = `no answer (${(err as Error).message})`;
        cause = err;
      }
      const delay = retryAfter ?? backoffDelay(attempt, policy);
      if (attempt >= policy.maxAttempts || Date.now() - started + delay > policy.maxElapsedMs) {
        throw new SvcError("SVC_PLATFORM_NO_ANSWER", `${ep.method} ${fillPath(ep, input.params)} at ${this.origin}: ${failure} after ${attempt} attempt(s)`, { cause });
      }
      await sleep(delay);
    }
  }

  /** Every page of a list operation, as answered; stops at the last page or at an answer that is not a page. */
  async *pages(ep: AnyEndpoint, input: RawInput = {}): AsyncGenerator<RawAnswer> {
    let query: Record<string, unknown> | undefined = firstPageQuery(ep, input);
    while (query) {
      const answer = await this.send(ep, { ...input, query });
      yield answer;
      const page = answer.body as { data?: unknown[]; pagination?: { next_page?: string | null } } | undefined;
      if (answer.status >= 300 || !page || !Array.isArray(page.data)) return;
      query = nextPageQuery(ep, query, page);
    }
  }

  private async token(which: "oidc" | "edge", form: Record<string, string>): Promise<unknown> {
    const ep = which === "oidc" ? areas.auth.token : areas.auth.edgeToken;
    const answer = await this.send(ep, { body: form });
    if (answer.status !== 200) {
      const detail = JSON.stringify(answer.body ?? "").slice(0, 300);
      throw new SvcError(
        "SVC_LOGIN_REFUSED",
        `login at ${this.origin} refused (${answer.status}): ${detail}; check the credentials (SVC_CLIENT_ID, SVC_CLIENT_SECRET, SVC_USERNAME, SVC_PASSWORD)`,
      );
    }
    return answer.body;
  }
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
