/**
 * The add-in's vocabulary (src/shared/vocabulary.ts) and the emulator's own copies must agree:
 * the emulator stands apart from src (it models the service, which has its own lists), so instead
 * of importing src it keeps its lists, and this test fails the day one side changes alone.
 */
import * as catalog from "../emulator/model/catalog";
import { KEYS } from "../emulator/state/seed";
import { DEMO_API_KEY, DEMO_PROJECT, SCENARIOS, WINDOWS } from "../src/shared/vocabulary";
import { HAZARDS } from "../src/shared/vocabulary";
import { EMULATOR_CONNECTION } from "../src/api/config";

test("scenarios and windows are the emulator's", () => {
  expect([...SCENARIOS]).toEqual([...catalog.SCENARIOS]);
  expect([...WINDOWS]).toEqual([...catalog.WINDOWS]);
});

test("every hazard's portfolio spelling and label thresholds are the emulator's", () => {
  expect(HAZARDS.map((h) => h.portfolio).sort()).toEqual([...catalog.HAZARDS].sort());
  for (const hazard of HAZARDS)
    expect(hazard.thresholds).toEqual(catalog.THRESHOLDS[hazard.portfolio as catalog.Hazard]);
});

test("the demo key opens the demo project in the emulator's seed, and is the add-in's default connection", () => {
  expect(KEYS.find((k) => k.key === DEMO_API_KEY)?.projects).toContain(DEMO_PROJECT);
  expect(EMULATOR_CONNECTION.apiKey).toBe(DEMO_API_KEY);
  expect(EMULATOR_CONNECTION.project).toBe(DEMO_PROJECT);
});
