/** Helpers of the plant tests: snapshots of emulators through HTTP, and their tables compared. */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { join } from "node:path";
import * as ts from "typescript";
import type * as testing from "../../src/testing";
import { SvcClient } from "../../src/client";
import { snapshot, type SnapshotEvent, type SnapshotOptions, type SnapshotResult } from "../../src/plant";
import { memorySink } from "../../src/plant";
import type { TestEmulator } from "../helpers/emulator";

export const SERVICE = { clientId: "svc-admin", clientSecret: "svc-admin-secret" };

/** A client of the emulator as a script would make one: the service account, patient retries. */
export function clientOf(emu: { baseUrl: string }): SvcClient {
  return new SvcClient({ baseUrl: emu.baseUrl, ...SERVICE, retry: { maxAttempts: 12, baseDelayMs: 5, maxDelayMs: 50 } });
}

export interface Taken extends SnapshotResult {
  text: string;
  events: SnapshotEvent[];
  requests: number;
  retries: number;
}

/** Snapshots the emulator through HTTP into a string. */
export async function take(emu: { baseUrl: string }, options: Omit<SnapshotOptions, "out"> = {}): Promise<Taken> {
  const client = clientOf(emu);
  const sink = memorySink();
  const events: SnapshotEvent[] = [];
  try {
    const result = await snapshot(client, { ...options, out: sink, knownSecrets: [SERVICE.clientSecret, ...(options.knownSecrets ?? [])] }, (e) => events.push(e));
    return { ...result, text: sink.text(), events, requests: client.stats.requests, retries: client.stats.retries };
  } finally {
    await client.close();
  }
}

let scratch: string | undefined;
/** A file holding `text`, in a folder removed with the process's temp files. */
export function fileWith(text: string, name = "plant.yaml"): string {
  scratch ??= mkdtempSync(join(tmpdir(), "svc-plant-"));
  const dir = mkdtempSync(join(scratch, "f-"));
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/**
 * Fields that hold random credentials or values derived from them, and the address ranges a platform
 * assigns to a cluster (in the order clusters are created, which a fixture written by name changes).
 */
const RANDOM = new Set(["service_account_token", "registry_password", "provision_script", "kubeconfig", "cidr"]);

/**
 * A record with the values expected to differ between two emulators masked (times, ids, random
 * credentials, base URLs) and its keys sorted (the order of keys is not data).
 */
export function mask(value: unknown, baseUrl: string, key?: string): unknown {
  if (key !== undefined && RANDOM.has(key)) return "<random>";
  if (typeof value === "string") {
    if (TIME.test(value)) return "<time>";
    if (UUID.test(value)) return "<id>";
    return value.split(baseUrl).join("<base-url>");
  }
  if (Array.isArray(value)) return value.map((v) => mask(v, baseUrl));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, mask(v, baseUrl, k)]),
    );
  }
  return value;
}

/** Every table of an emulator (GET /emulator/state), masked, each table's records sorted. */
export async function tables(emu: TestEmulator): Promise<Record<string, string[]>> {
  const res = await fetch(`${emu.baseUrl}/emulator/state`);
  if (res.status !== 200) throw new Error(`GET /emulator/state answered ${res.status}`);
  const state = (await res.json()) as Record<string, unknown[]>;
  const out: Record<string, string[]> = {};
  for (const [table, rows] of Object.entries(state)) {
    if (rows.length === 0) continue;
    out[table] = rows.map((r) => JSON.stringify(mask(r, emu.baseUrl))).sort();
  }
  return out;
}

/** A generated program folder as a kit program: its index.ts runs afresh on every call, each file transpiled as ts-node would (after `edit`). */
export function programOf(dir: string, edit: (file: string, text: string) => string = (_f, t) => t): testing.Program {
  return () => {
    const loaded = new Map<string, { exports: Record<string, unknown> }>();
    const load = (file: string): Record<string, unknown> => {
      const known = loaded.get(file);
      if (known) return known.exports;
      const source = edit(path.basename(file), readFileSync(file, "utf8"));
      const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 } }).outputText;
      const mod = { exports: {} as Record<string, unknown> };
      loaded.set(file, mod);
      const localRequire = (id: string) => (id.startsWith(".") ? load(path.join(path.dirname(file), `${id}.ts`)) : require(id));
      new Function("exports", "require", "module", "__filename", "__dirname", js)(mod.exports, localRequire, mod, file, path.dirname(file));
      return mod.exports;
    };
    load(path.join(dir, "index.ts"));
  };
}

/**
 * The operations of an up that removed `adopt` from an adopted program, other than the expected ones:
 * `adopt` is a provider-side arg, so the state records its removal as an update of `adopt` alone,
 * which sends nothing to the platform.
 */
export function beyondDroppingAdopt(run: testing.RunResult): string[] {
  return run.operations.filter((o) => o.op !== "same" && !(o.op === "update" && o.diffs?.length === 1 && o.diffs[0] === "adopt")).map((o) => `${o.op} ${o.name} ${o.diffs ?? ""}`);
}
