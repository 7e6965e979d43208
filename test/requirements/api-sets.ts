/**
 * Which Office requirement sets the add-in's code uses, read from the Office.js typings: every
 * declaration in @types/office-js and @types/custom-functions-runtime carries a tag such as
 * `[Api set: ExcelApi 1.13]` (in the common API: `**Requirement set**: {@link … | RibbonApi 1.1}`),
 * and the TypeScript compiler resolves each identifier in src/ to the declaration it means (so
 * `range.getMergedAreasOrNullObject()` is Excel.Range's method, not some other
 * `getMergedAreasOrNullObject`). Property names in `load("a, b/c")` strings are resolved
 * against the loaded object's type too.
 *
 * Only value uses count: a type annotation (`context: Excel.RequestContext`) calls nothing at run
 * time. A tag naming several versions ("ExcelApi 1.1 for get, 1.8 for set") counts as its first
 * (lowest) one.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** A requirement set at a version, e.g. ExcelApi 1.13. */
export interface ApiSet {
  name: string;
  version: string;
}

/** One place where src/ uses an API tagged with a requirement set. */
export interface ApiUse extends ApiSet {
  /** Declaration used, e.g. "Excel.Range.getMergedAreasOrNullObject". */
  api: string;
  /** Path relative to the project root, forward slashes. */
  file: string;
  line: number;
}

/** A literal `isSetSupported("ExcelApi", "1.13")` (or `requirementSupported(...)`) found in a file. */
export interface SetCheck extends ApiSet {
  file: string;
  line: number;
}

const TYPINGS = [
  `${path.sep}@types${path.sep}office-js${path.sep}`,
  `${path.sep}@types${path.sep}custom-functions-runtime${path.sep}`,
];
/**
 * The Excel API's tag ("[Api set: ExcelApi 1.13]") and the common API's ("**Requirement set**:
 * {@link https://... | RibbonApi 1.1}", also listed under "**Requirement sets**:"), which is how
 * Office.ribbon, Office.actions and Office.addin are tagged.
 */
const TAG = /\[Api set: ([A-Za-z]+) (\d+\.\d+)|\*\*Requirement sets?\*\*:[\s\S]*?\| ([A-Za-z]+) (\d+\.\d+)\}/;
/** Names of functions whose literal arguments count as a requirement-set check. */
const CHECK_FUNCTIONS = new Set(["isSetSupported", "requirementSupported"]);

/** Compares "1.13" with "1.4" numerically: negative, 0 or positive. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function isTypingsFile(fileName: string): boolean {
  const normalized = path.normalize(fileName);
  return TYPINGS.some((dir) => normalized.includes(dir));
}

/** The set a declaration's own doc comment names, if any. */
function tagOf(declaration: ts.Declaration): ApiSet | undefined {
  const source = declaration.getSourceFile();
  const ranges = ts.getLeadingCommentRanges(source.text, declaration.getFullStart()) ?? [];
  for (let i = ranges.length - 1; i >= 0; i--) {
    const match = TAG.exec(source.text.slice(ranges[i].pos, ranges[i].end));
    if (match) return { name: match[1] ?? match[3], version: match[2] ?? match[4] };
  }
  return undefined;
}

function qualifiedName(checker: ts.TypeChecker, symbol: ts.Symbol): string {
  return checker.getFullyQualifiedName(symbol).replace(/^"[^"]*"\./, "");
}

/** True where an identifier sits in a type position (annotation, type argument, implements, ...). */
function inTypePosition(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if (ts.isTypeNode(n) || ts.isHeritageClause(n)) return true;
    if (ts.isExpression(n) && !ts.isIdentifier(n) && !ts.isQualifiedName(n as ts.Node)) return false;
    if (ts.isStatement(n) || ts.isSourceFile(n)) return false;
  }
  return false;
}

/**
 * The add-in's TypeScript program, with the compiler options of src/tsconfig.json (its Office
 * typings; not its project boundary, so other files may be added). `virtual` adds files that
 * exist only in memory (path to text).
 */
export function createProgram(
  root: string,
  files: readonly string[],
  virtual: ReadonlyMap<string, string> = new Map(),
): ts.Program {
  const configPath = path.join(root, "src", "tsconfig.json");
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, path.dirname(configPath));
  const options = {
    ...parsed.options,
    noEmit: true,
    composite: false,
    declaration: false,
    emitDeclarationOnly: false,
    rootDir: undefined,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, ...rest) => {
    const text = virtual.get(path.resolve(fileName));
    return text !== undefined
      ? ts.createSourceFile(fileName, text, language)
      : getSourceFile(fileName, language, ...rest);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => virtual.has(path.resolve(fileName)) || fileExists(fileName);
  return ts.createProgram({ rootNames: [...files, ...virtual.keys()], options, host });
}

