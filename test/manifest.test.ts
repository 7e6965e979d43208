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
import germanShortcutNames from "../src/commands/shortcuts.resources.de.json";
import englishShortcutNames from "../src/commands/shortcuts.resources.en.json";
import frenchShortcutNames from "../src/commands/shortcuts.resources.fr.json";
import {
  LONG_STRING_MAX,
  MANIFEST_LOCALES,
  SHORT_STRING_MAX,
  localizeManifest,
  localizeShortcuts,
  manifestStringIds,
  type ShortcutsFile,
} from "../src/commands/manifest-locales";
import english from "../src/i18n/catalogs/en.json";
import german from "../src/i18n/catalogs/de.json";
import french from "../src/i18n/catalogs/fr.json";

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
    // A URL template (the shortcut names' `${token.locale}`) names a file for each value its token takes.
    const tokenValues = ["en", ...Object.values(MANIFEST_LOCALES)];
    const named = [...source.text.matchAll(/https:\/\/localhost:3000\/[^"<\s]*/g)].flatMap((m) =>
      m[0].includes("${token.locale}") ? tokenValues.map((value) => m[0].replace("${token.locale}", value)) : [m[0]],
    );
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

describe("the manifest in German and French (Overrides from src/i18n/catalogs)", () => {
  const catalogs = { en: english, de: german, fr: french };
  const stringIds = manifestStringIds();

  /** Each bt:String / bt:Url / DisplayName / Description element: its default and its Overrides by locale. */
  function localized(kind: "String" | "Url"): Map<string, { default: string; overrides: Map<string, string> }> {
    const group = kind === "Url" ? (resources.Urls as Node) : null;
    const entries =
      kind === "Url"
        ? asArray(group!.Url as Node | Node[])
        : [
            ...asArray((resources.ShortStrings as Node).String as Node | Node[]),
            ...asArray((resources.LongStrings as Node).String as Node | Node[]),
          ];
    return new Map(
      entries.map((entry) => [
        String(entry["@id"]),
        {
          default: String(entry["@DefaultValue"]),
          overrides: new Map(
            asArray(entry.Override as Node | Node[]).map((o) => [String(o["@Locale"]), String(o["@Value"])]),
          ),
        },
      ]),
    );
  }
  /** What Office shows for a resource in a locale: its Override for that locale, else the default. */
  const resolve = (entry: { default: string; overrides: Map<string, string> }, locale: string) =>
    entry.overrides.get(locale) ?? entry.default;

  it("is what the catalogs say (npm run i18n:manifest writes it)", () => {
    expect(localizeManifest(source.text, catalogs)).toBe(source.text);
    const { shortcuts, resources: names } = localizeShortcuts(shortcutsFile as ShortcutsFile, catalogs);
    expect(shortcuts).toEqual(shortcutsFile);
    expect(names).toEqual({ en: englishShortcutNames, de: germanShortcutNames, fr: frenchShortcutNames });
  });

  it("shows every ribbon label and tip, the GetStarted texts, the name and description in each locale", () => {
    const strings = localized("String");
    const shown = [...stringIds.keys()].filter((id) => strings.has(id));
    expect(shown.sort()).toEqual([...stringIds.keys()].sort());
    // Every string resource but the functions' namespace (RISK, never translated) has a message.
    expect([...strings.keys()].filter((id) => !stringIds.has(id))).toEqual(["Functions.Namespace"]);
    for (const [locale, language] of Object.entries(MANIFEST_LOCALES)) {
      for (const [resid, id] of stringIds)
        expect([locale, resid, resolve(strings.get(resid)!, locale)]).toEqual([locale, resid, catalogs[language][id]]);
      const description = app.Description as Node;
      const overrides = new Map(
        asArray(description.Override as Node | Node[]).map((o) => [String(o["@Locale"]), String(o["@Value"])]),
      );
      expect(overrides.get(locale) ?? description["@DefaultValue"]).toBe(catalogs[language]["manifest.description"]);
    }
    expect(Object.keys(MANIFEST_LOCALES).sort()).toEqual(
      ["de-DE", "de-AT", "de-CH", "fr-FR", "fr-BE", "fr-CA", "fr-CH"].sort(),
    );
  });

  it("keeps every text, in every language, within the manifest's lengths", () => {
    const long = new Set(resourceIds("LongStrings").keys());
    const tooLong: string[] = [];
    for (const [resid, entry] of localized("String")) {
      const max = long.has(resid) ? LONG_STRING_MAX : SHORT_STRING_MAX;
      for (const text of [entry.default, ...entry.overrides.values()])
        if (text.length > max) tooLong.push(`${resid}: ${text.length} > ${max}`);
    }
    for (const language of ["en", "de", "fr"] as const) {
      if (catalogs[language]["manifest.displayName"].length > SHORT_STRING_MAX) tooLong.push(`${language} DisplayName`);
      if (catalogs[language]["manifest.description"].length > LONG_STRING_MAX) tooLong.push(`${language} Description`);
    }
    expect(tooLong).toEqual([]);
  });

  it("gives each locale its language's function help, and the catalogue's English labels are the catalog's", () => {
    const metadata = localized("Url").get("Functions.Metadata.Url")!;
    expect(metadata.default).toBe(`${DEV_ORIGIN}functions.json`);
    for (const [locale, language] of Object.entries(MANIFEST_LOCALES))
      expect(resolve(metadata, locale)).toBe(`${DEV_ORIGIN}functions.${language}.json`);
    for (const command of RIBBON_COMMANDS) {
      expect(english[`ribbon.command.${command.id}.label`]).toBe(command.label);
      expect(english[`ribbon.command.${command.id}.tip`]).toBe(command.tip);
    }
    for (const group of RIBBON_GROUPS) expect(english[`ribbon.group.${group.id}`]).toBe(group.label);
    expect(english["ribbon.tab"]).toBe(RIBBON_TAB.label);
  });

  it("names each language's shortcut names file through the locale token, with every action, and the build serves them", () => {
    const extended = app.ExtendedOverrides as Node;
    expect(extended["@ResourcesUrl"]).toBe(`${DEV_ORIGIN}shortcuts.resources.\${token.locale}.json`);
    const token = (extended.Tokens as Node).Token as Node;
    expect([token["@Name"], token["@type"], token["@DefaultValue"]]).toEqual(["locale", "LocaleToken", "en"]);
    const overrides = asArray(token.Override as Node | Node[]).map((o) => [o["@Locale"], o["@Value"]]);
    expect(Object.fromEntries(overrides)).toEqual(MANIFEST_LOCALES);
    const files = { en: englishShortcutNames, de: germanShortcutNames, fr: frenchShortcutNames } as Record<
      string,
      Record<string, { value: string }>
    >;
    for (const action of shortcutsFile.actions) {
      expect(action.name).toBe(`\${resource.${action.id}_name}`);
      expect(COMMAND_SHORTCUTS.find((s) => s.action === action.id)!.name).toBe(
        english[`shortcut.${action.id}` as keyof typeof english],
      );
      for (const [language, names] of Object.entries(files))
        expect(names[`${action.id}_name`].value).toBe(
          catalogs[language as "en"][`shortcut.${action.id}` as keyof typeof english],
        );
    }
    for (const [language, names] of Object.entries(files))
      expect(JSON.parse(readFileSync(path.join(dist, `shortcuts.resources.${language}.json`), "utf8"))).toEqual(names);
  });
});

describe("function help in German and French (dist/functions.<language>.json)", () => {
  type Metadata = {
    functions: Array<{
      id: string;
      name: string;
      description: string;
      helpUrl?: string;
      result?: unknown;
      options?: unknown;
      parameters: Array<{
        name: string;
        description?: string;
        type?: string;
        dimensionality?: string;
        optional?: boolean;
      }>;
    }>;
  };
  const read = (file: string) => JSON.parse(readFileSync(path.join(dist, file), "utf8")) as Metadata;
  /** Everything but the descriptions: what must not change with the language. */
  const shape = (metadata: Metadata) =>
    metadata.functions.map(({ description: _d, parameters, ...rest }) => ({
      ...rest,
      parameters: parameters.map(({ description: _p, ...parameter }) => parameter),
    }));

  it.each(["de", "fr"])("functions.%s.json has the same ids, names, types and help URLs as English", (language) => {
    const englishMetadata = read("functions.json");
    const translated = read(`functions.${language}.json`);
    expect(translated.functions.map((f) => [f.id, f.name])).toEqual(
      englishMetadata.functions.map((f) => [f.id, f.name]),
    );
    expect(shape(translated)).toEqual(shape(englishMetadata));
  });

  it.each(["de", "fr"])("functions.%s.json describes every function and parameter in its language", (language) => {
    const englishMetadata = read("functions.json");
    const translations = JSON.parse(
      readFileSync(path.join(root, "src/i18n/functions", `${language}.json`), "utf8"),
    ) as Record<string, { description: string; parameters: Record<string, string> }>;
    const expected = englishMetadata.functions.flatMap((f) => [f.id, ...f.parameters.map((p) => `${f.id}.${p.name}`)]);
    const given = Object.entries(translations).flatMap(([id, t]) => [
      id,
      ...Object.keys(t.parameters).map((p) => `${id}.${p}`),
    ]);
    expect(given.sort()).toEqual(expected.sort());
    const translated = read(`functions.${language}.json`);
    for (const fn of translated.functions) {
      const original = englishMetadata.functions.find((f) => f.id === fn.id)!;
      expect(fn.description).toBe(translations[fn.id].description);
      expect(fn.description).not.toBe(original.description);
    }
  });
});
