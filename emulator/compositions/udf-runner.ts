/**
 * Runs a UDF on the jq sandbox's workers and answers its result layer as JSON text. The server's
 * thread only hands over the input layers' JSON text (kept per stored layer, so a 2 MB layer is not
 * serialised again for every run) and passes the result on: everything that costs in proportion
 * to what the program makes runs in the worker (emulator/compositions/udf-result.ts), bounded by
 * the sandbox's time limit and the result's size limit.
 */
import { unprocessable } from "../http/errors";
import { parseJsonText } from "../http/json-body";
import { paced } from "../http/turns";
import { JqError, JqSandbox } from "../jq/sandbox";
import { GeoJsonFeatureCollection, StoredUdf } from "../state/types";

/** Which input the program sees. */
export function udfScope(udf: StoredUdf): "collection" | "feature" {
  return udf.equation.scope ?? (/\.features\b/.test(udf.equation.operation) ? "collection" : "feature");
}

/** JSON text of stored layers, by layer object (a layer's update stores a new object). */
const layerTexts = new WeakMap<GeoJsonFeatureCollection, string>();

/**
 * The JSON text of a stored layer, serialised once, feature by feature between turns of the event
 * loop (a 10 MB layer takes 100–200 ms to serialise in one piece).
 */
export async function layerText(fc: GeoJsonFeatureCollection): Promise<string> {
  let text = layerTexts.get(fc);
  if (text === undefined) {
    const pieces: string[] = [];
    for await (const piece of paced(layerPieces(fc))) pieces.push(piece);
    text = pieces.join("");
    layerTexts.set(fc, text);
  }
  return text;
}

/** A layer's JSON text in pieces of about 64 KB, its members in their order, `features` last. */
function* layerPieces(fc: GeoJsonFeatureCollection): Generator<string> {
  const { features, ...members } = fc;
  const rest = JSON.stringify(members).slice(1, -1);
  let piece = `{${rest}${rest ? "," : ""}"features":[`;
  for (let i = 0; i < features.length; i++) {
    piece += (i > 0 ? "," : "") + JSON.stringify(features[i]);
    if (piece.length >= 65_536) {
      yield piece;
      piece = "";
    }
  }
  yield `${piece}]}`;
}

/**
 * A record with its layer as `geojson`, as JSON text in pieces of about 64 KB, feature by feature:
 * sent through `paced`, a 10 MB layer is never serialised in one turn of the event loop. The
 * layer's members come in their order, `features` last.
 */
export function* recordWithLayer(record: object, fc: GeoJsonFeatureCollection): Generator<string> {
  const known = layerTexts.get(fc);
  const head = JSON.stringify(record).slice(0, -1);
  if (known !== undefined) return yield `${head},"geojson":${known}}`;
  yield `${head},"geojson":`;
  yield* layerPieces(fc);
  yield "}";
}

/**
 * Parses a result layer (to store it), between turns of the event loop (a result may be 16 MB),
 * and remembers its text for the runs that read it later.
 */
export async function parseLayer(text: string): Promise<GeoJsonFeatureCollection> {
  const fc = (await parseJsonText(text)) as GeoJsonFeatureCollection;
  layerTexts.set(fc, text);
  return fc;
}

/**
 * Runs the UDF over named layers in the sandbox, in `tenant`'s queue; answers the result
 * FeatureCollection as JSON text, or throws 422 in jq's terms.
 */
export async function evaluateUdf(
  jq: JqSandbox,
  tenant: string,
  udf: StoredUdf,
  layers: { name: string; fc: GeoJsonFeatureCollection }[],
): Promise<string> {
  // One after another: a layer named twice is serialised once, then found in the cache.
  const texts: { name: string; text: string }[] = [];
  for (const l of layers) texts.push({ name: l.name, text: await layerText(l.fc) });
  try {
    return await jq.runUdf(
      {
        program: udf.equation.operation,
        scope: udfScope(udf),
        layers: texts,
      },
      tenant,
    );
  } catch (e) {
    if (!(e instanceof JqError)) throw e;
    // A refused result names equation.operation itself; the sandbox's messages are jq's.
    throw unprocessable(...(e.kind === "result" ? e.errors : [`equation.operation: ${e.message}`]));
  }
}
