import { NotFoundError, UnprocessableEntityError } from "../../../../src/api/errors";
import {
  createUdf,
  deleteUdf,
  deleteVector,
  describeLayer,
  inspectUdf,
  inspectVector,
  listCompositions,
  previewUdf,
  updateUdfEquation,
  updateVectorFile,
  uploadVectorFile,
} from "../../../../src/taskpane/features/compositions/compositions-actions";
import { describeError } from "../../../../src/taskpane/ui/describe-error";
import { StepError } from "../../../../src/taskpane/ui/pane-types";
import { countRequests, usePaneTestService } from "../../support";
import { emulatorStats } from "../../../support/emulator";
import { englishTranslator } from "../../../../src/i18n/translator";

/** Compositions panel actions against the emulator over HTTP: upload, UDF create/activate, list, inspect, delete. */

const service = usePaneTestService();
beforeEach(() => service.emulator.reset());

const square = (lng: number, lat: number, properties: Record<string, number>) => ({
  type: "Feature",
  properties,
  geometry: {
    type: "Polygon",
    coordinates: [
      [
        [lng - 1, lat - 1],
        [lng + 1, lat - 1],
        [lng + 1, lat + 1],
        [lng - 1, lat + 1],
        [lng - 1, lat - 1],
      ],
    ],
  },
});
const layerText = JSON.stringify({
  type: "FeatureCollection",
  features: [
    square(-0.1, 51.5, { loss_flood_bsln: 1, loss_wildfire_bsln: 2, loss_cyclone_bsln: 3 }),
    square(2.35, 48.85, { loss_flood_bsln: 4, loss_wildfire_bsln: 5, loss_cyclone_bsln: 6 }),
  ],
});

test("a .geojson file becomes a listed vector that can be inspected and deleted", async () => {
  const vector = await uploadVectorFile(service.client, {
    name: "sites_2024",
    fileName: "sites 2024.geojson",
    text: layerText,
  });
  expect(vector.name).toBe("sites_2024");

  const listing = await listCompositions(service.client);
  expect(listing.vectors.map((v) => v.name)).toContain("sites_2024");

  const inspected = await inspectVector(service.client, vector.id);
  expect(englishTranslator.format(describeLayer(inspected.geojson))).toBe(
    "2 features; properties: loss_flood_bsln, loss_wildfire_bsln, loss_cyclone_bsln",
  );

  await deleteVector(service.client, vector.id);
  expect((await listCompositions(service.client)).vectors.map((v) => v.name)).not.toContain("sites_2024");
});

test("a broken file is refused with its name and the reason, and nothing is sent", async () => {
  await expect(
    uploadVectorFile(service.client, { name: "x", fileName: "broken.geojson", text: "{ not json" }),
  ).rejects.toThrow(/broken\.geojson is not valid JSON/);
  await expect(
    uploadVectorFile(service.client, { name: "x", fileName: "list.geojson", text: "[1,2]" }),
  ).rejects.toThrow(/list\.geojson must hold a GeoJSON object, not an array/);
  await expect(
    uploadVectorFile(service.client, {
      name: "x",
      fileName: "point.geojson",
      text: '{"type":"Point","coordinates":[0,0]}',
    }),
  ).rejects.toThrow(/must be a GeoJSON Feature or FeatureCollection \(its "type" is "Point"\)/);
  await expect(
    uploadVectorFile(service.client, { name: "  ", fileName: "ok.geojson", text: layerText }),
  ).rejects.toThrow(/Layer name is empty/);
  expect(countRequests(await emulatorStats(service.emulator), "POST /api/compositions/vector")).toBe(0);
});

test("a UDF over an uploaded layer is created, activated into a new available vector, inspected and deleted", async () => {
  await uploadVectorFile(service.client, { name: "losses", fileName: "losses.geojson", text: layerText });
  const created = await createUdf(service.client, {
    name: "total_loss",
    inputLayers: ["losses"],
    operation: ".loss_flood_bsln + .loss_wildfire_bsln + .loss_cyclone_bsln",
    activate: true,
  });
  expect(created.vector?.status).toBe("available");
  expect(String(created.vector?.id)).not.toBe(String(created.udf.id));

  const listing = await listCompositions(service.client);
  expect(listing.udfs.map((u) => u.name)).toContain("total_loss");
  expect(listing.vectors.map((v) => String(v.id))).toContain(String(created.vector?.id));

  const udf = await inspectUdf(service.client, created.udf.id);
  expect(udf.equation).toMatchObject({
    inputLayers: ["losses"],
    operation: ".loss_flood_bsln + .loss_wildfire_bsln + .loss_cyclone_bsln",
  });

  await deleteUdf(service.client, created.udf.id);
  expect((await listCompositions(service.client)).udfs.map((u) => u.name)).not.toContain("total_loss");
});

