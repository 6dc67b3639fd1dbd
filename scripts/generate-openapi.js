#!/usr/bin/env node
// Writes schema/openapi.json from the endpoint table of the built package (run `npm run build` first).
const fs = require("node:fs");
const path = require("node:path");
const { openApiDocument } = require("../dist/api/openapi");
const target = path.join(__dirname, "..", "schema", "openapi.json");
fs.writeFileSync(target, JSON.stringify(openApiDocument(), null, 2) + "\n");
console.log(`wrote ${path.relative(process.cwd(), target)}`);
