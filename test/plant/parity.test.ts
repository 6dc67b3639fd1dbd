/**
 * Parity (src/plant/parity.ts), emulator against emulator: a second emulator whose answers a small
 * proxy alters on purpose stands in for the platform; the report names exactly the altered operation
 * and field, and against an unaltered one it is empty.
 */
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { formatParity, parity } from "../../src/plant";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { fileWith, SERVICE, take } from "./helpers";

const PLANT = resolve(__dirname, "../../examples/fixtures/plant.yaml");

type Body = Record<string, unknown>;
type Alter = (path: string, body: Body) => Body;

/** A proxy in front of `target` that passes everything through, the JSON answers of matching paths altered by `alter`. */
async function proxy(target: string, alter: Alter, refuse?: RegExp): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    if (refuse?.test((req.url ?? "").split("?")[0])) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ errors: [{ error_code: 404, http_status_code: 404, message: ["not here"] }] }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !["host", "content-length", "connection"].includes(k))) as Record<string, string>;
    const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    let text = await answer.text();
    const path = (req.url ?? "").split("?")[0];
    if (answer.status === 200 && /json/.test(answer.headers.get("content-type") ?? "")) text = JSON.stringify(alter(path, JSON.parse(text)));
    res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
    res.end(text);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

let platform: TestEmulator;
let snapshotFile: string;
beforeAll(async () => {
  platform = await startTestEmulator({ seed: PLANT });
  snapshotFile = fileWith((await take(platform)).text);
});
afterAll(() => platform.close());

const credentials = (baseUrl: string) => ({ baseUrl, ...SERVICE });

test("against an unaltered emulator the report is empty, every get and list of the snapshot compared", async () => {
  const report = await parity(credentials(platform.baseUrl), { snapshot: snapshotFile, env: {} });
  expect(report.differing).toEqual([]);
  const ops = report.operations.map((o) => o.operation);
  expect(ops).toEqual(expect.arrayContaining(["assets.list", "clusters.get", "apps.versionGet", "workloads.get", "parameters.valuesList", "instance.settingsGet"]));
  for (const o of report.operations) expect(o.answers.platform).toBeGreaterThan(0);
  expect(formatParity(report)).toMatch(/operation\(s\) compared, 0 differ\.\n$/);
});

test.each([
  [
    "a renamed field",
    "clusters.get",
    /^\/api\/v4\/orchestration\/clusters\/[^/]+\/get$/,
    (b: Body) => {
      const { title, ...rest } = b;
      return { ...rest, label: title };
    },
    [
      { field: "label", platform: "string", emulator: "absent" },
      { field: "title", platform: "absent", emulator: "string" },
    ],
  ],
  [
    "a removed field",
    "assets.list",
    /^\/api\/v4\/assets\/list$/,
    (b: Body) => ({ ...b, data: (b.data as Body[]).map(({ location: _l, ...a }) => a) }),
    [{ field: "data[].location", platform: "absent", emulator: "null|object" }],
  ],
  [
    "a retyped field",
    "workloads.get",
    /^\/api\/v4\/apps\/workloads\/[^/]+\/get$/,
    (b: Body) => ({ ...b, enabled: String(b.enabled) }),
    [{ field: "enabled", platform: "string", emulator: "boolean" }],
  ],
  [
    "a field present only sometimes",
    "apps.versionGet",
    /^\/api\/v4\/apps\/oee-monitor\/v\/1\.0\.0\/get$/,
    (b: Body) => {
      const { image: _i, ...rest } = b;
      return rest;
    },
    [{ field: "image", platform: "present in 2 of 3", emulator: "present in every answer" }],
  ],
] as const)("%s in one operation's answer is reported for exactly that operation and field", async (_what, operation, pattern, change, expected) => {
  const altered = await proxy(platform.baseUrl, (path, body) => (pattern.test(path) ? change(body) : body));
  try {
    const report = await parity(credentials(altered.url), { snapshot: snapshotFile, env: {} });
    expect(report.differing.map((o) => o.operation)).toEqual([operation]);
    expect(report.differing[0].differences).toEqual(expected);
    expect(formatParity(report)).toContain(`\n${operation} (`);
  } finally {
    await altered.close();
  }
});

test("a status the platform answers differently is reported for that operation", async () => {
  const altered = await proxy(platform.baseUrl, (_path, body) => body, /^\/api\/v4\/orchestration\/clusters\/utilities-edge\/get$/);
  try {
    const report = await parity(credentials(altered.url), { snapshot: snapshotFile, env: {} });
    expect(report.differing.map((o) => o.operation)).toEqual(["clusters.get"]);
    expect(report.differing[0].differences).toEqual([{ field: "(status)", platform: "200, 404", emulator: "200 ×2" }]);
  } finally {
    await altered.close();
  }
});

test("without a snapshot file, one is taken from the platform first", async () => {
  const report = await parity(credentials(platform.baseUrl), { env: {} });
  expect(report.differing).toEqual([]);
  expect(report.snapshot).toBe("taken for the check");
  expect(report.operations.length).toBeGreaterThan(20);
});

test("against an unaltered emulator seeded with every area (the generated plant), the report is empty", async () => {
  const { generatePlant } = await import("./generate");
  const other = await startTestEmulator({ seed: generatePlant({ assets: 200 }) });
  try {
    const report = await parity(credentials(other.baseUrl), { env: {} });
    expect(report.differing).toEqual([]);
    expect(report.operations.map((o) => o.operation)).toEqual(
      expect.arrayContaining([
        "bridges.get",
        "datalabels.list",
        "datatypes.list",
        "schedules.list",
        "apps.resourcesList",
        "acps.metadataList",
        "assets.typeMetadataList",
        "legacyWorkloads.list",
      ]),
    );
  } finally {
    await other.close();
  }
});

describe("svc-emulator parity", () => {
  const CLI = resolve(__dirname, "../../dist/cli/svc-emulator.js");
  const run = promisify(execFile);
  const env = { ...process.env, SVC_BASE_URL: "", SVC_CLIENT_ID: SERVICE.clientId, SVC_CLIENT_SECRET: SERVICE.clientSecret };

  test("exits 0 with an empty report, 1 naming the operation and field when the answers differ", async () => {
    const same = await run(process.execPath, [CLI, "parity", "--against", platform.baseUrl, "--snapshot", snapshotFile], { env });
    expect(same.stdout).toMatch(/operation\(s\) compared, 0 differ\.\n$/);
    const altered = await proxy(platform.baseUrl, (path, body) => (/\/clusters\/[^/]+\/get$/.test(path) ? { ...body, ready: "yes" } : body));
    try {
      const failed = await run(process.execPath, [CLI, "parity", "--against", altered.url, "--snapshot", snapshotFile], { env }).catch((e) => e);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(/1 differ\.\n\nclusters\.get \(2 answer\(s\) from the platform, 2 from the emulator\)\n {2}ready: platform string; emulator boolean\n$/);
    } finally {
      await altered.close();
    }
  });
});
