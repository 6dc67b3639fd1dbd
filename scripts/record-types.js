#!/usr/bin/env node
// Writes src/provider/records.ts: the records the lookups of the main entry return (getApp, getAsset,
// ...), as plain types expanded from the endpoint table by the type checker. The main entry's
// declarations must not reach zod or the table (every program's type check would pay for them), so
// its lookups return these; the proofs in lookups.ts fail to compile when the table changes, and this
// script writes them again: `node scripts/record-types.js`.
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");
const { execFileSync } = require("node:child_process");

const repo = path.join(__dirname, "..");
const out = path.join(repo, "src", "provider", "records.ts");

/** Record type → [its doc, the type the lookup's call gives]. */
const RECORDS = {
  AppRecord: ["An app as the platform answers `getApp` (snake_case, as the API writes it).", "CallOutput<typeof apps.get>"],
  AppVersionRecord: ["An app version with its manifest, as the platform answers `getAppVersion`.", "CallOutput<typeof apps.versionGet>"],
  WorkloadRecord: ["A workload as the platform answers `getWorkload`.", "CallOutput<typeof workloads.get>"],
  AssetRecord: ["An asset as the platform answers `getAsset` and lists it (`listAssets`).", "CallOutput<typeof assets.get>"],
  ClusterRecord: ["A cluster as the platform answers `getCluster`.", "CallOutput<typeof clusters.get>"],
  AssetClassRecord: ["An asset class as the platform answers `getAssetClass`.", "CallOutput<typeof assets.classGet>"],
  AssetTypeRecord: ["An asset type as the platform answers `getAssetType`.", "CallOutput<typeof assets.typeGet>"],
  LabelRecord: ["A label as the platform answers `getLabel`.", "CallOutput<typeof datalabels.labelGet>"],
  DataTypeRecord: ["One version of a data type as the platform answers `getDataType`.", "CallOutput<typeof datatypes.get>"],
};

const probe = path.join(repo, "src", "provider", `.records-probe-${process.pid}.ts`);
fs.writeFileSync(
  probe,
  [
    'import type { CallOutput } from "../client";',
    'import type { apps } from "../api/apps";',
    'import type { assets } from "../api/assets";',
    'import type { clusters } from "../api/clusters";',
    'import type { datalabels } from "../api/datalabels";',
    'import type { datatypes } from "../api/datatypes";',
    'import type { workloads } from "../api/workloads";',
    ...Object.entries(RECORDS).map(([name, [, type]]) => `export type ${name} = ${type};`),
  ].join("\n"),
);
try {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(repo, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => console.error(d.messageText) });
  const program = ts.createProgram([probe], config.options);
  const checker = program.getTypeChecker();
  const printer = ts.createPrinter();
  const source = program.getSourceFile(probe);
  const flags = ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.InTypeAlias | ts.NodeBuilderFlags.IgnoreErrors;
  const body = source.statements.filter(ts.isTypeAliasDeclaration).map((alias) => {
    const node = checker.typeToTypeNode(checker.getTypeAtLocation(alias.name), undefined, flags);
    const text = printer.printNode(ts.EmitHint.Unspecified, node, source);
    if (/\bimport\(|\bz\./.test(text)) throw new Error(`${alias.name.text} still names the table or zod: ${text.slice(0, 300)}`);
    return `/** ${RECORDS[alias.name.text][0]} */\nexport type ${alias.name.text} = ${text};\n`;
  });
  const header = "// Written by scripts/record-types.js from the endpoint table; do not edit (lookups.ts proves each type equal to the table's).\n";
  fs.writeFileSync(out, `${header}\n${body.join("\n")}`);
} finally {
  fs.rmSync(probe, { force: true });
}
execFileSync(process.execPath, [require.resolve("prettier/bin/prettier.cjs", { paths: [repo] }), "--write", out], { cwd: repo, stdio: "inherit" });
