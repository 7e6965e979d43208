/**
 * The import's CSV reader pauses between slices of its work (so a large file never holds up
 * another request) and must still name each row's line in the file after a pause.
 */
import { parseAssetCsv } from "../../emulator/assets/asset-csv";

afterEach(() => jest.restoreAllMocks());

test("after pauses between rows, an error still names the row's line in the file", async () => {
  // A clock that jumps a slice at every reading: the reader pauses after every row.
  let now = 0;
  jest.spyOn(performance, "now").mockImplementation(() => (now += 50));
  const csv = 'entity_name,lat,lng\n"two\nlines",1,2\n\nx,1,0\ny,2,0\n\n"three\n\nlines",3,0\nz,91,0\n';
  const result = await parseAssetCsv(csv);
  expect(result).toEqual({
    ok: false,
    status: 400,
    errors: ["row 5 (line 11), column lat: 91 is out of bounds [-90, 90]"],
  });
});