/**
 * The set the typings tag on each member named "Class.member" of the Excel namespace (e.g.
 * "Range.getMergedAreasOrNullObject"); undefined for a member without a tag or not found.
 */
export function excelMemberSets(root: string, members: readonly string[]): Map<string, ApiSet | undefined> {
  const probe = path.join(root, "test", "requirements", "__member-probe__.ts");
  const text = members
    .map((m, i) => `declare const probe${i}: Excel.${m.split(".")[0]};\nvoid probe${i}.${m.split(".")[1]};`)
    .join("\n");
  const { uses } = scanApiSets(root, [], new Map([[probe, text]]));
  const found = new Map<string, ApiSet | undefined>(members.map((m) => [m, undefined]));
  for (const use of uses) {
    const member = use.api.replace(/^Excel\./, "");
    if (found.has(member)) found.set(member, { name: use.name, version: use.version });
  }
  return found;
}

/** Every tagged API use and every literal set check in `files` (absolute paths) and `virtual` ones. */
export function scanApiSets(
  root: string,
  files: readonly string[],
  virtual: ReadonlyMap<string, string> = new Map(),
): { uses: ApiUse[]; checks: SetCheck[] } {
  const program = createProgram(root, files, virtual);
  const checker = program.getTypeChecker();
  const uses: ApiUse[] = [];
  const checks: SetCheck[] = [];
  const wanted = new Set([...files, ...virtual.keys()].map((f) => path.resolve(f)));

  for (const source of program.getSourceFiles()) {
    if (!wanted.has(path.resolve(source.fileName))) continue;
    const file = path.relative(root, source.fileName).split(path.sep).join("/");
    const lineOf = (node: ts.Node): number => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    const record = (symbol: ts.Symbol | undefined, at: ts.Node): void => {
      if (!symbol) return;
      if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      for (const declaration of symbol.declarations ?? []) {
        if (!isTypingsFile(declaration.getSourceFile().fileName)) continue;
        const tag = tagOf(declaration);
        if (tag) {
          uses.push({ ...tag, api: qualifiedName(checker, symbol), file, line: lineOf(at) });
          return;
        }
      }
    };

    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && !inTypePosition(node)) {
        record(checker.getSymbolAtLocation(node), node);
      }
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        const name = ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : ts.isIdentifier(callee)
            ? callee.text
            : "";
        const [first, second] = node.arguments;
        // load("address, rowCount") / load("items/name"): resolve each top-level property name.
        if (name === "load" && ts.isPropertyAccessExpression(callee) && first && ts.isStringLiteralLike(first)) {
          const loaded = checker.getTypeAtLocation(callee.expression);
          for (const part of first.text.split(",")) {
            const prop = part.trim().split("/")[0];
            if (!prop) continue;
            const itemType = prop === "items" ? undefined : loaded;
            const symbol = itemType ? checker.getPropertyOfType(itemType, prop) : undefined;
            record(symbol, first);
          }
        }
        if (CHECK_FUNCTIONS.has(name) && first && ts.isStringLiteralLike(first)) {
          checks.push({
            name: first.text,
            version: second && ts.isStringLiteralLike(second) ? second.text : "1.1",
            file,
            line: lineOf(node),
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { uses, checks };
}

/** The sets manifest.xml's <Requirements> declares (the add-in only loads where all are supported). */
export function manifestSets(manifestText: string): ApiSet[] {
  const requirements = /<Requirements>([\s\S]*?)<\/Requirements>/.exec(
    manifestText.replace(/<VersionOverrides[\s\S]*<\/VersionOverrides>/, ""),
  );
  if (!requirements) return [];
  const defaultMin = /<Sets[^>]*DefaultMinVersion="([^"]+)"/.exec(requirements[1])?.[1] ?? "1.1";
  return [...requirements[1].matchAll(/<Set\s+([^>]*?)\/?>/g)].map((m) => ({
    name: /Name="([^"]+)"/.exec(m[1])![1],
    version: /MinVersion="([^"]+)"/.exec(m[1])?.[1] ?? defaultMin,
  }));
}

/** Reads manifest.xml at the project root. */
export function readManifestSets(root: string): ApiSet[] {
  return manifestSets(readFileSync(path.join(root, "manifest.xml"), "utf8"));
}
