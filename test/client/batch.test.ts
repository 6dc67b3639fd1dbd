/**
 * Coalesced reads (src/client/batch.ts): the asset gets asked for in one turn of the event loop reach
 * the platform as one `POST /assets/list` with their names; each caller gets its own record, a missing
 * name the get's not-found error, and a failed list call fails every read it covered. Requests are
 * counted where the emulator receives them. Asset types are read the same way (`POST /assets/types/list`).
 */
import http from "node:http";
import { areas } from "../../src/api/endpoints";
import { SvcApiError, SvcClient } from "../../src/client";
import { MAX_NAMES_PER_CALL, readAsset, readAssetType } from "../../src/client/batch";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

let emu: TestEmulator;
let client: SvcClient;
/** Requests the emulator received, as `METHOD /path` (query left out). */
let received: string[] = [];
let port = 0;
const realEmit = http.Server.prototype.emit;

const pad = (i: number) => String(i).padStart(4, "0");
const assetName = (i: number) => `batch-${pad(i)}`;
const ASSETS = 2500;

const gets = () => received.filter((r) => /^GET \/api\/v4\/assets\/[^/]+\/get$/.test(r));
const lists = () => received.filter((r) => r === "POST /api/v4/assets/list");

beforeAll(async () => {
  emu = await startTestEmulator();
  port = Number(new URL(emu.baseUrl).port);
  jest.spyOn(http.Server.prototype, "emit").mockImplementation(function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const req = args[0] as http.IncomingMessage;
      if (req.socket.localPort === port) received.push(`${req.method} ${(req.url ?? "").split("?")[0]}`);
    }
    return (realEmit as (this: http.Server, event: string | symbol, ...rest: unknown[]) => boolean).call(this, event, ...args);
  });
  client = SvcClient.fromEnv({}, { baseUrl: emu.baseUrl, username: "admin@example.com", password: "admin" });
  await client.call(areas.assets.typeCreate, { body: { name: "pump", title: "Pump" } });
  for (let start = 0; start < ASSETS; start += 1000) {
    const assets = Array.from({ length: Math.min(1000, ASSETS - start) }, (_, k) => ({ name: assetName(start + k), title: `Asset ${start + k}`, asset_type_name: "pump" }));
    await client.call(areas.assets.bulkCreate, { body: { assets } });
  }
}, 60_000);
afterAll(async () => {
  jest.restoreAllMocks();
  await client.close();
  await emu.close();
});
beforeEach(() => {
  received = [];
  emu.faults.configure({});
});

/** Settles every promise; the outcome of each, in the order given. */
const settle = <T>(ps: Array<Promise<T>>) => Promise.allSettled(ps);

describe("reads asked for together", () => {
  test("become one list call; each caller gets its own record, as its get answers it, whatever the order", async () => {
    // Asked in an order the list does not answer in (it sorts by name), one name twice.
    const wanted = [17, 3, 250, 9, 3, 1999, 0, 42].map(assetName);
    const records = await Promise.all(wanted.map((n) => readAsset(client, n)));
    expect(lists()).toHaveLength(1);
    expect(gets()).toHaveLength(0);
    expect(records.map((r) => r.name)).toEqual(wanted);
    // The same record a get answers.
    received = [];
    for (const n of new Set(wanted)) expect(records[wanted.indexOf(n)]).toEqual(await client.call(areas.assets.get, { params: { asset_name: n } }));
    expect(gets()).toHaveLength(new Set(wanted).size);
  });

  test("more names than one call takes go in calls of at most 1000 names", async () => {
    const names = Array.from({ length: ASSETS }, (_, i) => assetName(i));
    const records = await Promise.all(names.map((n) => readAsset(client, n)));
    expect(records.map((r) => r.name)).toEqual(names);
    expect(lists()).toHaveLength(Math.ceil(ASSETS / MAX_NAMES_PER_CALL));
    expect(gets()).toHaveLength(0);
  });

  test("a read alone in its turn is the get itself; reads in different turns are not held for each other", async () => {
    const one = await readAsset(client, assetName(5));
    expect(one.name).toBe(assetName(5));
    await readAsset(client, assetName(6));
    expect(received.filter((r) => r.includes("/assets/"))).toEqual([`GET /api/v4/assets/${assetName(5)}/get`, `GET /api/v4/assets/${assetName(6)}/get`]);
  });
});

