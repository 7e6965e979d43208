/**
 * The JSDoc of src/functions/functions.ts is what Excel reads (custom-functions-metadata turns it into
 * functions.json); src/functions/specs.ts is what the formulas, the formula builder and Explain read.
 * This test generates functions.json from the JSDoc, as the build does, and fails when the two
 * disagree: a parameter renamed, reordered, made optional or a range in one place only, a choice
 * or a default the description does not name, a function in one and not the other.
 */
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import path from "node:path";
import * as RISK from "../../src/functions/functions";
import { FIXED_VOCABULARIES, FUNCTION_SPECS, type FunctionSpec } from "../../src/functions/specs";

/** A function of functions.json, as far as this test reads it. */
interface GeneratedFunction {
  id: string;
  name: string;
  helpUrl: string;
  options?: { cancelable?: boolean; requiresAddress?: boolean };
  parameters: Array<{
    name: string;
    description?: string;
    type?: string;
    dimensionality?: string;
    optional?: boolean;
    repeating?: boolean;
  }>;
  result: { dimensionality?: string };
}

let generated: GeneratedFunction[];
const specs: FunctionSpec[] = Object.values(FUNCTION_SPECS);

beforeAll(async () => {
  const result = await generateCustomFunctionsMetadata(path.join(__dirname, "../../src/functions/functions.ts"));
  expect(result.errors).toEqual([]);
  generated = (JSON.parse(result.metadataJson) as { functions: GeneratedFunction[] }).functions;
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** True when `text` holds `word` as a word of its own ("5" in "5, 15 or 30", not in "15"). */
function namesWord(text: string, word: string): boolean {
  return new RegExp(`(^|[^\\w])${escapeRegExp(word)}($|[^\\w])`).test(text);
}

test("functions.ts declares exactly the specified functions, in the same order", () => {
  expect(generated.map((f) => f.id)).toEqual(specs.map((s) => s.name));
  expect(generated.map((f) => f.name)).toEqual(specs.map((s) => s.name));
  for (const spec of specs) {
    const exported = (RISK as unknown as Record<string, (...args: unknown[]) => unknown>)[spec.name.toLowerCase()];
    expect(typeof exported).toBe("function");
    expect(exported!.length).toBe(spec.parameters.length + 1); // and the invocation Excel passes last
  }
});

describe.each(specs.map((spec) => [spec.name, spec] as const))("RISK.%s", (name, spec) => {
  const generatedFunction = () => generated.find((f) => f.id === name)!;

  test("has the spec's parameter names, in order, optional where the spec says", () => {
    const parameters = generatedFunction().parameters;
    expect(parameters.map((p) => p.name)).toEqual(spec.parameters.map((p) => p.name));
    expect(parameters.map((p) => p.optional === true)).toEqual(spec.parameters.map((p) => p.optional === true));
    expect(parameters.map((p) => p.repeating === true)).toEqual(spec.parameters.map((p) => p.repeating === true));
    // Once an optional parameter comes, every later one is optional too (Excel's rule for arguments).
    const firstOptional = spec.parameters.findIndex((p) => p.optional);
    if (firstOptional >= 0) expect(spec.parameters.slice(firstOptional).every((p) => p.optional)).toBe(true);
  });

  test("declares each parameter's type, and matrices exactly for the column form", () => {
    for (const [i, parameter] of generatedFunction().parameters.entries()) {
      const wanted = spec.parameters[i]!;
      expect({ name: parameter.name, type: parameter.type ?? "any" }).toEqual({
        name: wanted.name,
        type: wanted.type,
      });
      expect({ name: parameter.name, matrix: parameter.dimensionality === "matrix" }).toEqual({
        name: wanted.name,
        matrix: spec.columnForm,
      });
    }
    expect(generatedFunction().result.dimensionality).toBe("matrix");
  });

  test("describes each parameter's fixed choices and its default", () => {
    for (const [i, parameter] of generatedFunction().parameters.entries()) {
      const wanted = spec.parameters[i]!;
      const description = parameter.description ?? "";
      for (const choice of FIXED_VOCABULARIES[wanted.vocabulary] ?? []) {
        expect({ parameter: wanted.name, names: namesWord(description, String(choice)) }).toEqual({
          parameter: wanted.name,
          names: true,
        });
      }
      if (wanted.optional)
        expect({ parameter: wanted.name, description }).toMatchObject({
          description: expect.stringMatching(/default/),
        });
      if (wanted.default !== undefined) {
        // "local (default) or background", "(default ssp245)": the default is the word beside "(default".
        const value = escapeRegExp(String(wanted.default));
        const saysDefault = new RegExp(`(^|[^\\w])${value} \\(default|\\(default ${value}($|[^\\w])`);
        expect({ parameter: wanted.name, description }).toMatchObject({
          description: expect.stringMatching(saysDefault),
        });
      }
    }
  });

  test("is cancelable, knows its cell, and links its own help section", () => {
    expect(generatedFunction().options).toEqual({ cancelable: true, requiresAddress: true });
    expect(generatedFunction().helpUrl).toMatch(new RegExp(`#risk${name.toLowerCase()}$`));
  });
});
