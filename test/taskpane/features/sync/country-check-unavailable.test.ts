/**
 * When the outlines' chunk cannot be fetched (a network failure, a redeployed add-in), the check
 * and the sync go on: the findings say the countries were not checked, and nothing is thrown.
 */
import { validateAssetRange } from "../../../../src/taskpane/features/sync/model/validate-assets";

jest.mock("../../../../src/taskpane/features/sync/model/country-check", () => {
  throw new Error("Loading chunk country-check failed.");
});

test("a chunk that fails to load is reported, not thrown", async () => {
  const { checkRangeCountries } = await import("../../../../src/taskpane/features/sync/country-check-actions");
  const values = [
    ["lat", "lng", "Country"],
    [48.85, 2.35, "FR"],
  ];
  const validation = validateAssetRange({ values, address: "Sites!A1:C2" });
  expect(await checkRangeCountries(values, "Sites!A1:C2", validation)).toEqual({
    countryCheckError: "Loading chunk country-check failed.",
  });
  // Without a country column nothing is loaded, so nothing can fail.
  const plain = values.map((row) => row.slice(0, 2));
  expect(
    await checkRangeCountries(plain, "Sites!A1:B2", validateAssetRange({ values: plain, address: "Sites!A1:B2" })),
  ).toEqual({});
});
