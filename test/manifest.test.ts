/**
 * Offline checks of the add-in manifest (Office's online validation is unreachable here): it is
 * well-formed XML, declares what a shared-runtime custom-functions add-in needs, every resid
 * resolves, and every URL it names is a file the production build produced in dist/.
 * Requires `npm run build` first (npm test runs it).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";

const root = path.resolve(__dirname, "..");
const dist = path.join(root, "dist");
const DEV_ORIGIN = "https://localhost:3000/";

type Node = Record<string, unknown>;
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  removeNSPrefix: true,
  isArray: () => false,
});

function load(file: string): { text: string; doc: Node } {
  const text = readFileSync(file, "utf8");
  return { text, doc: parser.parse(text) as Node };
}

/** Every value of attribute `name` anywhere under `node`. */
function attributeValues(node: unknown, name: string, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((child) => attributeValues(child, name, out));
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === `@${name}` && typeof value === "string") out.push(value);
      else attributeValues(value, name, out);
    }
  }
  return out;
}

function asArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

const source = load(path.join(root, "manifest.xml"));
const app = source.doc.OfficeApp as Node;
const overrides = app.VersionOverrides as Node;
const host = (overrides.Hosts as Node).Host as Node;
const resources = overrides.Resources as Node;

function resourceIds(kind: "Images" | "Urls" | "ShortStrings" | "LongStrings"): Map<string, string> {
  const group = resources[kind] as Node;
  const entries = asArray((group.Image ?? group.Url ?? group.String) as Node | Node[]);
  return new Map(entries.map((entry) => [String(entry["@id"]), String(entry["@DefaultValue"])]));
}
const urls = resourceIds("Urls");

