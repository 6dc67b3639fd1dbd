#!/usr/bin/env node
// Copies the files the build does not compile into dist/: the emulator console's static page
// (src/emulator/console/ → dist/emulator/console/), which the emulator serves at /emulator/ui.
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const folders = [["src/emulator/console", "dist/emulator/console"]];

for (const [from, to] of folders) {
  const source = path.join(root, from);
  const target = path.join(root, to);
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  const names = fs.readdirSync(source).filter((n) => fs.statSync(path.join(source, n)).isFile());
  for (const name of names) fs.copyFileSync(path.join(source, name), path.join(target, name));
  console.log(`${to}: ${names.length} files`);
}
