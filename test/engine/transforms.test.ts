/**
 * A component's `transforms` apply to its children, under the kit's engine as under `pulumi`: the
 * kit finds a child's inherited transforms by its parent's URN, which it writes with the one URN
 * module (a component under the root stack has no `Stack$` type prefix).
 */
import * as pulumi from "@pulumi/pulumi";
import { bothEngines, comparable } from "../cli/differential-harness";
import { describeCli } from "../cli/harness";
import { Record as RecordResource } from "./fixtures/record";

class Group extends pulumi.ComponentResource {
  constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
    super("fixture:index:Group", name, {}, opts);
    new RecordResource(`${name}-member`, { key: `${name}-member`, value: "plain" }, { parent: this });
    this.registerOutputs({});
  }
}

describeCli("the kit and `pulumi` agree", () => {
  test("a component's transforms change its children's inputs", async () => {
    const upper: pulumi.ResourceTransform = (args) => ({ props: args.type === "fixture:index:Group" ? args.props : { ...args.props, value: "transformed" }, opts: args.opts });
    const { kit, cli } = await bothEngines([{ run: "up", program: () => void new Group("g", { transforms: [upper] }) }]);
    expect(cli.records.map((r) => r.value)).toEqual(["transformed"]);
    expect(comparable(kit)).toEqual(comparable(cli));
  });
});
