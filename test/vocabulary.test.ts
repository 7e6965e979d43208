/**
 * The add-in's vocabulary (src/shared/vocabulary.ts) and the emulator's own copies must agree:
 * the emulator stands apart from src (it models the service, which has its own lists), so instead
 * of importing src it keeps its lists, and this test fails the day one side changes alone.
 */
import * as catalog from "../emulator/model/catalog";
import { KEYS } from "../emulator/state/seed";
import { ROUTES } from "../emulator/http/routes";
import { DEMO_API_KEY, DEMO_PROJECT, MEASURES, SCENARIOS, WINDOWS } from "../src/shared/vocabulary";
import { HAZARDS, scenarioRepeatOf } from "../src/shared/vocabulary";
import { EMULATOR_CONNECTION } from "../src/api/config";

test("scenarios, windows and measures are the emulator's", () => {
  expect([...SCENARIOS]).toEqual([...catalog.SCENARIOS]);
  expect([...WINDOWS]).toEqual([...catalog.WINDOWS]);
  expect([...MEASURES]).toEqual([...catalog.MEASURES]);
});

test("the emulator's documented query parameters offer the catalogue's lists", () => {
  const enumsOf = (name: string) =>
    ROUTES.flatMap((route) => route.query ?? [])
      .filter((param) => param.name === name)
      .map((param) => param.enum);
  expect(enumsOf("scenario")).toContainEqual([...catalog.SCENARIOS]);
  expect(enumsOf("hazard")).toContainEqual([...catalog.HAZARDS]);
  expect(enumsOf("window")).toContainEqual(catalog.WINDOWS.map(String));
  expect(enumsOf("measure")).toContainEqual([...catalog.MEASURES]);
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

test("the scenarios the service repeats, per hazard, are the emulator's", () => {
  for (const hazard of HAZARDS) {
    for (const scenario of SCENARIOS) {
      const effective = catalog.effectiveScenario(hazard.portfolio as catalog.Hazard, scenario);
      expect([hazard.portfolio, scenario, scenarioRepeatOf(hazard, scenario)?.repeats ?? scenario]).toEqual([
        hazard.portfolio,
        scenario,
        effective,
      ]);
    }
  }
});
