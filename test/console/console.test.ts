/**
 * The console in a real headless browser (Chromium through puppeteer-core): the quickstart goes up
 * through the kit while the page watches, then the inventory, the audit timeline and the fault
 * controls are checked against what the API says; secrets never reach the page; fixtures and
 * snapshots go through the page; a large tree renders lazily.
 *
 * Chromium comes from the system (`/usr/bin/chromium`, or CHROMIUM_PATH); puppeteer-core never
 * downloads one. Without it these tests are skipped, saying so. Screenshots of the main views go to
 * test/.artifacts/console/ (untracked), or with WRITE_SCREENSHOTS=1 (`npm run screenshots`) to
 * docs/console/, which README.md shows.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { quickstart } from "../../examples/quickstart/program";
import { startEmulator, type Emulator } from "../../src/emulator";
import * as testing from "../../src/testing";
import type { Json } from "../helpers/emulator";

const ROOT = resolve(__dirname, "../..");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const SHOTS = process.env.WRITE_SCREENSHOTS === "1" ? join(ROOT, "docs/console") : join(ROOT, "test/.artifacts/console");
const TOKEN_PATH = "/auth/realms/svc/protocol/openid-connect/token";

/** Page-side values: these callbacks run in the browser, and the project's types leave the DOM out. */
type Dom = any; // eslint-disable-line @typescript-eslint/no-explicit-any

if (!HAVE_CHROMIUM) {
  // Said once, plainly, where the run is read: these tests need a browser the system provides.
  process.stderr.write(`test/console/console.test.ts: browser tests SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)\n`);
}
const SKIPPED = HAVE_CHROMIUM ? "" : ` (SKIPPED: no Chromium at ${CHROMIUM})`;
const browserSuite = (title: string, fn: () => void) => (HAVE_CHROMIUM ? describe : describe.skip)(`${title}${SKIPPED}`, fn);

jest.setTimeout(180_000);

let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...(root ? ["--no-sandbox"] : []), "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
  });
});
afterAll(async () => {
  await browser?.close();
});
afterEach(() => {
  // No script error on any page of the test.
  expect(pageErrors.splice(0)).toEqual([]);
});

async function openConsole(baseUrl: string, hash = "#/assets"): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 860 });
  page.on("pageerror", (e) => pageErrors.push(String((e as Error).message ?? e)));
  await page.goto(`${baseUrl}/emulator/ui${hash}`);
  await ready(page, hash);
  return page;
}

/**
 * Waits until the view drawn for `hash` (not one drawn before it) has read its data (ready) or
 * failed (error); returns which.
 */
async function ready(page: Page, hash: string, accept: Array<"ready" | "error"> = ["ready"]): Promise<string> {
  await page.waitForFunction(
    (h: string, states: string[]) => {
      const main = (globalThis as Dom).document.querySelector("#main");
      const view = main?.firstElementChild;
      return main?.dataset.hash === h && !!view && states.includes(view.dataset.state);
    },
    { timeout: 30_000 },
    hash,
    accept,
  );
  return page.$eval("#main > section", (el) => (el as Dom).dataset.state ?? "");
}

async function go(page: Page, hash: string, accept?: Array<"ready" | "error">): Promise<string> {
  await page.evaluate((h) => {
    (globalThis as Dom).location.hash = h;
  }, hash);
  return ready(page, hash, accept);
}

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

