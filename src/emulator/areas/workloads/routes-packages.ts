/**
 * Workload packages: what the edge downloads to run a workload (a zip holding its manifest, the
 * staged version's when one exists). The first download request starts the build (unless the edge's
 * download of a staged version is under way), which takes the emulated edge's time (see `asOf` in
 * model.ts). A download link is direct: it carries its expiry and a
 * signature over its path and expiry, and works without a token until it expires.
 */
import { createHash } from "node:crypto";
import type { AnyEndpoint } from "../../../api/endpoint";
import { preconditionFailed } from "../../../api/errors";
import type { HandlerContext, Reply } from "../../handler";
import { servedPath } from "../../paths";
import { zipOf } from "../../zip";
import { asOf, mergeChanges, packageDueMs, requireWorkload, startPackage, workloadTable, type StoredWorkload } from "./model";

/** Lifetime of a download link (seconds). */
export const LINK_TTL_S = 300;

/** The package: the manifest the edge runs (the staged version's when one exists). */
function packageOf(w: StoredWorkload): Buffer {
  const target = w.staged ? { ...w, ...mergeChanges(w, w.staged.payload), app_version: w.staged.app_version } : w;
  const manifest = {
    name: target.name,
    app_name: target.app_name,
    app_version: target.app_version,
    app_type: target.app_type,
    cluster_name: target.cluster_name,
    node_name: target.node_name,
    runtime: target.runtime,
    system: target.system,
  };
  const data = Buffer.from(JSON.stringify(manifest, null, 2) + "\n");
  return zipOf([{ name: "workload.json", data }]);
}

export interface DownloadRequest {
  address: boolean;
  expires?: number;
  /** The served path the link points back to (see `servedPath` in paths.ts). */
  path: string;
  /** Shapes the address answer (the legacy view answers the URL alone). */
  addressBody?: (url: string, expiresIn: number) => unknown;
}

/**
 * Download: the first request starts the build (202); once it is done the package (200 zip) or, with
 * address=true, a link valid LINK_TTL_S seconds. The link carries its expiry; an expired one answers 412.
 */
function downloadPackage(ctx: HandlerContext, stored: StoredWorkload, req: DownloadRequest): Reply {
  if (req.expires !== undefined && req.expires * 1000 < ctx.nowMs) {
    throw preconditionFailed(`the download link of workload '${stored.name}' expired; request a new one with address=true`);
  }
  const table = workloadTable(ctx.store);
  let w = asOf(stored, ctx.nowMs);
  // Pending or failed: this request starts a build (done at once when the edge takes no time).
  if (w.download_status !== "ready" && packageDueMs(w) === null) w = asOf(table.put(w.name, { ...w, ...startPackage(ctx, "processing") }), ctx.nowMs);
  if (w.download_status !== "ready") {
    const due = packageDueMs(w);
    const retry = Math.max(1, Math.ceil(((due ?? ctx.nowMs) - ctx.nowMs) / 1000));
    const message =
      due === null
        ? `the package of workload '${w.name}' failed to build: ${w.download_error}; ask again to build it again`
        : `the package of workload '${w.name}' is being built; ask again in ${retry} s`;
    return { status: 202, headers: { "retry-after": String(retry) }, body: { download_status: w.download_status, message } };
  }
  if (w !== stored) table.put(w.name, w);
  if (req.address) {
    const expiresAt = Math.floor(ctx.nowMs / 1000) + LINK_TTL_S;
    const url = `${ctx.baseUrl}${req.path}?expires=${expiresAt}&signature=${ctx.auth.signLink(req.path, expiresAt)}`;
    return { status: 200, body: req.addressBody ? req.addressBody(url, LINK_TTL_S) : { url, expires_in: LINK_TTL_S } };
  }
  const digest = createHash("sha256").update(w.name).digest("hex").slice(0, 8);
  return {
    status: 200,
    headers: { "content-type": "application/octet-stream", "content-disposition": `attachment; filename="${w.name}-${digest}.zip"` },
    raw: packageOf(w),
  };
}

/** The download operation of both workload APIs: the named workload's package, its link pointing back at `endpoint`. */
export function serveDownload(
  ctx: HandlerContext<{ workload_name: string }, { address: boolean; expires?: number }>,
  endpoint: AnyEndpoint,
  addressBody?: DownloadRequest["addressBody"],
): Reply {
  const name = ctx.params.workload_name;
  return downloadPackage(ctx, requireWorkload(ctx.store, name), {
    address: ctx.query.address,
    expires: ctx.query.expires,
    path: servedPath(endpoint, { workload_name: name }),
    addressBody,
  });
}
