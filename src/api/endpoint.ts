/**
 * The shape of one entry of the endpoint table. Every consumer (the emulator's router, validation
 * and permission checks, the client, the OpenAPI document, the coverage test) reads these entries;
 * nothing else spells a path or a permission.
 */
import { type z } from "zod";

export type HttpMethod = "GET" | "POST";

/** Which list convention an endpoint follows: Part 1 (limits/cursor/stream) or Part 2 (starting_after/ending_before). */
export type ListConvention = "part1" | "inventory";

/** What a successful answer carries. */
export type SuccessKind = "json" | "empty" | "binary" | "ndjson" | "text" | "yaml";

/** How the request body is encoded. */
export type BodyKind = "json" | "form" | "multipart" | "none";

/** Where the operation is declared: a spec part, the facts file (the platform has it; the spec omits it), or auth. */
export type Source = "part1" | "part2" | "facts" | "auth";

/**
 * What an operation does, declared on every row (never guessed from its id):
 * - `read` changes nothing;
 * - `create` makes a new record each time it runs (or answers 409 the second time), so after a lost
 *   answer it is not repeated blindly: its `confirm` finds out first whether it was applied;
 * - `update`, `delete` and `action` (start, stop, apply, tokens) converge when repeated, except an
 *   action the platform refuses to repeat once it took effect (enabling a workload that is no longer
 *   pending answers 409): such an action declares a `confirm` that tells whether it took effect.
 */
export type Effect = "read" | "create" | "update" | "delete" | "action";

/** A create's input as the caller gave it; not checked yet, so confirms read it defensively. */
export interface CreateInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

/** An action's input as the caller gave it (as a create's: not checked yet). */
export type ActionInput = CreateInput;

/**
 * How to find out whether an action whose answer was lost took effect, for an action the platform
 * refuses to repeat once it did: a read of each object the action acts on (a GET of one record,
 * 404 while it does not exist), and what the record shows once the action took effect. Only for
 * actions that answer no body (the client cannot make up the answer of one that does).
 */
export interface ActionConfirm {
  /** Id of the read. */
  read: string;
  /** The read's path values for each object the action acts on; undefined when the input names none. */
  objects(action: ActionInput): Array<Record<string, string>> | undefined;
  /** Whether the object's record, as the read answers it, shows that the action (given as called) took effect. */
  took(record: unknown, action: ActionInput): boolean;
}

/** Whether a row's confirm is an action's (a read of each object, and what shows the effect). */
export const isActionConfirm = (c: Confirm | ActionConfirm): c is ActionConfirm => "took" in c;

/** Calls the read `readId` of the table: its answer, or undefined when the record is not there (404). */
export type ConfirmReader = (readId: string, input: { params?: Record<string, unknown>; query?: Record<string, unknown> }) => Promise<unknown>;

/**
 * How to find out whether a create whose answer was lost was applied. Either a read of the record
 * the create makes (a GET answering the create's own success schema, 404 while the record does not
 * exist), addressed from the create's input; or a function that finds the created record with reads.
 */
export type Confirm =
  | {
      /** Id of the read. */
      read: string;
      /** The read's path values for the record this create makes; undefined when the input does not name it. */
      params(create: CreateInput): Record<string, string> | undefined;
    }
  | {
      /** Ids of the reads `find` makes. */
      reads: string[];
      /** The create's result when it was applied, undefined when it was not; throws (saying why) when it cannot tell. */
      find(create: CreateInput, read: ConfirmReader): Promise<unknown>;
    };

/** The ids of the reads a row's confirm makes (empty without a confirm). */
export function confirmReads(ep: Pick<Row, "confirm">): string[] {
  const c = ep.confirm;
  return !c ? [] : "read" in c ? [c.read] : c.reads;
}

/** Path values when every one is a non-empty string, else undefined (the input does not name the record). */
export function pathValues(values: Record<string, unknown>): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) {
    if (typeof v !== "string" || v === "") return undefined;
    out[k] = v;
  }
  return out;
}

/** A row as its area's file writes it: everything but what its area gives it (see `area`). */
export interface Row<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  /** What the operation does; decides whether a client may repeat it after a lost answer. */
  effect: Effect;
  /**
   * For creates, and actions the platform refuses to repeat once they took effect: how a client
   * finds out whether one whose answer was lost was applied.
   */
  confirm?: Confirm | ActionConfirm;
  /** Path template relative to {base_url}/api/v4 (or to {base_url} itself with `root`), `{param}` placeholders. */
  path: string;
  /**
   * Served at the server's root instead of under /api/v4: the OIDC endpoints (`/auth/realms/...`) and
   * the instance metadata document (`/metadata`) that clients read to find them.
   */
  root?: boolean;
  /**
   * Also answers a request without a token whose query carries a link signature the server issued
   * for this path and `expires`: the direct, expiring URL that a download's `address=true` hands out.
   */
  signedLinks?: boolean;
  /** Permission suffix (`svc.permission.<suffix>`), or null for the one open endpoint and the token endpoints. */
  permission: string | null;
  summary: string;
  /** Where the operation is declared, when not where the rest of its area is. */
  source?: Source;
  params?: P;
  query?: Q;
  bodyKind: BodyKind;
  /** Body schema; `bodyOptional` lets start/stop come without a body as the spec allows. */
  body?: B;
  bodyOptional?: boolean;
  success: { status: number; kind: SuccessKind; body?: R };
  /** Error statuses the spec (or the facts file) lists for this operation. */
  errors: number[];
  list?: ListConvention;
  /** True for operations that change data (every effect but `read`, unless a row says otherwise): each leaves one audit log entry. */
  mutates: boolean;
}

