"use strict";
/**
 * A working directory for the dynamic-provider host in which `require("pulumi-svc/...")` resolves to
 * the build under test, as it does in a user's install: node_modules/pulumi-svc holds this
 * package.json and a `dist` link to the build. Node follows the link to the real files, so the
 * provider's own dependencies resolve from this checkout's node_modules.
 */
const fs = require("node:fs");
const path = require("node:path");
const { DIST, tempDir } = require("./common");

let root;

function hostRoot() {
  if (root) return root;
  root = tempDir("svc-bench-host-");
  const pkg = path.join(root, "node_modules", "pulumi-svc");
  fs.mkdirSync(pkg, { recursive: true });
  fs.copyFileSync(path.join(__dirname, "..", "..", "package.json"), path.join(pkg, "package.json"));
  fs.symlinkSync(DIST, path.join(pkg, "dist"), "dir");
  return root;
}

module.exports = { hostRoot };
