/**
 * Creates that take an existing object over. A create that adopts reads as `create (adopt)` only
 * when the object exists (a Read by its id). An adoption plan (a preview) reads the object a create
 * would take over (with the declared inputs as the old ones, as a refresh does) and plans the
 * declared inputs against what the platform states.
 */
import { providerStep } from "./context";
import type { ResourceRef } from "./grpc";
import { planStep } from "./plan";
import type { Answer, Registration } from "./registration";
import type { Run } from "./run";
import { annotateSecrets, forProviderMap, isObject, isSecret, secret, unwrapSecret, type PropertyMap, type PropertyValue } from "./values";

/** Whether the inputs ask the provider to take over the existing object (`adopt: true`): the rule when the kit gives none. */
export const adopting = (_type: string, inputs: PropertyMap): boolean => unwrapSecret(inputs.adopt ?? null) === true;

/**
 * Whether the object a create that adopts would take over exists. Unknown (no id, or one not known
 * until the run applies) is no.
 */
export async function takeoverExists(run: Run, ref: ResourceRef, type: string, inputs: PropertyMap): Promise<boolean> {
  const id = run.takeovers.takeoverId?.(type, inputs);
  if (!id) return false;
  return Boolean(await readById(run, ref, id, inputs));
}

/** The adoption plan of a create: undefined when there is no object to take over (adopting creates it). */
export async function planAdoption(run: Run, ref: ResourceRef, reg: Registration, inputs: PropertyMap): Promise<Answer | undefined> {
  const id = run.takeovers.adoptionId?.(reg.type, inputs);
  const read = id ? await readById(run, ref, id, inputs) : undefined;
  if (!read) return undefined;
  const { redactor } = run.ctx;
  const platform = redactor.protect(annotateSecrets(read.inputs ?? read.properties, inputs));
  const outputs = redactor.protect(annotateSecrets(read.properties, inputs, reg.additionalSecretOutputs));
  const plan = await planStep(run, ref, reg, { urn: ref.urn, type: reg.type, name: reg.name, custom: true, id: read.id, inputs: platform, outputs, dependencies: [] }, inputs);
  const adopt = run.takeovers.adopts(reg.type, inputs);
  // The report's old values: the platform's, as far as the program declares them (adopting leaves the rest as it is).
  const olds = declaredPart(platform, inputs) as PropertyMap;
  const detail = { diffs: plan.op === "same" ? [] : plan.diffs, replaces: plan.op === "replace" ? plan.replaces : [], olds, news: inputs, adopt };
  run.log.report(ref, plan.op, plan.op === "same" ? { adopt } : detail);
  return { urn: ref.urn, id: read.id, outputs: plan.op === "same" ? outputs : inputs };
}

/** The object with this id, read with the declared inputs as its old ones; undefined when there is none. */
async function readById(run: Run, ref: ResourceRef, id: string, inputs: PropertyMap) {
  const declared = forProviderMap(inputs);
  const read = await providerStep(run.ctx, ref, "read", () => run.ctx.client.read(ref, id, declared, declared));
  return read.id ? read : undefined;
}

/** The parts of `platform` that `declared` states: objects cut to the declared keys, at any depth. */
function declaredPart(platform: PropertyValue, declared: PropertyValue): PropertyValue {
  const p = unwrapSecret(platform);
  const d = unwrapSecret(declared);
  let part: PropertyValue = p;
  if (isObject(p) && isObject(d)) {
    part = {};
    for (const k of Object.keys(d)) if (k in p) part[k] = declaredPart(p[k], d[k]);
  } else if (Array.isArray(p) && Array.isArray(d)) part = p.map((x, i) => (i < d.length ? declaredPart(x, d[i]) : x));
  return isSecret(platform) ? secret(part) : part;
}
