/**
 * Parity: does the emulator answer like a platform? With a snapshot of the platform in hand, the
 * snapshot's own reading (every get and list it makes) runs against the platform and against an
 * emulator seeded from the snapshot, side by side, and the answers of each operation are compared by
 * shape: the fields each side sends (by path, `data[].status.state`), their JSON types, whether they
 * are always there, and the statuses. Values are not compared (ids, times and anything the platform
 * assigns differ by nature); free-form objects (payloads, configurations, metadata) are compared as
 * one field, since their keys are data.
 *
 * The emulator's answers drive the reading (they hold exactly the snapshot's records); the platform
 * is asked the same operations with the same inputs, its lists walked with its own cursors.
 */
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import type { AnyEndpoint } from "../api/endpoint";
import type { SvcClientOptions } from "../client/config";
import { SvcClient } from "../client";
import { startEmulator } from "../emulator";
import { BUILTIN_CLIENTS } from "../emulator/areas/auth/model";
import { baseSchema } from "../emulator/validate";
import { RawApi, type RawAnswer } from "./raw";
import { readPlant, type SnapshotEvent, type SnapshotOptions } from "../emulator/snapshot/reader";
import { snapshot } from "./snapshot";
import { SNAPSHOT_PAGE_SIZE, withPageSize, type PlantSource } from "../emulator/snapshot/source";
import { memorySink, nullSink } from "../emulator/snapshot/writer";
import { SvcError } from "../errors";

export type Side = "platform" | "emulator";

/** One field (or the status) whose shape differs; each side described as the report shows it. */
export interface FieldDifference {
  /** `data[].title`, or `(status)` for the answers' statuses. */
  field: string;
  platform: string;
  emulator: string;
}

export interface OperationParity {
  /** The operation's id in the endpoint table (`clusters.get`). */
  operation: string;
  answers: Record<Side, number>;
  differences: FieldDifference[];
}

export interface ParityReport {
  /** Where the platform is. */
  against: string;
  /** What seeded the emulator: the snapshot file, or a snapshot taken for the check. */
  snapshot: string;
  operations: OperationParity[];
  /** The operations with differences. */
  differing: OperationParity[];
}

export interface ParityOptions extends Omit<SnapshotOptions, "out" | "knownSecrets"> {
  /** The snapshot to seed the emulator from (a fixture file); without it one is taken first. */
  snapshot?: string;
  /** Where unset client options are read from (default process.env). */
  env?: NodeJS.ProcessEnv;
}

export type ParityEvent = { phase: "snapshot" | "compare"; event: SnapshotEvent };

/**
 * Compares the answers of the platform `target` names (client options, SVC_* variables as fallback)
 * with those of an emulator seeded from its snapshot.
 */
export async function parity(target: SvcClientOptions, options: ParityOptions = {}, onProgress?: (e: ParityEvent) => void): Promise<ParityReport> {
  const env = options.env ?? process.env;
  const filters = { only: options.only, clusters: options.clusters, assetPath: options.assetPath, pageSize: options.pageSize };
  let seed: string | Record<string, unknown>;
  if (options.snapshot) {
    seed = options.snapshot;
  } else {
    const client = SvcClient.fromEnv(env, target);
    const sink = memorySink();
    try {
      await snapshot(client, { ...filters, out: sink }, (event) => onProgress?.({ phase: "snapshot", event }));
    } finally {
      await client.close();
    }
    seed = (parseYaml(sink.text()) ?? {}) as Record<string, unknown>;
  }
  const emulator = await startEmulator({ seed, log: () => undefined });
  try {
    const [clientId, { secret }] = Object.entries(BUILTIN_CLIENTS)[0];
    const platform = new RawApi(target, env);
    const local = new RawApi({ baseUrl: emulator.baseUrl, clientId, clientSecret: secret });
    const recorder = new ShapeRecorder();
    const source = pairedSource(platform, local, recorder, options.pageSize);
    await readPlant(source, { ...filters, out: nullSink }, (event) => onProgress?.({ phase: "compare", event }));
    const operations = recorder.compare();
    return {
      against: platform.origin,
      snapshot: options.snapshot ?? "taken for the check",
      operations,
      differing: operations.filter((o) => o.differences.length > 0),
    };
  } finally {
    await emulator.close();
  }
}

/** The report as text: one block per operation that differs, or a line saying there is none. */
export function formatParity(report: ParityReport): string {
  const n = report.operations.length;
  const lines = [`Parity of ${report.against} with an emulator seeded from ${report.snapshot}: ${n} operation(s) compared, ${report.differing.length} differ.`];
  for (const op of report.differing) {
    lines.push("", `${op.operation} (${op.answers.platform} answer(s) from the platform, ${op.answers.emulator} from the emulator)`);
    for (const d of op.differences) lines.push(`  ${d.field}: platform ${d.platform}; emulator ${d.emulator}`);
  }
  return lines.join("\n") + "\n";
}

// ---------------------------------------------------------------------------------------------

const isOk = (a: RawAnswer) => a.status >= 200 && a.status < 300;