describe("manifest.xml", () => {
  it("is well-formed XML", () => {
    expect(XMLValidator.validate(source.text)).toBe(true);
  });

  it("is an Excel task pane add-in with a long-lived shared runtime", () => {
    expect(app["@type"]).toBe("TaskPaneApp");
    expect((app.Hosts as Node).Host).toEqual({ "@Name": "Workbook" });
    const sets = asArray(((app.Requirements as Node).Sets as Node).Set as Node | Node[]);
    expect(sets).toContainEqual({ "@Name": "SharedRuntime", "@MinVersion": "1.1" });
    const runtime = (host.Runtimes as Node).Runtime as Node;
    expect(runtime["@lifetime"]).toBe("long");
    expect(host["@type"]).toBe("Workbook");
    expect(app.Permissions).toBe("ReadWriteDocument");
  });

  it("declares custom functions in namespace RISK whose page is the shared runtime page", () => {
    const point = (host.AllFormFactors as Node).ExtensionPoint as Node;
    expect(point["@type"]).toBe("CustomFunctions");
    const runtimeUrl = ((host.Runtimes as Node).Runtime as Node)["@resid"];
    expect(((point.Page as Node).SourceLocation as Node)["@resid"]).toBe(runtimeUrl);
    expect(((host.DesktopFormFactor as Node).FunctionFile as Node)["@resid"]).toBe(runtimeUrl);
    const namespaceId = (point.Namespace as Node)["@resid"] as string;
    expect(resourceIds("ShortStrings").get(namespaceId)).toBe("RISK");
    expect(urls.get(((point.Script as Node).SourceLocation as Node)["@resid"] as string)).toMatch(/functions\.js$/);
    expect(urls.get(((point.Metadata as Node).SourceLocation as Node)["@resid"] as string)).toMatch(/functions\.json$/);
  });

  it("has a ribbon button that opens the task pane, with 16/32/80 px icons", () => {
    const surface = (host.DesktopFormFactor as Node).ExtensionPoint as Node;
    expect(surface["@type"]).toBe("PrimaryCommandSurface");
    const control = ((surface.OfficeTab as Node).Group as Node).Control as Node;
    expect(control["@type"]).toBe("Button");
    expect((control.Action as Node)["@type"]).toBe("ShowTaskpane");
    const sizes = asArray((control.Icon as Node).Image as Node | Node[]).map((image) => image["@size"]);
    expect(sizes).toEqual(["16", "32", "80"]);
  });

  it("resolves every resid to a resource", () => {
    const known = new Set([
      ...resourceIds("Images").keys(),
      ...urls.keys(),
      ...resourceIds("ShortStrings").keys(),
      ...resourceIds("LongStrings").keys(),
    ]);
    const used = attributeValues(overrides, "resid");
    expect(used.length).toBeGreaterThan(10);
    expect(used.filter((id) => !known.has(id))).toEqual([]);
  });

  it("names only files that exist in the assets folder or the build output", () => {
    expect(existsSync(dist)).toBe(true); // run `npm run build` first
    const named = [...source.text.matchAll(/https:\/\/localhost:3000\/[^"<\s]*/g)].map((m) => m[0]);
    expect(named.length).toBeGreaterThan(5);
    const missing = named
      .map((url) => url.slice(DEV_ORIGIN.length))
      .filter((file) => !existsSync(path.join(dist, file)));
    expect(missing).toEqual([]);
  });
});

describe("production build", () => {
  const built = path.join(dist, "manifest.xml");

  it("writes a manifest whose URLs point at the production origin", () => {
    const text = readFileSync(built, "utf8");
    expect(text).not.toContain("localhost");
    expect(XMLValidator.validate(text)).toBe(true);
    const origin = (process.env.ADDIN_PUBLIC_URL ?? "https://climate-risk-addin.example.com/").replace(/\/?$/, "/");
    expect(text).toContain(`${origin}functions.json`);
  });

  it("generates functions.json from JSDoc: every RISK function and parameter is described", () => {
    const metadata = JSON.parse(readFileSync(path.join(dist, "functions.json"), "utf8")) as {
      functions: Array<{
        id: string;
        name: string;
        description?: string;
        helpUrl?: string;
        parameters: Array<{ name: string; description?: string; optional?: boolean }>;
      }>;
    };
    const ids = metadata.functions.map((f) => f.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        "SEARCH",
        "SUMMARY",
        "METRIC",
        "IMPACT",
        "TIMESERIES",
        "PROJECTS",
        "PORTFOLIOS",
        "ASSETS",
        "LAYER",
        "NATURE",
      ]),
    );
    for (const fn of metadata.functions) {
      expect(fn.description ?? "").not.toBe("");
      // The add-in's own hosted help page, one anchor per function (not a placeholder address).
      const origin = (process.env.ADDIN_PUBLIC_URL ?? "https://climate-risk-addin.example.com/").replace(/\/?$/, "/");
      expect(fn.helpUrl).toBe(`${origin}help.html#risk${fn.id.toLowerCase()}`);
      expect(readFileSync(path.join(dist, "help.html"), "utf8")).toMatch(
        new RegExp(`id="?risk${fn.id.toLowerCase()}"?[ >]`),
      ); // minified: quotes may go
      for (const parameter of fn.parameters)
        expect(`${fn.id}.${parameter.name}: ${parameter.description ?? ""}`).toMatch(/: .{5,}/);
    }
    const search = metadata.functions.find((f) => f.id === "SEARCH")!;
    expect(search.parameters.map((p) => [p.name, p.optional === true])).toEqual([
      ["lat", false],
      ["lng", false],
      ["hazard", false],
      ["horizon", false],
      ["extent", true],
      ["field", true],
    ]);
    const summary = metadata.functions.find((f) => f.id === "SUMMARY")!;
    expect(summary.parameters.map((p) => [p.name, p.optional === true])).toEqual([
      ["portfolio", false],
      ["index", false],
      ["hazard", false],
      ["scenario", true],
      ["window", true],
      ["field", true],
    ]);
  });

  it("keeps the harness out of the production build", () => {
    expect(existsSync(path.join(dist, "harness.html"))).toBe(false);
    expect(existsSync(path.join(dist, "harness.js"))).toBe(false);
  });

  it("loads the functions before the task pane on the shared page", () => {
    const html = readFileSync(path.join(dist, "taskpane.html"), "utf8");
    const order = ["office.js", "runtime.js", "functions.js", "taskpane.js"].map((name) => html.indexOf(name));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});
