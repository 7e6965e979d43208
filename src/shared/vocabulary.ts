/**
 * The domain vocabulary of the add-in, in one place: the climate scenarios and the demo
 * connection. Pure data with no imports, so every layer of src (api, shaping, functions, excel,
 * taskpane) and the harness, bench and tests can use it without crossing a layer boundary.
 *
 * The hazards, their three spellings (search `floods`, portfolio `flood_potential`, extended summary
 * `flood`), their indicators and the label thresholds (LOW below `low`, MEDIUM up to `medium`, HIGH
 * above) are the other half of the vocabulary: one table, `HAZARDS` in src/functions/hazards.ts, kept
 * there because the functions' name resolution and errors are built around it and nothing below
 * src/functions needs it (importing it here would make src/shared depend on src/functions).
 *
 * The emulator keeps its own copies (emulator/model/catalog.ts, emulator/state/seed.ts), as the
 * real service would; test/vocabulary.test.ts fails when the two disagree.
 */

/** The SSP scenarios the service serves, lowest emissions first. */
export const SCENARIOS = ["ssp126", "ssp245", "ssp585"] as const;

/** One of `SCENARIOS`. */
export type ScenarioName = (typeof SCENARIOS)[number];

/** The scenario used when a function or form is given none. */
export const DEFAULT_SCENARIO: ScenarioName = "ssp245";

/** The summary windows in years (each starts in 2025). */
export const WINDOWS = [5, 15, 30] as const;

/** The port the local emulator listens on by default (`npm run emulator`). */
export const DEMO_PORT = 4010;

/** The API key the emulator seeds; it opens the demo project. */
export const DEMO_API_KEY = "demo-key";

/** The project the demo key may read. */
export const DEMO_PROJECT = "demo";

/** The emulator's base URL at its default port. */
export const DEMO_BASE_URL = `http://127.0.0.1:${DEMO_PORT}`;
