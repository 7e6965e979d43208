/**
 * Contract suite, part 2: the emulator's own OpenAPI documents (`/swagger.json`,
 * `/nature/openapi.json`, fetched over HTTP) must agree with the published client's schemas
 * (./published.ts): every operation answering a record documents it with a real schema whose
 * required fields include the published ones, with the same types. Operations are named after
 * their purpose, request bodies have schemas, and our inferred route says so.
 */
import { z } from "zod";
import type { RunningEmulator } from "../../emulator/server";
import { call } from "../emulator/helpers";
import { startTestEmulator } from "../support/emulator";
import { PUBLISHED, type RecordName } from "./published";

// OpenAPI documents are walked as untyped JSON: their shape is what this test checks.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
let emu: RunningEmulator;
let docs: Array<{ name: string; doc: Json }>;

beforeAll(async () => {
  emu = await startTestEmulator();
  docs = [
    { name: "/swagger.json", doc: (await call(emu, "GET", "/swagger.json", { key: null, project: null })).body },
    {
      name: "/nature/openapi.json",
      doc: (await call(emu, "GET", "/nature/openapi.json", { key: null, project: null })).body,
    },
  ];
});
afterAll(() => emu?.close());

/** Which record each operation answers (`[]`: a JSON array of it). */
const ANSWERS: Record<string, RecordName | [RecordName] | [RecordName, RecordName]> = {
  listProjects: ["Project"],
  listPortfolios: ["Portfolio"],
  createPortfolio: "Portfolio",
  getPortfolio: "Portfolio",
  listAssets: ["Asset"],
  getPhysicalSummary: ["SummaryItem", "ExtendedSummaryItem"],
  getPhysicalItems: ["PhysicalItem"],
  getPhysicalDatasetMetadata: "DatasetMetadata",
  searchPoint: "SearchResult",
  addVector: "Vector",
  listVectors: ["Vector"],
  updateVector: "Vector",
  findVectorById: "VectorWithGeoJson",
  applyVector: "ApplyResult",
  addUdf: "Udf",
  listUdfs: ["Udf"],
  findUdfById: "UdfWithEquation",
  updateUdf: "UdfUpdated",
  activateUdf: "Vector",
  runUdf: "VectorWithGeoJson",
  listSubProjects: ["SubProject"],
  createSubProject: "SubProject",
  exportSubProjectSummary: "SubProjectExport",
};

function operations(): Array<{ doc: Json; where: string; op: Json; method: string; path: string }> {
  return docs.flatMap(({ name, doc }) =>
    Object.entries<Json>(doc.paths).flatMap(([path, methods]) =>
      Object.entries<Json>(methods).map(([method, op]) => ({
        doc,
        where: `${name} ${method.toUpperCase()} ${path}`,
        op,
        method,
        path,
      })),
    ),
  );
}

function resolve(doc: Json, schema: Json): Json {
  let s = schema;
  for (let i = 0; s && typeof s.$ref === "string" && i < 10; i++)
    s = s.$ref
      .replace(/^#\//, "")
      .split("/")
      .reduce((node: Json, key: string) => node?.[key], doc);
  return s;
}

/** The JSON types a schema admits ("integer" counts as a number; nullable adds "null"). */
function typesOf(doc: Json, raw: Json): Set<string> {
  const s = resolve(doc, raw);
  const out = new Set<string>();
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) for (const a of alternatives) typesOf(doc, a).forEach((t) => out.add(t));
  if (typeof s.type === "string") out.add(s.type === "integer" ? "number" : s.type);
  if (s.nullable) out.add("null");
  if (s.enum && !s.type) s.enum.forEach((v: unknown) => out.add(v === null ? "null" : typeof v));
  return out;
}

/**
 * Differences between a published schema and a documented one: a required field not required, a
 * field missing, or a type the published client does not accept. Recurses into objects, arrays
 * and records.
 */
function disagreements(doc: Json, published: Json, documentedRaw: Json, at: string): string[] {
  const documented = resolve(doc, documentedRaw);
  if (!documented || Object.keys(documented).length === 0) return [`${at}: documented without a schema`];
  const problems: string[] = [];
  const pubTypes = typesOf({}, published);
  const docTypes = typesOf(doc, documented);
  if (pubTypes.size > 0) {
    if (docTypes.size === 0) problems.push(`${at}: documented without a type (published: ${[...pubTypes].join("|")})`);
    for (const t of docTypes)
      if (!pubTypes.has(t)) problems.push(`${at}: documented as ${t}, published as ${[...pubTypes].join("|")}`);
  }
  if (published.properties) {
    const required = new Set<string>(documented.required ?? []);
    for (const field of published.required ?? [])
      if (!required.has(field))
        problems.push(`${at}.${field}: required by the published client, not required in the document`);
    for (const [field, sub] of Object.entries<Json>(published.properties)) {
      const docSub = documented.properties?.[field];
      // An optional published field we never send (e.g. an asset's geometry) may go undocumented.
      if (!docSub) {
        if ((published.required ?? []).includes(field)) problems.push(`${at}.${field}: not documented`);
      } else problems.push(...disagreements(doc, sub, docSub, `${at}.${field}`));
    }
  }
  if (published.items && documented.items)
    problems.push(...disagreements(doc, published.items, documented.items, `${at}[]`));
  if (published.items && !documented.items) problems.push(`${at}: documented array without items`);
  if (typeof published.additionalProperties === "object" && Object.keys(published.additionalProperties).length > 0) {
    if (typeof documented.additionalProperties !== "object")
      problems.push(`${at}: documented without the value schema of its entries`);
    else
      problems.push(...disagreements(doc, published.additionalProperties, documented.additionalProperties, `${at}{}`));
  }
  return problems;
}

