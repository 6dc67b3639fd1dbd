/**
 * The identity a native create records (ownership.ts's request id), read from the resource's URN:
 * the same project, stack and name the dynamic resources pass as `__svcOwner`. The real CLI's creates
 * carry it in yaml.test.ts.
 */
import { withOwner } from "../../src/provider/native/server";
import { OWNER_KEY, ownerOf } from "../../src/provider/ownership";

describe("a native create's owner, from its URN", () => {
  test("a resource of the stack, and a component's child (its type joined to the parent's with $)", () => {
    expect(ownerOf(withOwner("urn:pulumi:dev::plant::svc:index:Asset::pump-1", { name: "pump-1" }))).toEqual({ project: "plant", stack: "dev", resource: "pump-1" });
    expect(ownerOf(withOwner("urn:pulumi:site-a::plant::plant:index:Line$svc:index:Asset::line-2", {}))).toEqual({ project: "plant", stack: "site-a", resource: "line-2" });
  });

  test("a name holding '::' keeps it; the args stay as they are", () => {
    const props = withOwner("urn:pulumi:dev::plant::svc:index:Label::a::b", { title: "T" });
    expect(props).toEqual({ title: "T", [OWNER_KEY]: "plant/dev/a::b" });
  });

  test("what is no URN adds no owner", () => {
    expect(withOwner("pump-1", { name: "pump-1" })).toEqual({ name: "pump-1" });
  });
});
