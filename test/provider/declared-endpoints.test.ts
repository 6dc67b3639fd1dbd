/**
 * Kinds name the endpoints of their calls, and the lifecycle builds the create and update bodies
 * from the args through the one shared mapping:
 * - every kind declares its endpoints, or is listed below with the reason its calls are written by hand;
 * - each endpoint a kind names is a row of the table whose `effect` is the operation's;
 * - the bodies and paths sent are the args under their wire names, only the fields the endpoint takes;
 * - a mapping that cannot build an endpoint's body does not compile (fixtures/declared-endpoints.ts).
 */
import path from "node:path";
import ts from "typescript";
import { assets } from "../../src/api/assets";
import { bridges } from "../../src/api/bridges";
import type { AnyEndpoint } from "../../src/api/endpoint";
import { endpoints } from "../../src/api/endpoints";
import type { SvcClient } from "../../src/client";
import { declareKind, defineOutputs, type Kind, type KindContext } from "../../src/provider/kind";
import { kinds } from "../../src/provider/kinds";
import { codeOf, rejection } from "../helpers/codes";
import { compileFixture, markedMistakes, unmetMistakes } from "../helpers/marked-errors";

type Op = "create" | "read" | "update" | "delete";
const OPS: readonly Op[] = ["create", "read", "update", "delete"];

/** The operations of each kind written by hand (the others name their endpoints), and why. */
const HAND_WRITTEN: Record<string, Partial<Record<Op, string>>> = {
  App: {
    create: "the app exists once a version made it: create patches its registration",
    update: "patches the registration",
    delete: "waits until the app's workloads are gone first",
  },
  AppVersion: { create: "the body is checked against the manifest's schema", update: "sends only the changed keys" },
  AppParameterValues: {
    create: "values are read and written whole, merged with the values the platform holds",
    read: "reads the values of the managed parameters",
    update: "values are read and written whole, merged with the values the platform holds",
    delete: "returns the managed values to their defaults, keeping the others",
  },
  Asset: { read: "reads are coalesced into list calls" },
  AssetType: { read: "reads are coalesced into list calls" },
  Cluster: { create: "followed by a settings update", update: "sends only the changed settings" },
  DataLabel: { create: "a given source's `info` is sent as {} when left out", update: "a given source's `info` is sent as {} when left out" },
  DataType: { create: 'the body sends the definition\'s description as "" when left out' },
  InstanceSettings: { create: "a singleton: create takes the settings over, writing only when they differ", delete: "a singleton: destroy restores the defaults" },
  ParameterSchedule: { create: "the body is composed from the args (resources as KRNs, the revert)" },
  Workload: {
    create: "creates stopped or running as declared, then settles the declared state",
    update: "patches only the changed keys, then settles the declared state",
    delete: "a call by names (in the body)",
  },
};

/** The operations a kind has: create and read always, update when it updates in place, delete unless destroy releases. */
const opsOf = (k: Kind): Op[] => OPS.filter((op) => (op === "update" ? k.update !== undefined : op === "delete" ? k.onDestroy !== "release" : true));

test("each operation of every kind names its endpoint, or is written by hand for a stated reason", () => {
  const all = Object.values(kinds);
  const unexplained = all.flatMap((k) =>
    opsOf(k)
      .filter((op) => !k.endpoints?.[op] && !HAND_WRITTEN[k.name]?.[op])
      .map((op) => `${k.name}.${op}`),
  );
  expect(unexplained).toEqual([]);
  // The list names only operations that exist and are written by hand: one moved to its endpoint leaves it.
  const stale = Object.entries(HAND_WRITTEN).flatMap(([name, ops]) =>
    Object.keys(ops).flatMap((op) => {
      const k = kinds[name];
      return !k || !opsOf(k).some((o) => o === op) || k.endpoints?.[op as Op] ? [`${name}.${op}`] : [];
    }),
  );
  expect(stale).toEqual([]);
  // The operations that name their endpoints today; moving more raises the count, never lowers it.
  expect(all.flatMap((k) => opsOf(k).filter((op) => k.endpoints?.[op])).length).toBeGreaterThanOrEqual(37);
});

test("each endpoint a kind names is a row of the table with the operation's effect", () => {
  const named = Object.values(kinds).flatMap((k) =>
    OPS.flatMap((op) => {
      const ep = k.endpoints?.[op];
      return ep ? [{ kind: k.name, op, ep }] : [];
    }),
  );
  expect(named.length).toBeGreaterThanOrEqual(20);
  const wrong = named.filter(({ op, ep }) => ep.effect !== op || !endpoints.includes(ep)).map(({ kind, op, ep }) => `${kind}.${op}: ${ep.id} (effect ${ep.effect})`);
  expect(wrong).toEqual([]);
});

/** A client that records each call and answers `answer` (by default the call's body, as a record). */
function recording(answer?: (ep: AnyEndpoint, input: unknown) => unknown) {
  const calls: Array<{ id: string; input: unknown }> = [];
  const client = {
    async call(ep: AnyEndpoint, input: unknown) {
      calls.push({ id: ep.id, input });
      return answer ? answer(ep, input) : { name: "answered" };
    },
  };
  const ctx: KindContext = { client: client as unknown as SvcClient, settings: { operationTimeoutSeconds: 60 } };
  return { calls, ctx };
}

