/** Data types: an ICD under a name and version; the platform cannot delete one. */
import { TABLES } from "../../src/emulator/store/tables";
import type { KindTests } from "./kind-tests";
import * as svc from "../../src";
import fc from "fast-check";
import { some, defined, text, word, bool, semver, uniqueBy, type Scenario } from "../robustness/kind-scenarios";
import type { Args } from "../model/program";
import { record, type KindModel, type Rec } from "./kind-model";

/** A data type's identity: its ICD's name and version (0.0.1 when none is declared). */
const identity = (icd: Rec) => `${icd.name}:${icd.version ?? "0.0.1"}`;

const model: KindModel = {
  add(w, r, n) {
    const args: Args = {
      icd: { name: `model.type_${n}`, className: `Type${n}`, version: "1.0.0", fields: [{ name: "value", type: r.pick(["number", "string", "boolean"]) }] },
    };
    if (r.chance(0.15)) args.adopt = true;
    return w.push("DataType", args, `datatype-${n}`);
  },
  adopts: true,
  replaces(w, d, c) {
    c.apply("icd (a new version)", (r) => {
      const icd = d.args.icd as Args;
      d.args.icd = { ...icd, version: `1.${w.number()}.0`, fields: [{ name: "value", type: r.pick(["number", "string", "boolean"]) }] };
    });
  },
  records: (a) => [
    record(TABLES.dataTypes, identity(a.icd), [
      ["icd.class_name", a.icd.className],
      ["icd.fields", a.icd.fields, "contained"],
    ]),
  ],
  table: { name: TABLES.dataTypes, identity: (r) => `${r.name}:${r.version}` },
  id: (a) => identity(a.icd),
  released: true,
};

const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    icd: some({
      description: text(80),
      version: semver,
      fields: uniqueBy(
        fc
          .record({ name: word, type: fc.constantFrom("number", "string", "boolean", "int32", "timestamp") })
          .chain((f) => some({ description: text(30), array: bool }).map((o) => ({ ...f, ...o }))),
        (f) => f.name,
      ),
    }),
    className: fc.stringMatching(/^[A-Z][A-Za-z0-9_]{1,20}$/),
    source: fc.option(fc.constantFrom("user", "connect", "plant"), { nil: undefined }),
    adopt: fc.option(bool, { nil: undefined }),
  })
  .map(({ icd, className, source, adopt }) => (u) => [
    { kind: "DataType", name: `dt-${u}`, args: defined({ icd: { name: `model.type_${u}`, className, ...(icd as Args) }, source, adopt }) },
  ]);

export const dataType: KindTests = {
  model,
  scenario,
  args: { icd: { name: "plant.reading", className: "Reading", fields: [] } },
  e2e: {
    retained: true,
    actions: ["none", "replace"],
    program: (v) =>
      void new svc.DataType("subject", {
        icd: { name: "plant.pump_reading", className: "PumpReading", version: v === 2 ? "1.1.0" : "1.0.0", fields: [{ name: "pressure", type: "number", description: "bar" }] },
      }),
  },
  inPlantProgram: true,
  secret: {
    resource: "data-type",
    args: ["icd"],
    declare: ({ round, c, s }) =>
      new svc.DataType("data-type", {
        icd: s({ name: "plant.canary", className: "Canary", version: `1.0.${round}`, fields: [{ name: "pressure", type: "number", description: c("icd") }] }),
      }),
  },
  allKinds: () =>
    new svc.DataType("pump-reading", {
      icd: { name: "plant.pump_reading", className: "PumpReading", version: "1.0.0", fields: [{ name: "pressure", type: "number", description: "bar" }] },
    }),
};