async function token(baseUrl: string, who: "admin" | "viewer" = "admin"): Promise<string> {
  const res = await fetch(`${baseUrl}${TOKEN_PATH}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "password", username: `${who}@example.com`, password: who, client_id: "svc-cli" }).toString(),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

async function api<T = Json>(baseUrl: string, method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl}/api/v4${path}`, {
    method,
    headers: { authorization: `Bearer ${await token(baseUrl)}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** The first file in `dir` whose name matches, once it is complete. */
async function waitForFile(dir: string, name: RegExp, timeoutMs = 15_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = readdirSync(dir).find((n) => name.test(n));
    if (found) return join(dir, found);
    if (Date.now() > until) throw new Error(`no file matching ${name} in ${dir} after ${timeoutMs} ms: ${readdirSync(dir).join(", ")}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const cellText = (page: Page, row: string, col: string) => page.$eval(`#main tr[data-key="${row}"] td[data-col="${col}"]`, (td) => (td as Dom).innerText.trim());

browserSuite("the console watching the quickstart go up through the kit", () => {
  let stack: testing.TestStack;
  let baseUrl: string;
  let page: Page;

  beforeAll(async () => {
    stack = await testing.stack(quickstart, { emulator: true, cwd: ROOT });
    baseUrl = stack.emulator!.baseUrl;
    page = await openConsole(baseUrl, "#/assets");
  });
  afterAll(async () => {
    await page?.close();
    await stack?.close();
  });

  test("objects appear while `up` runs, without reloading the page", async () => {
    expect(await page.$eval("ul.tree", (el) => (el as Dom).innerText)).toContain("no assets yet");
    const loadedAt = await page.evaluate(() => performance.timeOrigin);
    const up = stack.up();
    await page.waitForSelector('li[data-asset="line-1"] li[data-asset="pump-2"]', { timeout: 120_000 });
    await up;
    // The same document: live updates, not a reload.
    expect(await page.evaluate(() => performance.timeOrigin)).toBe(loadedAt);
  });

  test("the assets as a tree, with the states the API gives them", async () => {
    await go(page, "#/assets");
    const tree = (await api(baseUrl, "GET", "/assets/hierarchy/tree/get")).body.data as Array<{ name: string; status: { state: string }; children: Json[] }>;
    const expected = tree.flatMap((root) => [[root.name, root.status.state, ""], ...root.children.map((c) => [c.name, c.status.state, root.name])]);
    expect(expected.map(([name]) => name)).toEqual(["line-1", "pump-1", "pump-2"]);
    // Each asset shown under its parent, with its state.
    const shown = await page.$$eval("ul.tree li[data-asset]", (els) =>
      els.map((el) => [
        (el as Dom).dataset.asset,
        el.querySelector(":scope > .node .badge")?.textContent ?? "",
        (el.parentElement?.closest("li[data-asset]") as Dom)?.dataset.asset ?? "",
      ]),
    );
    expect(shown).toEqual(expected);
    await screenshot(page, "assets-tree");
  });

  test("the workload with its state and cluster, and the cluster with its state", async () => {
    const workload = (await api(baseUrl, "GET", "/apps/workloads/pump-monitor-line-1/get")).body;
    const cluster = (await api(baseUrl, "GET", "/orchestration/clusters/plant-a/get")).body;
    expect([workload.status.state, workload.cluster_name, cluster.status]).toEqual(["running", "plant-a", "online"]);

    await go(page, "#/workloads");
    expect(await cellText(page, "pump-monitor-line-1", "state")).toBe(workload.status.state);
    expect(await cellText(page, "pump-monitor-line-1", "cluster")).toBe("plant-a");
    await screenshot(page, "workloads");

    // Its record: the JSON, the state, and the way to its cluster.
    await go(page, "#/workloads/pump-monitor-line-1");
    expect(await page.$eval("#main .toolbar .badge", (el) => el.textContent)).toBe("running");
    expect(JSON.parse(await page.$eval("#main pre.json", (el) => el.textContent ?? ""))).toMatchObject({
      name: "pump-monitor-line-1",
      cluster_name: "plant-a",
      status: { state: "running" },
    });
    await screenshot(page, "workload-record");
    await page.click('#main a.rel[href="#/clusters/plant-a"]');
    await ready(page, "#/clusters/plant-a");
    expect(await page.$eval("#main .toolbar .badge", (el) => el.textContent)).toBe(cluster.status);
    expect(await page.$$eval('#main [data-related="Workloads on this cluster"] tbody tr', (rows) => rows.map((r) => (r as Dom).innerText.split("\t")[0]))).toEqual([
      "pump-monitor-line-1",
    ]);

    await go(page, "#/clusters");
    expect(await cellText(page, "plant-a", "state")).toBe("online");
    // Apps with their versions and parameters; schedules with their state and times.
    await go(page, "#/apps/pump-monitor");
    expect(await page.$$eval('#main [data-related="Versions"] tbody tr', (rows) => rows.map((r) => r.querySelector("td")?.textContent))).toEqual(["1.0.0", "1.1.0"]);
    expect(await page.$$eval('#main [data-related="Parameters"] tbody tr', (rows) => rows.map((r) => r.querySelector("td")?.textContent).sort())).toEqual(["mode", "threshold"]);
    await go(page, "#/schedules");
    const schedule = (await api(baseUrl, "POST", "/apps/parameters/schedules/list", {})).body.data[0];
    expect(await cellText(page, schedule.id, "state")).toBe("scheduled");
    expect(await cellText(page, schedule.id, "scheduled for")).toBe(schedule.scheduled_for);
  });

  test("the audit timeline shows the quickstart's changes in order, each with its before and after", async () => {
    const all = (await api(baseUrl, "GET", "/instance/auditlog/list?page_size=100")).body.data as Array<{ id: number; action: string; request_id: string; identifier: string }>;
    expect(all.length).toBeGreaterThan(10);
    await go(page, "#/audit");
    const shown = await page.$$eval("ol.timeline li.entry", (els) => els.map((el) => [Number((el as Dom).dataset.id), (el as Dom).dataset.action]));
    // Newest first, every change of the run, in the order the platform applied them.
    expect(shown).toEqual(all.slice(0, 20).map((e) => [e.id, e.action]));
    expect(shown.map(([id]) => id)).toEqual([...shown.map(([id]) => id)].sort((a, b) => Number(b) - Number(a)));
    const position = (action: string) => shown.findIndex(([, a]) => a === action);
    // What a program depends on is created before it: the cluster and the app version before the workload.
    expect(position("CREATE-CLUSTERS")).toBeGreaterThan(position("CREATE-WORKLOADS"));
    expect(position("CREATE-ASSETS")).toBeGreaterThan(position("CREATE-WORKLOADS"));

    // The workload's creation: after holds the new record, before nothing.
    const created = 'li.entry[data-action="CREATE-WORKLOADS"] .change[data-table="workloads"]';
    expect(await page.$eval(`${created} tr[data-path="cluster_name"] td.after`, (td) => td.textContent)).toBe('"plant-a"');
    expect(await page.$eval(`${created} tr[data-path="cluster_name"] td.before`, (td) => td.textContent)).toBe("");

    // Filter by request id (the entry's link), by resource, by action (the form).
    const workloadEntry = all.find((e) => e.action === "CREATE-WORKLOADS")!;
    await page.click('li.entry[data-action="CREATE-WORKLOADS"] a.rid');
    await ready(page, `#/audit?request_id=${workloadEntry.request_id}`);
    expect(await page.$$eval("ol.timeline li.entry", (els) => els.map((el) => (el as Dom).dataset.requestId))).toEqual([workloadEntry.request_id]);

    await go(page, "#/audit?identifier=plant-a");
    const forCluster = await page.$$eval("ol.timeline li.entry", (els) => els.map((el) => (el as Dom).dataset.identifier));
    expect(forCluster.length).toBe(all.filter((e) => e.identifier === "plant-a").length);
    expect(new Set(forCluster)).toEqual(new Set(["plant-a"]));

    await go(page, "#/audit");
    await page.type("input.filter-action", "create-assets");
    await page.click("form.filters button[type=submit]");
    await ready(page, "#/audit?action=CREATE-ASSETS");
    expect(await page.$$eval("ol.timeline li.entry", (els) => els.map((el) => (el as Dom).dataset.identifier))).toEqual(
      all.filter((e) => e.action === "CREATE-ASSETS").map((e) => e.identifier),
    );
  });

  test("an update's diff shows the old and new value of what changed, and appears live", async () => {
    await go(page, "#/audit");
    const title = "Pump monitor, line 1 (night shift)";
    const res = await api(baseUrl, "POST", "/apps/workloads/pump-monitor-line-1/patch", { title });
    expect(res.status).toBe(200);
    // The open timeline takes the new entry in at the top by itself.
    const row = 'ol.timeline > li.entry:first-child[data-action="PATCH-WORKLOADS"] .change.changed tr[data-path="title"]';
    await page.waitForSelector(row, { timeout: 10_000 });
    expect(await page.$eval(`${row} td.before`, (td) => td.textContent)).toBe('"Pump monitor, line 1"');
    expect(await page.$eval(`${row} td.after`, (td) => td.textContent)).toBe(JSON.stringify(title));
    // Only what changed is listed.
    const paths = await page.$$eval("ol.timeline > li.entry:first-child .change.changed tr.diff", (rows) => rows.map((r) => (r as Dom).dataset.path));
    expect(paths).toContain("title");
    expect(paths).not.toContain("name");
    await screenshot(page, "audit-timeline");
  });
});

browserSuite("the emulator's controls from the page", () => {
  let emu: Emulator;
  let page: Page;
  beforeEach(async () => {
    emu = await startEmulator({ log: () => undefined, seed: join(ROOT, "examples/fixtures/plant.yaml") });
  });
  afterEach(async () => {
    await page?.close();
    await emu.close();
  });

  test("the fault form shows the configuration in force: rate 0 while faults are off, the package settings when set", async () => {
    page = await openConsole(emu.baseUrl, "#/emulator");
    expect(await page.$eval('input[name="rate"]', (el) => (el as Dom).value)).toBe("0");
    expect(await page.$eval("#faults-badge", (el) => (el as Dom).hidden)).toBe(true);
    await page.type('input[name="package_failure_rate"]', "0.5");
    await page.type('input[name="package_ms"]', "30000");
    await page.click("button.faults-on");
    await page.waitForSelector("#faults-badge:not([hidden])");
    expect(await page.$eval("#faults-badge", (el) => el.textContent)).toBe("faults on: package downloads fail 0.5, package downloads take 30000 ms");
    expect(((await (await fetch(`${emu.baseUrl}/emulator/faults`)).json()) as Json).config).toMatchObject({ rate: 0, package_failure_rate: 0.5, package_ms: 30000 });
    await page.click("button.faults-off");
    await page.waitForSelector("#faults-badge[hidden]");
    expect(await page.$eval('input[name="package_ms"]', (el) => (el as Dom).value)).toBe("");
  });

  test("a record's long JSON lines wrap inside the view: nothing runs off its edge", async () => {
    const long = "x".repeat(600);
    await api(emu.baseUrl, "POST", "/assets/create", {
      name: "long-1",
      title: "Long",
      asset_type_name: "filler",
      metadata: { notes: { text: long, url: `https://example.com/${long}` } },
    });
    page = await openConsole(emu.baseUrl, "#/assets/long-1");
    const box = await page.$eval("#main pre.json", (el) => ({ scroll: (el as Dom).scrollWidth, client: (el as Dom).clientWidth, text: (el as Dom).textContent }));
    expect(box.text).toContain(long);
    expect(box.scroll).toBeLessThanOrEqual(box.client);
  });

  test("turning faults on makes the next API call fail as configured; turning them off ends it", async () => {
    page = await openConsole(emu.baseUrl, "#/emulator");
    expect((await api(emu.baseUrl, "GET", "/apps/workloads/list")).status).toBe(200);
    await page.$eval('input[name="rate"]', (el) => ((el as Dom).value = "1"));
    await page.click('input[name="statuses"][value="503"]'); // off (it is the default)
    await page.click('input[name="statuses"][value="502"]'); // on
    await page.click('input[name="methods"][value="GET"]');
    await page.type('input[name="paths"]', "/api/v4/apps/workloads/*");
    await page.click("button.faults-on");
    await page.waitForSelector("#faults-badge:not([hidden])");
    await screenshot(page, "emulator-controls");
    expect(await page.$eval("#faults-badge", (el) => el.textContent)).toBe("faults on: 1 × 502, GET, /api/v4/apps/workloads/*");

    const faulted = await api(emu.baseUrl, "GET", "/apps/workloads/list");
    expect(faulted.status).toBe(502);
    expect(JSON.stringify(faulted.body)).toMatch(/injected by the emulator's fault injection/);
    // Only what was configured: other paths and POST still answer.
    expect((await api(emu.baseUrl, "GET", "/orchestration/clusters/list")).status).toBe(200);
    // The page's own reads fail the same way, and say so.
    expect(await go(page, "#/workloads", ["error"])).toBe("error");
    expect(await page.$eval("#main .error", (el) => el.textContent)).toMatch(/GET \/api\/v4\/apps\/workloads\/list\?.* answered 502/);

    // Opened again, the form shows the configuration in force.
    await go(page, "#/emulator");
    expect(await page.$$eval("input[name=statuses]:checked", (els) => els.map((e) => (e as Dom).value))).toEqual(["502"]);
    expect(await page.$eval('input[name="paths"]', (el) => (el as Dom).value)).toBe("/api/v4/apps/workloads/*");
    await page.click("button.faults-off");
    await page.waitForSelector("#faults-badge[hidden]");
    expect((await api(emu.baseUrl, "GET", "/apps/workloads/list")).status).toBe(200);
  });

  test("a snapshot taken from the page loads back through the page after a reset", async () => {
    page = await openConsole(emu.baseUrl, "#/emulator");
    const dir = mkdtempSync(join(tmpdir(), "svc-console-"));
    const expected = await (await fetch(`${emu.baseUrl}/emulator/snapshot`)).text();
    await page.click("button.snapshot");
    await page.waitForSelector(".snapshot-result a.download");
    // Downloaded as a user downloads it.
    const cdp = await page.createCDPSession();
    await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: dir });
    await page.click(".snapshot-result a.download");
    const file = await waitForFile(dir, /^emulator-snapshot-.*\.yaml$/);
    const taken = readFileSync(file, "utf8");
    expect(taken).toBe(expected);

    await page.click("button.reset");
    await page.click("button.reset"); // the second click confirms
    await page.waitForFunction(() => (globalThis as Dom).document.querySelector("#notice").textContent?.includes("the emulator is empty"));
    expect((await api(emu.baseUrl, "GET", "/assets/list")).body.data).toEqual([]);

    try {
      const file = join(dir, "snapshot.yaml");
      writeFileSync(file, taken);
      const input = await page.$('input[name="fixture"]');
      await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(file);
      await page.click("button.seed");
      await page.waitForSelector(".seed-result p.ok, .seed-result .error");
      expect(await page.$eval(".seed-result", (el) => el.textContent)).toMatch(/^loaded snapshot\.yaml: .*assets \d+/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await (await fetch(`${emu.baseUrl}/emulator/snapshot`)).text()).toBe(expected);
    await go(page, "#/assets");
    await page.waitForSelector('li[data-asset="riverside"]');
  });

  test("the page never shows a secret: records and audit entries are redacted as the audit log redacts", async () => {
    const secret = "tok-4f9a1c2e7b3d";
    await api(emu.baseUrl, "POST", "/assets/create", {
      name: "gateway-1",
      title: "Gateway 1",
      asset_type_name: "filler",
      metadata: { vendor: { api_token: secret, note: `curl -H 'Authorization: Bearer ${secret}'`, make: "ACME" } },
    });
    const record = (await api(emu.baseUrl, "GET", "/assets/gateway-1/get")).body;
    // The API itself answers the value (a real platform would too): the page must not show it.
    expect(JSON.stringify(record)).toContain(secret);

    page = await openConsole(emu.baseUrl, "#/assets/gateway-1");
    const json = JSON.parse(await page.$eval("#main pre.json", (el) => el.textContent ?? ""));
    expect(json.metadata.vendor).toEqual({ api_token: "[redacted]", note: "curl -H 'Authorization: Bearer [redacted]'", make: "ACME" });
    for (const hash of ["#/assets/gateway-1", "#/assets", "#/audit", "#/audit?identifier=gateway-1"]) {
      await go(page, hash);
      if (hash === "#/assets") {
        await page.type("input.search", "gateway");
        await page.waitForSelector('#main tr[data-key="gateway-1"]');
      }
      const html = await page.content();
      expect({ hash, leaks: html.includes(secret) }).toEqual({ hash, leaks: false });
    }
    expect(await page.$$eval("ol.timeline li.entry", (els) => els.length)).toBe(1);
  });

  test("a large tree renders its top level only; children and further batches when asked", async () => {
    const roots = 450;
    const doc = {
      asset_classes: [{ name: "site", title: "Site" }],
      asset_types: [{ name: "cell", title: "Cell", asset_class_name: "site" }],
      assets: Array.from({ length: roots }, (_, i) => [
        { name: `cell-${i}`, title: `Cell ${i}`, asset_type_name: "cell" },
        { name: `cell-${i}-a`, title: `Cell ${i} A`, asset_type_name: "cell", asset_parent_name: `cell-${i}` },
        { name: `cell-${i}-b`, title: `Cell ${i} B`, asset_type_name: "cell", asset_parent_name: `cell-${i}` },
      ]).flat(),
    };
    const big = await startEmulator({ log: () => undefined, seed: doc });
    try {
      page = await openConsole(big.baseUrl, "#/assets");
      const count = () => page.$$eval("ul.tree li[data-asset]", (els) => els.length);
      expect(await count()).toBe(200);
      expect(await page.$eval("#main .count", (el) => el.textContent)).toBe("1,350 assets, 450 at the top");
      expect(await page.$('li[data-asset="cell-10-b"]')).toBeNull();
      await page.click('li[data-asset="cell-10"] button.toggle');
      await page.waitForSelector('li[data-asset="cell-10"] li[data-asset="cell-10-b"]');
      expect(await count()).toBe(202);
      await page.click("ul.tree > li.more button");
      await page.waitForFunction(() => (globalThis as Dom).document.querySelectorAll("ul.tree > li[data-asset]").length === 450);
      expect(await page.$("ul.tree > li.more")).toBeNull();
      // A search is a page of the asset list operation, not a walk of the tree.
      await go(page, "#/assets?search=cell-12-");
      expect(await page.$$eval("#main tr[data-key]", (rows) => rows.map((r) => (r as Dom).dataset.key))).toEqual(["cell-12-a", "cell-12-b"]);
    } finally {
      await big.close();
    }
  });
});
