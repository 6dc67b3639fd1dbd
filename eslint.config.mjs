// Lint for the sources, tests, bench and examples: typescript-eslint's recommended rules with type
// information, plus the rules this project relies on (see README, "Development").
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** URNs are read and written in one place, src/pulumi/urn.ts: elsewhere, a "::" string is a URN split or joined by hand. */
const URN_BY_HAND = { selector: "Literal[value='::']", message: 'Read and write URNs with src/pulumi/urn.ts (urnName, urnQualifiedType, ...), not by "::".' };

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "bench/.results/**", "bench/.dist*/**", "test/.artifacts/**", "sdk/**", "**/*.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { rules: { "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", caughtErrors: "none" }] } },
  {
    files: ["**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unnecessary-type-assertion": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-restricted-syntax": ["error", URN_BY_HAND],
    },
  },
  { files: ["src/pulumi/urn.ts"], rules: { "no-restricted-syntax": "off" } },
  {
    // Tests load compiled programs afresh and read JSON fixtures with require(); ANSI colours are stripped with regular expressions.
    files: ["test/**/*.ts"],
    rules: { "@typescript-eslint/no-require-imports": "off", "no-control-regex": "off" },
  },
  {
    // A resource class's readable outputs are declared by an interface of the same name typed from its
    // kind's output map (`interface Asset extends Outputs<typeof assetOutputs> {}`); Pulumi sets them at registration.
    files: ["src/provider/resources/*.ts", "src/client/index.ts"],
    rules: { "@typescript-eslint/no-unsafe-declaration-merging": "off", "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "with-single-extends" }] },
  },
  {
    // The console's page runs in the browser.
    files: ["src/emulator/console/**/*.js"],
    languageOptions: {
      sourceType: "module",
      globals: {
        document: "readonly",
        window: "readonly",
        location: "readonly",
        Node: "readonly",
        Event: "readonly",
        Blob: "readonly",
        fetch: "readonly",
        URL: "readonly",
        URLSearchParams: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        console: "readonly",
        history: "readonly",
        navigator: "readonly",
        HTMLElement: "readonly",
        requestAnimationFrame: "readonly",
        sessionStorage: "readonly",
        localStorage: "readonly",
        KeyboardEvent: "readonly",
        MouseEvent: "readonly",
        CustomEvent: "readonly",
        AbortController: "readonly",
        TextEncoder: "readonly",
      },
    },
  },
  {
    // The kit loads @pulumi/pulumi's generated gRPC stubs from the user's install, found at run time,
    // and a program folder's entry, afresh for each run.
    files: ["src/testing/engine/grpc.ts", "src/testing/program.ts", "src/testing/program-folder.ts"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // The emulator's request path is named stages, each a small function: no function of the emulator
    // (comments and blank lines included) grows past 60 lines.
    files: ["src/emulator/**/*.ts"],
    rules: { "max-lines-per-function": ["error", { max: 60, skipBlankLines: false, skipComments: false, IIFEs: true }] },
  },
  {
    // The provider keeps its types: no `as never` / `as unknown as` (an escape from the checker), and
    // assertions written with `as` only, so that these selectors see every one (`<never>x` is refused).
    // A site that truly needs one says why in an eslint-disable comment.
    files: ["src/provider/**/*.ts"],
    rules: {
      "@typescript-eslint/consistent-type-assertions": ["error", { assertionStyle: "as", objectLiteralTypeAssertions: "allow" }],
      "no-restricted-syntax": [
        "error",
        { selector: "TSAsExpression > TSNeverKeyword", message: "`as never` discards the type: type the value instead." },
        { selector: "TSAsExpression[expression.type='TSAsExpression'] > TSUnknownKeyword", message: "`as unknown as` discards the type." },
        { selector: "TSAsExpression:has(> TSAsExpression > TSUnknownKeyword)", message: "`as unknown as` discards the type: type the value instead." },
        URN_BY_HAND,
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: {
      globals: {
        require: "readonly",
        module: "writable",
        process: "readonly",
        console: "readonly",
        __dirname: "readonly",
        Buffer: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        URL: "readonly",
        URLSearchParams: "readonly",
        performance: "readonly",
        fetch: "readonly",
        AbortController: "readonly",
        setImmediate: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        structuredClone: "readonly",
        exports: "writable",
        __filename: "readonly",
        queueMicrotask: "readonly",
      },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
