/**
 * A UDF's evaluation from input layers to the result layer's JSON text. It runs inside a jq worker
 * thread (emulator/jq/jq-worker.cjs), never on the server's thread: parsing the layers, building
 * jq's input, reading jq's output, validating and serialising the result all cost time in
 * proportion to what a tenant's program makes, and none of it may hold up another tenant's request.
 *
 * Input (scope):
 * - "collection": the program reads the input layer's FeatureCollection (with several input
 *   layers, an object keyed by layer name). Outputs map to the first layer's features in order:
 *   one output per feature, or one array with one element per feature, or one FeatureCollection
 *   (taken as the result layer), or one scalar (given to every feature).
 * - "feature": the program runs once per feature of the first layer over that feature's
 *   properties (with several layers, an object keyed by layer name holding the properties of the
 *   feature at the same index). Zero outputs → null, one → that value, several → an array.
 * Result: the first layer's features with the output in `properties.value` (NaN prints as null),
 * at most `maxResultChars` characters of JSON and `maxResultDepth` levels deep.
 */
import { validateLayer } from "../geo/geojson";
import { jsonDepth } from "../http/json-limits";
import type { GeoJsonFeature, GeoJsonFeatureCollection } from "../state/types";

/** A result the service refuses (422); every message names `equation.operation`. */
export class UdfRefusal extends Error {
  constructor(readonly errors: string[]) {
    super(errors[0]);
  }
}

/** What the worker needs to evaluate a UDF. */
export interface UdfEvaluation {
  program: string;
  scope: "collection" | "feature";
  layers: { name: string; text: string }[];
  maxResultChars: number;
  maxResultDepth: number;
}

const refuse = (...messages: string[]) => new UdfRefusal(messages.map((m) => `equation.operation: ${m}`));

/**
 * Runs the UDF with `jq` (synchronous: input JSON text and program in, jq's `-c` output out; it
 * throws the sandbox's own failures) and answers the result layer as JSON text, or throws
 * UdfRefusal.
 */
export function evaluateUdfLayers(spec: UdfEvaluation, jq: (input: string, program: string) => string): string {
  const layers = spec.layers.map((l) => ({ name: l.name, fc: JSON.parse(l.text) as GeoJsonFeatureCollection }));
  const first = layers[0].fc;
  const outputsOf = (input: string, program: string) =>
    jq(input, program)
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as unknown);
  let values: unknown[];
  if (spec.scope === "collection") {
    const input =
      layers.length === 1
        ? spec.layers[0].text
        : `{${spec.layers.map((l) => `${JSON.stringify(l.name)}:${l.text}`).join(",")}}`;
    const outputs = outputsOf(input, spec.program);
    const single = outputs.length === 1 ? outputs[0] : undefined;
    if (single && typeof single === "object" && (single as { type?: unknown }).type === "FeatureCollection") {
      // Validated like an upload: an invalid layer must not be answered, stored, or applied later.
      const layer = validateLayer(single, "result");
      if (!layer.ok)
        throw refuse(...layer.errors.map((e) => `the program's FeatureCollection is not valid GeoJSON: ${e}`));
      if (jsonDepth(layer.value, spec.maxResultDepth) > spec.maxResultDepth) throw tooDeep(spec);
      return serialise(layer.value.features, (f) => f, spec);
    }
    if (outputs.length === first.features.length) values = outputs;
    else if (Array.isArray(single) && single.length === first.features.length) values = single;
    else if (outputs.length === 1 && (single === null || typeof single !== "object"))
      values = first.features.map(() => single);
    else {
      throw refuse(
        `produced ${outputs.length} value(s) for ${first.features.length} feature(s) of layer ${layers[0].name}; ` +
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
    const outputs = outputsOf(JSON.stringify(inputs), `.[] | [\n${spec.program}\n]`);
    // One line per feature, unless the program stopped the run early (halt).
    if (outputs.length !== first.features.length) {
      throw refuse(
        `the program stopped after ${outputs.length} of ${first.features.length} feature(s) of layer ${layers[0].name} (halt?); ` +
          "a feature-scope program must finish for every feature",
      );
    }
    values = outputs.map((o) => (Array.isArray(o) ? (o.length === 0 ? null : o.length === 1 ? o[0] : o) : o));
  }
  // The input layers are stored layers, within the depth limit; a value sits 4 levels down
  // (collection, features, feature, properties), so only the values can make the result too deep.
  const valueDepth = spec.maxResultDepth - 4;
  for (const v of values)
    if (typeof v === "object" && v !== null && jsonDepth(v, valueDepth) > valueDepth) throw tooDeep(spec);
  return serialise(
    first.features,
    (f, i) => ({ ...f, properties: { ...(f.properties ?? {}), value: numberOrNull(values[i]) } }),
    spec,
  );
}

const tooDeep = (spec: UdfEvaluation) =>
  refuse(`the resulting layer nests deeper than the limit of ${spec.maxResultDepth} levels of arrays and objects`);

/**
 * The result layer's JSON text, feature by feature, refused as soon as it outgrows the limit (a
 * value given to every feature multiplies: one 2 MB string over 10,000 features would be 20 GB).
 */
function serialise(
  features: GeoJsonFeature[],
  feature: (f: GeoJsonFeature, i: number) => GeoJsonFeature,
  spec: UdfEvaluation,
): string {
  const head = '{"type":"FeatureCollection","features":[';
  const parts: string[] = [head];
  let length = head.length + 2;
  for (let i = 0; i < features.length; i++) {
    const f = feature(features[i], i);
    const text = JSON.stringify(f);
    length += text.length + (i > 0 ? 1 : 0);
    if (length > spec.maxResultChars) {
      throw refuse(
        `the resulting layer exceeds the limit of ${spec.maxResultChars} characters of JSON ` +
          `(reached at feature ${i} of ${features.length}; a value given to every feature is repeated in each)`,
      );
    }
    parts.push(i > 0 ? `,${text}` : text);
  }
  parts.push("]}");
  return parts.join("");
}

function numberOrNull(v: unknown): unknown {
  return typeof v === "number" && !Number.isFinite(v) ? null : v === undefined ? null : v;
}
