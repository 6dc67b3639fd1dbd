/**
 * Which creates take an existing object over, from the provider's kinds: those asked to
 * (`adopt: true`), and those of kinds whose create always writes over what exists (kinds with an
 * identity and no `adopt` arg: an app, parameter values, the instance settings). Runs report such a
 * create as `create (adopt)`, so that a preview of an adopting program counts what the adoption plan
 * plans against the platform. The adoption plan also reads what a create of a kind that destroy
 * releases would take over (an object an earlier destroy left).
 */
import { ADOPT_BY_CONTENT, TYPE_TOKEN_PREFIX, type Kind } from "../provider/kind";
import { UNKNOWN } from "../pulumi/values";
import { forProviderMap, unwrapSecret, type PropertyMap } from "./engine/values";

export interface Takeovers {
  /** Whether a create with these inputs takes the object with its identity over, when there is one. */
  adopts(type: string, inputs: PropertyMap): boolean;
  /** For an adoption plan: the platform id of the object a create with these (provider) inputs would take over. */
  adoptionId(type: string, inputs: PropertyMap): string | undefined;
}

/** The rules, from the provider's kinds (loaded at the first run: nothing else of the kit needs them). */
export async function takeovers(): Promise<Takeovers> {
  const { kinds } = await import("../provider/kinds");
  const kindOf = (type: string): Kind | undefined => (type.startsWith(TYPE_TOKEN_PREFIX) ? kinds[type.slice(TYPE_TOKEN_PREFIX.length)] : undefined);
  const asked = (inputs: PropertyMap) => unwrapSecret(inputs.adopt ?? null) === true;
  /** A kind whose create writes over the object with its identity: it takes no `adopt`, it always adopts. */
  const alwaysAdopts = (kind: Kind | undefined) => kind !== undefined && kind.id !== undefined && !("adopt" in kind.args);
  return {
    adopts: (type, inputs) => asked(inputs) || alwaysAdopts(kindOf(type)),
    adoptionId(type, inputs) {
      const kind = kindOf(type);
      if (!kind || !(asked(inputs) || alwaysAdopts(kind) || kind.onDestroy === "release")) return undefined;
      // The platform assigns its ids (a schedule): the read finds the object by what it states.
      if (kind.id === undefined && kind.findCreated !== undefined) return asked(inputs) ? ADOPT_BY_CONTENT : undefined;
      try {
        const id = kind.id?.(forProviderMap(inputs));
        return id && !id.includes(UNKNOWN) ? id : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
