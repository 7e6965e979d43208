/**
 * Builds the add-in:
 *  - `functions` (src/functions/functions.ts): the RISK.* custom functions. The metadata plugin
 *    generates functions.json from their JSDoc and injects the CustomFunctions.associate calls.
 *  - `taskpane` (src/taskpane/shell/bootstrap.ts): a small bootstrap that lazy-loads the React UI chunk, so
 *    the functions register before, and independently of, the UI.
 *  - `harness` (harness/index.ts, development only): the browser harness that plays Excel.
 * One runtime chunk is shared by every entry: in the shared runtime the task pane and the
 * functions are one page, and they must share one module instance (connection store, engine).
 *
 * Settings (environment variables):
 *  - ADDIN_PUBLIC_URL: origin the production build's manifest points at (default below).
 *  - RISK_DEFAULT_SERVICE_URL: service used when the user configured none (production default:
 *    the local emulator, http://127.0.0.1:4010; the dev server proxies it at /emulator).
 */
const path = require("node:path");
const webpack = require("webpack");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const CustomFunctionsMetadataPlugin = require("custom-functions-metadata-plugin");
const { devServerOptions } = require("./scripts/dev-server-options");
const { LocalizedFunctionsMetadata } = require("./scripts/localized-functions");

/** The languages with function help of their own (src/i18n/functions/<language>.json). */
const HELP_LANGUAGES = ["de", "fr"];

const DEV_ORIGIN = "https://localhost:3000/";
const OFFICE_JS_CDN = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";

