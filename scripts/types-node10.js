#!/usr/bin/env node
// Writes dist/node10/: the declaration files for TypeScript's `moduleResolution: node` (node10), the
// setting of Pulumi's TypeScript template, which `typesVersions` in package.json points at.
//
// Why a second set: under node10, `"zod"` resolves to zod's CommonJS declarations (index.d.cts), whose
// v4/locales/index.d.cts re-exports `export =` modules as defaults, which only compiles with
// esModuleInterop (TS1259, one error per locale); the template does not set it. zod's ES module
// declarations (index.d.ts and the files beside them) describe the same API and compile either way, but
// node16 and bundler resolution cannot reach them (zod's `exports` map only gives the .d.cts), so the
// files under dist/ keep `"zod"` and these copies name zod's ES module declaration files instead.
const fs = require("node:fs");
const path = require("node:path");

const dist = path.join(__dirname, "..", "dist");
const out = path.join(dist, "node10");
const zodRoot = path.dirname(require.resolve("zod/package.json", { paths: [path.join(__dirname, "..")] }));

/** `zod` → `zod/index.js`, `zod/v4/core` → `zod/v4/core/index.js`: node10 finds the .d.ts beside each. */
function node10Specifier(spec, file) {
  const sub = spec === "zod" ? "" : spec.slice("zod/".length) + "/";
  const target = `${sub}index.d.ts`;
  if (!fs.existsSync(path.join(zodRoot, target))) {
    throw new Error(`${path.relative(dist, file)} imports "${spec}", which has no ES module declarations at zod/${target}; extend scripts/types-node10.js for it`);
  }
  return `zod/${sub}index.js`;
}

function* declarations(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (full !== out) yield* declarations(full);
    } else if (entry.name.endsWith(".d.ts")) {
      yield full;
    }
  }
}

const SPECIFIER = /(\bfrom\s*|\bimport\(\s*|\brequire\(\s*)(["'])(zod(?:\/[^"']*)?)\2/g;

fs.rmSync(out, { recursive: true, force: true });
let files = 0;
let rewritten = 0;
for (const file of declarations(dist)) {
  const text = fs.readFileSync(file, "utf8").replace(SPECIFIER, (_m, lead, quote, spec) => {
    rewritten++;
    return `${lead}${quote}${node10Specifier(spec, file)}${quote}`;
  });
  const target = path.join(out, path.relative(dist, file));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, text);
  files++;
}
if (files === 0) throw new Error(`no declaration files under ${dist}: run tsc first`);
console.log(`dist/node10: ${files} declaration files, ${rewritten} zod imports`);