function jsonSchemaOf(record: RecordName): Json {
  return z.toJSONSchema(PUBLISHED[record], { target: "openapi-3.0", io: "input", unrepresentable: "any" }) as Json;
}

test("every operation answering a record documents a schema that agrees with the published client's", () => {
  const byId = new Map(operations().map((o) => [o.op.operationId as string, o]));
  const problems: string[] = [];
  for (const [operationId, answer] of Object.entries(ANSWERS)) {
    const found = byId.get(operationId);
    if (!found) {
      problems.push(`${operationId}: no such operation documented`);
      continue;
    }
    const success = Object.entries<Json>(found.op.responses).find(([code]) => /^2/.test(code))![1];
    let schema: Json = resolve(found.doc, success.content?.["application/json"]?.schema ?? {});
    const records = Array.isArray(answer) ? answer : [answer];
    if (Array.isArray(answer)) {
      if (schema.type !== "array") {
        problems.push(`${found.where}: documented as ${schema.type ?? "untyped"}, answers an array`);
        continue;
      }
      schema = resolve(found.doc, schema.items);
    }
    const alternatives: Json[] = records.length > 1 ? (schema.oneOf ?? schema.anyOf ?? []) : [schema];
    if (alternatives.length !== records.length)
      problems.push(
        `${found.where}: documents ${alternatives.length} alternative(s), answers one of ${records.join(", ")}`,
      );
    records.forEach((record, i) =>
      problems.push(
        ...disagreements(found.doc, jsonSchemaOf(record), alternatives[i] ?? {}, `${found.where} → ${record}`),
      ),
    );
  }
  expect(problems).toEqual([]);
});

test("every JSON answer and request body is described by a real schema, not {type: object}", () => {
  const vague = (doc: Json, raw: Json | undefined) => {
    const s = raw ? resolve(doc, raw) : undefined;
    return !s || Object.keys(s).length === 0 || (s.type === "object" && !s.properties && !s.additionalProperties);
  };
  const problems: string[] = [];
  for (const { doc, where, op } of operations()) {
    for (const [code, response] of Object.entries<Json>(op.responses)) {
      const schema = response.content?.["application/json"]?.schema;
      if (response.content?.["application/json"] && vague(doc, schema)) problems.push(`${where} ${code}`);
    }
    for (const [media, body] of Object.entries<Json>(op.requestBody?.content ?? {}))
      if (vague(doc, body.schema)) problems.push(`${where} request ${media}`);
  }
  expect(problems).toEqual([]);
});

test("operations are named after their purpose, once each", () => {
  const ids = operations().map((o) => o.op.operationId as string);
  expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
  // Not derived from the path (the old generator's getApiPortfoliosPortfolioNameAssets).
  expect(ids.filter((id) => /^(get|post|put|delete)(Api|Nature)/.test(id))).toEqual([]);
  for (const id of Object.keys(ANSWERS)) expect(ids).toContain(id);
});

test("updates have no id in the path; the inferred run route says it is inferred, and only it", () => {
  const ops = operations();
  expect(
    ops
      .filter((o) => o.method === "put")
      .map((o) => o.path)
      .sort(),
  ).toEqual(["/api/compositions/udf", "/api/compositions/vector"]);
  const updateVector = ops.find((o) => o.op.operationId === "updateVector")!;
  expect(Object.keys(updateVector.op.requestBody.content)).toEqual(["multipart/form-data"]);
  const form = resolve(updateVector.doc, updateVector.op.requestBody.content["multipart/form-data"].schema);
  expect(form.properties.geojson).toMatchObject({ type: "string", format: "binary" });
  expect(form.required).toEqual(expect.arrayContaining(["name", "geojson"]));
  const updateUdf = ops.find((o) => o.op.operationId === "updateUdf")!;
  expect(resolve(updateUdf.doc, updateUdf.op.requestBody.content["application/json"].schema).required).toEqual(
    expect.arrayContaining(["name", "equation"]),
  );
  expect(ops.filter((o) => o.op["x-inferred"] === true).map((o) => o.op.operationId)).toEqual(["runUdf"]);
  // Both forms of vector create stay.
  const addVector = ops.find((o) => o.op.operationId === "addVector")!;
  expect(Object.keys(addVector.op.requestBody.content).sort()).toEqual(["application/json", "multipart/form-data"]);
});

test("the operations that compile or run a jq program list the sandbox's limits, marked inferred", () => {
  const withLimits = operations().filter((o) => o.op["x-jq-sandbox"] !== undefined);
  expect(withLimits.map((o) => o.op.operationId).sort()).toEqual(["activateUdf", "addUdf", "runUdf", "updateUdf"]);
  for (const { op } of withLimits) {
    expect(op["x-jq-sandbox"]).toMatchObject({
      "x-inferred": true,
      timeLimitMs: 2000,
      maxOutputCharacters: 8 * 1024 * 1024,
      maxResultLayerCharacters: 16 * 1024 * 1024,
      workers: 2,
    });
    expect(op.responses["422"]).toBeDefined();
  }
});

test("the agreement check has teeth: a document dropping a required field, or retyping one, is caught", () => {
  const api = docs[0].doc;
  const broken = JSON.parse(JSON.stringify(api)) as Json;
  const meta = broken.components.schemas.DatasetMetadata;
  meta.required = meta.required.filter((f: string) => f !== "created_at");
  meta.properties.indicators.items.properties.spatial_resolution = { type: "string" };
  const problems = disagreements(
    broken,
    jsonSchemaOf("DatasetMetadata"),
    { $ref: "#/components/schemas/DatasetMetadata" },
    "metadata",
  );
  expect(problems).toEqual([
    "metadata.created_at: required by the published client, not required in the document",
    "metadata.indicators[].spatial_resolution: documented as string, published as number",
  ]);
});
