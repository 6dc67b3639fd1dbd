/**
 * The catalog of this package's own errors, outside the API (whose errors are `api/errors.ts`): every
 * error the provider, the kit, the plant tools and the command line raise has a code here, with what
 * it means and what to do. The code is stable and ends the message (`... [SVC_CONFIG_INVALID]`), so a
 * user who sees it in `pulumi up`'s output finds it on docs/errors.md, which is generated from this
 * catalog (`npm run errors:doc`). Imports nothing outside this folder, so every layer can raise from it.
 */
import { cliErrors } from "./cli";
import { kitErrors } from "./kit";
import { plantErrors } from "./plant";
import { providerErrors } from "./provider";
import type { CatalogEntry } from "./entry";

export type { CatalogEntry };

/** Every code, by the layer that raises it (docs/errors.md has one section per layer). */
export const errorCatalog = {
  provider: providerErrors,
  kit: kitErrors,
  plant: plantErrors,
  cli: cliErrors,
} as const;

export type ErrorLayer = keyof typeof errorCatalog;
export type ErrorCode = { [L in ErrorLayer]: keyof (typeof errorCatalog)[L] }[ErrorLayer] & string;

const entries = new Map<string, CatalogEntry & { layer: ErrorLayer }>(
  (Object.keys(errorCatalog) as ErrorLayer[]).flatMap((layer) =>
    Object.entries(errorCatalog[layer] as Record<string, CatalogEntry>).map(([code, e]) => [code, { ...e, layer }] as const),
  ),
);

/** The catalog's entry of a code (undefined for a code the catalog does not have). */
export function catalogEntry(code: string): (CatalogEntry & { layer: ErrorLayer }) | undefined {
  return entries.get(code);
}

/**
 * An error of the catalog: `code` names its entry; the message says what happened to which resource,
 * field or value, and ends with the code. `cause` keeps the error underneath (an API error, a file
 * system error), as `Error` does. A subclass (`ProviderConfigError`, `LookupNotFoundError`) is named
 * after itself, so that a stack trace and `error.name` tell it.
 */
export class SvcError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, detail: string, options?: { cause?: unknown }) {
    super(`${detail}${codeSuffix(code)}`, options);
    this.name = new.target.name;
    this.code = code;
  }

  /**
   * The message without the code at its end. Read from the message, not kept beside it: the provider
   * masks secret values in the messages it answers, and the detail must not keep them unmasked.
   */
  get detail(): string {
    const suffix = codeSuffix(this.code);
    return this.message.endsWith(suffix) ? this.message.slice(0, -suffix.length) : this.message;
  }
}

const codeSuffix = (code: string) => ` [${code}]`;

/** Whether `err` is an error of the catalog with this code (any code when none is given). */
export function isSvcError(err: unknown, code?: ErrorCode): err is SvcError {
  return err instanceof SvcError && (code === undefined || err.code === code);
}
