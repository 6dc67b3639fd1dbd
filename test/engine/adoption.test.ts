/**
 * Adoption: reading an existing object by id (importResource; the `import` resource option fails, as under the CLI) and
 * Terraform's check that adopting an object gives the state that creating it gave.
 */
import * as testing from "../../src/testing";
import { Record } from "./fixtures/record";
import { backend, closeStacks, fixtureStack, type Fixture } from "./fixtures/harness";

testing.registerMatchers();
afterEach(closeStacks);

const TYPE = "pulumi-nodejs:dynamic/fixture:Record";
const original = () => void new Record("x", { key: "x", value: "one", note: "n" });

describe("expectAdoptionMatchesCreate", () => {
  test("passes when reading the created object by id alone gives the state its creation recorded", async () => {
    const f = await fixtureStack(original);
    await f.stack.up();
    await expect(testing.expectAdoptionMatchesCreate(f.stack, "x")).resolves.toBeUndefined();
    // Adoption for the comparison does not touch the stack's state.
    expect(f.stack.resources().map((r) => r.name)).toEqual(["x"]);
  });

  test("fails naming each property that differs, unless the property is ignored", async () => {
    const f = await fixtureStack(original);
    await f.stack.up();
    const id = f.stack.resource("x").id!;
    backend.drift(f.storeDir, id, { value: "elsewhere" });
    await expect(testing.expectAdoptionMatchesCreate(f.stack, "x")).rejects.toThrow(
      `adopting "x" (id ${id}) does not produce the state its creation did:\n  outputs.value: created "one", adopted "elsewhere"`,
    );
    await expect(testing.expectAdoptionMatchesCreate(f.stack, "x", { ignore: ["value"] })).resolves.toBeUndefined();
  });
});

describe("adopting an object another stack created", () => {
  // The owner creates the object once and goes away; each test adopts it from a stack of its own
  // (the last one takes it over and destroys it).
  let owner: Fixture;
  let created: testing.ResourceView;
  beforeAll(async () => {
    owner = await fixtureStack(original);
    await owner.stack.up();
    created = owner.stack.resource("x");
    await owner.stack.close();
  });

  test("the import option fails as under `pulumi up` (the engine's Read carries no inputs for the dynamic-provider host), writing nothing", async () => {
    const b = await fixtureStack(() => void new Record("x", { key: "x", value: "one", note: "n" }, { import: created.id }), { storeDir: owner.storeDir });
    const before = b.records();
    const logged = b.ops().length;
    const refused = b.stack.up();
    await expect(refused).rejects.toThrow(`import of ${TYPE} "x" failed: code must be a string, not undefined`);
    await expect(refused).rejects.toMatchObject({ failures: [expect.objectContaining({ code: "SVC_KIT_IMPORT_UNSUPPORTED" })] });
    expect(b.stack.resources()).toEqual([]);
    expect(b.records()).toEqual(before);
    expect(
      b
        .ops()
        .slice(logged)
        .filter((o) => o.op !== "check"),
    ).toEqual([]);
  });

  test("importResource reads an object by id into the state; a program declaring it then finds it unchanged", async () => {
    const b = await fixtureStack(original, { storeDir: owner.storeDir });
    const adopted = await b.stack.importResource({ name: "x", id: created.id!, type: created.type, provider: created.provider });
    expect(adopted).toMatchObject({ urn: created.urn, id: created.id, outputs: created.outputs });
    expect(await b.stack.preview()).toHaveNoChanges();
    await expect(b.stack.importResource({ name: "ghost", id: "ghost-00000000", like: "x" })).rejects.toThrow(
      `import of ${TYPE} "ghost" failed: there is no object with id "ghost-00000000"`,
    );
  });
});
