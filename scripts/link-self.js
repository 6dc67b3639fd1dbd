#!/usr/bin/env node
// Makes `require("pulumi-svc/...")` resolve to this checkout from node_modules, the way an install
// resolves it, so the dynamic-provider host loads the provider by package name in the tests.
const fs = require("node:fs");
const path = require("node:path");
const root = path.join(__dirname, "..");
const link = path.join(root, "node_modules", "pulumi-svc");
try {
  const st = fs.lstatSync(link);
  if (st.isSymbolicLink() && path.resolve(path.dirname(link), fs.readlinkSync(link)) === root) process.exit(0);
  fs.rmSync(link, { recursive: true, force: true });
} catch {
  // Nothing there yet: the link is made below.
}
fs.symlinkSync(path.relative(path.dirname(link), root), link, "dir");
