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
  prettier,
);
