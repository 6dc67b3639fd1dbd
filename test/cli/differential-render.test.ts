/**
 * What a run tells a reader, the same under both engines: `render()` of previews, ups and refreshes
 * (old => new per property, what forces a replacement, delete-before-replace included), a changed
 * secret input (shown changed, never its value), a released cluster, a failed run's message (one
 * clean line from the engine's diagnostics) and its operations, and no temporary folder left behind.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as svc from "../../src";
import * as testing from "../../src/testing";
import type { Program, StackOptions } from "../../src/testing";
import { backend } from "../engine/fixtures/harness";
import { Record as RecordResource } from "../engine/fixtures/record";
import { describeCli, pulumiDir, tempDir } from "./harness";

testing.registerMatchers();

type Engine = "kit" | "pulumi";

async function open(engine: Engine, program: Program, options: StackOptions = {}) {
  const common = { expectEmptyPlanAfterUp: false, ...options };
  return engine === "pulumi" ? testing.stack(program, { ...common, engine: "pulumi", pulumiPath: pulumiDir }) : testing.stack(program, common);
}

const records = (value: string, key: string, secretNote: string) => () => {
  // A chain (base, hidden, swap): steps of resources that do not depend on each other finish in either
  // order, and a run's operations are in the order they finished.
  const base = new RecordResource("base", { key: "base", value, meta: { site: value === "1" ? "north" : "south", line: "7" } });
  const hidden = new RecordResource("hidden", { key: "hidden", note: pulumi.secret(secretNote) }, { dependsOn: [base] });
  const swap = new RecordResource("swap", { key, deleteBeforeReplace: true, ref: base.key }, { dependsOn: [hidden] });
  return [base, swap, hidden];
};

/** Each run's render() and, for a failed run, its message and operations. */
async function story(engine: Engine): Promise<string[]> {
  const storeDir = tempDir("svc-render-");
  const stack = await open(engine, records("1", "s1", "first secret"), { config: { "fixture:storeDir": storeDir } });
  const out: string[] = [];
  try {
    await stack.up();
    out.push((await stack.preview(records("2", "s2", "first secret"))).render());
    out.push((await stack.up(records("2", "s2", "second secret"))).render());
    const id = stack.resource("base").id!;
    backend.drift(storeDir, id, { value: "by hand" });
    out.push((await stack.refresh()).render());
    const failed = (await stack
      .up(() => {
        const all = records("2", "s2", "second secret")();
        // Registered once the others are done, so that both engines have finished them when it fails.
        new RecordResource("broken", { key: "broken", fail: "create", note: pulumi.all(all.map((r) => r.revision)).apply(() => "last") });
      })
      .catch((e: unknown) => e)) as testing.RunError;
    out.push(failed.message, JSON.stringify(failed.operations.map((o) => `${o.name} ${o.op}`).sort()), `${failed.resource?.name} ${failed.operation}`);
  } finally {
    await stack.close();
  }
  return out;
}

