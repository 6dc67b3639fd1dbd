/**
 * One secret-key rule (src/emulator/redaction.ts) for everything that keeps secrets out of sight: the
 * audit log, the console page (a browser module that imports the rule as the emulator serves it) and
 * snapshots. The same payload goes through each, over HTTP, and each hides exactly the same fields.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { isSecretKey, redact } from "../../src/emulator/redaction";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { take } from "../plant/helpers";

const PLANT = path.join(__dirname, "..", "..", "examples", "fixtures", "plant.yaml");

const SECRET_KEYS = [
  "password",
  "passwd",
  "passphrase",
  "pass",
  "db_pass",
  "dbPass",
  "DB_PASS",
  "DBPass",
  "pwd",
  "api_key",
  "apiKey",
  "x-api-key",
  "APIKEY",
  "private_key",
  "privateKey",
  "secret",
  "clientSecret",
  "client_secret",
  "secrets",
  "token",
  "access_token",
  "refreshToken",
  "tokens",
  "credential",
  "credentials",
];
const PLAIN_KEYS = ["compass", "passive", "bypass", "passenger_count", "passage", "name", "keyboard", "monkey", "user", "username", "description"];

/** A payload with a text under each key (no secret's text inside a plain one's: repeated secrets are redacted too). */
const PAYLOAD = Object.fromEntries([...SECRET_KEYS, ...PLAIN_KEYS].map((k) => [k, `<${k} value>`]));

test("the rule: each secret-looking key, and none of the plain ones", () => {
  expect(SECRET_KEYS.filter((k) => !isSecretKey(k))).toEqual([]);
  expect(PLAIN_KEYS.filter(isSecretKey)).toEqual([]);
});

describe("over HTTP", () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: PLANT });
  });
  afterAll(() => emu.close());

  test("the console's module is the same rule: it hides the same keys and redacts a record the same way", async () => {
    const res = await fetch(`${emu.baseUrl}/emulator/ui/redaction.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toMatch(/script-src 'self'/);
    const secret = "tok-4f9a1c2e7b3d";
    const record = { name: "gateway-1", metadata: { vendor: { api_token: secret, note: `curl -H 'Authorization: Bearer ${secret}'`, DB_PASS: "x" } }, list: [[[{ pwd: "y" }]]] };
    const dir = mkdtempSync(path.join(tmpdir(), "svc-redaction-"));
    try {
      const file = path.join(dir, "redaction.mjs");
      writeFileSync(file, await res.text());
      // Run as the browser runs it: an ES module, on its own.
      const script = `
        import { isSecretKey, redact } from ${JSON.stringify(pathToFileURL(file).href)};
        const keys = ${JSON.stringify([...SECRET_KEYS, ...PLAIN_KEYS])};
        process.stdout.write(JSON.stringify({ secret: keys.filter(isSecretKey), copy: redact(${JSON.stringify(record)}) }));
      `;
      const answer = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }));
      expect(answer).toEqual({ secret: SECRET_KEYS, copy: redact(record) });
      expect(answer.copy.metadata.vendor).toEqual({ api_token: "[redacted]", note: "curl -H 'Authorization: Bearer [redacted]'", DB_PASS: "[redacted]" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the audit log and a snapshot hide exactly the secret-looking keys of a payload", async () => {
    const created = await emu.post("/assets/compressor-1/metadata/create", { name: "gateway", payload: PAYLOAD });
    expect(created.status).toBe(201);

    const audit = await emu.get("/instance/auditlog/list", { identifier: "compressor-1" });
    const entry = audit.body.data[0];
    expect(entry.action).toMatch(/METADATA-CREATE/);
    const logged = entry.meta.changes[0].to.payload as Record<string, string>;
    expect(Object.keys(logged).filter((k) => logged[k] === "[redacted]")).toEqual(SECRET_KEYS);
    expect(Object.keys(logged).filter((k) => logged[k] === PAYLOAD[k])).toEqual(PLAIN_KEYS);

    const taken = await take(emu);
    const problem = taken.problems.find((p) => p.name === "compressor-1");
    expect(problem?.reason).toMatch(/ left out: it looks like a secret/);
    const leftOut = problem!.reason.replace(/ left out: .*$/, "").split(", ");
    expect(leftOut.map((at) => at.slice(at.lastIndexOf(".") + 1))).toEqual(SECRET_KEYS);
  });
});
