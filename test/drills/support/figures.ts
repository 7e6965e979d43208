import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";

/** Where the drills leave their figures; docs/reliability.md quotes them. */
export const FIGURES_DIR = path.resolve(__dirname, "../../../test-output/reliability");

/**
 * Records the figures of one drill: writes test-output/reliability/<drill>.json and prints them,
 * so a run of `npm test` shows the numbers docs/reliability.md quotes.
 */
export function recordFigures(drill: string, figures: Record<string, unknown>): void {
  mkdirSync(FIGURES_DIR, { recursive: true });
  const record = { drill, recordedAt: new Date().toISOString(), ...figures };
  writeFileSync(path.join(FIGURES_DIR, `${drill}.json`), `${JSON.stringify(record, null, 2)}\n`);
  // One line, so the figures are easy to find in the test output.
  console.log(`[reliability] ${drill}: ${JSON.stringify(figures)}`);
}
