/**
 * A row's id comes from where it sits: `area(name, …)` gives each row the id `<name>.<key>`, so no
 * row spells its id, and the table files each area under its name (a type-check error otherwise).
 * Rows name the reads of their confirms by id; the table refuses one that names no read of it.
 */
import { z } from "zod";
import { area, endpoint, type Area } from "../../src/api/endpoint";
import { areas, endpoints, indexTable, type AreaTable } from "../../src/api/endpoints";

const get = endpoint({
  method: "GET",
  effect: "read",
  path: "/things/{thing_name}/get",
  permission: "thing.read",
  summary: "Get a thing",
  params: z.object({ thing_name: z.string() }),
  success: { status: 200 },
});
const make = endpoint({
  method: "POST",
  effect: "create",
  confirm: { read: "plantThings.get", params: () => undefined },
  path: "/things/make",
  permission: "thing.create",
  summary: "Make a thing",
  source: "facts",
  success: { status: 201 },
});

test("each row's id is its area's name and its key, its tag the name in kebab case, its source the area's unless it names its own", () => {
  const things = area("plantThings", "part2", { get, make });
  expect(Object.values(things).map((e) => [e.id, e.tags, e.source])).toEqual([
    ["plantThings.get", ["plant-things"], "part2"],
    ["plantThings.make", ["plant-things"], "facts"],
  ]);
});

test("a row that is not well made is refused naming the id its area gives it", () => {
  expect(() => area("things", "part2", { fetch: { ...get, params: undefined } })).toThrow("things.fetch: path /things/{thing_name}/get needs a params schema");
});

test("every row of the table sits in its area under the key its id names", () => {
  const misplaced = Object.entries(areas).flatMap(([name, rows]) => Object.entries(rows).flatMap(([key, e]) => (e.id === `${name}.${key}` ? [] : [`${name}.${key}: ${e.id}`])));
  expect(misplaced).toEqual([]);
  expect(endpoints.length).toBeGreaterThanOrEqual(158);
});

test("the table refuses a confirm that reads no read of it, naming the row and the read", () => {
  const things = area("plantThings", "part2", { get, make });
  expect(indexTable([...endpoints, things.get, things.make]).get("plantThings.make")).toBe(things.make);
  expect(() => indexTable([...endpoints, things.make])).toThrow("plantThings.make: its confirm reads plantThings.get, which is not a read of the table");
  const writes = area("plantThings", "part2", { get: { ...get, effect: "update" }, make });
  expect(() => indexTable([...endpoints, writes.get, writes.make])).toThrow("plantThings.make: its confirm reads plantThings.get, which is not a read of the table");
  expect(() => indexTable([...endpoints, endpoints[0]])).toThrow(`duplicate endpoint id ${endpoints[0].id}`);
});

/** Compile-time checks of the table's type (the type-check fails when an area is filed under another key). */
type Aps = Area<"aps", { get: typeof get }>;
export type FiledUnderItsName = AreaTable<{ aps: Aps }>;
// @ts-expect-error an area filed under a key other than its name
export type FiledUnderAnotherKey = AreaTable<{ apps: Aps }>;