describe("what fails", () => {
  test("a name the list does not return gets the not-found error its get gives; the others their records", async () => {
    const asked = [assetName(1), "no-such-asset", assetName(2), "gone-too"];
    const out = await settle(asked.map((n) => readAsset(client, n)));
    expect(lists()).toHaveLength(1);
    expect(out.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled", "rejected"]);
    const missing = (out[1] as PromiseRejectedResult).reason;
    const byGet = await client.call(areas.assets.get, { params: { asset_name: "no-such-asset" } }).catch((e: unknown) => e);
    expect(byGet).toBeInstanceOf(SvcApiError);
    expect(missing).toBeInstanceOf(SvcApiError);
    for (const key of ["status", "method", "path", "endpointId", "retryable"] as const) expect(missing[key]).toEqual((byGet as SvcApiError)[key]);
    expect(missing.message).toMatch(/^GET \/assets\/no-such-asset\/get → 404: asset 'no-such-asset' not found/);
    expect((out[3] as PromiseRejectedResult).reason.message).toMatch(/asset 'gone-too' not found/);
  });

  test("a failed list call fails every read it covered, each with the call's error", async () => {
    emu.faults.configure({ rate: 1, statuses: [500], methods: ["POST"], paths: ["/api/v4/assets/list"] });
    const asked = [assetName(10), assetName(11), assetName(12)];
    const out = await settle(asked.map((n) => readAsset(client, n)));
    expect(lists()).toHaveLength(1);
    expect(out.every((o) => o.status === "rejected")).toBe(true);
    for (const o of out) {
      const e = (o as PromiseRejectedResult).reason;
      expect(e).toBeInstanceOf(SvcApiError);
      expect(e.status).toBe(500);
      expect(e.message).toMatch(/^POST \/assets\/list → 500/);
    }
    // The next batch, once the platform answers again, is not affected.
    emu.faults.configure({});
    received = [];
    const again = await Promise.all(asked.map((n) => readAsset(client, n)));
    expect(again.map((r) => r.name)).toEqual(asked);
    expect(lists()).toHaveLength(1);
  });

  test("a name the list's filter cannot take is read with its own get, and fails as that get does", async () => {
    const asked = [assetName(20), "Not A Name", assetName(21)];
    const out = await settle(asked.map((n) => readAsset(client, n)));
    expect(out.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const byGet = await client.call(areas.assets.get, { params: { asset_name: "Not A Name" } }).catch((e: unknown) => e);
    const withoutRequestId = (e: SvcApiError) => e.message.replace(/ \(request [^)]+\)$/, "");
    const refused = (out[1] as PromiseRejectedResult).reason as SvcApiError;
    expect(refused).toBeInstanceOf(SvcApiError);
    expect(refused.status).toBe((byGet as SvcApiError).status);
    expect(withoutRequestId(refused)).toBe(withoutRequestId(byGet as SvcApiError));
    expect(gets()).toEqual(["GET /api/v4/assets/Not%20A%20Name/get", "GET /api/v4/assets/Not%20A%20Name/get"]);
    expect(lists()).toHaveLength(1);
  });
});

describe("asset types", () => {
  const typeName = (i: number) => `batch-type-${pad(i)}`;
  const typeGets = () => received.filter((r) => /^GET \/api\/v4\/assets\/types\/[^/]+\/get$/.test(r));
  const typeLists = () => received.filter((r) => r === "POST /api/v4/assets/types/list");

  beforeAll(async () => {
    for (let i = 0; i < 30; i++) await client.call(areas.assets.typeCreate, { body: { name: typeName(i), title: `Type ${i}` } });
  });

  test("read together: one `POST /assets/types/list` with their names; each caller gets the record its get answers", async () => {
    const wanted = [12, 0, 29, 7, 12, 3].map(typeName);
    const records = await Promise.all(wanted.map((n) => readAssetType(client, n)));
    expect(typeLists()).toHaveLength(1);
    expect(typeGets()).toHaveLength(0);
    expect(records.map((r) => r.name)).toEqual(wanted);
    received = [];
    for (const n of new Set(wanted)) expect(records[wanted.indexOf(n)]).toEqual(await client.call(areas.assets.typeGet, { params: { asset_type_name: n } }));
    expect(typeGets()).toHaveLength(new Set(wanted).size);
  });

  test("a type the list does not return gets the get's not-found error; a read alone is the get itself", async () => {
    const out = await settle([typeName(1), "no-such-type"].map((n) => readAssetType(client, n)));
    expect(typeLists()).toHaveLength(1);
    expect(out[0].status).toBe("fulfilled");
    const missing = (out[1] as PromiseRejectedResult).reason as SvcApiError;
    const byGet = (await client.call(areas.assets.typeGet, { params: { asset_type_name: "no-such-type" } }).catch((e: unknown) => e)) as SvcApiError;
    expect(byGet).toBeInstanceOf(SvcApiError);
    expect(missing).toBeInstanceOf(SvcApiError);
    for (const key of ["status", "method", "path", "endpointId", "retryable"] as const) expect(missing[key]).toEqual(byGet[key]);
    expect(missing.message).toMatch(/^GET \/assets\/types\/no-such-type\/get → 404: asset type 'no-such-type' not found/);
    received = [];
    expect((await readAssetType(client, typeName(2))).name).toBe(typeName(2));
    expect(received).toEqual([`GET /api/v4/assets/types/${typeName(2)}/get`]);
  });
});
