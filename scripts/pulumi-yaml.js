#!/usr/bin/env node
/**
 * Pulumi's YAML language host, `pulumi-language-yaml`, for the tests of YAML programs in a project
 * folder (test/native/yaml.test.ts): built from the Go module proxy as a tool of the small Go module in
 * tools/pulumi-yaml (its go.mod pins github.com/pulumi/pulumi-yaml v1.25.0) into the user's cache
 * (scripts/go-tool.js). The CLI finds the host on PATH.
 *
 *   node scripts/pulumi-yaml.js     builds it if needed, prints the folder that holds it
 */
const { goTool } = require("./go-tool");

const host = goTool({
  module: "pulumi-yaml",
  pins: "github.com/pulumi/pulumi-yaml",
  pkg: "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml",
  binary: "pulumi-language-yaml",
  folder: (version, hash) => `pulumi-yaml-${version}-${hash}`,
});

/** The host's folder when it is built, else undefined. */
const builtHost = () => (host.built() ? host.dir() : undefined);

module.exports = { hostDir: host.dir, builtHost, ensureHost: host.ensure };

if (require.main === module) host.main();
