/**
 * Permissions, table-driven over every endpoint (spec Part 1 "Use of the token": a missing or
 * invalid token yields 401; a token lacking the endpoint's permission is refused with 403). Every
 * operation but the two token endpoints and /instance/status/get needs a valid access token; the
 * viewer (only *.read permissions) is refused exactly where the permission does not end in `.read`.
 * Authentication comes before the body is read: an unauthenticated request with a bad or oversized
 * body is 401, never 400 or 413. A refused request changes nothing.
 */
import { randomBytes } from "node:crypto";
import jwt from "jsonwebtoken";
import { OIDC_TOKEN_PATH } from "../../src/api/auth";
import { ErrorCode } from "../../src/api/errors";
import { startTestEmulator, useEmulator } from "../helpers/emulator";
import { ENDPOINTS, MODE, OPEN_ENDPOINTS, pathOf, probe, sendRaw, type RawRequest } from "./helpers";
import { Figures, report } from "./reliability";
import type { AnyEndpoint } from "../../src/api/endpoint";

/** One state for the whole file: the refused requests must change nothing, and are checked to. */
const emu = useEmulator({ reset: false });
const figures = new Figures();
let viewer: string;
let admin: string;
let refresh: string;

beforeAll(async () => {
  viewer = await emu.token("viewer");
  admin = await emu.token("admin");
  const login = await sendRaw(emu.baseUrl, {
    method: "POST",
    path: OIDC_TOKEN_PATH,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=password&username=admin%40example.com&password=admin&client_id=svc-cli",
  });
  refresh = (login.json as { refresh_token: string }).refresh_token;
});
afterAll(() => report(__filename, MODE, figures));

// ---------------------------------------------------------------------------------------------
// Tokens that must not open anything

const ADMIN_CLAIMS = {
  sub: "6f1c2a7e-0000-4000-8000-000000000001",
  typ: "Bearer",
  kind: "user",
  preferred_username: "admin@example.com",
  permissions: ["svc.permission.*"],
  sid: "forged",
};
const signingKey = () => emu.store.table<string>("_meta").get("jwt_key")!;
const issuer = () => `${emu.baseUrl}/auth/realms/svc`;
const nowSec = () => Math.floor(Date.now() / 1000);
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

/** Authorization headers that must answer 401, by what is wrong with them. */
function badAuthorizations(): Record<string, string> {
  return {
    "a malformed header (no scheme)": admin,
    "a malformed header (Basic)": "Basic YWRtaW5AZXhhbXBsZS5jb206YWRtaW4=",
    "a malformed header (Bearer without a token)": "Bearer ",
    "a malformed header (two tokens)": `Bearer ${admin} ${admin}`,
    "a malformed token": "Bearer not.a.jwt",
    "a token signed with another key": `Bearer ${jwt.sign(ADMIN_CLAIMS, randomBytes(32).toString("base64url"), { algorithm: "HS256", issuer: issuer(), expiresIn: 600 })}`,
    "an expired token": `Bearer ${jwt.sign({ ...ADMIN_CLAIMS, iat: nowSec() - 7200, exp: nowSec() - 3600 }, signingKey(), { algorithm: "HS256", issuer: issuer() })}`,
    "a token not valid yet": `Bearer ${jwt.sign({ ...ADMIN_CLAIMS, nbf: nowSec() + 3600 }, signingKey(), { algorithm: "HS256", issuer: issuer(), expiresIn: 7200 })}`,
    "a token of another issuer": `Bearer ${jwt.sign(ADMIN_CLAIMS, signingKey(), { algorithm: "HS256", issuer: "http://evil.example/auth/realms/svc", expiresIn: 600 })}`,
    "an unsigned token (alg none)": `Bearer ${b64({ alg: "none", typ: "JWT" })}.${b64({ ...ADMIN_CLAIMS, iss: issuer(), exp: nowSec() + 600 })}.`,
    "a token claiming RS256": `Bearer ${b64({ alg: "RS256", typ: "JWT" })}.${b64({ ...ADMIN_CLAIMS, iss: issuer(), exp: nowSec() + 600 })}.${randomBytes(64).toString("base64url")}`,
    "a refresh token used as an access token": `Bearer ${refresh}`,
    "an admin token with a tampered payload": `Bearer ${admin.split(".")[0]}.${b64({ ...ADMIN_CLAIMS, permissions: ["svc.permission.*"], exp: nowSec() + 99999 })}.${admin.split(".")[2]}`,
  };
}

/** A request to the endpoint with placeholder path values and, where it takes one, a valid-looking body. */
function requestTo(ep: AnyEndpoint, authorization: string | undefined, body?: string | Buffer): RawRequest {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  const sendsBody = body !== undefined || (ep.bodyKind !== "none" && ep.method === "POST");
  if (sendsBody) headers["content-type"] = ep.bodyKind === "multipart" ? "multipart/form-data; boundary=x" : "application/json";
  return { method: ep.method, path: pathOf(ep, {}), headers, body: body ?? (sendsBody ? "{}" : undefined) };
}

/** Checks one expectation on a status; counts it. */
function expectStatus(actual: number | undefined, ok: (s: number) => boolean, what: string, failures: string[]): void {
  figures.permissionChecks++;
  if (actual === undefined || !ok(actual)) {
    figures.permissionViolations++;
    failures.push(`${what}: got ${actual ?? "no answer"}`);
  }
}

const guarded = ENDPOINTS.filter((ep) => ep.permission !== null);
const label = (ep: AnyEndpoint) => `${ep.method} ${ep.path} (${ep.permission ?? "open"})`;

