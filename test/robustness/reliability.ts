/**
 * The robustness figures and the RELIABILITY.md they make. Each robustness test file counts what it
 * tried in a `Figures` object and calls `report()` in its afterAll: the file's figures are saved as
 * JSON in a directory of the system's temp dir (one file per test file, replaced on each run), and
 * RELIABILITY.md at the repository root is rewritten from every saved entry only on request
 * (`WRITE_RELIABILITY=1`, set by `npm run reliability` and `npm run soak`), so an ordinary test run
 * leaves the tracked file alone. Whichever test file finishes last then leaves the complete document; the text depends only on the figures, so two
 * runs with the same seeds write the same file (timing-dependent counts, such as how many writes a
 * killed process acknowledged, are asserted in their tests and left out).
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { KINDS } from "../kinds";

export const REPO_ROOT = resolve(__dirname, "../..");
const FIGURES_DIR = join(tmpdir(), `pulumi-svc-robustness-${createHash("sha256").update(REPO_ROOT).digest("hex").slice(0, 12)}`);

/** What the robustness tests count; every figure below "must be 0" is a failure when it is not. */
export interface FigureValues {
  requests: number;
  status5xx: number;
  badErrorBodies: number;
  timeouts: number;
  rejectedStateChanges: number;
  pollutedPrototypes: number;
  permissionChecks: number;
  permissionViolations: number;
  concurrentRounds: number;
  serializabilityViolations: number;
  crashesSurvived: number;
  recordsLost: number;
  secretLeaks: number;
  faultedRuns: number;
  faultsInjected: number;
  duplicateObjects: number;
  lostResources: number;
  modelSequences: number;
  modelSteps: number;
  modelInvariants: number;
  modelViolations: number;
}

const ROWS: Array<{ key: keyof FigureValues; label: string; mustBeZero: boolean }> = [
  { key: "requests", label: "HTTP requests tried", mustBeZero: false },
  { key: "status5xx", label: "5xx answers", mustBeZero: true },
  { key: "badErrorBodies", label: "4xx answers without the spec's error body", mustBeZero: true },
  { key: "timeouts", label: "requests that hung past the per-request timeout", mustBeZero: true },
  { key: "rejectedStateChanges", label: "rejected requests that changed the state", mustBeZero: true },
  { key: "pollutedPrototypes", label: "prototype pollutions", mustBeZero: true },
  { key: "permissionChecks", label: "permission checks made (401/403 expectations)", mustBeZero: false },
  { key: "permissionViolations", label: "permission checks failed", mustBeZero: true },
  { key: "concurrentRounds", label: "rounds of 16 parallel writes", mustBeZero: false },
  { key: "serializabilityViolations", label: "rounds with no equivalent serial order", mustBeZero: true },
  { key: "crashesSurvived", label: "SIGKILLs survived (state file reloaded)", mustBeZero: false },
  { key: "recordsLost", label: "acknowledged writes lost", mustBeZero: true },
  { key: "secretLeaks", label: "passwords, secrets or tokens echoed or logged", mustBeZero: true },
  { key: "faultedRuns", label: `lifecycles of a program of all ${KINDS.length} kinds (up, re-run, refresh, destroy) under injected faults`, mustBeZero: false },
  { key: "faultsInjected", label: "faults injected into them", mustBeZero: false },
  { key: "duplicateObjects", label: "objects made twice", mustBeZero: true },
  { key: "lostResources", label: "resources lost from or changed in the Pulumi state", mustBeZero: true },
  { key: "modelSequences", label: `random operation sequences over all ${KINDS.length} kinds (model tests)`, mustBeZero: false },
  { key: "modelSteps", label: "steps in them (up, up under faults, preview, refresh, destroy, out-of-band edit)", mustBeZero: false },
  { key: "modelInvariants", label: "invariants checked after the steps", mustBeZero: false },
  { key: "modelViolations", label: "sequences that broke an invariant", mustBeZero: true },
];

export class Figures implements FigureValues {
  requests = 0;
  status5xx = 0;
  badErrorBodies = 0;
  timeouts = 0;
  rejectedStateChanges = 0;
  pollutedPrototypes = 0;
  permissionChecks = 0;
  permissionViolations = 0;
  concurrentRounds = 0;
  serializabilityViolations = 0;
  crashesSurvived = 0;
  recordsLost = 0;
  secretLeaks = 0;
  faultedRuns = 0;
  faultsInjected = 0;
  duplicateObjects = 0;
  lostResources = 0;
  modelSequences = 0;
  modelSteps = 0;
  modelInvariants = 0;
  modelViolations = 0;