export interface Endpoint<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> extends Row<
  P,
  Q,
  B,
  R
> {
  /** Stable operation id, `<area>.<operation>`: the area's name and the row's key in it. The client's method is that key. */
  readonly id: string;
  source: Source;
  /**
   * The area's name as the one tag: the OpenAPI document groups operations by it, and audit entries
   * carry the namespace `svc-<tag>`.
   */
  tags: string[];
}

export type AnyEndpoint = Endpoint<z.ZodType, z.ZodType, z.ZodType, z.ZodType>;

type Init<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType> = Omit<Row<P, Q, B, R>, "bodyKind" | "mutates" | "errors" | "success"> & {
  bodyKind?: BodyKind;
  mutates?: boolean;
  errors?: number[];
  success: { status: number; kind?: SuccessKind; body?: R };
};

const EFFECTS: readonly Effect[] = ["read", "create", "update", "delete", "action"];

/** Path parameter names of a template, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
}

/**
 * The path of `ep` with its `{param}` placeholders filled from `params`, as the table writes it
 * (relative to the API root; absolute for the OIDC token endpoint). Every value is percent-encoded in
 * full, so '/', '?' and '#' inside a name stay inside its segment and cannot change the route.
 */
export function fillPath(ep: Pick<AnyEndpoint, "id" | "path">, params: unknown): string {
  const names = pathParamNames(ep.path);
  if (names.length === 0) return ep.path;
  const values = (params ?? {}) as Record<string, unknown>;
  return ep.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined || v === null || v === "") {
      throw new TypeError(`${ep.id}: missing path parameter '${name}' (pass input.params.${name}; needs ${names.join(", ")})`);
    }
    return encodeURIComponent(String(v));
  });
}

/** Whether the operation lives outside the API root (`root` rows: the OIDC endpoints, the metadata document). */
export const isOutsideApiRoot = (ep: Pick<AnyEndpoint, "root">): boolean => ep.root === true;

/**
 * One row of an area, with the defaults filled: a body makes a JSON body; every effect but `read`
 * mutates; errors default to the spec's common set. Its area (`area`) gives it its id and checks it.
 */
export function endpoint<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType>(
  init: Init<P, Q, B, R>,
): Row<P, Q, B, R> {
  return {
    ...init,
    bodyKind: init.bodyKind ?? (init.body ? "json" : "none"),
    mutates: init.mutates ?? init.effect !== "read",
    errors: init.errors ?? [400, 401, 403, 404],
    success: { kind: init.success.body ? "json" : "empty", ...init.success },
  };
}

/**
 * The endpoints of the area `N` made of the rows `T`: each with its schema types as written, and an
 * id that names the area in its type too (so the table can require the area's key to be its name).
 */
export type Area<N extends string, T> = {
  readonly [K in keyof T]: T[K] extends Row<infer P, infer Q, infer B, infer R> ? Endpoint<P, Q, B, R> & { readonly id: `${N}.${string}` } : never;
};

/**
 * The endpoints of one area, each row under the key that names it: its id is `<name>.<key>`, its tag
 * the name in kebab case (as the API spells names: `legacyWorkloads` is tagged `legacy-workloads`),
 * and its source `source` unless the row names its own. Refuses a row that is not well made, naming
 * its id: only creates and actions have a confirm, each its own form, and the path's parameters are
 * exactly the params schema's.
 */
export function area<const N extends string, T extends Record<string, Row>>(name: N, source: Source, rows: T): Area<N, T> {
  const tag = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const stamped = Object.entries(rows).map(([key, row]): [string, AnyEndpoint] => {
    const ep: AnyEndpoint = { id: `${name}.${key}`, ...row, source: row.source ?? source, tags: [tag] };
    checkRow(ep);
    return [key, ep];
  });
  return Object.fromEntries(stamped) as Area<N, T>;
}

function checkRow(ep: AnyEndpoint): void {
  if (!EFFECTS.includes(ep.effect)) throw new Error(`${ep.id}: effect must be one of ${EFFECTS.join(", ")}, got ${String(ep.effect)}`);
  const c = ep.confirm;
  if (c && ep.effect !== "create" && ep.effect !== "action") throw new Error(`${ep.id}: only a create or an action has a confirm (its effect is ${ep.effect})`);
  if (c && ep.effect === "create" && isActionConfirm(c))
    throw new Error(`${ep.id}: a create's confirm reads the record it makes (read and params, or reads and find), not objects and took`);
  if (c && ep.effect === "action" && !isActionConfirm(c))
    throw new Error(`${ep.id}: an action's confirm names the read, the objects it acts on and what shows it took effect (read, objects, took)`);
  if (c && ep.effect === "action" && ep.success.body) throw new Error(`${ep.id}: an action with a confirm answers no body (a confirm cannot stand for its answer)`);
  const declared = new Set(pathParamNames(ep.path));
  if (ep.params) {
    const shape = (ep.params as unknown as z.ZodObject).shape as Record<string, unknown>;
    for (const k of Object.keys(shape)) {
      if (!declared.has(k)) throw new Error(`${ep.id}: params has '${k}' which is not in ${ep.path}`);
    }
    for (const k of declared) {
      if (!(k in shape)) throw new Error(`${ep.id}: path parameter '${k}' has no schema`);
    }
  } else if (declared.size > 0) {
    throw new Error(`${ep.id}: path ${ep.path} needs a params schema`);
  }
}
