/**
 * URNs are read by one module (src/pulumi/urn.ts) with the engine's rule: the name is everything
 * after the third `::`, so a name holding `::` reads back whole, under the kit's engine and under
 * the real `pulumi` CLI alike.
 */
import * as svc from "../../src";
import { formatUrn, parseUrn, resourceUrn, ROOT_STACK_TYPE, urnName, urnQualifiedType, urnType } from "../../src/pulumi/urn";
import * as testing from "../../src/testing";
import { describeCli, pulumiDir } from "../cli/harness";

const scope = { stack: "dev", project: "plant" };

describe("the URN module", () => {
  test("the name is everything after the third `::`, and formatting a parsed URN gives it back", () => {
    const urn = "urn:pulumi:dev::plant::svc:index:Label::line::pump";
    expect(parseUrn(urn)).toEqual({ stack: "dev", project: "plant", qualifiedType: "svc:index:Label", name: "line::pump" });
    expect(urnName(urn)).toBe("line::pump");
    expect(formatUrn(parseUrn(urn))).toBe(urn);
  });

  test("a child's type is its parent's qualified type and its own, joined with `$`; the root stack adds none", () => {
    const stackUrn = resourceUrn(scope, ROOT_STACK_TYPE, "plant-dev");
    const group = resourceUrn(scope, "fixture:index:Group", "g::1", stackUrn);
    const member = resourceUrn(scope, "fixture:index:Record", "m::1", group);
    expect(group).toBe("urn:pulumi:dev::plant::fixture:index:Group::g::1");
    expect(member).toBe("urn:pulumi:dev::plant::fixture:index:Group$fixture:index:Record::m::1");
    expect([urnQualifiedType(member), urnType(member), urnName(member)]).toEqual(["fixture:index:Group$fixture:index:Record", "fixture:index:Record", "m::1"]);
  });

  test("a malformed URN reads as empty parts, not as another resource's", () => {
    expect(parseUrn("urn:pulumi:dev::plant")).toEqual({ stack: "dev", project: "plant", qualifiedType: "", name: "" });
  });
});

const program = () => void new svc.Label("line::pump", { name: "pump", title: "Pump" });

async function nameSeen(options: testing.StackOptions): Promise<{ resource: string; operation: string | undefined; urn: string }> {
  const stack = await testing.stack(program, { emulator: true, ...options });
  try {
    const up = await stack.up();
    return { resource: stack.resource("line::pump").name, operation: up.operations.find((o) => o.op === "create")?.name, urn: stack.resource("line::pump").urn };
  } finally {
    await stack.close();
  }
}

test("the kit's engine keeps a name holding `::` whole", async () => {
  const seen = await nameSeen({});
  expect(seen).toEqual({ resource: "line::pump", operation: "line::pump", urn: expect.stringMatching(/:dynamic\/svc:Label::line::pump$/) as unknown });
});

describeCli("under `pulumi`", () => {
  test("the CLI stack reads a name holding `::` whole from the state and the engine's events", async () => {
    const seen = await nameSeen({ engine: "pulumi", pulumiPath: pulumiDir });
    expect(seen).toEqual({ resource: "line::pump", operation: "line::pump", urn: expect.stringMatching(/:dynamic\/svc:Label::line::pump$/) as unknown });
  });
});
