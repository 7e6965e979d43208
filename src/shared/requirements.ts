/**
 * Runtime checks of Office requirement sets, for features the add-in offers on hosts that lack
 * them in a reduced form instead of declaring them in manifest.xml (which would keep the whole
 * add-in off those hosts). Which set is declared and which is checked here, and why, is in
 * docs/deploying.md ("Excel builds and requirement sets"); test/requirement-sets.test.ts fails when code in
 * src/ uses a set that is neither.
 *
 * Call `requirementSupported("ExcelApi", "1.13")` with literal arguments in the module that uses
 * the set: that literal call is what the test takes as the guard.
 */

/** The requirement sets the add-in checks for at run time. */
export type CheckedRequirementSet = "ExcelApi" | "CustomFunctionsRuntime";

/**
 * `Office.context.requirements.isSetSupported(name, version)`. Where there is no Office host to
 * ask (Node: tests, benchmarks, scripts), it answers true: there the in-memory Excel fake plays the
 * host and refuses for itself what its requirement level lacks.
 */
export function requirementSupported(name: CheckedRequirementSet, version: string): boolean {
  const office = (
    globalThis as { Office?: { context?: { requirements?: { isSetSupported?: (n: string, v?: string) => boolean } } } }
  ).Office;
  const requirements = office?.context?.requirements;
  if (typeof requirements?.isSetSupported !== "function") return true;
  return requirements.isSetSupported(name, version);
}
