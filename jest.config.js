/** Tests run the TypeScript sources through SWC (@swc/jest), which strips the types of each file alone:
 *  tsconfig.json sets `isolatedModules`, so that `npm run typecheck` refuses what a file-by-file
 *  transpiler cannot compile, and type-checks. The options below give what tsc gives with tsconfig.json
 *  (ES2022 with its class fields, CommonJS with ES module interop).
 *  The dynamic-provider host child process loads the built package from dist/ by name, as a user's install does. */
module.exports = {
  // The package's own environment for tests that run programs (src/testing/jest-environment.ts), as users set it.
  testEnvironment: "pulumi-svc/testing/jest-environment",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.ts$": ["@swc/jest", { jsc: { target: "es2022", parser: { syntax: "typescript" }, transform: { useDefineForClassFields: true } }, module: { type: "commonjs" } }],
  },
  testTimeout: 60000,
  // The longest files first, with an estimate for the files jest has no duration of (a clean clone).
  testSequencer: "<rootDir>/test/helpers/longest-first.js",
  maxWorkers: 2,
  // A worker keeps the module registry of every test file it ran: a heap snapshot shows each file's
  // jest Runtime held through the file's vm context from V8's "DevTools console" handles, about 40 MB
  // a file of stacks. A worker that ran nine such files holds 1-1.3 GB, and Node takes 1.2-1.7 s to free
  // it at exit, past the 500 ms jest-worker waits: jest kills it and warns that a worker "failed to exit
  // gracefully". A worker whose heap passes this limit after a file is replaced by a fresh one.
  workerIdleMemoryLimit: "200MB",
};
