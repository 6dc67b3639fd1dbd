/**
 * The console over plain HTTP (no browser): where it is served and where not (the admin switch), the
 * files and headers it is served with, the operations it names, and the admin endpoints its controls
 * use that are its own (POST /emulator/seed, GET /emulator/snapshot).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { startEmulator, type Emulator } from "../../src/emulator";
import { consoleFiles, consoleOperations } from "../../src/emulator/console";

const ROOT = resolve(__dirname, "../..");
const PLANT = join(ROOT, "examples/fixtures/plant.yaml");
const PAGE_DIR = join(ROOT, "src/emulator/console");
const PAGE_FILES = [
  "/emulator/ui",
  "/emulator/ui/",
  "/emulator/ui/console.js",
  "/emulator/ui/views/list.js",
  "/emulator/ui/redaction.js",
  "/emulator/ui/values.js",
  "/emulator/ui/console.css",
  "/emulator/ui/operations.json",
];
/** The page's modules, by path under the console's folder. */
const MODULES = consoleFiles(PAGE_DIR).filter((name) => name.endsWith(".js"));

const running: Emulator[] = [];
async function emulator(options: Parameters<typeof startEmulator>[0] = {}): Promise<Emulator> {
  const emu = await startEmulator({ log: () => undefined, ...options });
  running.push(emu);
  return emu;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

const post = (url: string, body: string, type = "application/yaml") => fetch(url, { method: "POST", headers: { "content-type": type }, body });
const messages = async (res: Response) => ((await res.json()) as { errors: Array<{ message: string[] }> }).errors.flatMap((e) => e.message).join(" | ");

describe("where the console is served", () => {
  test("on loopback by default: the page, its module and styles, with a policy that runs only the page's own files", async () => {
    const emu = await emulator();
    for (const path of PAGE_FILES) {
      const res = await fetch(`${emu.baseUrl}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    const page = await fetch(`${emu.baseUrl}/emulator/ui`);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toMatch(/default-src 'none'; script-src 'self'/);
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/emulator/ui/console.js"></script>');
    // Nothing is loaded from elsewhere: every src and href of the page is its own or a fragment.
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.filter((r) => !r.startsWith("/emulator/ui/") && !r.startsWith("#") && r !== "data:,")).toEqual([]);
    expect((await fetch(`${emu.baseUrl}/emulator/ui/console.js`)).headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect((await fetch(`${emu.baseUrl}/emulator/ui/console.js`, { method: "POST" })).status).toBe(405);
    expect((await fetch(`${emu.baseUrl}/emulator/ui/other.js`)).status).toBe(404);
  });

  test("each of the page's modules, as JavaScript under the same policy; nothing outside its folder, nor its type declarations", async () => {
    const emu = await emulator();
    expect(MODULES).toEqual(expect.arrayContaining(["console.js", "api.js", "views/list.js", "views/audit.js"]));
    for (const name of MODULES) {
      const res = await fetch(`${emu.baseUrl}/emulator/ui/${name}`);
      expect({ name, status: res.status, type: res.headers.get("content-type") }).toEqual({ name, status: 200, type: "text/javascript; charset=utf-8" });
      expect(res.headers.get("content-security-policy")).toMatch(/default-src 'none'; script-src 'self'/);
      expect(await res.text()).toBe(readFileSync(join(PAGE_DIR, name), "utf8"));
    }
    // Raw requests: fetch would fold the dot segments away before sending them.
    const raw = (path: string) =>
      new Promise<{ status: number; body: string }>((ok, fail) => {
        const { hostname, port } = new URL(emu.baseUrl);
        const req = request({ hostname, port, path, method: "GET" }, (res) => {
          let body = "";
          res.on("data", (d: Buffer) => (body += d));
          res.on("end", () => ok({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", fail);
        req.end();
      });
    const outside = [
      "/emulator/ui/../console.ts",
      "/emulator/ui/views/../../console.ts",
      "/emulator/ui/..%2fconsole.ts",
      "/emulator/ui/%2e%2e/console.ts",
      "/emulator/ui/views/..%2f..%2fconsole.ts",
      "/emulator/ui/redaction.d.ts",
      "/emulator/ui/views/",
      "/emulator/ui//console.js",
    ];
    for (const path of outside) {
      const res = await raw(path);
      expect({ path, refused: res.status === 400 || res.status === 404 }).toEqual({ path, refused: true });
      expect(res.body).not.toContain("consoleRoutes");
    }
  });

  test("not with admin: false, nor bound beyond loopback unless admin: true asks for it", async () => {
    const off = await emulator({ admin: false });
    const wide = await emulator({ host: "0.0.0.0" });
    const asked = await emulator({ host: "0.0.0.0", admin: true });
    const local = (emu: Emulator) => `http://127.0.0.1:${new URL(emu.baseUrl).port}`;
    for (const path of [...PAGE_FILES, "/emulator/snapshot"]) {
      expect({ path, off: (await fetch(`${off.baseUrl}${path}`)).status, wide: (await fetch(`${local(wide)}${path}`)).status }).toEqual({ path, off: 404, wide: 404 });
      expect({ path, asked: (await fetch(`${local(asked)}${path}`)).status }).toEqual({ path, asked: 200 });
    }
    expect((await post(`${off.baseUrl}/emulator/seed`, "clusters: [{name: a}]")).status).toBe(404);
  });

  test("`svc-emulator serve --no-admin` does not serve it; `serve` does", async () => {
    const cli = join(ROOT, "dist/cli/svc-emulator.js");
    const serve = async (args: string[]) => {
      const proc = spawn(process.execPath, [cli, "serve", "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
      const baseUrl = await new Promise<string>((ok, fail) => {
        let out = "";
        proc.stdout.on("data", (d: Buffer) => {
          out += d;
          const m = /listening on (http:\/\/\S+) /.exec(out);
          if (m) ok(m[1]);
        });
        proc.once("exit", (code) => fail(new Error(`svc-emulator exited with ${code}`)));
      });
      const status = (await fetch(`${baseUrl}/emulator/ui`)).status;
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGTERM");
      await exited;
      return status;
    };
    expect(await serve(["--no-admin"])).toBe(404);
    expect(await serve([])).toBe(200);
  });
});

describe("what the page names", () => {
  test("every operation the page's modules call is a read operation of the endpoint table, served at the table's path", async () => {
    const source = MODULES.map((name) => readFileSync(join(PAGE_DIR, name), "utf8")).join("\n");
    const named = new Set([...source.matchAll(/(?:call\(|op: |operation\()"([a-zA-Z]+\.[a-zA-Z]+)"/g)].map((m) => m[1]));
    expect(named.size).toBeGreaterThan(15);
    const operations = consoleOperations();
    expect([...named].filter((id) => !operations[id])).toEqual([]);
    const emu = await emulator();
    const served = (await (await fetch(`${emu.baseUrl}/emulator/ui/operations.json`)).json()) as Record<string, { method: string; path: string; list?: string }>;
    expect(served["workloads.list"]).toEqual({ method: "GET", path: "/api/v4/apps/workloads/list", list: "part1" });
    expect(served["assets.hierarchyGet"]).toEqual({ method: "GET", path: "/api/v4/assets/hierarchy/tree/get" });
    expect(served["auth.token"]?.path).toBe("/auth/realms/svc/protocol/openid-connect/token");
    // Only reads: the page changes records through nothing but the admin endpoints.
    expect(served["workloads.create"]).toBeUndefined();
  });

  test("values.js: the fault statuses the emulator takes and answers by default, and built-in logins that sign in, read-only first", async () => {
    const emu = await emulator();
    const text = await (await fetch(`${emu.baseUrl}/emulator/ui/values.js`)).text();
    const values = Object.fromEntries([...text.matchAll(/^export const (\w+) = (.*);$/gm)].map((m) => [m[1], JSON.parse(m[2])])) as {
      FAULT_STATUSES: number[];
      DEFAULT_FAULT_STATUSES: number[];
      BUILT_IN_LOGINS: Array<{ login: Record<string, string>; readOnly: boolean }>;
    };
    expect(Object.keys(values).sort()).toEqual(["BUILT_IN_LOGINS", "DEFAULT_FAULT_STATUSES", "FAULT_STATUSES"]);
    const faults = (config: unknown) => post(`${emu.baseUrl}/emulator/faults`, JSON.stringify(config), "application/json");
    // The emulator takes each offered status and refuses any other.
    for (const status of [...values.FAULT_STATUSES, 418]) {
      expect({ status, taken: (await faults({ rate: 0, statuses: [status] })).status }).toEqual({ status, taken: values.FAULT_STATUSES.includes(status) ? 200 : 400 });
    }
    // A configuration naming no statuses answers with the default ones.
    await faults({ rate: 0 });
    expect(((await (await fetch(`${emu.baseUrl}/emulator/faults`)).json()) as { config: { statuses: number[] } }).config.statuses).toEqual(values.DEFAULT_FAULT_STATUSES);
    // Every login signs in; the read-only ones come first and cannot write.
    expect(values.BUILT_IN_LOGINS.map((l) => l.readOnly)).toEqual([...values.BUILT_IN_LOGINS.map((l) => l.readOnly)].sort((a, b) => Number(b) - Number(a)));
    expect(values.BUILT_IN_LOGINS[0].readOnly).toBe(true);
    for (const { login, readOnly } of values.BUILT_IN_LOGINS) {
      const signIn = await post(`${emu.baseUrl}/auth/realms/svc/protocol/openid-connect/token`, new URLSearchParams(login).toString(), "application/x-www-form-urlencoded");
      expect({ user: login.username, status: signIn.status }).toEqual({ user: login.username, status: 200 });
      const { access_token } = (await signIn.json()) as { access_token: string };
      const write = await fetch(`${emu.baseUrl}/api/v4/orchestration/clusters/create`, {
        method: "POST",
        headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: `c-${login.username.split("@")[0]}`, title: "C", type: "k3s" }),
      });
      expect({ user: login.username, refused: write.status === 403 }).toEqual({ user: login.username, refused: readOnly });
    }
  });
});

describe("POST /emulator/seed and GET /emulator/snapshot", () => {
  test("a snapshot loads back into an emptied emulator as the same inventory", async () => {
    const emu = await emulator();
    const loaded = await post(`${emu.baseUrl}/emulator/seed`, readFileSync(PLANT, "utf8"));
    expect(loaded.status).toBe(200);
    const counts = ((await loaded.json()) as { counts: Record<string, number> }).counts;
    expect(counts).toMatchObject({ assets: expect.any(Number), workloads: expect.any(Number) });
    expect(counts.assets).toBeGreaterThan(10);

    const first = await fetch(`${emu.baseUrl}/emulator/snapshot`);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/yaml");
    expect(first.headers.get("content-disposition")).toMatch(/attachment; filename="emulator-snapshot.yaml"/);
    const text = await first.text();
    const doc = parseYaml(text) as Record<string, unknown[]>;
    expect(doc.assets).toHaveLength(counts.assets);
    expect(doc.workloads).toHaveLength(counts.workloads);

    expect((await fetch(`${emu.baseUrl}/emulator/reset`, { method: "POST" })).status).toBe(204);
    expect((await post(`${emu.baseUrl}/emulator/seed`, text)).status).toBe(200);
    const second = await (await fetch(`${emu.baseUrl}/emulator/snapshot`)).text();
    expect(second).toBe(text);
  });

  test("into an emulator holding records: 409 naming both; a bad entry: 400 naming it; not YAML: 400 naming the line", async () => {
    const emu = await emulator();
    expect((await post(`${emu.baseUrl}/emulator/seed`, "clusters:\n  - name: plant-a\n")).status).toBe(200);
    const again = await post(`${emu.baseUrl}/emulator/seed`, "clusters:\n  - name: plant-b\n");
    expect(again.status).toBe(409);
    expect(await messages(again)).toMatch(/fixtures load only into an empty emulator/);

    await fetch(`${emu.baseUrl}/emulator/reset`, { method: "POST" });
    const bad = await post(`${emu.baseUrl}/emulator/seed`, JSON.stringify({ assets: [{ name: "pump-1", title: "Pump", asset_type_name: "no-such-type" }] }), "application/json");
    expect(bad.status).toBe(400);
    expect(await messages(bad)).toMatch(/assets\[0\] \(pump-1\): .*no-such-type/);
    // A bad fixture loads nothing.
    expect(((await (await fetch(`${emu.baseUrl}/emulator/state`)).json()) as Record<string, unknown[]>).assets ?? []).toEqual([]);

    const broken = await post(`${emu.baseUrl}/emulator/seed`, "clusters:\n  - name: [unclosed\n");
    expect(broken.status).toBe(400);
    expect(await messages(broken)).toMatch(/not a YAML or JSON fixture \(line \d+, column \d+\)/);
    expect((await fetch(`${emu.baseUrl}/emulator/seed`)).status).toBe(405);
  });

  test("admin bodies past their limit answer 413 naming it, not an internal error", async () => {
    const emu = await emulator();
    const big = JSON.stringify({ rate: 0, pad: "x".repeat(1024 * 1024 + 10) });
    const res = await post(`${emu.baseUrl}/emulator/faults`, big, "application/json");
    expect(res.status).toBe(413);
    expect(await messages(res)).toMatch(/larger than the limit of 1048576 bytes/);
    // A fixture may be larger than a JSON body: its own limit applies.
    const fixture = `clusters:\n  - name: plant-a\n    title: Plant A\n# ${"y".repeat(2 * 1024 * 1024)}\n`;
    expect((await post(`${emu.baseUrl}/emulator/seed`, fixture)).status).toBe(200);
  });
});
