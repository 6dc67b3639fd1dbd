/**
 * The `aliases` option, as the engine takes a former URN's state over: a registration whose URN the
 * state does not hold looks for the first of its former URNs (its own aliases, then those it inherits
 * from a parent that took a former URN over) that the state holds and nothing else claimed; the
 * entry moves to the new URN, and what referred to the former URN (dependencies, parent,
 * `deletedWith`, property dependencies) refers to the new one. In a preview only the plan sees the
 * move: the state is left as it is.
 */
import { resourceUrn, urnName, urnType } from "../../pulumi/urn";
import type { AliasSpec, Registration } from "./registration";
import type { ResourceState, StateStore } from "./state";

export class Aliases {
  /** Former URNs whose state a registration took over: they are not deleted as undeclared. */
  private readonly claimed = new Set<string>();
  /** For each resource that took a former URN's state over, that URN: its children inherit aliases from it. */
  private readonly formerOf = new Map<string, string>();

  constructor(private readonly scope: { project: string; stack: string }) {}

  /** Whether a registration took the state of `urn` over. */
  claims(urn: string): boolean {
    return this.claimed.has(urn);
  }

  /**
   * The state of the resource under the first of its aliases that the state holds and no other
   * registration claimed (`registered` tells the URNs registered in this run), moved to `urn`.
   */
  takeOver(urn: string, reg: Registration, state: StateStore, preview: boolean, registered: ReadonlySet<string>): ResourceState | undefined {
    for (const former of this.formerUrns(reg)) {
      if (former === urn || registered.has(former) || this.claimed.has(former)) continue;
      const entry = state.get(former);
      if (!entry || entry.external) continue;
      this.claimed.add(former);
      this.formerOf.set(urn, former);
      const moved = movedEntry(entry, urn, reg);
      if (!preview) {
        state.replace(entry, moved);
        renameReferences(state, former, urn, moved);
      }
      return moved;
    }
    return undefined;
  }

  /**
   * The former URNs a registration may have had, in the engine's order (generateAliases): its own
   * aliases, then, when its parent took over a former URN, the aliases it inherits from that (the
   * parent's former URN as its parent, and a name that began with the parent's name beginning with
   * the former one's instead), for itself and for each of its own aliases.
   */
  private formerUrns(reg: Registration): string[] {
    const own = (reg.aliases ?? []).map((a) => this.aliasUrn(a, reg));
    const parentFormer = reg.parent ? this.formerOf.get(reg.parent) : undefined;
    if (!reg.parent || !parentFormer) return own;
    const parentName = urnName(reg.parent);
    const inherited = (type: string, name: string) =>
      resourceUrn(this.scope, type, name.startsWith(parentName) ? urnName(parentFormer) + name.slice(parentName.length) : name, parentFormer);
    return [...new Set([...own, inherited(reg.type, reg.name), ...own.map((u) => inherited(urnType(u), urnName(u)))])];
  }

  /** An alias as a URN: the parts it names, the registration's own for the others. */
  private aliasUrn(a: AliasSpec, reg: Registration): string {
    if (a.urn) return a.urn;
    // A parent named in the alias that itself took over a former URN stands for that one.
    const parent = a.noParent ? undefined : a.parentUrn ? (this.formerOf.get(a.parentUrn) ?? a.parentUrn) : reg.parent;
    const scope = { project: a.project ?? this.scope.project, stack: a.stack ?? this.scope.stack };
    return resourceUrn(scope, a.type ?? reg.type, a.name ?? reg.name, parent);
  }
}

/** The entry under its new URN, name, type and parent. */
function movedEntry(entry: ResourceState, urn: string, reg: Registration): ResourceState {
  const moved: ResourceState = { ...entry, urn, name: reg.name, type: reg.type };
  if (reg.parent) moved.parent = reg.parent;
  else delete moved.parent;
  return moved;
}

/** Every other entry that refers to `former` (dependency, parent, `deletedWith`, property dependency) refers to `urn` instead. */
function renameReferences(state: StateStore, former: string, urn: string, moved: ResourceState): void {
  const renamed = (u: string) => (u === former ? urn : u);
  for (const e of state.all()) {
    if (e === moved) continue;
    const deps = e.dependencies.map(renamed);
    const changed =
      deps.some((d, i) => d !== e.dependencies[i]) ||
      e.parent === former ||
      e.deletedWith === former ||
      Object.values(e.propertyDependencies ?? {}).some((urns) => urns.includes(former));
    if (!changed) continue;
    const next: ResourceState = { ...e, dependencies: deps };
    if (e.propertyDependencies) next.propertyDependencies = Object.fromEntries(Object.entries(e.propertyDependencies).map(([k, urns]) => [k, urns.map(renamed)]));
    if (e.parent === former) next.parent = urn;
    if (e.deletedWith === former) next.deletedWith = urn;
    state.replace(e, next);
  }
}