describeCli("what runs tell, the same under the kit and `pulumi`", () => {
  test("render(): old => new values, the key forcing a (delete-before-)replace, a changed secret hidden; a failed run's message and operations", async () => {
    const [kit, cli] = [await story("kit"), await story("pulumi")];
    // The preview: the values the events carry, the replacement's reason from the engine's keys.
    expect(cli[0]).toContain('~ value: "1" => "2"');
    expect(cli[0]).toContain('~ meta.site: "north" => "south"');
    expect(cli[0]).toContain("+- fixture:Record swap replace (key forces replacement)");
    expect(cli[0]).toContain('~ key: "s1" => "s2" (forces replacement)');
    // The up: the secret input changed, shown without its value.
    expect(cli[1]).toContain("~ note: [secret] => [secret]");
    expect(cli.join("\n")).not.toMatch(/first secret|second secret/);
    // The refresh: what moved on the platform, old => new.
    expect(cli[2]).toContain('value: "2" => "by hand"');
    // The failure: one line, the resource, the operation and the provider's words.
    expect(cli[3]).toBe(
      'up failed: create of pulumi-nodejs:dynamic/fixture:Record "broken" failed: record broken: create refused by the backend (fail=create) [SVC_KIT_PROVIDER_FAILED]',
    );
    expect(cli[5]).toBe("broken create");
    expect(kit).toEqual(cli);
  });

  test("a preview's failure is one clean line, as the up's", async () => {
    const messages: Record<Engine, string[]> = { kit: [], pulumi: [] };
    for (const engine of ["kit", "pulumi"] as const) {
      const stack = await open(engine, () => void new RecordResource("empty", { key: "" }), { config: { "fixture:storeDir": tempDir("svc-render-") } });
      try {
        for (const run of [() => stack.preview(), () => stack.up()]) messages[engine].push(((await run().catch((e: unknown) => e)) as Error).message);
      } finally {
        await stack.close();
      }
    }
    for (const m of messages.pulumi) {
      expect(m).not.toContain("\n");
      expect(m).toMatch(/^(preview|up) failed: check of pulumi-nodejs:dynamic\/fixture:Record "empty" failed: .*key must be a non-empty string/);
    }
    expect(messages.kit.map((m) => m.replace(/:.*$/, ""))).toEqual(messages.pulumi.map((m) => m.replace(/:.*$/, "")));
  });

  test("a refused login: one message from the engine's diagnostics, its cause told once", async () => {
    const stack = await open("pulumi", () => void new svc.Label("l", { name: "l1", title: "L" }), { emulator: true, config: { "svc:clientSecret": "wrong" } });
    try {
      for (const run of [() => stack.preview(), () => stack.up()]) {
        const m = ((await run().catch((e: unknown) => e)) as Error).message;
        expect(m).toMatch(/^(preview|up) failed: check of pulumi-nodejs:dynamic\/svc:Label "l" failed: the credentials were refused/);
        expect(m.split("the credentials were refused")).toHaveLength(2);
        expect(m).not.toContain("$PATH");
      }
    } finally {
      await stack.close();
    }
  });

  test("a cluster destroy releases: `release` in the preview and the destroy, with what it means", async () => {
    const out: Record<Engine, string[]> = { kit: [], pulumi: [] };
    for (const engine of ["kit", "pulumi"] as const) {
      const stack = await open(engine, () => void new svc.Cluster("plant", { name: "plant-a" }), { emulator: true });
      try {
        await stack.up();
        const planned = await stack.preview(() => undefined);
        expect(planned).toHaveActions({ plant: "release" });
        out[engine].push(planned.render(), (await stack.destroy()).render());
      } finally {
        await stack.close();
      }
    }
    expect(out.pulumi[0]).toContain("- svc:Cluster plant release (stays on the platform as it is; only leaves the stack)");
    expect(out.pulumi[1]).toContain("1 released");
    expect(out.kit).toEqual(out.pulumi);
  });

  test("deleting a protected resource is refused in the same words", async () => {
    const messages: string[] = [];
    for (const engine of ["kit", "pulumi"] as const) {
      const stack = await open(engine, () => void new RecordResource("vault", { key: "vault" }, { protect: true }), { config: { "fixture:storeDir": tempDir("svc-render-") } });
      try {
        await stack.up();
        messages.push(((await stack.up(() => undefined).catch((e: unknown) => e)) as Error).message);
      } finally {
        await stack.close();
      }
    }
    expect(messages[1]).toContain("cannot be deleted because it is protected. To unprotect the resource, either remove the `protect` flag");
    // The kit knows the refusal for what it is (its code); the CLI stack reads only the engine's words.
    expect(messages[0]).toMatch(/ \[SVC_KIT_PROTECTED\]$/);
    // The engine's message ends with the command that unprotects it in its state, which the kit's state has no use for.
    const words = (m: string) =>
      m
        .replace(/ \[SVC_[A-Z0-9_]+\]$/, "")
        .replace(/\s+/g, " ")
        .replace(", either remove", ", remove")
        .replace(/, or use the command:.*$/, "");
    expect(words(messages[0])).toBe(words(messages[1]));
  });

  test("close() leaves no temporary folder, with a statePath too", async () => {
    const statePath = path.join(tempDir("svc-state-"), "backend");
    const stack = await open("pulumi", () => void new RecordResource("a", { key: "a" }), { statePath, config: { "fixture:storeDir": tempDir("svc-render-") } });
    // The stack's own folder (its configuration, the CLI's home and logs), a private field.
    const folder = (stack as unknown as { temp: string }).temp;
    expect(path.basename(folder)).toMatch(/^svc-cli-stack-/);
    await stack.up();
    expect(fs.existsSync(folder)).toBe(true);
    await stack.close();
    expect(fs.existsSync(folder)).toBe(false);
    // The backend statePath names is the user's: it stays.
    expect(fs.readdirSync(statePath).length).toBeGreaterThan(0);
  });
});
