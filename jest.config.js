/** Tests run the TypeScript sources through ts-jest (transpile only; `npm run build` type-checks).
 *  The dynamic-provider host child process loads the built package from dist/ by name, as a user's install does. */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { isolatedModules: true, tsconfig: "tsconfig.json" }] },
  testTimeout: 60000,
  maxWorkers: 2,
};
