#!/usr/bin/env node
// Writes docs/errors.md from the error catalog of the built package (src/errors/; run `npm run build` first).
const fs = require("node:fs");
const path = require("node:path");
const { errorsPage } = require("../dist/errors/page");
const target = path.join(__dirname, "..", "docs", "errors.md");
fs.writeFileSync(target, errorsPage());
console.log(`wrote ${path.relative(process.cwd(), target)}`);
