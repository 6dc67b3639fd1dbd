/**
 * Random programs over every kind and random edits to them. A `World` holds the program being
 * edited and a counter that keeps every platform name fresh within a run. Each edit is interpreted
 * from a seed against the current program (so a generated sequence of edits is valid whatever edits
 * shrinking removed before it): it picks its target among the declarations, adds what a new
 * resource needs (an asset needs a type, a workload an app version and a cluster), keeps references
 * valid (a removed resource takes with it what refers to it), and says in words what it did.
 */
import { KINDS, MODELS } from "../kinds";
import type { Changes } from "../kinds/kind-model";
import { byName, clone, declRefs, isRef, ref, type Args, type Decl, type KindName, type ProgramSpec, type Ref, type Value } from "./program";
import type { Rng } from "./rng";

/** What an edit did, in words; undefined when it found nothing to do. */
export type Done = string | undefined;

/** The program being edited. */
export class World {
  spec: ProgramSpec = [];
  private counter = 0;

  fresh(prefix: string): string {
    return `${prefix}-${++this.counter}`;
  }
  number(): number {
    return ++this.counter;
  }
  of(kind: KindName): Decl[] {
    return this.spec.filter((d) => d.kind === kind);
  }
  get(name: string): Decl {
    return byName(this.spec, name);
  }
  snapshot(): ProgramSpec {
    return clone(this.spec);
  }
  /** Declares a resource of `kind` named `logical`. */
  push(kind: KindName, args: Args, logical: string): Decl {
    const d: Decl = { kind, name: logical, args };
    this.spec.push(d);
    return d;
  }

  // -------------------------------------------------------------------------------------------
  // Prerequisites: an existing declaration of the kind, or a new one.

  anyOf(kind: KindName, r: Rng, newChance = 0.25): Decl {
    const xs = this.of(kind);
    return xs.length === 0 || r.chance(newChance) ? this.add(kind, r) : r.pick(xs);
  }

  // -------------------------------------------------------------------------------------------
  // Adding

  /** Adds a resource of `kind` (and what it needs); returns it. */
  add(kind: KindName, r: Rng): Decl {
    const n = this.number();
    return MODELS[kind].add(this, r, n);
  }

  // -------------------------------------------------------------------------------------------
  // Removing

  /** Removes `name` and everything that refers to it or goes with it (an app's versions and its App go together). */
  remove(name: string): string[] {
    const target = this.get(name);
    MODELS[target.kind].beforeRemove?.(this, target);
    const doomed = new Set<string>([name]);
    for (let grew = true; grew;) {
      grew = false;
      for (const d of this.spec) {
        if (doomed.has(d.name)) continue;
        const follows = declRefs(d).some((x) => doomed.has(x)) || (MODELS[d.kind].goesWith?.(this, d, doomed) ?? false);
        if (follows) {
          doomed.add(d.name);
          grew = true;
        }
      }
    }
    this.spec = this.spec.filter((d) => !doomed.has(d.name));
    return [...doomed];
  }

  // -------------------------------------------------------------------------------------------
  // Edits

  /** Picks a declaration (of one of `kinds`, if given) that `ok` accepts. */
  pickDecl(r: Rng, ok: (d: Decl) => boolean = () => true): Decl | undefined {
    const xs = this.spec.filter(ok);
    return xs.length ? r.pick(xs) : undefined;
  }

  addEdit(r: Rng): Done {
    const kind = r.pick(KINDS);
    const before = new Set(this.spec.map((d) => d.name));
    const d = this.add(kind, r);
    const added = this.spec.filter((x) => !before.has(x.name)).map((x) => `${x.kind} ${x.name}`);
    return added.length ? `add ${added.join(", ")}` : `add ${kind}: the program has its ${d.name} already`;
  }

  removeEdit(r: Rng): Done {
    const d = this.pickDecl(r);
    if (!d) return undefined;
    const gone = this.remove(d.name);
    return `remove ${d.kind} ${d.name}${gone.length > 1 ? ` (and what goes with it: ${gone.filter((g) => g !== d.name).join(", ")})` : ""}`;
  }

