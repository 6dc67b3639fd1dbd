/**
 * docs/errors.md, from the catalog: one section per layer, one entry per code with what it means and
 * what to do. `npm run errors:doc` writes it; a test keeps the committed page equal to this text.
 */
import { errorCatalog, type ErrorLayer } from "./index";
import type { CatalogEntry } from "./entry";

/** Each layer's heading and who meets its errors. */
const LAYERS: Record<ErrorLayer, { title: string; where: string }> = {
  provider: { title: "Provider", where: "in the output of `pulumi preview`, `up`, `refresh` and `destroy`, and from the lookups (`getApp`, ...)" },
  kit: { title: "Testing kit", where: "from `testing.stack(...)` and its runs, assertions and matchers (`pulumi-svc/testing`)" },
  plant: { title: "Brownfield tools", where: "from `svc-emulator snapshot`, `parity`, `generate` and `adopt-plan`, and their functions (`pulumi-svc/plant`)" },
  cli: { title: "Command line", where: "from the `svc-emulator` command's options" },
};

function entry(code: string, e: CatalogEntry): string {
  return `### ${code}\n\n${e.meaning}\n\n**What to do:** ${e.fix}\n`;
}

function section(layer: ErrorLayer): string {
  const codes = Object.entries(errorCatalog[layer] as Record<string, CatalogEntry>);
  const { title, where } = LAYERS[layer];
  return [`## ${title}\n\nErrors ${where}.\n`, ...codes.map(([code, e]) => entry(code, e))].join("\n");
}

/** The page's text. */
export function errorsPage(): string {
  const head =
    "# Errors\n\n" +
    "<!-- Generated from src/errors/ by `npm run errors:doc`; edit the catalog, not this page. -->\n\n" +
    "Every error pulumi-svc raises outside the API ends with its code in brackets: " +
    "`Workload 'pump-monitor': update failed: ... [SVC_PLATFORM_REFUSED]`. Find the code below: what it means, and what to do. " +
    "In code, test the code (`error.code`), not the message. The API's own errors (the `error_code` of an answer, which the client's `SvcApiError` carries) " +
    "are another catalog: `src/api/errors.ts`.\n";
  return [head, ...(Object.keys(errorCatalog) as ErrorLayer[]).map(section)].join("\n");
}
