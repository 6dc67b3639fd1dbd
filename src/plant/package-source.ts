/**
 * Where a generated program installs pulumi-svc from. The package is not on the npm registry yet, so
 * a version range would fail with E404: by default the program carries a tarball of the running
 * package (`npm pack` of it, in the program's `vendor/` folder) and names it (`file:vendor/...tgz`),
 * which `npm install` installs anywhere, CI runners included. `--package-spec` names another source:
 * a version range once the package is published, a git URL, or a tarball kept elsewhere.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { SvcError } from "../errors";

/** The root of the running package (its package.json), from dist/plant or src/plant alike. */
const ownRoot = path.join(__dirname, "..", "..");

interface OwnPackage {
  name: string;
  version: string;
  /** The range of @pulumi/pulumi it declares (peer dependency). */
  pulumi: string;
}

export function ownPackage(): OwnPackage {
  const pkg = JSON.parse(readFileSync(path.join(ownRoot, "package.json"), "utf8")) as {
    name: string;
    version: string;
    peerDependencies?: Record<string, string>;
  };
  return { name: pkg.name, version: pkg.version, pulumi: pkg.peerDependencies?.["@pulumi/pulumi"] ?? "^3.0.0" };
}

/** The folder of the program that holds the packed package. */
export const VENDOR_DIR = "vendor";

/** The file name `npm pack` gives the running package's tarball. */
const tarballName = (own: OwnPackage) => `${own.name.replace(/^@/, "").replace(/\//g, "-")}-${own.version}.tgz`;

/** The dependency spec of the vendored tarball, relative to the program's folder. */
export const vendoredSpec = (own: OwnPackage = ownPackage()) => `file:${VENDOR_DIR}/${tarballName(own)}`;

/**
 * Packs the running package (`npm pack`, scripts off) into `<dir>/vendor/`, so that the spec
 * `vendoredSpec()` installs; returns that spec. Fails naming the command and what npm said.
 */
export function vendorPackage(dir: string): string {
  const own = ownPackage();
  const dest = path.join(dir, VENDOR_DIR);
  mkdirSync(dest, { recursive: true });
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const args = ["pack", ownRoot, "--ignore-scripts", "--json", "--pack-destination", dest];
  let out: string;
  try {
    out = execFileSync(npm, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20, shell: process.platform === "win32" });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new SvcError(
      "SVC_PACK_FAILED",
      `cannot pack ${own.name} into ${dest} (npm ${args.join(" ")}): ${(err.stderr || err.message).trim()}; name another source with --package-spec (a version range, a git URL or a tarball)`,
      { cause: e },
    );
  }
  const [packed] = JSON.parse(out) as Array<{ filename: string }>;
  if (packed?.filename !== tarballName(own)) throw new SvcError("SVC_PACK_FAILED", `npm pack wrote ${packed?.filename} into ${dest}, expected ${tarballName(own)}`);
  return vendoredSpec(own);
}
