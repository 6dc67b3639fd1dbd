/**
 * After a create or an action failed without a clear answer, the row's `confirm` tells whether it was
 * applied: for a create, a read of the record it makes (404 = not applied) or a function that finds
 * the record with reads; for an action the platform refuses to repeat once it took effect, a read of
 * each object it acts on and what the record shows once it did. Without a confirm a create cannot be
 * told; the client says so instead of repeating it.
 */
import { isActionConfirm, type ActionConfirm, type AnyEndpoint, type ConfirmReader, type CreateInput } from "../api/endpoint";
import type { RawInput } from "./encode";
import { isCreate } from "./retry";

export type Confirmation = { applied: true; value: unknown } | { applied: false };

/** The create or action cannot be told applied or not; `message` says why. */
export class CannotTell extends Error {}

const record = (v: unknown): Record<string, unknown> => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** Whether the create or action `ep` called with `input` was applied, asked through `read`; throws CannotTell when that cannot be found out. */
export async function confirmApplied(ep: AnyEndpoint, input: RawInput, read: ConfirmReader): Promise<Confirmation> {
  const c = ep.confirm;
  if (!c) throw new CannotTell("no read operation tells whether it was");
  const given: CreateInput = { params: record(input.params), query: record(input.query), body: record(input.body) };
  if (isActionConfirm(c)) return confirmAction(c, given, read);
  if ("read" in c) {
    const params = c.params(given);
    if (!params) throw new CannotTell(`the request does not name the record ${c.read} would read`);
    const value = await read(c.read, { params });
    return value === undefined ? { applied: false } : { applied: true, value };
  }
  // A failing read, or the function's own error saying why it cannot tell, goes to the caller.
  const value = await c.find(given, read);
  return value === undefined ? { applied: false } : { applied: true, value };
}

/**
 * An action took effect when the record of every object it names shows it, and did not when none
 * does; some but not all, or an object that is not there, cannot be told. (Such an action answers no
 * body, so its confirmed result is undefined, as its answer would be.)
 */
async function confirmAction(c: ActionConfirm, given: CreateInput, read: ConfirmReader): Promise<Confirmation> {
  const objects = c.objects(given);
  if (!objects || objects.length === 0) throw new CannotTell(`the request does not name the objects ${c.read} would read`);
  let took = 0;
  for (const params of objects) {
    const value = await read(c.read, { params });
    const at = Object.entries(params)
      .map(([k, v]) => `${k} '${v}'`)
      .join(", ");
    if (value === undefined) throw new CannotTell(`${c.read} finds no record for ${at}`);
    if (c.took(value, given)) took++;
  }
  if (took === objects.length) return { applied: true, value: undefined };
  if (took === 0) return { applied: false };
  throw new CannotTell(`${c.read} shows the effect on ${took} of the ${objects.length} objects the request names`);
}

/** What a call failed without a clear answer should tell its caller: what may have happened, and what to do. */
export function lostAnswerAdvice(ep: AnyEndpoint, why: string): string {
  if (isCreate(ep)) return `the create may or may not have been applied (${why}); read the resource before repeating the create`;
  return `${ep.id} may or may not have taken effect (${why}); read the objects it acts on before repeating it`;
}