  /** Changes an arg that updates in place. */
  updateEdit(r: Rng): Done {
    const d = this.pickDecl(r, (x) => offered(this, x, "updates").length > 0);
    if (!d) return undefined;
    const [what, apply] = r.pick(offered(this, d, "updates"));
    apply(r);
    return `update ${d.kind} ${d.name}: ${what}`;
  }

  /** Changes an arg that replaces the object. */
  replaceEdit(r: Rng): Done {
    const d = this.pickDecl(r, (x) => offered(this, x, "replaces").length > 0);
    if (!d) return undefined;
    const [what, apply] = r.pick(offered(this, d, "replaces"));
    apply(r);
    return `replace ${d.kind} ${d.name}: ${what}`;
  }

  /** Gives a resource a new logical name, with the old one as its alias (its object stays). */
  renameEdit(r: Rng): Done {
    const d = this.pickDecl(r, (x) => MODELS[x.kind].renames !== false);
    if (!d) return undefined;
    const old = d.name;
    const name = `${old.replace(/-r\d+$/, "")}-r${this.number()}`;
    for (const x of this.spec) {
      for (const [k, v] of Object.entries(x.args)) x.args[k] = renameRefs(v, old, name);
    }
    d.name = name;
    d.aliases = [...(d.aliases ?? []), old];
    return `rename ${d.kind} ${old} to ${name} (alias ${old})`;
  }

  adoptEdit(r: Rng): Done {
    const d = this.pickDecl(r, (x) => MODELS[x.kind].adopts);
    if (!d) return undefined;
    if (d.args.adopt === true) delete d.args.adopt;
    else d.args.adopt = true;
    return `${d.args.adopt ? "set" : "drop"} adopt on ${d.kind} ${d.name}`;
  }

  moveWorkloadEdit(r: Rng): Done {
    const w = this.pickDecl(r, (x) => x.kind === "Workload");
    if (!w) return undefined;
    const current = (w.args.clusterName as Ref).$ref;
    const others = this.of("Cluster").filter((c) => c.name !== current);
    const target = others.length > 0 && r.chance(0.8) ? r.pick(others) : this.add("Cluster", r);
    w.args.clusterName = ref(target.name, "name");
    return `move Workload ${w.name} from ${current} to ${target.name}`;
  }

  runningEdit(r: Rng): Done {
    const w = this.pickDecl(r, (x) => x.kind === "Workload");
    if (!w) return undefined;
    w.args.running = !(w.args.running ?? true);
    return `${w.args.running ? "start" : "stop"} Workload ${w.name} (running: ${String(w.args.running)})`;
  }

  enabledEdit(r: Rng): Done {
    const w = this.pickDecl(r, (x) => x.kind === "Workload");
    if (!w) return undefined;
    w.args.enabled = !(w.args.enabled ?? true);
    return `${w.args.enabled ? "enable" : "disable"} Workload ${w.name} (enabled: ${String(w.args.enabled)})`;
  }
}

function renameRefs(v: Value, from: string, to: string): Value {
  if (isRef(v)) return v.$ref === from ? { ...v, $ref: to } : v;
  if (Array.isArray(v)) return v.map((x) => renameRefs(x, from, to));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, renameRefs(x, from, to)]));
  return v;
}

type Mutator = [string, (r: Rng) => void];

/** The changes of `d` its kind's model offers: in place (`updates`) or replacing its object (`replaces`). */
function offered(w: World, d: Decl, which: "updates" | "replaces"): Mutator[] {
  const out: Mutator[] = [];
  const changes: Changes = {
    set: (key, value) =>
      out.push([
        key,
        (r) => {
          d.args[key] = value(r);
        },
      ]),
    apply: (what, change) => out.push([what, change]),
  };
  MODELS[d.kind][which]?.(w, d, changes);
  return out;
}
