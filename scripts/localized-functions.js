/**
 * Derives each language's custom functions metadata (functions.<language>.json) from the generated
 * English functions.json: the same document (ids, names, parameter names and types, options, help
 * URLs), with the descriptions of src/i18n/functions/<language>.json. Function and parameter names
 * never change: a formula written through Range.formulas must mean the same in every Excel.
 * webpack.config.js runs it as a plugin; the manifest points each locale at its file
 * (src/commands/manifest-locales.ts).
 */
const fs = require("node:fs");
const path = require("node:path");
const webpack = require("webpack");

/**
 * The English metadata text with `translations` ({ ID: { description, parameters: { name: text } } })
 * applied; `missing` lists what the translation lacks (that text stays English).
 */
function localizeFunctionsMetadata(englishText, translations) {
  const metadata = JSON.parse(englishText);
  const missing = [];
  for (const fn of metadata.functions) {
    const translated = translations[fn.id];
    if (translated && translated.description) fn.description = translated.description;
    else missing.push(fn.id);
    for (const parameter of fn.parameters || []) {
      const text = translated && translated.parameters && translated.parameters[parameter.name];
      if (text) parameter.description = text;
      else missing.push(`${fn.id}.${parameter.name}`);
    }
  }
  return { text: JSON.stringify(metadata, null, 2), missing };
}

/** Emits functions.<language>.json beside functions.json for each language. */
class LocalizedFunctionsMetadata {
  constructor(options) {
    this.source = options.source;
    this.languages = options.languages;
    this.folder = options.folder;
  }
  apply(compiler) {
    compiler.hooks.thisCompilation.tap("LocalizedFunctionsMetadata", (compilation) => {
      compilation.hooks.processAssets.tap(
        // Before RewriteInAsset (OPTIMIZE), so production help URLs are rewritten in every language.
        { name: "LocalizedFunctionsMetadata", stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONS },
        () => {
          const asset = compilation.getAsset(this.source);
          if (!asset) return;
          const english = asset.source.source().toString();
          for (const language of this.languages) {
            const file = path.join(this.folder, `${language}.json`);
            compilation.fileDependencies.add(file);
            const { text, missing } = localizeFunctionsMetadata(english, JSON.parse(fs.readFileSync(file, "utf8")));
            if (missing.length > 0)
              compilation.warnings.push(
                new webpack.WebpackError(`${file} has no text for ${missing.join(", ")}: English is shown there.`),
              );
            compilation.emitAsset(
              this.source.replace(/\.json$/, `.${language}.json`),
              new webpack.sources.RawSource(text),
            );
          }
        },
      );
    });
  }
}

module.exports = { localizeFunctionsMetadata, LocalizedFunctionsMetadata };
