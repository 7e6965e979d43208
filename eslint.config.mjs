// ESLint (flat config): the JavaScript and typescript-eslint recommended rules everywhere, the
// React hooks rules in the task pane, and the promise rules that keep "every promise settles" true.
// Formatting is prettier's job; eslint-config-prettier turns off the rules that would fight it.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "test-output/", "coverage/", "bench/results.json"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
    },
    rules: {
      // A leading underscore marks a name kept on purpose (a destructured field left out, a
      // callback's unused parameter).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // custom-functions-metadata reads these signatures to write functions.json: `any` is how a
    // parameter that takes numbers, text or booleans is spelled there (it has no `unknown`).
    files: ["src/functions/functions.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Type-aware promise rules: a promise nobody awaits or catches is how a cell sticks on #BUSY!
    // or an action fails silently. Each folder's own tsconfig gives the types.
    files: ["**/*.{ts,tsx}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
  {
    files: ["src/**/*.{ts,tsx}", "harness/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // One job per function: a function over 200 lines (blank lines and comments not counted)
    // is split along its phases or parts (a pure plan apart from the workbook writes, one builder
    // per sheet, sub-components and hooks). A React component is a function too.
    files: ["src/**/*.{ts,tsx}"],
    rules: { "max-lines-per-function": ["error", { max: 200, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ["src/taskpane/**/*.{ts,tsx}", "harness/**/*.tsx"],
    ...reactHooks.configs.flat["recommended-latest"],
  },
  {
    files: ["**/*.{js,cjs}"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Workbook access goes through src/excel: the task pane holds an ExcelRunner and hands its
    // RequestContext to src/excel's functions, never touching the object model itself.
    files: ["src/taskpane/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...[
          "MemberExpression[property.name='workbook']",
          "MemberExpression[property.value='workbook']",
          "CallExpression[callee.property.name='sync']",
          "MemberExpression[property.name='run'][object.name='Excel']",
          "MemberExpression[property.name='run'][object.property.name='Excel']",
        ].map((selector) => ({
          selector,
          message: "Workbook access goes through src/excel: call a function of src/excel with the ExcelRunner.",
        })),
      ],
    },
  },
  // The layers inside src (docs/architecture.md): each folder imports only those below it. The
  // vocabulary (src/shared/vocabulary.ts) is pure data every layer may use; src/i18n (the message
  // catalogs, their types and formatter) sits below every layer and imports none.
  ...[
    { layer: "i18n", forbidden: ["api", "shaping", "shared", "excel", "functions", "commands", "taskpane"] },
    { layer: "api", forbidden: ["shaping", "shared", "excel", "functions", "commands", "taskpane"] },
    { layer: "shaping", forbidden: ["shared", "excel", "functions", "commands", "taskpane"], typesFrom: ["api"] },
    { layer: "shared", forbidden: ["shaping", "excel", "functions", "commands", "taskpane"] },
    { layer: "excel", forbidden: ["api", "functions", "commands", "taskpane"] },
    { layer: "functions", forbidden: ["excel", "commands", "taskpane"] },
    // The ribbon commands and the health check sit just below the pane: the pane shows what they
    // report, and the pane's actions are handed to them, never imported.
    { layer: "commands", forbidden: ["taskpane"] },
  ].map(({ layer, forbidden, typesFrom = [] }) => ({
    files: [`src/${layer}/**/*.{ts,tsx}`],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [...forbidden.map((folder) => `**/${folder}/**`), "!**/shared/vocabulary"],
              message: `src/${layer} sits below that folder (docs/architecture.md, "The layers").`,
            },
            ...typesFrom.map((folder) => ({
              group: [`**/${folder}/**`],
              allowTypeImports: true,
              message: `src/${layer} may use src/${folder}'s types only.`,
            })),
          ],
        },
      ],
    },
  })),
  // The task pane by feature (docs/architecture.md, "The task pane"): the shell renders the registry
  // (features/index.ts) of features; a feature uses another only through that feature's index.ts,
  // and neither the registry nor the shell; ui/ is shared by all and knows none of them.
  ...[
    { files: ["src/taskpane/features/*/*.{ts,tsx}"], up: "\\.\\./" },
    { files: ["src/taskpane/features/*/*/**/*.{ts,tsx}"], up: "\\.\\./\\.\\./" },
  ].map(({ files, up }) => ({
    files,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^${up}[^./][^/]*/.+`,
              message: "Another feature is used through its index.ts only: import from that feature's folder.",
            },
            {
              regex: `^${up.slice(0, -1)}(/index)?/?$`,
              message: "The registry (features/index.ts) sits above the features: a feature never imports it.",
            },
            {
              regex: "^(\\.\\./)+shell(/|$)",
              message: "The shell sits above the features: a feature never imports it.",
            },
          ],
        },
      ],
    },
  })),
  {
    files: ["src/taskpane/ui/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./)+(features|shell)(/|$)",
              message: "ui/ is shared by every feature and imports none of them, nor the shell.",
            },
          ],
        },
      ],
    },
  },
  prettier,
  {
    // After prettier's config, which turns max-len off: prettier wraps code at 120 but leaves
    // comments alone. Long strings and template literals stay whole so messages can be searched.
    files: ["**/*.{ts,tsx,js,mjs,cjs}"],
    ignores: ["src/functions/functions.ts"], // its JSDoc lines are the descriptions Excel shows, one per line
    rules: {
      "max-len": [
        "error",
        { code: 120, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
    },
  },
);
