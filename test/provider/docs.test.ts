/**
 * Everything a user touches is documented on hover: every public resource class, arg and output
 * property, lookup and interface property of the built `.d.ts` carries a doc comment, and each arg's
 * doc says what a change does as the kind declares it (replaces, or updates in place).
 */
import { kinds } from "../../src/provider/resources";
import { coverage, readPublicApi, type PublicApi } from "./dts";

let api: PublicApi;
beforeAll(() => {
  api = readPublicApi();
});

const classOf = (name: string) => api.classes.find((c) => c.name === name);

test("every public resource class, arg, output, lookup and interface property has a doc comment", () => {
  const undocumented = api.items.filter((i) => i.doc === "").map((i) => `${i.what} ${i.name}`);
  expect(undocumented).toEqual([]);
  // The walk reached the declarations: every kind's class, with its args and outputs.
  expect(api.items.length).toBeGreaterThan(200);
  expect(coverage(api.items).class).toBe(`${Object.keys(kinds).length}/${Object.keys(kinds).length}`);
});

test("the public resource classes are exactly the provider's kinds", () => {
  expect(api.classes.map((c) => c.name).sort()).toEqual(Object.keys(kinds).sort());
});

describe("each arg's doc says what a change does, as the kind declares it", () => {
  for (const kind of Object.values(kinds)) {
    test(kind.name, () => {
      const cls = classOf(kind.name);
      expect(cls).toBeDefined();
      // A kind whose every change replaces (no update call) says so for every arg.
      const alwaysReplaces = kind.replaceWhen?.({}, {}) === true || kind.update === undefined;
      const wrong: string[] = [];
      for (const [arg, spec] of Object.entries(kind.args)) {
        const doc = cls!.args[arg];
        if (doc === undefined) {
          wrong.push(`${arg}: not an arg of ${kind.name}Args`);
          continue;
        }
        if (spec.local) {
          if (!/provider-side/i.test(doc)) wrong.push(`${arg}: a provider-side setting; its doc should say it is never sent`);
          continue;
        }
        const replaces = alwaysReplaces || spec.replaces === true;
        if (replaces && !/replaces/.test(doc)) wrong.push(`${arg}: a change replaces the ${kind.noun}, the doc does not say so: ${doc}`);
        if (!replaces && !/in place/.test(doc)) wrong.push(`${arg}: a change updates in place, the doc does not say so: ${doc}`);
      }
      // Every arg of the class is one the kind declares (no undocumented behaviour).
      for (const arg of Object.keys(cls!.args)) if (!(arg in kind.args)) wrong.push(`${arg}: in ${kind.name}Args but not declared by the kind`);
      expect(wrong).toEqual([]);
    });
  }
});
