/**
 * Runs a UDF on the jq sandbox's workers and answers its result layer as JSON text. The server's
 * thread only hands over the input layers' JSON text (kept per stored layer, so a 2 MB layer is not
 * serialised again for every run) and passes the result on: everything that costs in proportion
 * to what the program makes runs in the worker (emulator/compositions/udf-result.ts), bounded by
 * the sandbox's time limit and the result's size limit.
 */
import { unprocessable } from "../http/errors";
import { JqError, JqSandbox } from "../jq/sandbox";
import { GeoJsonFeatureCollection, StoredUdf } from "../state/types";

/** Which input the program sees. */
export function udfScope(udf: StoredUdf): "collection" | "feature" {
  return udf.equation.scope ?? (/\.features\b/.test(udf.equation.operation) ? "collection" : "feature");
}

/** JSON text of stored layers, by layer object (a layer's update stores a new object). */
const layerTexts = new WeakMap<GeoJsonFeatureCollection, string>();

/** The JSON text of a stored layer, serialised once. */
export function layerText(fc: GeoJsonFeatureCollection): string {
  let text = layerTexts.get(fc);
  if (text === undefined) {
    text = JSON.stringify(fc);
    layerTexts.set(fc, text);
  }
  return text;
}

/** Parses a result layer (to store it) and remembers its text for the runs that read it later. */
export function parseLayer(text: string): GeoJsonFeatureCollection {
  const fc = JSON.parse(text) as GeoJsonFeatureCollection;
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
  try {
    return await jq.runUdf(
      {
        program: udf.equation.operation,
        scope: udfScope(udf),
        layers: layers.map((l) => ({ name: l.name, text: layerText(l.fc) })),
      },
      tenant,
    );
  } catch (e) {
    if (!(e instanceof JqError)) throw e;
    // A refused result names equation.operation itself; the sandbox's messages are jq's.
    throw unprocessable(...(e.kind === "result" ? e.errors : [`equation.operation: ${e.message}`]));
  }
}
