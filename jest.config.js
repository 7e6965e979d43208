/**
 * Jest runs TypeScript through ts-jest in CommonJS mode. ky and FormatJS's intl-messageformat (with
 * its @formatjs parts) are ESM-only, so their files are transformed too (toolchain notes);
 * everything else in node_modules is left alone.
 */
const tsJestOptions = {
  tsconfig: {
    module: "commonjs",
    moduleResolution: "node",
    allowJs: true,
    esModuleInterop: true,
    jsx: "react-jsx",
    target: "ES2020",
    isolatedModules: true,
  },
  diagnostics: false,
};

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  // Errors with a catalog message read in English, as in the pane (test/support/english-errors.ts).
  setupFiles: ["<rootDir>/test/support/english-errors.ts"],
  testMatch: ["**/*.test.ts", "**/*.test.tsx"],
  transform: {
    "^.+\\.tsx?$": ["ts-jest", tsJestOptions],
    "node_modules/(ky|intl-messageformat|@formatjs)/.+\\.js$": ["ts-jest", tsJestOptions],
  },
  // A catalog imported with `?cell` (src/i18n/cell-catalogs.ts) is the whole catalog under jest;
  // webpack keeps only its `cell.*` messages (scripts/catalog-subset-loader.js).
  moduleNameMapper: { "^(.+\\.json)\\?cell$": "$1" },
  transformIgnorePatterns: ["/node_modules/(?!(ky|intl-messageformat|@formatjs)/)"],
  testTimeout: 30000,
};
