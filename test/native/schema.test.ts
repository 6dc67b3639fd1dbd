/**
 * schema/schema.json is what `npm run schema` writes from the kind declarations, and it describes
 * every registered kind: its args (required, replace-on-change), its outputs, and the provider's settings.
 */
import * as fs from "node:fs";
import { kinds } from "../../src/provider/kinds";
import { SECRET_SETTINGS, SETTINGS } from "../../src/provider/config";

const { generateSchema, render, SCHEMA_PATH } = require("../../scripts/generate-schema.js") as {
  generateSchema(o: object): Schema;
  render(s: Schema): string;
  SCHEMA_PATH: string;
};
const pkg = require("../../package.json") as { version: string; description: string };

interface Property {
  type?: string;
  $ref?: string;
  description?: string;
  replaceOnChanges?: boolean;
  secret?: boolean;
  defaultInfo?: { environment: string[] };
}
interface Resource {
  description?: string;
  inputProperties: Record<string, Property>;
  requiredInputs: string[];
  properties: Record<string, Property>;
  required: string[];
}
interface Schema {
  name: string;
  version: string;
  config: { variables: Record<string, Property> };
  provider: { inputProperties: Record<string, Property> };
  resources: Record<string, Resource>;
  types: Record<string, { type: string; properties?: Record<string, Property>; enum?: Array<{ value: unknown }> }>;
}

jest.setTimeout(120_000);

let fresh: Schema;
beforeAll(() => {
  fresh = generateSchema({ kinds, settings: SETTINGS, secretSettings: SECRET_SETTINGS, version: pkg.version, description: pkg.description });
});

test("the committed schema is current (npm run schema regenerates it)", () => {
  const committed = fs.readFileSync(SCHEMA_PATH, "utf8");
  expect(committed).toBe(render(fresh));
});

test("every registered kind is a resource svc:index:<Kind> with each of its args and outputs", () => {
  expect(Object.keys(fresh.resources).sort()).toEqual(
    Object.keys(kinds)
      .map((k) => `svc:index:${k}`)
      .sort(),
  );
  for (const kind of Object.values(kinds)) {
    const r = fresh.resources[`svc:index:${kind.name}`];
    expect(Object.keys(r.inputProperties).sort()).toEqual(Object.keys(kind.args).sort());
    expect([...r.requiredInputs].sort()).toEqual([...kind.required].sort());
    for (const [name, spec] of Object.entries(kind.args)) {
      const p = r.inputProperties[name];
      expect({ kind: kind.name, name, replaces: p.replaceOnChanges === true }).toEqual({ kind: kind.name, name, replaces: spec.replaces === true });
      expect({ kind: kind.name, name, typed: p.type !== undefined || p.$ref !== undefined || "oneOf" in p }).toEqual({ kind: kind.name, name, typed: true });
    }
    for (const output of kind.outputNames) expect(Object.keys(r.properties)).toContain(output);
    expect(r.description).toBeTruthy();
  }
});

test("types, docs and enums come from the declarations", () => {
  const asset = fresh.resources["svc:index:Asset"];
  expect(asset.inputProperties.name).toMatchObject({ type: "string", replaceOnChanges: true });
  expect(asset.inputProperties.name.description).toMatch(/unique on the platform/);
  expect(asset.inputProperties.location.$ref).toBe("#/types/svc:index:AssetLocation");
  expect(fresh.types["svc:index:AssetLocation"].properties).toMatchObject({ lat: { type: "number" }, lon: { type: "number" } });
  expect(asset.inputProperties.adopt.type).toBe("boolean");
  // An output typed as a union of strings is an enum.
  expect(asset.properties.state.$ref).toBe("#/types/svc:index:AssetState");
  expect(fresh.types["svc:index:AssetState"].enum!.map((e) => e.value)).toEqual(expect.arrayContaining(["online", "offline"]));
  // Outputs the platform may leave unset are not required.
  expect(asset.required).toContain("path");
  expect(asset.required).not.toContain("lastSeen");
});

test("the provider's settings are its configuration, credentials secret", () => {
  for (const [key, env] of Object.entries(SETTINGS)) {
    const v = fresh.config.variables[key];
    expect(v.defaultInfo).toEqual({ environment: [env] });
    expect(v.secret === true).toBe(SECRET_SETTINGS.includes(key as keyof typeof SETTINGS));
    expect(v.description).toBeTruthy();
    expect(fresh.provider.inputProperties[key]).toEqual(v);
  }
});