test("create sends the args under their wire names: only the body's fields, the path's values from the id, nothing local", async () => {
  const { calls, ctx } = recording();
  await kinds.AssetProperty.create(ctx, { assetName: "pump-1", name: "rpm", title: "RPM", value: 1500, adopt: true });
  expect(calls).toEqual([{ id: assets.propertyCreate.id, input: { params: { asset_name: "pump-1" }, body: { name: "rpm", title: "RPM", value: 1500 } } }]);
});

test("update sends the fields the update body takes (renamed args, no identity), to the object's path", async () => {
  const { calls, ctx } = recording();
  const news = { name: "pump-1", title: "Pump 1", assetTypeName: "pump", parentName: "line-1", location: { lat: 1, lon: 2 } };
  await kinds.Asset.update!(ctx, "pump-1", news, undefined, ["title"]);
  expect(calls).toEqual([
    {
      id: assets.update.id,
      input: { params: { asset_name: "pump-1" }, body: { title: "Pump 1", asset_type_name: "pump", asset_parent_name: "line-1", location: { lat: 1, lon: 2 } } },
    },
  ]);
});

test("read and delete address the object from its id", async () => {
  const { calls, ctx } = recording();
  const props = { assetName: "pump-1", name: "rpm", value: "x" };
  await kinds.AssetProperty.read(ctx, "pump-1/rpm", props);
  if (kinds.AssetProperty.onDestroy === "release") throw new Error("AssetProperty is deleted on destroy");
  await kinds.AssetProperty.delete(ctx, "pump-1/rpm", props);
  await kinds.AssetMetadata.read(ctx, "pump-1/nameplate", {});
  await kinds.Bridge.read(ctx, "b-1", {});
  expect(calls).toEqual([
    { id: assets.propertyGet.id, input: { params: { asset_name: "pump-1", asset_property_name: "rpm" } } },
    { id: assets.propertyDelete.id, input: { params: { asset_name: "pump-1", asset_property_name: "rpm" } } },
    { id: assets.metadataGet.id, input: { params: { asset_name: "pump-1", asset_metadata_name: "nameplate" } } },
    { id: bridges.get.id, input: { params: { bridge_name: "b-1" } } },
  ]);
});

test("an answer that is no record is refused, naming the kind and the endpoint", async () => {
  const { ctx } = recording(() => undefined);
  const err = await rejection(kinds.Bridge.read(ctx, "b-1", {}));
  expect(codeOf(err)).toBe("SVC_PLATFORM_ANSWER_INVALID");
  expect(err.message).toMatch(/^Bridge: bridges\.get answered no record \(undefined\)/);
});

describe("declarations the lifecycle cannot run are refused when the kind is declared", () => {
  const base = { platformTerm: "x", outputs: defineOutputs(bridges.get, {}), args: { name: { required: true as const } } };
  // Declarations the types would refuse, given untyped, as the lifecycle sees them at run time.
  const declare = (d: Record<string, unknown>): Kind => declareKind<{ name: string }>()({ ...base, name: "Broken", endpoints: {}, ...d });
  test("no create", () => {
    expect(() => declare({ endpoints: { read: bridges.get, delete: bridges.delete } })).toThrow(/^Broken: the declaration needs a create and a read/);
  });
  test("no delete on a kind destroy deletes", () => {
    expect(() => declare({ endpoints: { create: bridges.deploy, read: bridges.get } })).toThrow(/^Broken: the declaration needs a delete/);
  });
  test("a delete on a kind destroy releases", () => {
    expect(() => declare({ onDestroy: "release", endpoints: { create: bridges.deploy, read: bridges.get, delete: bridges.delete } })).toThrow(/releases the object has no delete/);
  });
  test("path values beyond the id without params", async () => {
    const kind = declare({ endpoints: { create: bridges.deploy, read: assets.propertyGet, delete: bridges.delete } });
    const { ctx } = recording();
    const err = await rejection(kind.read(ctx, "b-1", {}));
    expect(codeOf(err)).toBe("SVC_KIND_DECLARATION_INVALID");
    expect(err.message).toMatch(/^Broken: the endpoint assets\.propertyGet needs path values \(asset_name, asset_property_name\), more than the id/);
  });
  test("without params, a path of one value takes the id", async () => {
    const kind = declare({ endpoints: { create: bridges.deploy, read: bridges.get, delete: bridges.delete } });
    const { ctx, calls } = recording();
    await kind.read(ctx, "b-1", {});
    expect(calls).toEqual([{ id: bridges.get.id, input: { params: { bridge_name: "b-1" } } }]);
  });
});

// ---------------------------------------------------------------------------------------------
// Compile-time: a mapping that cannot build a body is an error on the line that names the endpoints.

const FIXTURE = path.join(__dirname, "fixtures", "declared-endpoints.ts");
function compile(source: string) {
  const config = ts.readConfigFile(path.join(__dirname, "..", "..", "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, path.join(__dirname, "..", ".."));
  return compileFixture(FIXTURE, source, { ...options, noEmit: true });
}

// The fixture as written (each directive met) is compiled by `npm run typecheck` (tsconfig.json includes test/).
test("each declaration whose args cannot build an endpoint's body fails to compile, naming the problem; the others compile", () => {
  const text = ts.sys.readFile(FIXTURE) ?? "";
  expect(markedMistakes(text).length).toBeGreaterThanOrEqual(6);
  // Compiled without its directives: errors on the marked lines only.
  expect(unmetMistakes(text, compile)).toEqual([]);
}, 120_000);
