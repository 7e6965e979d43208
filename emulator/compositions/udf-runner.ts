/**
 * Evaluates a UDF's jq program over its input layers and maps the outputs onto features.
 *
 * Input (scope):
 * - "collection": the program reads the input layer's FeatureCollection (with several input
 *   layers, an object keyed by layer name). Outputs map to the first layer's features in order:
 *   one output per feature, or one array with one element per feature, or one FeatureCollection
 *   (taken as the result layer), or one scalar (given to every feature).
 * - "feature": the program runs once per feature of the first layer over that feature's
 *   properties (with several layers, an object keyed by layer name holding the properties of the
 *   feature at the same index). Zero outputs → null, one → that value, several → an array.
 * Default scope: "collection" when the program mentions `.features`, else "feature".
 * Result: the first layer's features with the output in `properties.value` (NaN prints as null).
 */
import { validateLayer } from "../geo/geojson";
import { unprocessable } from "../http/errors";
import { jsonDepth, MAX_JSON_DEPTH } from "../http/json-limits";
import { JqError, JqSandbox } from "../jq/sandbox";
import { GeoJsonFeature, GeoJsonFeatureCollection, StoredUdf } from "../state/types";

/** Which input the program sees. */
export function udfScope(udf: StoredUdf): "collection" | "feature" {
  return udf.equation.scope ?? (/\.features\b/.test(udf.equation.operation) ? "collection" : "feature");
}

async function runJq(jq: JqSandbox, input: unknown, program: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await jq.run(JSON.stringify(input), program);
  } catch (e) {
    if (e instanceof JqError) throw unprocessable(`equation.operation: ${e.message}`);
    throw e;
  }
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as unknown);
}

/** Runs the UDF over named layers and answers the result FeatureCollection. */
export async function evaluateUdf(
  jq: JqSandbox,
  udf: StoredUdf,
  layers: { name: string; fc: GeoJsonFeatureCollection }[],
): Promise<GeoJsonFeatureCollection> {
  const first = layers[0].fc;
  const program = udf.equation.operation;
  let values: unknown[];
  if (udfScope(udf) === "collection") {
    const input = layers.length === 1 ? first : Object.fromEntries(layers.map((l) => [l.name, l.fc]));
    const outputs = await runJq(jq, input, program);
    const single = outputs.length === 1 ? outputs[0] : undefined;
    if (single && typeof single === "object" && (single as { type?: unknown }).type === "FeatureCollection") {
      // Validated like an upload: an invalid layer must not be answered, stored, or applied later.
      const layer = validateLayer(single, "result");
      if (!layer.ok)
        throw unprocessable(
          ...layer.errors.map((e) => `equation.operation: the program's FeatureCollection is not valid GeoJSON: ${e}`),
        );
      return withinDepth(layer.value);
    }
    if (outputs.length === first.features.length) values = outputs;
    else if (Array.isArray(single) && single.length === first.features.length) values = single;
    else if (outputs.length === 1 && (single === null || typeof single !== "object"))
      values = first.features.map(() => single);
    else {
      throw unprocessable(
        `equation.operation: produced ${outputs.length} value(s) for ${first.features.length} feature(s) of layer ${layers[0].name}; ` +
          "a collection-scope program must yield one value per feature (or one array of them)",
      );
    }
  } else {
    const inputs = first.features.map((f, i) =>
      layers.length === 1
        ? (f.properties ?? {})
        : Object.fromEntries(layers.map((l) => [l.name, l.fc.features[i]?.properties ?? null])),
    );
    // One jq run for all features: the program is wrapped so each feature yields one line.
    const outputs = await runJq(jq, inputs, `.[] | [\n${program}\n]`);
    // One line per feature, unless the program stopped the run early (halt).
    if (outputs.length !== first.features.length) {
      throw unprocessable(
        `equation.operation: the program stopped after ${outputs.length} of ${first.features.length} feature(s) of layer ${layers[0].name} (halt?); ` +
          "a feature-scope program must finish for every feature",
      );
    }
    values = outputs.map((o) => (Array.isArray(o) ? (o.length === 0 ? null : o.length === 1 ? o[0] : o) : o));
  }
  const features: GeoJsonFeature[] = first.features.map((f, i) => ({
    ...f,
    properties: { ...(f.properties ?? {}), value: numberOrNull(values[i]) },
  }));
  return withinDepth({ type: "FeatureCollection", features });
}

/** The result layer, or 422 when it nests deeper than a stored layer may (see MAX_JSON_DEPTH). */
function withinDepth(layer: GeoJsonFeatureCollection): GeoJsonFeatureCollection {
  if (jsonDepth(layer) > MAX_JSON_DEPTH) {
    throw unprocessable(
      `equation.operation: the resulting layer nests deeper than the limit of ${MAX_JSON_DEPTH} levels of arrays and objects`,
    );
  }
  return layer;
}

function numberOrNull(v: unknown): unknown {
  return typeof v === "number" && !Number.isFinite(v) ? null : v === undefined ? null : v;
}
