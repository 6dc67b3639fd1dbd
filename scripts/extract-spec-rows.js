#!/usr/bin/env node
/**
 * Extracts the operation rows of the API spec (`| METHOD | /path | ... | permission |` in
 * platform-api-part-1.md and platform-api-part-2.md) into test/api/spec-operations.json, the copy
 * the repository keeps so that test/api/spec-coverage.test.ts runs without the spec documents.
 *
 *   node scripts/extract-spec-rows.js [SPEC_DIR]          write test/api/spec-operations.json
 *   node scripts/extract-spec-rows.js [SPEC_DIR] --check  exit 1 when the checked-in rows differ
 *   (npm run spec:rows -- [SPEC_DIR])
 *
 * SPEC_DIR defaults to ../shared/spec beside the repository.
 */
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.join(__dirname, "..");
const DEFAULT_SPEC_DIR = path.resolve(ROOT, "../shared/spec");
const ROWS_FILE = path.join(ROOT, "test/api/spec-operations.json");
const SPEC_FILES = ["platform-api-part-1.md", "platform-api-part-2.md"];
const ROW = /^\|\s*(GET|POST)\s*\|\s*(\/\S+)\s*\|.*\|\s*([^|]+?)\s*\|\s*$/;

/** Whether `dir` holds every spec document the rows come from. */
function specPresent(dir) {
  return SPEC_FILES.every((f) => fs.existsSync(path.join(dir, f)));
}

/** The operation rows of the spec documents in `dir`, in document order. */
function extractRows(dir) {
  const rows = [];
  for (const file of SPEC_FILES) {
    const text = fs.readFileSync(path.join(dir, file), "utf8");
    for (const line of text.split(/\r?\n/)) {
      const m = ROW.exec(line);
      if (!m) continue;
      rows.push({ method: m[1], path: m[2], permission: m[3] === "none required" ? null : m[3], file });
    }
  }
  return rows;
}

/** The document written to ROWS_FILE. */
function rowsDocument(rows) {
  return {
    description: "Operation rows of the API spec (platform-api-part-1.md, platform-api-part-2.md). Regenerate with `npm run spec:rows -- SPEC_DIR`.",
    sources: SPEC_FILES,
    rows,
  };
}

/** JSON with one row per line, so a change to the spec is a readable diff. */
function serialize(doc) {
  const head = JSON.stringify({ ...doc, rows: [] }, null, 2).replace(/"rows": \[\]\n\}$/, "");
  return `${head}"rows": [\n${doc.rows.map((r) => `    ${JSON.stringify(r)}`).join(",\n")}\n  ]\n}\n`;
}

function main(argv) {
  const args = argv.filter((a) => !a.startsWith("--"));
  const flags = argv.filter((a) => a.startsWith("--"));
  const unknown = flags.filter((f) => f !== "--check");
  if (unknown.length > 0 || args.length > 1) {
    process.stderr.write(`usage: extract-spec-rows [SPEC_DIR] [--check]  (unknown: ${[...unknown, ...args.slice(1)].join(" ")})\n`);
    return 2;
  }
  const dir = path.resolve(args[0] ?? DEFAULT_SPEC_DIR);
  if (!specPresent(dir)) {
    process.stderr.write(`extract-spec-rows: the spec documents (${SPEC_FILES.join(", ")}) are not in ${dir}; pass the folder that holds them\n`);
    return 1;
  }
  const rows = extractRows(dir);
  const text = serialize(rowsDocument(rows));
  const rel = path.relative(process.cwd(), ROWS_FILE);
  if (flags.includes("--check")) {
    const current = fs.existsSync(ROWS_FILE) ? fs.readFileSync(ROWS_FILE, "utf8") : "";
    if (current === text) {
      process.stdout.write(`${rel} matches the ${rows.length} rows of ${dir}\n`);
      return 0;
    }
    process.stderr.write(`${rel} differs from the ${rows.length} rows of ${dir}; run \`npm run spec:rows -- ${dir}\`\n`);
    return 1;
  }
  fs.writeFileSync(ROWS_FILE, text);
  process.stdout.write(`wrote ${rows.length} rows from ${dir} to ${rel}\n`);
  return 0;
}

module.exports = { DEFAULT_SPEC_DIR, ROWS_FILE, SPEC_FILES, specPresent, extractRows, rowsDocument, serialize };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
