/**
 * Value handling shared by every resource kind: camelCase ↔ snake_case at the wire, scrubbing
 * `undefined` (the host cannot encode it), and the comparisons diff and refresh use beyond equality
 * (the unknown sentinel and deep equality, which the kit's engine shares, are ../pulumi/values.ts).
 */

import type { z } from "zod";
import { showValue } from "../api/common";

export const snake = (s: string): string => s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
export const camel = (s: string): string => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * Converts the keys of a structured value, leaving free-form subtrees untouched. `freeForm` holds
 * dotted paths (in the target naming, `*` for any key or array item) whose values pass through as is.
 */
export function convertKeys(value: unknown, to: (k: string) => string, freeForm: readonly string[] = [], path = ""): unknown {
  if (Array.isArray(value)) return value.map((v) => convertKeys(v, to, freeForm, path ? `${path}.*` : "*"));
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = to(k);
    const p = path ? `${path}.${key}` : key;
    out[key] = isFreeForm(p, freeForm) ? v : convertKeys(v, to, freeForm, p);
  }
  return out;
}

/** Whether the wire path is inside a free-form subtree: the path or one of its parents is one of `freeForm`. */
export function insideFreeForm(path: string, freeForm: readonly string[]): boolean {
  const segments = path.split(".");
  return segments.some((_, i) => isFreeForm(segments.slice(0, i + 1).join("."), freeForm));
}

function isFreeForm(path: string, freeForm: readonly string[]): boolean {
  return freeForm.some((f) => {
    const a = f.split(".");
    const b = path.split(".");
    return a.length === b.length && a.every((seg, i) => seg === "*" || seg === b[i]);
  });
}

/** Drops `undefined` (and, optionally, `null`) everywhere: the provider host cannot encode undefined. */
export function scrub<T>(value: T, dropNull = false): T {
  if (Array.isArray(value)) return value.map((v) => scrub(v, dropNull)) as T;
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || (dropNull && v === null)) continue;
    out[k] = scrub(v, dropNull);
  }
  return out as T;
}

/**
 * True when everything the user wrote is in what the platform holds: objects may carry more keys
 * (server defaults), arrays must match item by item. Used where the platform fills defaults.
 */
export function containedIn(user: unknown, server: unknown): boolean {
  if (user === undefined) return true;
  if (Array.isArray(user)) {
    return Array.isArray(server) && server.length === user.length && user.every((u, i) => containedIn(u, server[i]));
  }
  if (user && typeof user === "object") {
    if (!server || typeof server !== "object" || Array.isArray(server)) return false;
    return Object.entries(user).every(([k, v]) => containedIn(v, (server as Record<string, unknown>)[k]));
  }
  return user === server;
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * What a refresh records for a declared value: the declared value itself where the platform's states
 * it (`containedIn`), else the platform's, in the declared shape: inside objects the declared keys
 * only (what else the record holds are defaults the program never wrote), inside arrays item by item,
 * a field the platform no longer holds left out. So a drift reads as the fields that changed, and the
 * next plan restores exactly those.
 */
export function reconcile(declared: unknown, stated: unknown): unknown {
  if (containedIn(declared, stated)) return declared;
  if (stated === null || stated === undefined) return undefined;
  if (isPlainObject(declared) && isPlainObject(stated)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(declared)) {
      const v = reconcile(declared[k], stated[k]);
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  if (Array.isArray(declared) && Array.isArray(stated)) return stated.map((s: unknown, i) => (i < declared.length ? reconcile(declared[i], s) : s));
  return stated;
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 time as its instant to the nanosecond (`<epoch seconds>.<9 digits>`); undefined for anything else. */
function instantOf(t: unknown): string | undefined {
  const m = typeof t === "string" ? RFC3339.exec(t) : null;
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}T${m[2]}${m[4].toUpperCase()}`);
  return Number.isNaN(ms) ? undefined : `${ms / 1000}.${(m[3] ?? "").padEnd(9, "0")}`;
}

/** Whether two RFC 3339 times are the same instant, whatever offset and number of fraction digits each is written with. */
export function sameInstant(a: unknown, b: unknown): boolean {
  const x = instantOf(a);
  return x !== undefined && x === instantOf(b);
}

/** A zod issue, parsed with `reportInput` so it carries the value. */
export type Issue = z.core.$ZodIssue & { input?: unknown };

/** One issue as a rule and the value given, in the user's terms (`keyName`: how unknown keys are named to the user). */
export function describeIssue(issue: Issue, keyName: (key: string) => string = camel): string {
  const input = issue.input;
  let text: string;
  if (issue.code === "unrecognized_keys") {
    text = `unknown field(s) ${issue.keys.map(keyName).join(", ")}`;
  } else if (issue.code === "invalid_type" && input === undefined) {
    return "is required";
  } else if (issue.code === "invalid_type" && issue.message.startsWith("Invalid input: expected")) {
    text = `must be ${issue.expected === "int" ? "an integer" : `of type ${issue.expected}`}`;
  } else if ((issue.code === "too_big" || issue.code === "too_small") && /^Too (big|small):/.test(issue.message)) {
    const bound = issue.code === "too_big" ? `at most ${issue.maximum}` : `at least ${issue.minimum}`;
    const unit = issue.origin === "string" ? " characters" : issue.origin === "array" || issue.origin === "set" ? " items" : "";
    text = `must be ${bound}${unit}`;
  } else {
    text = issue.message;
  }
  const shown = showValue(input);
  const scalar = input === null || ["string", "number", "boolean"].includes(typeof input);
  return scalar && input !== "" && !text.includes(shown) ? `${text}, got ${shown}` : text;
}