describe("Which operations are open", () => {
  test("only the token and logout endpoints, the metadata document and /instance/status/get take no token", () => {
    expect(
      ENDPOINTS.filter((ep) => ep.permission === null)
        .map((ep) => ep.id)
        .sort(),
    ).toEqual([...OPEN_ENDPOINTS].sort());
  });

  test.each(ENDPOINTS.filter((ep) => ep.permission === null).map((ep) => [label(ep), ep] as const))("%s answers without a token (no 401/403)", async (_, ep) => {
    const failures: string[] = [];
    const { answer, problems } = await probe(emu, figures, requestTo(ep, undefined), { store: emu.store });
    expectStatus(answer?.status, (s) => s !== 401 && s !== 403, "no token", failures);
    expect([...failures, ...problems]).toEqual([]);
  });
});

describe("A missing or invalid token yields 401 on every other operation", () => {
  test.each(guarded.map((ep) => [label(ep), ep] as const))("%s", async (_, ep) => {
    const failures: string[] = [];
    const cases: Record<string, string | undefined> = { "no Authorization header": undefined, ...badAuthorizations() };
    for (const [what, authorization] of Object.entries(cases)) {
      const { answer, problems } = await probe(emu, figures, requestTo(ep, authorization), { store: emu.store });
      failures.push(...problems);
      expectStatus(answer?.status, (s) => s === 401, what, failures);
      if (what === "an expired token") {
        const code = (answer?.json as { errors?: Array<{ error_code: number }> })?.errors?.[0]?.error_code;
        if (code !== ErrorCode.TOKEN_EXPIRED) failures.push(`an expired token: error_code ${code}, expected ${ErrorCode.TOKEN_EXPIRED} (token expired)`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe("The viewer (only *.read permissions) is refused with 403 exactly where the permission does not end in .read", () => {
  test.each(guarded.map((ep) => [label(ep), ep] as const))("%s", async (_, ep) => {
    const failures: string[] = [];
    const { answer, problems } = await probe(emu, figures, requestTo(ep, `Bearer ${viewer}`), { store: emu.store });
    failures.push(...problems);
    if (ep.permission!.endsWith(".read")) expectStatus(answer?.status, (s) => s !== 401 && s !== 403, "viewer on a .read operation", failures);
    else {
      expectStatus(answer?.status, (s) => s === 403, "viewer on a write operation", failures);
      if (answer?.status === 403 && !answer.text.includes(`svc.permission.${ep.permission}`))
        failures.push(`the 403 does not name svc.permission.${ep.permission}: ${answer.text}`);
    }
    expect(failures).toEqual([]);
  });
});

describe("Authentication and permission come before the body is read or validated", () => {
  const withBody = guarded.filter((ep) => ep.method === "POST" && ep.bodyKind !== "none");
  const oversized = Buffer.alloc(1024 * 1024 + 10, "a");

  test.each(withBody.map((ep) => [label(ep), ep] as const))(
    "%s: no token with a malformed, an invalid or an oversized body is 401; the viewer on a write is 403",
    async (_, ep) => {
      const failures: string[] = [];
      for (const [what, body] of [
        ["malformed JSON", '{"name": '],
        ["a wrong-typed body", "[1,2,3]"],
        ["an oversized body", oversized],
      ] as const) {
        const { answer, problems } = await probe(emu, figures, requestTo(ep, undefined, body), { store: emu.store });
        failures.push(...problems);
        expectStatus(answer?.status, (s) => s === 401, `no token, ${what}`, failures);
        if (!ep.permission!.endsWith(".read")) {
          const viewerAnswer = await probe(emu, figures, requestTo(ep, `Bearer ${viewer}`, body), { store: emu.store });
          failures.push(...viewerAnswer.problems);
          expectStatus(viewerAnswer.answer?.status, (s) => s === 403, `viewer, ${what}`, failures);
        }
      }
      expect(failures).toEqual([]);
    },
  );
});

describe("Token lifetimes (an emulator issuing 1 s access and 2 s refresh tokens)", () => {
  test("an access token is refused with 401 once expired, and its refresh token once that has expired too", async () => {
    // The emulator's clock is the test's: lifetimes run out when it moves, not while the machine is busy.
    let now = Date.UTC(2026, 0, 1, 12, 0, 0, 250);
    const short = await startTestEmulator({ tokenLifetimes: { access: 1, refresh: 2 }, clock: () => now });
    try {
      const login = await sendRaw(short.baseUrl, {
        method: "POST",
        path: OIDC_TOKEN_PATH,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=password&username=admin%40example.com&password=admin&client_id=svc-cli",
      });
      const { access_token, refresh_token } = login.json as { access_token: string; refresh_token: string };
      const call = () => probe(short, figures, { method: "GET", path: "/api/v4/orchestration/clusters/list", headers: { authorization: `Bearer ${access_token}` } });
      const failures: string[] = [];
      expectStatus((await call()).answer?.status, (s) => s === 200, "a fresh access token", failures);
      now += 2100;
      const expired = await call();
      expectStatus(expired.answer?.status, (s) => s === 401, "an access token past its lifetime", failures);
      expect(expired.problems).toEqual([]);
      expect((expired.answer?.json as { errors: Array<{ error_code: number }> }).errors[0].error_code).toBe(ErrorCode.TOKEN_EXPIRED);
      now += 1000;
      figures.requests++;
      const renewed = await sendRaw(short.baseUrl, {
        method: "POST",
        path: OIDC_TOKEN_PATH,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token, client_id: "svc-cli" }).toString(),
      });
      expectStatus(renewed.status, (s) => s === 400 || s === 401, "a refresh token past its lifetime", failures);
      expect(failures).toEqual([]);
    } finally {
      await short.close();
    }
  });
});
