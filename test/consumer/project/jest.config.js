// The consumer project's jest config: the kit's tests under the package's jest environment.
module.exports = { testEnvironment: "pulumi-svc/testing/jest-environment", testMatch: ["<rootDir>/*.test.js"] };
