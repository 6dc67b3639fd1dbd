/**
 * One HTTP exchange over a keep-alive undici Pool: send, read the whole answer, or fail with a
 * TransportError that says whether the request may have reached the server. Retries, auth and
 * error mapping are layered on top (see index.ts); this layer knows nothing about the API.
 *
 * undici is loaded through its public entry only: its files under lib/ are not part of its contract,
 * and a release that adds an `exports` map makes requiring them fail (ERR_PACKAGE_PATH_NOT_EXPORTED).
 */
import type { IncomingHttpHeaders } from "node:http";
import { Pool, type Dispatcher, type FormData } from "undici";

export interface WireRequest {
  method: "GET" | "POST";
  /** Absolute path with query string. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer | FormData;
}

export interface WireResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * - `unsent`: the connection was never made (refused, DNS, connect timeout): always safe to repeat.
 * - `reset`: the connection broke after the request may have been written.
 * - `timeout`: no complete answer in time; the server may still be working on it.
 * - `aborted`: the caller's signal fired; never retried.
 * - `other`: a local failure (bad body, closed client); never retried.
 */
export type TransportFailure = "unsent" | "reset" | "timeout" | "aborted" | "other";

export class TransportError extends Error {
  constructor(
    readonly failure: TransportFailure,
    message: string,
    readonly causeCode?: string,
    /** The server's scheme, host and port. */
    readonly origin?: string,
  ) {
    super(message);
    this.name = "TransportError";
  }

  /** Whether the server may have received (and acted on) the request. */
  get maybeSent(): boolean {
    return this.failure === "reset" || this.failure === "timeout";
  }
}

const UNSENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);
const RESET = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "ECONNABORTED"]);
const TIMEOUT = new Set(["ETIMEDOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | undefined;
  if (typeof e?.code === "string") return e.code;
  return typeof e?.cause?.code === "string" ? e.cause.code : undefined;
}

/** What a failure code means, for the codes people meet most. */
const MEANING: Record<string, string> = {
  ECONNREFUSED: "nothing listens there",
  ENOTFOUND: "the host name is unknown",
  EAI_AGAIN: "the host name could not be resolved now",
  EHOSTUNREACH: "the host is unreachable",
  ENETUNREACH: "the network is unreachable",
  UND_ERR_CONNECT_TIMEOUT: "the connection attempt timed out",
};

/** The failure as one line that names the server (`origin`: scheme, host and port). */
function classify(err: unknown, origin: string): TransportError {
  const code = errorCode(err);
  if (code && UNSENT.has(code)) return new TransportError("unsent", `could not connect to ${origin} (${code}: ${MEANING[code]})`, code, origin);
  if (code && RESET.has(code)) return new TransportError("reset", `connection to ${origin} reset (${code})`, code, origin);
  if (code && TIMEOUT.has(code)) return new TransportError("timeout", `${origin} timed out (${code})`, code, origin);
  return new TransportError("other", `request to ${origin} failed: ${(err as Error)?.message ?? String(err)}`, code, origin);
}

/** The reason given to undici when the timer or the caller stops an exchange. */
class StoppedSignal extends Error {}

export class Transport {
  private readonly pool: Pool;
  private closed = false;

  constructor(readonly origin: string) {
    // Keep-alive is undici's default; a bounded number of sockets keeps bursts from opening hundreds.
    this.pool = new Pool(origin, { connections: 32, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000 });
  }

  /**
   * Sends with the pool's dispatch and gathers the answer's chunks (no response stream, no abort
   * signal handed to undici): the least per-request work the pool allows. The timer bounds the whole
   * exchange; the caller's signal and the timer abort it through the dispatch's controller.
   */
  send(req: WireRequest, timeoutMs: number, signal?: AbortSignal): Promise<WireResponse> {
    if (this.closed) return Promise.reject(new TransportError("other", "the client is closed"));
    if (signal?.aborted) return Promise.reject(new TransportError("aborted", "aborted by the caller"));
    return new Promise<WireResponse>((resolve, reject) => {
      let controller: Dispatcher.DispatchController | undefined;
      /** Why the exchange was stopped here: the timer or the caller; undefined while it runs. */
      let stopped: "timeout" | "aborted" | undefined;
      let done = false;
      let status = 0;
      let headers: IncomingHttpHeaders = {};
      let chunks: Buffer[] = [];
      const stop = (why: "timeout" | "aborted") => {
        if (done || stopped) return;
        stopped = why;
        if (controller) controller.abort(new StoppedSignal());
        else fail(undefined);
      };
      const timer = setTimeout(() => stop("timeout"), timeoutMs);
      const onAbort = () => stop("aborted");
      signal?.addEventListener("abort", onAbort, { once: true });
      const finish = () => {
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      const fail = (err: unknown) => {
        if (done) return;
        finish();
        if (stopped === "timeout") reject(new TransportError("timeout", `no answer from ${this.origin} within ${timeoutMs} ms`, undefined, this.origin));
        else if (stopped === "aborted") reject(new TransportError("aborted", "aborted by the caller"));
        else reject(classify(err, this.origin));
      };
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart: (c) => {
          controller = c;
          if (stopped) c.abort(new StoppedSignal());
        },
        onResponseStart: (_c, statusCode, h) => {
          status = statusCode;
          headers = h;
          chunks = [];
        },
        onResponseData: (_c, chunk) => {
          chunks.push(chunk);
        },
        onResponseEnd: () => {
          if (done) return;
          finish();
          resolve({ status, headers, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) });
        },
        onResponseError: (_c, err) => fail(err),
      };
      try {
        this.pool.dispatch(
          {
            method: req.method,
            path: req.path,
            headers: req.headers,
            body: req.body,
            // Our own timer bounds the whole exchange; undici's would only cover parts of it.
            headersTimeout: timeoutMs + 1000,
            bodyTimeout: timeoutMs + 1000,
          },
          handler,
        );
      } catch (err) {
        fail(err);
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.close();
  }
}
