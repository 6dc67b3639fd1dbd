/**
 * The import file that moves a stack to the native provider (src/provider/native/move.ts), written
 * from stacks that `pulumi up` of the dynamic resources left (the upgrade baselines: every kind, and a
 * component's children); the CLI runs it in migrate.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { urnName } from "../../src/pulumi/urn";
import { kinds } from "../../src/provider/kinds";
import { dynamicUrns, importFile, moveProblems, type ExportedStack } from "../../src/provider/native/move";
import { BASELINES, newestScenarios as SCENARIOS, newestVersion } from "../upgrade/recorded";

/** A stack the newest version's baselines recorded (together they declare every kind). */
const baseline = (scenario: string) =>
  JSON.parse(fs.readFileSync(path.join(BASELINES, newestVersion!, scenario, "stack.json"), "utf8")) as ExportedStack & {
    deployment: { resources: Array<{ urn: string; type: string; id?: string; parent?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }> };
  };

describe("the import file that moves a stack to the native provider", () => {
  test("the newest baselines together declare every kind", () => {
    const types = SCENARIOS.flatMap((scenario) => importFile(baseline(scenario)).resources.map((r) => r.type));
    expect([...new Set(types)].sort()).toEqual(
      Object.keys(kinds)
        .map((k) => `svc:index:${k}`)
        .sort(),
    );
  });

  test.each(SCENARIOS)("%s: every dynamic svc resource, under its native type, with its id, inputs and outputs without the dynamic provider's", (scenario) => {
    const stack = baseline(scenario);
    const dynamic = stack.deployment.resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/svc:"));
    const file = importFile(stack);
    expect(file.resources.map((r) => r.type).sort()).toEqual(dynamic.map((r) => r.type.replace("pulumi-nodejs:dynamic/svc:", "svc:index:")).sort());
    for (const r of dynamic) {
      const spec = file.resources.find((s) => s.id === r.id && s.type === r.type.replace("pulumi-nodejs:dynamic/svc:", "svc:index:"))!;
      expect(spec).toBeDefined();
      expect(Object.keys(r.inputs!)).toContain("__provider");
      const { __provider: _p, __svcOwner: _o, ...inputs } = r.inputs!;
      const { __provider: _q, ...outputs } = r.outputs!;
      expect(spec.inputs).toEqual(inputs);
      expect(spec.outputs).toEqual(outputs);
    }
    expect(dynamicUrns(stack)).toEqual(dynamic.map((r) => r.urn));
    expect(moveProblems(stack)).toEqual([]);
  });

  test("resources that are children of the stack keep their names, with no parent and no name table", () => {
    const stack = baseline("all-kinds");
    const file = importFile(stack);
    expect(stack.deployment.resources.filter((r) => r.parent?.includes("::upgrade:"))).toEqual([]);
    for (const r of stack.deployment.resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/svc:"))) {
      const spec = file.resources.find((s) => s.name === urnName(r.urn));
      expect(spec).toMatchObject({ id: r.id });
      expect(spec!.parent).toBeUndefined();
    }
    expect(file.nameTable).toEqual({});
  });

  test("a component's children name it through the name table; other resources stay out", () => {
    const stack = baseline("options");
    const file = importFile(stack);
    const children = stack.deployment.resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/svc:") && r.parent?.includes("::upgrade:index:Line::"));
    expect(children.length).toBeGreaterThan(0);
    for (const child of children) {
      const spec = file.resources.find((s) => s.id === child.id && s.type.endsWith(child.type.split(":").pop()!))!;
      expect(file.nameTable[spec.parent!]).toBe(child.parent);
    }
    expect(file.resources.some((r) => !r.type.startsWith("svc:index:"))).toBe(false);
    // One name per resource of the file and per parent it names.
    const names = [...file.resources.map((r) => r.name), ...Object.keys(file.nameTable)];
    expect(new Set(names).size).toBe(names.length);
  });

  test("names used twice are told apart; each keeps its own as its logical name", () => {
    const stack = baseline("options");
    const comp = stack.deployment.resources.find((r) => r.type === "upgrade:index:Line")!;
    // The component's name is also a child's name (line-2 under line-2): the table's entry takes the next free name.
    const file = importFile(stack);
    const entry = Object.entries(file.nameTable).find(([, urn]) => urn === comp.urn);
    const clash = file.resources.find((r) => r.name === urnName(comp.urn))!;
    expect(clash.type).toBe("svc:index:Asset");
    expect(entry).toEqual([`${clash.name}#2`, comp.urn]);
    for (const r of file.resources) if (r.logicalName !== undefined) expect(r.name).toMatch(new RegExp(`^${r.logicalName}#\\d+$`));
  });

  test("a stack with unfinished operations or a resource left to be deleted cannot move as it stands", () => {
    const stack = baseline("all-kinds");
    const unfinished = { deployment: { ...stack.deployment, pending_operations: [{ type: "creating" }] } };
    expect(moveProblems(unfinished)).toEqual([expect.stringContaining("did not finish")]);
    const [first, ...rest] = stack.deployment.resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/svc:"));
    const condemned = { deployment: { resources: [{ ...first, delete: true }, ...rest] } };
    expect(moveProblems(condemned)).toEqual([expect.stringContaining(`${first.urn} is left to be deleted`)]);
    expect(moveProblems({})).toEqual([expect.stringContaining("no deployment")]);
  });
});