/** Reads from both sides; the emulator's answers are returned, both sides' recorded. */
function pairedSource(platform: RawApi, emulator: RawApi, recorder: ShapeRecorder, pageSize = SNAPSHOT_PAGE_SIZE): PlantSource {
  const refuse = (ep: AnyEndpoint, a: RawAnswer) =>
    new SvcError("SVC_PARITY_EMULATOR_REFUSED", `the emulator seeded from the snapshot answered ${ep.id} with ${a.status}: ${JSON.stringify(a.body ?? "").slice(0, 300)}`);
  return {
    async *list(ep, input) {
      const paged = withPageSize(input, pageSize);
      for await (const answer of platform.pages(ep, paged)) recorder.add("platform", ep, answer);
      for await (const answer of emulator.pages(ep, paged)) {
        recorder.add("emulator", ep, answer);
        if (!isOk(answer)) throw refuse(ep, answer);
        yield* (answer.body as { data: unknown[] }).data;
      }
    },
    async get(ep, input) {
      const [p, e] = await Promise.all([platform.send(ep, input), emulator.send(ep, input)]);
      recorder.add("platform", ep, p);
      recorder.add("emulator", ep, e);
      if (!isOk(e)) throw refuse(ep, e);
      return e.body;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Shapes

interface FieldStat {
  types: Set<string>;
  /** Answers (or list items) in which the field is present. */
  present: number;
}

interface SideShape {
  answers: number;
  statuses: Map<number, number>;
  fields: Map<string, FieldStat>;
  /** How often each object with a known shape was seen, by path: the base of `present`. */
  objects: Map<string, number>;
}

const jsonType = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

type Def = { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The schema of each field of an object schema, or undefined for a free-form object or a non-object. */
function fieldsOf(schema: z.ZodType | undefined): Record<string, z.ZodType> | undefined {
  if (!schema) return undefined;
  const base = baseSchema(schema);
  return defOf(base).type === "object" ? (base as unknown as z.ZodObject).shape : undefined;
}

function elementOf(schema: z.ZodType | undefined): z.ZodType | undefined {
  if (!schema) return undefined;
  const def = defOf(baseSchema(schema));
  return def.type === "array" ? def.element : undefined;
}

class ShapeRecorder {
  private readonly ops = new Map<string, Record<Side, SideShape>>();

  add(side: Side, ep: AnyEndpoint, answer: RawAnswer): void {
    let op = this.ops.get(ep.id);
    if (!op) {
      const fresh = (): SideShape => ({ answers: 0, statuses: new Map(), fields: new Map(), objects: new Map() });
      op = { platform: fresh(), emulator: fresh() };
      this.ops.set(ep.id, op);
    }
    const shape = op[side];
    shape.answers++;
    shape.statuses.set(answer.status, (shape.statuses.get(answer.status) ?? 0) + 1);
    // An error answer's body is compared only as a status.
    if (isOk(answer) && answer.body !== undefined) this.walk(shape, answer.body, ep.success.body, "");
  }

  private walk(shape: SideShape, value: unknown, schema: z.ZodType | undefined, path: string): void {
    if (path !== "") {
      const stat = shape.fields.get(path) ?? { types: new Set(), present: 0 };
      stat.types.add(jsonType(value));
      stat.present++;
      shape.fields.set(path, stat);
    }
    if (Array.isArray(value)) {
      const element = elementOf(schema);
      if (element || path === "") for (const v of value) this.walk(shape, v, element, `${path}[]`);
      return;
    }
    const fields = fieldsOf(schema);
    // Free-form objects and fields the schema does not know are compared as a whole.
    if (!value || typeof value !== "object" || !fields) return;
    shape.objects.set(path, (shape.objects.get(path) ?? 0) + 1);
    for (const [key, v] of Object.entries(value)) {
      this.walk(shape, v, Object.prototype.hasOwnProperty.call(fields, key) ? fields[key] : undefined, path ? `${path}.${key}` : key);
    }
  }

  compare(): OperationParity[] {
    return [...this.ops.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([operation, sides]) => ({
        operation,
        answers: { platform: sides.platform.answers, emulator: sides.emulator.answers },
        differences: differencesOf(sides.platform, sides.emulator),
      }));
  }
}

/** The path of the object or list holding `path` ("" for a top-level field). */
function parentOf(path: string): string {
  const m = /(\.[^.[\]]+|\[\])$/.exec(path);
  return m ? path.slice(0, m.index) : "";
}

function describeStatuses(s: SideShape): string {
  return [...s.statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}${n > 1 ? ` ×${n}` : ""}`)
    .join(", ");
}

function differencesOf(platform: SideShape, emulator: SideShape): FieldDifference[] {
  const out: FieldDifference[] = [];
  const statusesOf = (s: SideShape) => [...s.statuses.keys()].sort((a, b) => a - b).join(",");
  if (statusesOf(platform) !== statusesOf(emulator)) {
    out.push({ field: "(status)", platform: describeStatuses(platform), emulator: describeStatuses(emulator) });
  }
  const paths = [...new Set([...platform.fields.keys(), ...emulator.fields.keys()])].sort();
  /** Paths reported as a whole: what lies below them is not reported again. */
  const reported = new Set<string>();
  const below = (path: string) => {
    for (let p = parentOf(path); p !== ""; p = parentOf(p)) if (reported.has(p)) return true;
    return false;
  };
  const typesOf = (s: FieldStat | undefined) => (s ? [...s.types].sort().join("|") : "absent");
  for (const path of paths) {
    if (below(path)) continue;
    const p = platform.fields.get(path);
    const e = emulator.fields.get(path);
    if (!p || !e || typesOf(p) !== typesOf(e)) {
      out.push({ field: path, platform: typesOf(p), emulator: typesOf(e) });
      reported.add(path);
      continue;
    }
    // Present in every object that may hold it on one side, only in some on the other.
    if (path.endsWith("[]")) continue;
    const base = (s: SideShape) => s.objects.get(parentOf(path)) ?? 0;
    const always = (s: SideShape, f: FieldStat) => f.present >= base(s);
    if (always(platform, p) !== always(emulator, e)) {
      const say = (s: SideShape, f: FieldStat) => (always(s, f) ? "present in every answer" : `present in ${f.present} of ${base(s)}`);
      out.push({ field: path, platform: say(platform, p), emulator: say(emulator, e) });
    }
  }
  return out;
}
