/**
 * Writes the catalogs' words into manifest.xml (Overrides per locale) and the keyboard shortcuts'
 * files (src/commands/shortcuts.json and shortcuts.resources.<language>.json). Run after changing a catalog:
 * `npm run i18n:manifest`. test/i18n/manifest-locales.test.ts fails until it has been run.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
// tsx (the npm script runs this file with it) loads the TypeScript module.
import { localizeManifest, localizeShortcuts } from "../src/commands/manifest-locales.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const catalog = (language) =>
  JSON.parse(readFileSync(path.join(root, "src/i18n/catalogs", `${language}.json`), "utf8"));
const [en, de, fr] = ["en", "de", "fr"].map(catalog);
const catalogs = { en, de, fr };
const manifestPath = path.join(root, "manifest.xml");
writeFileSync(manifestPath, localizeManifest(readFileSync(manifestPath, "utf8"), catalogs));
const shortcutsPath = path.join(root, "src/commands/shortcuts.json");
const { shortcuts, resources } = localizeShortcuts(JSON.parse(readFileSync(shortcutsPath, "utf8")), catalogs);
writeFileSync(shortcutsPath, `${JSON.stringify(shortcuts, null, 2)}\n`);
for (const [language, names] of Object.entries(resources))
  writeFileSync(
    path.join(root, `src/commands/shortcuts.resources.${language}.json`),
    `${JSON.stringify(names, null, 2)}\n`,
  );
console.log("manifest.xml, shortcuts.json and shortcuts.resources.<language>.json written from the catalogs.");