module.exports = (_env = {}, argv = {}) => {
  const dev = argv.mode !== "production";
  const publicUrl = ensureSlash(process.env.ADDIN_PUBLIC_URL || "https://climate-risk-addin.example.com/");
  const defaultServiceUrl = process.env.RISK_DEFAULT_SERVICE_URL || (dev ? "/emulator" : undefined);
  // The dev server serves office.js from node_modules so pages load offline; production uses Microsoft's CDN.
  const officeJs = dev ? "/office-js/office.js" : OFFICE_JS_CDN;

  const entry = {
    functions: "./src/functions/functions.ts",
    taskpane: "./src/taskpane/shell/bootstrap.ts",
  };
  if (dev) entry.harness = "./harness/index.ts";

  const pages = [
    new HtmlWebpackPlugin({
      filename: "taskpane.html",
      template: "./src/taskpane/shell/taskpane.html",
      chunks: ["runtime", "functions", "taskpane"],
      chunksSortMode: "manual",
      templateParameters: { officeJs },
      scriptLoading: "blocking",
      inject: "body",
    }),
    new HtmlWebpackPlugin({ filename: "help.html", template: "./src/help.html", chunks: [], inject: false }),
  ];
  if (dev) {
    pages.push(
      new HtmlWebpackPlugin({
        filename: "harness.html",
        template: "./harness/harness.html",
        chunks: ["runtime", "harness", "functions", "taskpane"],
        chunksSortMode: "manual",
        templateParameters: { officeJs },
        scriptLoading: "blocking",
        inject: "body",
      }),
    );
  }

  return {
    mode: dev ? "development" : "production",
    devtool: dev ? "eval-source-map" : "source-map",
    entry,
    output: {
      path: path.resolve(__dirname, "dist"),
      filename: "[name].js",
      chunkFilename: "[name].[contenthash:8].js",
      publicPath: "/",
      clean: true,
    },
    resolve: { extensions: [".ts", ".tsx", ".js"] },
    module: {
      rules: [
        {
          // `<catalog>.json?cell`: only the catalog's cells' messages, for functions.js (src/i18n/cell-catalogs.ts).
          test: /\.json$/,
          resourceQuery: /^\?cell$/,
          include: path.resolve(__dirname, "src/i18n/catalogs"),
          use: path.resolve(__dirname, "scripts/catalog-subset-loader.js"),
        },
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          // transpileOnly: type checking is `npm run typecheck` (tsc -b over the projects). The shared
          // settings file, not the nearest project's tsconfig: one bundle spans src/, harness/ and testing/.
          use: {
            loader: "ts-loader",
            options: { transpileOnly: true, configFile: path.resolve(__dirname, "tsconfig.base.json") },
          },
        },
      ],
    },
    optimization: { runtimeChunk: "single" },
    performance: { hints: false },
    plugins: [
      new CustomFunctionsMetadataPlugin({ output: "functions.json", input: "./src/functions/functions.ts" }),
      // functions.de.json and functions.fr.json: the same metadata with translated descriptions
      // (the manifest's per-locale Override of the metadata URL names them).
      new LocalizedFunctionsMetadata({
        source: "functions.json",
        languages: HELP_LANGUAGES,
        folder: path.resolve(__dirname, "src/i18n/functions"),
      }),
      // Each function's @helpurl names the dev server's help.html; a production build points it at
      // the add-in's own hosted help page, as it does for the manifest's URLs (in every language).
      ...(dev
        ? []
        : ["functions.json", ...HELP_LANGUAGES.map((language) => `functions.${language}.json`)].map(
            (asset) => new RewriteInAsset(asset, DEV_ORIGIN, publicUrl),
          )),
      new webpack.DefinePlugin({
        __DEFAULT_SERVICE_URL__: defaultServiceUrl === undefined ? "undefined" : JSON.stringify(defaultServiceUrl),
        __ADDIN_VERSION__: JSON.stringify(require("./package.json").version),
        // For "Check the add-in": which build an analyst runs (to the minute, so rebuilds within one reuse caches).
        __ADDIN_BUILD__: JSON.stringify(
          `${dev ? "development" : "production"} build of ${new Date().toISOString().slice(0, 16)}Z`,
        ),
        // No emulator behind a production build: with nothing configured, the pane asks for a connection.
        __CONNECTION_REQUIRED__: JSON.stringify(
          process.env.RISK_REQUIRE_CONNECTION === "1" || defaultServiceUrl === undefined,
        ),
      }),
      ...pages,
      new CopyWebpackPlugin({
        patterns: [
          { from: "assets/icon-16.png", to: "assets/" },
          { from: "assets/icon-32.png", to: "assets/" },
          { from: "assets/icon-64.png", to: "assets/" },
          { from: "assets/icon-80.png", to: "assets/" },
          // The Climate Risk tab's button icons (16/32/80 px, drawn by scripts/make-icons.mjs).
          { from: "assets/ribbon", to: "assets/ribbon/" },
          // The keyboard shortcuts the manifest's ExtendedOverrides names (src/commands/catalogue.ts reads it too).
          { from: "src/commands/shortcuts.json", to: "shortcuts.json" },
          // The shortcut names in each language (the manifest's ExtendedOverrides ResourcesUrl, a
          // template its locale token fills in): listed one by one, as the root-glob note says.
          ...["en", ...HELP_LANGUAGES].map((language) => ({
            from: `src/commands/shortcuts.resources.${language}.json`,
            to: `shortcuts.resources.${language}.json`,
          })),
          {
            from: "manifest.xml",
            to: "manifest.xml",
            transform: (content) => (dev ? content : Buffer.from(productionManifest(content.toString(), publicUrl))),
          },
        ],
      }),
    ],
    devServer: devServerOptions(),
  };
};

/** Replaces every `from` with `to` in one emitted asset (here: the help URLs in functions.json). */
class RewriteInAsset {
  constructor(asset, from, to) {
    Object.assign(this, { asset, from, to });
  }
  apply(compiler) {
    compiler.hooks.thisCompilation.tap("RewriteInAsset", (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: "RewriteInAsset", stage: webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE },
        () => {
          const asset = compilation.getAsset(this.asset);
          if (!asset) return;
          const text = asset.source.source().toString().split(this.from).join(this.to);
          compilation.updateAsset(this.asset, new webpack.sources.RawSource(text));
        },
      );
    });
  }
}

/** The manifest with every dev-server URL moved to the production URL (AppDomain takes its origin). */
function productionManifest(text, publicUrl) {
  return text.split(DEV_ORIGIN).join(publicUrl).split(DEV_ORIGIN.slice(0, -1)).join(new URL(publicUrl).origin);
}

function ensureSlash(url) {
  return url.endsWith("/") ? url : `${url}/`;
}
