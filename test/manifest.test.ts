/**
 * Offline checks of the add-in manifest (Office's online validation is unreachable here): it is
 * well-formed XML, declares what a shared-runtime custom-functions add-in needs, every resid
 * resolves, and every URL it names is a file the production build produced in dist/.
 * Requires `npm run build` first (npm test runs it).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import {
  COMMAND_SHORTCUTS,
  RIBBON_COMMANDS,
  RIBBON_GROUPS,
  RIBBON_TAB,
  shortcutProblem,
} from "../src/commands/catalogue";
import shortcutsFile from "../src/commands/shortcuts.json";

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

describe("the Climate Risk tab (manifest CustomTab) and its shortcuts", () => {
  const surface = (host.DesktopFormFactor as Node).ExtensionPoint as Node;
  const tab = surface.CustomTab as Node;
  const groups = asArray(tab.Group as Node | Node[]);
  const shortStrings = resourceIds("ShortStrings");
  const longStrings = resourceIds("LongStrings");
  const images = resourceIds("Images");

  it("has the catalogue's groups and buttons, in order, with their labels and supertips", () => {
    expect(tab["@id"]).toBe(RIBBON_TAB.id);
    expect(shortStrings.get((tab.Label as Node)["@resid"] as string)).toBe(RIBBON_TAB.label);
    expect(groups.map((g) => g["@id"])).toEqual(RIBBON_GROUPS.map((g) => g.controlId));
    const buttons = groups.flatMap((group) =>
      asArray(group.Control as Node | Node[]).map((control) => ({
        group: group["@id"],
        id: control["@id"],
        label: shortStrings.get((control.Label as Node)["@resid"] as string),
        title: shortStrings.get(((control.Supertip as Node).Title as Node)["@resid"] as string),
        tip: longStrings.get(((control.Supertip as Node).Description as Node)["@resid"] as string),
        action: control.Action as Node,
      })),
    );
    expect(buttons.map((b) => b.id)).toEqual(RIBBON_COMMANDS.map((c) => c.controlId));
    for (const command of RIBBON_COMMANDS) {
      const button = buttons.find((b) => b.id === command.controlId)!;
      expect(button.group).toBe(RIBBON_GROUPS.find((g) => g.id === command.group)!.controlId);
      expect([button.label, button.title, button.tip]).toEqual([command.label, command.label, command.tip]);
      // Supertip descriptions are long strings of at most 250 characters (manifest reference: Supertip).
      expect(command.tip.length).toBeLessThanOrEqual(250);
    }
  });

  it("binds every button to an ExecuteFunction action the runtime associates (test/commands: every catalogue id)", () => {
    const functionNames = groups.flatMap((group) =>
      asArray(group.Control as Node | Node[]).map((control) => {
        const action = control.Action as Node;
        expect(action["@type"]).toBe("ExecuteFunction");
        return action.FunctionName;
      }),
    );
    expect(functionNames).toEqual(RIBBON_COMMANDS.map((c) => c.id));
    expect(new Set(functionNames).size).toBe(functionNames.length);
  });

  it("gives every group and button 16, 32 and 80 px icons that exist in assets/ at their size", () => {
    const pngSize = (file: string) => {
      const bytes = readFileSync(file);
      return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
    };
    const controls = groups.flatMap((group) => [group, ...asArray(group.Control as Node | Node[])]);
    for (const control of controls) {
      const icons = asArray((control.Icon as Node).Image as Node | Node[]);
      expect(icons.map((image) => image["@size"])).toEqual(["16", "32", "80"]);
      for (const image of icons) {
        const url = images.get(image["@resid"] as string)!;
        const file = path.join(root, url.slice(DEV_ORIGIN.length));
        expect(existsSync(file)).toBe(true);
        const size = Number(image["@size"]);
        expect(pngSize(file)).toEqual([size, size]);
      }
    }
  });

  it("names the shortcuts file after VersionOverrides, and the build serves it", () => {
    const extended = app.ExtendedOverrides as Node;
    expect(extended["@Url"]).toBe(`${DEV_ORIGIN}shortcuts.json`);
    expect(source.text.indexOf("<ExtendedOverrides")).toBeGreaterThan(source.text.indexOf("</VersionOverrides>"));
    expect(JSON.parse(readFileSync(path.join(dist, "shortcuts.json"), "utf8"))).toEqual(shortcutsFile);
  });

  it("binds shortcuts only to ExecuteFunction actions of the tab, each with a modifier and one key, none twice", () => {
    const ids = new Set(RIBBON_COMMANDS.map((c) => c.id));
    for (const action of shortcutsFile.actions) {
      expect(ids.has(action.id as never)).toBe(true);
      expect(action.type).toBe("ExecuteFunction");
      expect(action.name.length).toBeGreaterThan(10);
    }
    expect(shortcutsFile.shortcuts.map((s) => s.action)).toEqual(shortcutsFile.actions.map((a) => a.id));
    const problems = COMMAND_SHORTCUTS.flatMap((s) => [shortcutProblem(s.key), shortcutProblem(s.mac)]).filter(Boolean);
    expect(problems).toEqual([]);
    expect(new Set(COMMAND_SHORTCUTS.map((s) => s.key)).size).toBe(COMMAND_SHORTCUTS.length);
    // The refresh scopes and the builder have one each (the list).
    expect(COMMAND_SHORTCUTS.map((s) => s.action).sort()).toEqual(
      ["openBuilder", "refreshPastedSheets", "refreshSelection", "refreshSheet", "refreshWorkbook"].sort(),
    );
  });

  it("keeps clear of Excel's and the browser's own keys (the combinations docs/ribbon.md lists)", () => {
    // Excel: Ctrl+Shift+1..6 number formats, Ctrl+Alt+F5 refresh all, Ctrl+Alt+V paste special,
    // Ctrl+Shift+L filter; browsers: Ctrl+N/T/W (with Shift), Ctrl+Shift+S/X, Alt+Shift+N/S.
    const taken = [
      ..."123456".split("").map((d) => `Ctrl+Shift+${d}`),
      "Ctrl+Alt+V",
      "Ctrl+Shift+L",
      "Ctrl+N",
      "Ctrl+Shift+N",
      "Ctrl+T",
      "Ctrl+Shift+T",
      "Ctrl+W",
      "Ctrl+Shift+W",
      "Ctrl+Shift+S",
      "Ctrl+Shift+X",
      "Alt+Shift+N",
      "Alt+Shift+S",
    ];
    const normal = (k: string) => k.split("+").sort().join("+");
    const used = new Set(COMMAND_SHORTCUTS.map((s) => normal(s.key)));
    expect(taken.filter((k) => used.has(normal(k)))).toEqual([]);
    // Office's advice for the fewest clashes: Ctrl+Alt+Shift+<key>.
    expect(COMMAND_SHORTCUTS.every((s) => s.key.startsWith("Ctrl+Alt+Shift+"))).toBe(true);
  });

  it("rejects key combinations Office refuses", () => {
    expect(shortcutProblem("Shift+A")).toMatch(/only modifier/);
    expect(shortcutProblem("A")).toMatch(/at least one modifier/);
    expect(shortcutProblem("Ctrl+F5")).toMatch(/A-Z, 0-9/);
    expect(shortcutProblem("Ctrl+Alt+Shift++")).toBeUndefined();
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
