/**
 * A Pulumi program as data: a list of resource declarations whose args may refer to other
 * declarations (`{ $ref }`, which the program turns into the other resource's output, so the engine
 * sees a real dependency) and hold secrets (`{ $secret }`, turned into `pulumi.secret`). The model
 * tests generate and edit these, run them through the engine kit, and print them as TypeScript when
 * a check fails, so a reproduction reads like the program a user would write.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "../../src";
import type * as testing from "../../src/testing";
import type { KindName } from "../kinds";

export type { KindName };

/** Another declaration's arg `out`, as its output (with `prefix` in front: `krn:asset:` + an asset's name). */
export interface Ref {
  $ref: string;
  out: string;
  prefix?: string;
}
/** A secret value. */
export interface Secret {
  $secret: Value;
}
export type Value = string | number | boolean | null | Ref | Secret | Value[] | { [k: string]: Value };
export type Args = Record<string, Value>;

export interface Decl {
  kind: KindName;
  /** The logical (Pulumi) name. */
  name: string;
  args: Args;
  /** Earlier logical names of the resource (Pulumi `aliases`), after a logical rename. */
  aliases?: string[];
}

export type ProgramSpec = Decl[];

/** A reference to `out` of the declaration named `name`. */
export const ref = (name: string, out: string, prefix?: string): Ref => (prefix ? { $ref: name, out, prefix } : { $ref: name, out });

export const isRef = (v: unknown): v is Ref => !!v && typeof v === "object" && !Array.isArray(v) && typeof (v as Ref).$ref === "string";
export const isSecret = (v: unknown): v is Secret => !!v && typeof v === "object" && !Array.isArray(v) && "$secret" in v;

/** Every declaration `v` refers to. */
export function refsOf(v: Value | undefined): string[] {
  if (isRef(v)) return [v.$ref];
  if (isSecret(v)) return refsOf(v.$secret);
  if (Array.isArray(v)) return v.flatMap(refsOf);
  if (v && typeof v === "object") return Object.values(v).flatMap(refsOf);
  return [];
}

export const declRefs = (d: Decl): string[] => [...new Set(Object.values(d.args).flatMap(refsOf))];

export function byName(spec: ProgramSpec, name: string): Decl {
  const d = spec.find((x) => x.name === name);
  if (!d) throw new Error(`the program has no resource named ${name}`);
  return d;
}

/** The declarations in an order where each comes after those it refers to. */
export function ordered(spec: ProgramSpec): Decl[] {
  const out: Decl[] = [];
  const seen = new Set<string>();
  const visit = (d: Decl) => {
    if (seen.has(d.name)) return;
    seen.add(d.name);
    for (const r of declRefs(d)) visit(byName(spec, r));
    out.push(d);
  };
  spec.forEach(visit);
  return out;
}

/** A value with references replaced by what they stand for and secrets unwrapped: what the platform should get. */
export function plain(spec: ProgramSpec, v: Value | undefined): unknown {
  if (v === undefined) return undefined;
  if (isRef(v)) return `${v.prefix ?? ""}${String(plain(spec, byName(spec, v.$ref).args[v.out]))}`;
  if (isSecret(v)) return plain(spec, v.$secret);
  if (Array.isArray(v)) return v.map((x) => plain(spec, x));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(spec, x)]));
  return v;
}

// Args as the model reads them: JSON, field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const plainArgs = (spec: ProgramSpec, d: Decl): Record<string, any> => plain(spec, d.args) as Record<string, any>;

/** Every secret value in the program (plain text), to look for in the state and the logs. */
export function secretsOf(spec: ProgramSpec): string[] {
  const out: string[] = [];
  const walk = (v: Value | undefined, inSecret: boolean): void => {
    if (isSecret(v)) return walk(v.$secret, true);
    if (typeof v === "string" && inSecret) out.push(v);
    if (Array.isArray(v)) v.forEach((x) => walk(x, inSecret));
    else if (v && typeof v === "object" && !isRef(v)) Object.values(v).forEach((x) => walk(x, inSecret));
  };
  for (const d of spec) walk(d.args, false);
  return out;
}

/** The Pulumi program that declares `spec`. */
export function toProgram(spec: ProgramSpec): testing.Program {
  const decls = ordered(spec);
  return () => {
    const made = new Map<string, pulumi.CustomResource>();
    const input = (v: Value): unknown => {
      if (isRef(v)) {
        const out = (made.get(v.$ref) as unknown as Record<string, pulumi.Output<unknown>>)[v.out];
        return v.prefix ? out.apply((x) => `${v.prefix}${String(x)}`) : out;
      }
      if (isSecret(v)) return pulumi.secret(input(v.$secret));
      if (Array.isArray(v)) return v.map(input);
      if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, input(x)]));
      return v;
    };
    for (const d of decls) {
      const Resource = (svc as unknown as Record<string, new (name: string, args: unknown, opts?: pulumi.CustomResourceOptions) => pulumi.CustomResource>)[d.kind];
      const opts = d.aliases?.length ? { aliases: d.aliases.map((name) => ({ name })) } : undefined;
      made.set(d.name, new Resource(d.name, input(d.args), opts));
    }
  };
}

const ident = (name: string) => name.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : "")).replace(/^[0-9]/, "_$&");

/** The program as the TypeScript a user would write. */
export function programText(spec: ProgramSpec): string {
  const vars = new Map(spec.map((d) => [d.name, ident(d.name.charAt(0).toLowerCase() + d.name.slice(1))]));
  const text = (v: Value): string => {
    if (isRef(v)) {
      const out = `${vars.get(v.$ref)}.${v.out}`;
      return v.prefix ? `${out}.apply((x) => \`${v.prefix}\${x}\`)` : out;
    }
    if (isSecret(v)) return `pulumi.secret(${text(v.$secret)})`;
    if (Array.isArray(v)) return `[${v.map(text).join(", ")}]`;
    if (v && typeof v === "object")
      return `{ ${Object.entries(v)
        .map(([k, x]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${text(x)}`)
        .join(", ")} }`;
    return JSON.stringify(v);
  };
  if (spec.length === 0) return "  // (no resources)";
  return ordered(spec)
    .map((d) => {
      const opts = d.aliases?.length ? `, { aliases: [${d.aliases.map((a) => `{ name: ${JSON.stringify(a)} }`).join(", ")}] }` : "";
      return `  const ${vars.get(d.name)} = new svc.${d.kind}(${JSON.stringify(d.name)}, ${text(d.args)}${opts});`;
    })
    .join("\n");
}

/** A deep copy (JSON: `structuredClone` would make arrays of another realm under jest, which Pulumi's serializer does not take for arrays). */
export const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
