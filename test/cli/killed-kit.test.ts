/**
 * The killed-run scenarios of killed.test.ts under the kit's engine: a run killed at any moment
 * converges on the next run. The scenarios are in killed-harness.ts.
 */
import { scenarios, upWithRefresh } from "./killed-harness";

describe("a killed run under the kit's engine", () => {
  scenarios("kit");
  test("up({ refresh: true }) reads the platform first", () => upWithRefresh("kit"));
});
