/**
 * `paginate` walks every item of a list endpoint page by page (spec Part 1 "Pagination"; facts §1.4
 * for Part 1 cursor pages, §1.5 for the Part 2 inventory lists), holding one page at a time.
 */
import { areas } from "../../src/api/endpoints";
import { SvcClient, type ClientEvent, type Part1LimitsAnswer, type Part1StreamAnswer } from "../../src/client";
import { useEmulator } from "../helpers/emulator";

let client: SvcClient;
let events: ClientEvent[] = [];

/** The messages of the list requests the client sent since `events` was last emptied. */
const listRequests = (suffix: string) => events.filter((e) => e.type === "request" && String(e.path).endsWith(suffix)).map((e) => e.message);

const pad = (i: number) => String(i).padStart(4, "0");
const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

// The records are loaded as fixtures (each replayed through its create operation), which is far
// quicker than 3600 requests: 2500 clusters for the inventory convention, 1100 apps with two
// parameters each for Part 1. The lists are only read: every test sees them as loaded.
const emu = useEmulator({
  reset: false,
  seed: {
    clusters: times(2500, (i) => ({ name: `plant-${pad(i)}` })),
    apps: times(1100, (i) => ({
      name: `app-${pad(i)}`,
      title: `App ${i}`,
      description: "generated",
      type: "app",
      version: "1.0.0",
      parameters: [
        { name: "speed", data_type: "number", default: 1 },
        { name: "label", data_type: "string", default: "x" },
      ],
    })),
  },
});
beforeAll(() => {
  client = SvcClient.fromEnv({}, { baseUrl: emu.baseUrl, username: "admin@example.com", password: "admin", logger: (e) => events.push(e) });
});
afterAll(() => client.close());
beforeEach(() => {
  events = [];
});

describe("Inventory lists (facts §1.5: starting_after = next_page)", () => {
  test("all 2500 clusters, in order, in pages of 100 by default", async () => {
    const names: string[] = [];
    for await (const c of client.paginate(areas.clusters.list)) names.push(c.name);
    expect(names).toHaveLength(2500);
    expect(names[0]).toBe("plant-0000");
    expect(names[2499]).toBe("plant-2499");
    expect(new Set(names).size).toBe(2500);
    const requests = listRequests("/clusters/list");
    expect(requests).toHaveLength(25);
  });

  test("the caller's page size, sort and filters are kept on every page; paging uses starting_after", async () => {
    const names: string[] = [];
    for await (const item of client.paginate(areas.clusters.list, { query: { page_size: 400, sort_asc: false, search: ["plant-1"] } })) names.push(item.name);
    expect(names).toHaveLength(1000);
    expect(names[0]).toBe("plant-1999");
    expect(names[999]).toBe("plant-1000");
    const queries = events.filter((e) => e.type === "request").map((e) => new URLSearchParams(String(e.query)));
    expect(queries).toHaveLength(3);
    expect(queries.map((q) => [q.get("page_size"), q.get("sort_asc"), q.getAll("search[]").join()])).toEqual(times(3, () => ["400", "false", "plant-1"]));
    expect(queries[0].get("starting_after")).toBeNull();
    expect(queries[1].get("starting_after")).toEqual(expect.any(String));
    expect(queries[2].get("starting_after")).not.toBe(queries[1].get("starting_after"));
  });

  test("pages are fetched as the iteration proceeds: one page is held at a time", async () => {
    const it = client.paginate(areas.clusters.list, { query: { page_size: 500 } });
    const first = await it.next();
    expect(first.value.name).toBe("plant-0000");
    expect(listRequests("/clusters/list")).toHaveLength(1);
    for (let i = 1; i < 500; i++) await it.next();
    expect(listRequests("/clusters/list")).toHaveLength(1);
    expect((await it.next()).value.name).toBe("plant-0500");
    expect(listRequests("/clusters/list")).toHaveLength(2);
    await it.return?.(undefined);
  });
});

describe("Part 1 lists (facts §1.4: cursor pages, next = next_page)", () => {
  test("all 1100 apps with pagination_type cursor and page size 1000 by default", async () => {
    const names: string[] = [];
    for await (const a of client.paginate(areas.apps.list)) names.push(a.name);
    expect(names).toHaveLength(1100);
    expect(names.slice(0, 2)).toEqual(["app-0000", "app-0001"]);
    expect(names[1099]).toBe("app-1099");
    expect(listRequests("/apps/list")).toHaveLength(2);
  });

  test("a POST list repeats its filter body on every page; paging stays in the query", async () => {
    const items: Array<{ name: string; app_name: string; data_type: string }> = [];
    const c = SvcClient.fromEnv({}, { baseUrl: emu.baseUrl, username: "admin@example.com", password: "admin" });
    try {
      for await (const p of c.paginate(areas.parameters.list, { body: { data_types: ["number"] }, query: { page_size: 300 } })) items.push(p);
    } finally {
      await c.close();
    }
    expect(items).toHaveLength(1100);
    expect(items.every((p) => p.data_type === "number" && p.name === "speed")).toBe(true);
    expect(new Set(items.map((p) => p.app_name)).size).toBe(1100);
    expect(c.stats.requests).toBe(4);
  });

  test("the cursor is sent as next, with the page size kept", async () => {
    const names: string[] = [];
    for await (const a of client.paginate(areas.apps.list, { query: { page_size: 400, direction: "desc" } })) names.push(a.name);
    expect(names).toHaveLength(1100);
    expect(names[0]).toBe("app-1099");
    const sent = listRequests("/apps/list");
    expect(sent).toHaveLength(3);
    const queries = events.filter((e) => e.type === "request").map((e) => new URLSearchParams(String(e.query)));
    expect(queries.map((q) => q.get("page_size"))).toEqual(["400", "400", "400"]);
    expect(queries[0].get("next")).toBeNull();
    expect(queries[1].get("next")).toEqual(expect.any(String));
    expect(queries.every((q) => q.get("pagination_type") === "cursor" && q.get("direction") === "desc")).toBe(true);
  });

  test("limits and stream pages are left to call(): paginate walks cursors", async () => {
    const it = client.paginate(areas.apps.list, { query: { pagination_type: "limits" } });
    await expect(it.next()).rejects.toThrow("apps.list: paginate walks cursor pages; call the endpoint with call() for pagination_type limits");
  });

  test("call() with pagination_type limits answers the limits page, checked against the table's item schema", async () => {
    const page = (await client.apps.list({ query: { pagination_type: "limits", page_size: 100, page: 3 } })) as unknown as Part1LimitsAnswer<typeof areas.apps.list>;
    expect(page.pagination).toEqual({ page: 3, total_pages: 11, total_items: 1100 });
    expect(page.data.map((a) => a.name)).toEqual(times(100, (i) => `app-${pad(200 + i)}`));
  });

  test("call() with pagination_type stream answers every item, one line each, as { data }", async () => {
    const answer = (await client.apps.list({ query: { pagination_type: "stream" } })) as unknown as Part1StreamAnswer<typeof areas.apps.list>;
    expect(answer.data).toHaveLength(1100);
    expect(answer.data[1099].name).toBe("app-1099");
    expect(Object.keys(answer)).toEqual(["data"]);
  });

  test("an endpoint that is not a list cannot be paged", async () => {
    const it = client.paginate(areas.clusters.get as never);
    await expect(it.next()).rejects.toThrow("clusters.get is not a list endpoint; paginate needs one (an endpoint with a list convention)");
  });
});