test("a jq program that fails comes back as a 422 named by its step, with the service's words shown", async () => {
  const attempt = createUdf(service.client, {
    name: "broken",
    inputLayers: ["demo-losses"],
    operation: ".features.[ | oops",
    activate: true,
  });
  const error = await attempt.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StepError);
  const step = error as StepError;
  expect(["create", "activate"]).toContain(step.step);
  expect(step.cause).toBeInstanceOf(UnprocessableEntityError);
  const shown = describeError(step.cause);
  expect(shown.title).toBe("The service could not process the input:");
  expect(shown.details.join(" ").length).toBeGreaterThan(0);
});

test("creating a UDF needs a name, a layer and an operation before anything is sent", async () => {
  await expect(
    createUdf(service.client, { name: "", inputLayers: ["demo-losses"], operation: ".a", activate: false }),
  ).rejects.toThrow(/UDF name is empty/);
  await expect(
    createUdf(service.client, { name: "u", inputLayers: [], operation: ".a", activate: false }),
  ).rejects.toThrow(/at least one input layer/);
  await expect(
    createUdf(service.client, { name: "u", inputLayers: ["demo-losses"], operation: "  ", activate: false }),
  ).rejects.toThrow(/jq operation is empty/);
  expect(countRequests(await emulatorStats(service.emulator), "POST /api/compositions/udf")).toBe(0);
});

describe("update by name and run preview (published PUT /vector, PUT /udf)", () => {
  test("a new .geojson file replaces the named layer's content, keeping its id; an unknown name is a 404 and changes nothing", async () => {
    const vector = await uploadVectorFile(service.client, {
      name: "sites",
      fileName: "sites.geojson",
      text: layerText,
    });
    const replacement = JSON.stringify({
      type: "FeatureCollection",
      features: [square(10, 10, { loss_flood_bsln: 9 })],
    });
    const updated = await updateVectorFile(service.client, {
      name: "sites",
      fileName: "sites-v2.geojson",
      text: replacement,
    });
    expect(String(updated.id)).toBe(String(vector.id));
    expect(englishTranslator.format(describeLayer((await inspectVector(service.client, vector.id)).geojson))).toBe(
      "1 feature; properties: loss_flood_bsln",
    );

    const before = JSON.stringify(await listCompositions(service.client));
    await expect(
      updateVectorFile(service.client, { name: "no-such-layer", fileName: "x.geojson", text: replacement }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      updateVectorFile(service.client, { name: "sites", fileName: "x.geojson", text: "{ nope" }),
    ).rejects.toThrow(/x\.geojson is not valid JSON/);
    expect(JSON.stringify(await listCompositions(service.client))).toBe(before);
    expect(englishTranslator.format(describeLayer((await inspectVector(service.client, vector.id)).geojson))).toBe(
      "1 feature; properties: loss_flood_bsln",
    );
  });

  test("a UDF's equation is replaced by name; a program jq cannot compile is 422 and the old equation stays", async () => {
    await uploadVectorFile(service.client, { name: "losses", fileName: "losses.geojson", text: layerText });
    const { udf } = await createUdf(service.client, {
      name: "flood_only",
      inputLayers: ["losses"],
      operation: ".loss_flood_bsln",
      activate: false,
    });
    await updateUdfEquation(service.client, {
      name: "flood_only",
      inputLayers: ["losses"],
      operation: ".loss_flood_bsln * 10",
    });
    expect((await inspectUdf(service.client, udf.id)).equation.operation).toBe(".loss_flood_bsln * 10");
    await expect(
      updateUdfEquation(service.client, {
        name: "flood_only",
        inputLayers: ["losses"],
        operation: ".loss_flood_bsln *",
      }),
    ).rejects.toBeInstanceOf(UnprocessableEntityError);
    await expect(
      updateUdfEquation(service.client, { name: "renamed", inputLayers: ["losses"], operation: "." }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect((await inspectUdf(service.client, udf.id)).equation.operation).toBe(".loss_flood_bsln * 10");

    const preview = await previewUdf(service.client, udf.id);
    expect(preview).toEqual({
      name: "flood_only",
      featureCount: 2,
      propertyNames: ["loss_flood_bsln", "loss_wildfire_bsln", "loss_cyclone_bsln", "value"],
      rows: [
        [1, 2, 3, 10],
        [4, 5, 6, 40],
      ],
    });
    // Running stores nothing.
    expect((await listCompositions(service.client)).vectors.map((v) => v.name)).toEqual(
      expect.not.arrayContaining(["flood_only"]),
    );
  });
});
