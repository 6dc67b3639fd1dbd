/**
 * src/provider/resources/classes.ts, the public classes and args interfaces, is what
 * `npm run classes` writes from the kind declarations: a declaration changed without it fails here.
 */
import * as fs from "node:fs";
import { PATTERN_RULES } from "../../src/api/common";
import { registeredKinds } from "../../src/provider/registry";
import "../../src/provider/kinds";

const { generateClasses, formatted, CLASSES_PATH } = require("../../scripts/kind-classes.js") as {
  generateClasses(o: object): string;
  formatted(text: string): string;
  CLASSES_PATH: string;
};

jest.setTimeout(120_000);

test("the committed classes are current (npm run classes writes them again)", () => {
  const fresh = formatted(generateClasses({ load: (m: string) => require(`../../src/provider/resources/${m}`), kinds: () => registeredKinds, patternRules: PATTERN_RULES }));
  expect(fs.readFileSync(CLASSES_PATH, "utf8")).toBe(fresh);
});
