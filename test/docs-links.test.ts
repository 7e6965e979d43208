/**
 * The documentation's links hold: every relative link and image in README.md, CONTRIBUTING.md,
 * emulator/README.md, docs/ (any depth) and bench/history/ names a file that exists, and a
 * `file.md#anchor` (or `#anchor`) names a heading of that file under GitHub's anchor rules. Every
 * `@helpurl` of the RISK functions names an id of src/help.html, the page Excel opens from Insert
 * Function. A reader who follows a link from the README to a moved section lands on it, not on a
 * 404 or the top of a page. And the docs a reader is asked to hold (README, CONTRIBUTING, docs/)
 * do not grow back past the size the issue 36 restructure brought them to.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(__dirname, "..");

/** The Markdown files under a folder of the repository, any depth, relative to the root. */
function markdownUnder(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md"))
    .map((name) => `${folder}/${name.split(path.sep).join("/")}`)
    .sort();
}

/** What a reader of the repository is asked to hold: the docs the size cap counts. */
const readerDocs = ["README.md", "CONTRIBUTING.md", ...markdownUnder("docs")];

/** The Markdown files whose links are checked, relative to the repository root. */
const markdownFiles = [...readerDocs, "emulator/README.md", ...markdownUnder("bench/history")];

/**
 * A ceiling on README, CONTRIBUTING and every Markdown file under docs/ together: issue 36's
 * 220 KB. Its restructure (a user guide, dated bench notes to bench/history/, each behaviour said
 * once; facts a doc comment states became links to the source) brought 366 KB under it, so the
 * docs cannot grow back past it.
 */
const readerDocsCeilingBytes = 220_000;

/** The lines of a Markdown text outside fenced code blocks (links in code are not links). */
function proseLines(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) out.push(line);
  }
  return out;
}

/**
 * GitHub's heading anchor: the rendered text in lower case, every character that is not a letter,
 * digit, space, hyphen or underscore dropped, spaces turned into hyphens; a repeated heading gets
 * -1, -2, ... (the rule github-slugger implements; a dependency for ten lines was not worth it).
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, "$1"); // a link in a heading renders as its text
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

/** Every link or image target of a Markdown text, inline code removed (code is not a link). */
export function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(markdown)) {
    const prose = line.replace(/`[^`]*`/g, "");
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]);
  }
  return targets;
}

/** What is wrong with each relative link of `file` (repository-relative), as readable lines. */
export function brokenLinks(
  file: string,
  markdown: string,
  readFile: (absolute: string) => string | undefined,
): string[] {
  const problems: string[] = [];
  for (const target of linkTargets(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...: not a file of the repository
    const [rawPath, anchor] = target.split("#", 2);
    const filePath = decodeURIComponent(rawPath.split("?")[0]);
    const absolute =
      filePath === "" ? path.join(root, file) : path.resolve(path.join(root, path.dirname(file)), filePath);
    if (!absolute.startsWith(root)) {
      problems.push(`${file}: ${target} points outside the repository`);
      continue;
    }
    const exists = filePath === "" || existsSync(absolute);
    if (!exists) {
      problems.push(`${file}: ${target} names ${path.relative(root, absolute)}, which does not exist`);
      continue;
    }
    if (anchor !== undefined && anchor !== "" && absolute.endsWith(".md") && statSync(absolute).isFile()) {
      const text = readFile(absolute);
      if (text !== undefined && !headingAnchors(text).has(anchor.toLowerCase())) {
        problems.push(`${file}: ${target}: ${path.relative(root, absolute)} has no heading with the anchor #${anchor}`);
      }
    }
  }
  return problems;
}

const read = (absolute: string): string | undefined =>
  existsSync(absolute) ? readFileSync(absolute, "utf8") : undefined;

describe("documentation links", () => {
  test("every relative link and image in the Markdown files names an existing file and heading", () => {
    const problems: string[] = [];
    let checked = 0;
    for (const file of markdownFiles) {
      const text = readFileSync(path.join(root, file), "utf8");
      checked += linkTargets(text).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t)).length;
      problems.push(...brokenLinks(file, text, read));
    }
    expect(problems).toEqual([]);
    // The README alone links a dozen moved pages; far fewer means the link reader stopped reading.
    expect(checked).toBeGreaterThan(50);
  });

  test("README, CONTRIBUTING and docs/ together stay under their ceiling (dated bench notes go to bench/history/)", () => {
    const sizes = readerDocs.map((file) => ({ file, bytes: statSync(path.join(root, file)).size }));
    const total = sizes.reduce((sum, { bytes }) => sum + bytes, 0);
    const largest = [...sizes].sort((a, b) => b.bytes - a.bytes).slice(0, 5);
    expect({ total, largest }).toEqual({ total: Math.min(total, readerDocsCeilingBytes), largest });
  });

  test("the checker reports a missing file, a missing heading and a heading anchor by GitHub's rules", () => {
    const markdown = [
      "# Formulas settle under 503s (`formulas.test.ts`)",
      "## RISK.SEARCH",
      "## RISK.SEARCH",
      "[ok](#formulas-settle-under-503s-formulastestts) [ok](#risksearch-1) [bad](#nope)",
      "[gone](docs/not-there.md) [image](docs/images/not-there.png) [web](https://example.com/x)",
      "`[in code](docs/also-not-there.md)`",
      "```",
      "[in a fence](docs/fenced-not-there.md)",
      "```",
    ].join("\n");
    const problems = brokenLinks("README.md", markdown, (absolute) =>
      absolute === path.join(root, "README.md") ? markdown : read(absolute),
    );
    expect(problems).toEqual([
      "README.md: #nope: README.md has no heading with the anchor #nope",
      "README.md: docs/not-there.md names docs/not-there.md, which does not exist",
      "README.md: docs/images/not-there.png names docs/images/not-there.png, which does not exist",
    ]);
  });

  test("every @helpurl of the RISK functions names an id on src/help.html", () => {
    const functions = readFileSync(path.join(root, "src/functions/functions.ts"), "utf8");
    const help = readFileSync(path.join(root, "src/help.html"), "utf8");
    const ids = new Set([...help.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    const helpUrls = [...functions.matchAll(/@helpurl\s+(\S+)/g)].map((m) => m[1]);
    expect(helpUrls.length).toBe([...functions.matchAll(/@customfunction\b/g)].length);
    const problems = helpUrls.flatMap((url) => {
      const parsed = new URL(url);
      if (!parsed.pathname.endsWith("/help.html")) return [`${url} is not the add-in's help page`];
      const id = parsed.hash.slice(1);
      return ids.has(id) ? [] : [`${url}: src/help.html has no id="${id}"`];
    });
    expect(problems).toEqual([]);
  });

  test("the README names the two commands, which .ci/run relies on", () => {
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    expect(readme).toContain("npm install && npm start");
    expect(readme).toContain("npm install && npm test");
  });
});