  values(): FigureValues {
    return Object.fromEntries(ROWS.map((r) => [r.key, this[r.key]])) as unknown as FigureValues;
  }
}

interface Entry {
  file: string;
  mode: string;
  figures: FigureValues;
}

/** Saves one test file's figures and, on request, rewrites RELIABILITY.md from every saved entry. */
export function report(testFile: string, mode: string, figures: Figures): void {
  mkdirSync(FIGURES_DIR, { recursive: true });
  const file = basename(testFile).replace(/\.test\.ts$/, "");
  const entry: Entry = { file, mode, figures: figures.values() };
  const tmp = join(FIGURES_DIR, `${file}.json.${process.pid}`);
  writeFileSync(tmp, JSON.stringify(entry));
  renameSync(tmp, join(FIGURES_DIR, `${file}.json`));
  if (process.env.WRITE_RELIABILITY === "1") writeReliability(readEntries());
}

function readEntries(): Entry[] {
  const out: Entry[] = [];
  for (const name of readdirSync(FIGURES_DIR)
    .filter((n) => n.endsWith(".json"))
    .sort()) {
    try {
      out.push(JSON.parse(readFileSync(join(FIGURES_DIR, name), "utf8")) as Entry);
    } catch {
      // a half-written entry of a concurrent writer: its own report() rewrites the document
    }
  }
  return out;
}

function writeReliability(entries: Entry[]): void {
  const total = (k: keyof FigureValues) => entries.reduce((s, e) => s + (e.figures[k] ?? 0), 0);
  const failing = ROWS.filter((r) => r.mustBeZero && total(r.key) > 0);
  const lines = [
    "# Reliability of the emulator",
    "",
    "Written by the robustness tests (`test/robustness`, run by `npm test`; `SOAK=1` runs the long variants).",
    "Each column is the latest run of one test file. Regenerate with `npx jest test/robustness`.",
    "",
    failing.length === 0 ? "Status: every figure that must be 0 is 0." : `Status: FAILING (${failing.map((r) => r.label).join("; ")}).`,
    "",
    `| Figure | Must be | Total | ${entries.map((e) => `${e.file} (${e.mode})`).join(" | ")} |`,
    `|---|---|---|${entries.map(() => "---|").join("")}`,
    ...ROWS.map((r) => `| ${r.label} | ${r.mustBeZero ? "0" : ""} | ${total(r.key)} | ${entries.map((e) => String(e.figures[r.key] ?? 0)).join(" | ")} |`),
    "",
    "What each file tries:",
    "",
    "- fuzz: for every endpoint of the table, random and mutated path values, queries and bodies (fast-check) as the admin identity.",
    "- hostile: a fixed catalogue of hostile inputs on every endpoint (oversized, deeply nested, malformed and `__proto__` bodies, bad encodings and content types, unknown methods) and prototype-pollution checks.",
    "- permissions: every endpoint without a token, with malformed, forged, expired and refresh tokens, and as the read-only viewer; authentication before body validation.",
    "- concurrency: rounds of 16 parallel creates, updates and deletes on overlapping names, in memory and with a state file.",
    "- crash: a child emulator SIGKILLed during bursts of writes and restarted on the same state file.",
    "- secrets: wrong passwords and secrets at the token endpoints, and the audit log's redaction.",
    `- faults: the up, re-run, refresh and destroy of a program of all ${KINDS.length} kinds (the quickstart plus one resource of each other kind) through the engine kit with 20% of requests failing (before they take effect, and applied with the answer lost), compared with the same run without faults.`,
    `- model: random programs over all ${KINDS.length} kinds and random sequences of operations on them (up with random edits, up under injected faults, preview, refresh, destroy, up after destroy, out-of-band edits and deletions), each checked against a model of the platform after every step: empty preview after up, the platform's records equal to the program's, no drift (or exactly the out-of-band edit), destroy leaving only what the platform cannot delete, nothing missing or twice in the platform or the state, no secret in the state or the logs.`,
    "",
  ];
  const tmp = join(REPO_ROOT, `RELIABILITY.md.${process.pid}`);
  writeFileSync(tmp, lines.join("\n"));
  renameSync(tmp, join(REPO_ROOT, "RELIABILITY.md"));
}
