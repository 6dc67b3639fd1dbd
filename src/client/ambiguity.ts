/**
 * After a create failed without a clear answer, the row's `confirm` tells whether it was applied: a
 * read of the record the create makes (404 = not applied), or a function that finds the record with
 * reads. A create without a confirm cannot be told; the client says so instead of repeating it.
 */
import type { AnyEndpoint, ConfirmReader, CreateInput } from "../api/endpoint";
import type { RawInput } from "./encode";

export type Confirmation = { applied: true; value: unknown } | { applied: false };

/** The create cannot be told applied or not; `message` says why. */
export class CannotTell extends Error {}

const record = (v: unknown): Record<string, unknown> => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The ids of the reads a create's confirm makes (empty without a confirm). */
export function confirmReads(ep: AnyEndpoint): string[] {
  const c = ep.confirm;
  return !c ? [] : "read" in c ? [c.read] : c.reads;
}

/** Whether the create `ep` called with `input` was applied, asked through `read`; throws CannotTell when that cannot be found out. */
export async function confirmCreate(ep: AnyEndpoint, input: RawInput, read: ConfirmReader): Promise<Confirmation> {
  const c = ep.confirm;
  if (!c) throw new CannotTell("no read operation tells whether it was");
  const create: CreateInput = { params: record(input.params), query: record(input.query), body: record(input.body) };
  if ("read" in c) {
    const params = c.params(create);
    if (!params) throw new CannotTell(`the request does not name the record ${c.read} would read`);
    const value = await read(c.read, { params });
    return value === undefined ? { applied: false } : { applied: true, value };
  }
  // A failing read, or the function's own error saying why it cannot tell, goes to the caller.
  const value = await c.find(create, read);
  return value === undefined ? { applied: false } : { applied: true, value };
}
