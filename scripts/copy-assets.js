#!/usr/bin/env node
// Copies the files the build does not compile into dist/: the emulator console's static page
// (src/emulator/console/ and its folders → dist/emulator/console/), which the emulator serves at
// /emulator/ui. Declaration files there only type-check the page's modules, and are left out.
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const folders = [["src/emulator/console", "dist/emulator/console"]];

for (const [from, to] of folders) {
  const source = path.join(root, from);
  const target = path.join(root, to);
  fs.rmSync(target, { recursive: true, force: true });
  const names = fs.readdirSync(source, { recursive: true, encoding: "utf8" }).filter((n) => !n.endsWith(".d.ts") && fs.statSync(path.join(source, n)).isFile());
  for (const name of names) {
    fs.mkdirSync(path.dirname(path.join(target, name)), { recursive: true });
    fs.copyFileSync(path.join(source, name), path.join(target, name));
  }
  console.log(`${to}: ${names.length} files`);
}
